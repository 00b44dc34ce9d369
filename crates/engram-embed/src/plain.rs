//! A shorter way through a BERT tokenizer for plain ASCII text.
//!
//! A BERT tokenizer normalises every text before it splits it: it cleans
//! control characters, decomposes to NFD to strip accents and lowercases,
//! tracking each character's alignment as it goes. On plain ASCII text
//! (printable characters, spaces, tabs and line breaks) all of that comes
//! down to lowercasing, which keeps every byte where it was: the same
//! tokenizer without its normaliser, given the lowercased text, yields the
//! same ids and the same byte offsets. Measured during ingest, the
//! normalisation was most of the tokenizer's time, and tokenising was a
//! third of the CPU the chunker and pipeline spend outside the model.
//!
//! Anything else goes through the full tokenizer: text with other
//! characters, text that holds a special token's spelling (`[CLS]`, which
//! the tokenizer matches before normalising), and tokenizers whose
//! normaliser is not BERT's.

use tokenizers::{Encoding, NormalizerWrapper, Tokenizer};

/// A tokenizer with its plain-ASCII shortcut.
pub(crate) struct Tokenizers {
    full: Tokenizer,
    plain: Option<Plain>,
}

struct Plain {
    /// The same tokenizer without its normaliser.
    bare: Tokenizer,
    lowercase: bool,
    /// The added tokens' spellings: a text holding one takes the full path.
    added: Vec<String>,
}

impl Tokenizers {
    pub(crate) fn new(full: Tokenizer) -> Self {
        let plain = match full.get_normalizer() {
            Some(NormalizerWrapper::BertNormalizer(n)) => {
                let mut bare = full.clone();
                if bare.with_normalizer(None::<NormalizerWrapper>).is_err() {
                    return Self { full, plain: None };
                }
                let added = full
                    .get_added_tokens_decoder()
                    .values()
                    .map(|t| t.content.clone())
                    .filter(|c| !c.is_empty())
                    .collect();
                Some(Plain {
                    bare,
                    lowercase: n.lowercase,
                    added,
                })
            }
            _ => None,
        };
        Self { full, plain }
    }

    /// The tokenizer's encoding of `text`, as [`Tokenizer::encode`] gives it.
    pub(crate) fn encode(&self, text: &str, special: bool) -> tokenizers::Result<Encoding> {
        let Some(p) = self.plain.as_ref().filter(|_| is_plain(text)) else {
            return self.full.encode(text, special);
        };
        let input = if p.lowercase {
            std::borrow::Cow::Owned(text.to_ascii_lowercase())
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        // an added token is matched before normalising, as spelt: in the
        // text as given, or (lowercased here) where the bare tokenizer
        // would now find one that the full one would not
        let spelt = |a: &String| text.contains(a.as_str()) || input.contains(a.as_str());
        if p.added.iter().any(spelt) {
            return self.full.encode(text, special);
        }
        p.bare.encode(input.as_ref(), special)
    }

    /// Whether the shortcut is available at all (for tests).
    #[cfg(test)]
    pub(crate) fn has_shortcut(&self) -> bool {
        self.plain.is_some()
    }
}

/// Printable ASCII, spaces, tabs and line breaks only: the text BERT's
/// normaliser changes only by lowercasing.
fn is_plain(text: &str) -> bool {
    text.bytes()
        .all(|b| (0x20..0x7f).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A small BERT tokenizer: BERT's normaliser and pre-tokenizer, a
    /// WordPiece vocabulary with continuations and special tokens.
    fn tokenizer() -> Tokenizer {
        let mut vocab = serde_json::Map::new();
        let words = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "un",
            "##believ", "##able", "##s", "##ing", "run", "a", "b", "c", "1", "2", "##1", ".", ",",
            "!", "?", "'", "-", "(", ")", "\"", "caf", "##e", "hello", "world", "##ly", "quick",
            "<s>",
        ];
        for (i, w) in words.iter().enumerate() {
            vocab.insert((*w).to_string(), serde_json::json!(i));
        }
        let added: Vec<serde_json::Value> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<s>"]
            .iter()
            .map(|t| {
                let id = words.iter().position(|w| w == t).unwrap();
                serde_json::json!({
                    "id": id, "content": t, "single_word": false, "lstrip": false,
                    "rstrip": false, "normalized": false, "special": true
                })
            })
            .collect();
        let json = serde_json::json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": added,
            "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                           "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": {"type": "TemplateProcessing",
                "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
                "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
                "special_tokens": {
                    "[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                    "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}
                }},
            "decoder": null,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 12, "vocab": vocab}
        });
        Tokenizer::from_bytes(serde_json::to_vec(&json).unwrap()).unwrap()
    }

    fn same(t: &Tokenizers, text: &str) {
        for special in [false, true] {
            let fast = t.encode(text, special).unwrap();
            let full = t.full.encode(text, special).unwrap();
            assert_eq!(fast.get_ids(), full.get_ids(), "ids of {text:?}");
            assert_eq!(
                fast.get_offsets(),
                full.get_offsets(),
                "offsets of {text:?}"
            );
        }
    }

    #[test]
    fn plain_text_encodes_as_the_full_tokenizer_does() {
        let t = Tokenizers::new(tokenizer());
        assert!(t.has_shortcut());
        for text in [
            "The cat sat on the mat.",
            "  UNBELIEVABLE cats,\trunning!\n\nhello (world) \"quick\"-ly 12 a1?",
            "Unbelievablyunbelievable: a word past the limit, and c'est",
            "[CLS] the [SEP] cat [MASK]",
            "[cls] lowercase spellings of specials",
            "<S> an uppercase spelling of a lowercase special, and <s> itself",
            "caf\u{e9} with an accent, and a bell \u{7} character",
            "",
            " \r\n ",
        ] {
            same(&t, text);
        }
    }

    proptest! {
        #[test]
        fn any_ascii_encodes_as_the_full_tokenizer_does(text in "[ -~\t\n\r]{0,80}") {
            let t = Tokenizers::new(tokenizer());
            same(&t, &text);
        }

        #[test]
        fn words_of_the_vocabulary_encode_as_the_full_tokenizer_does(
            words in prop::collection::vec(prop::sample::select(vec![
                "The", "cat", "SAT", "unbelievable", "runs", "running", "a1", "quickly", "Hello,",
                "world!", "(b)", "c-2", "\"mat\"", "x", "[CLS]", "[sep]", "\t", "\n", "<S>", "<s>",
            ]), 0..20)
        ) {
            let t = Tokenizers::new(tokenizer());
            same(&t, &words.join(" "));
        }
    }
}
