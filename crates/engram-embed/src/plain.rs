//! A shorter way through a BERT tokenizer for plain ASCII text.
//!
//! A BERT tokenizer normalises every text before it splits it: it cleans
//! control characters, decomposes to NFD to strip accents and lowercases,
//! tracking each character's alignment as it goes. On plain ASCII text
//! (printable characters, spaces, tabs and line breaks) all of that comes
//! down to lowercasing, which keeps every byte where it was. What follows
//! normalising is simple on such text too: BERT's pre-tokenizer splits at
//! whitespace and around punctuation, and WordPiece takes the longest
//! piece of the vocabulary at each point of a word. The library does this
//! through a string, an offset map and a token value for every piece (and
//! an allocation for every continuation it looks up); here each word is
//! looked up in place. Measured during ingest, the library's way was
//! 0.6 µs a token even without the normaliser (this way: 0.02 µs), about
//! 2 % of all the CPU a one-chunk document costs, paid twice (by the
//! chunker and by the model's lane). The tokenizer's settings that change
//! what comes out (padding, truncation from the left) turn it off.
//!
//! Anything else goes through the full tokenizer: text with other
//! characters, text that holds a special token's spelling (`[CLS]`, which
//! the tokenizer matches before normalising), and tokenizers that are not
//! BERT's (another normaliser, pre-tokenizer or model; truncation from the
//! left). The tests hold the shortcut to the full tokenizer's ids and
//! offsets, with and without special tokens and truncation.

use std::collections::HashMap;
use tokenizers::models::ModelWrapper;
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::{Model, NormalizerWrapper, Tokenizer, TruncationDirection, TruncationStrategy};

/// A text's token ids and their byte offsets in it (`(0, 0)` for the
/// special tokens around it), as the tokenizer's encoding gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tokens {
    pub ids: Vec<u32>,
    pub offsets: Vec<(usize, usize)>,
}

/// A tokenizer with its plain-ASCII shortcut.
pub(crate) struct Tokenizers {
    full: Tokenizer,
    plain: Option<Plain>,
}

struct Plain {
    lowercase: bool,
    /// The added tokens' spellings: a text holding one takes the full path.
    added: Vec<String>,
    pieces: WordPieces,
}

/// BERT's pre-tokenizer and WordPiece over plain text.
struct WordPieces {
    /// Pieces that begin a word.
    starts: HashMap<String, u32>,
    /// Pieces that continue one, without the continuation prefix (`##`).
    continues: HashMap<String, u32>,
    unk: u32,
    max_chars: usize,
    /// The special tokens put before and after a text.
    before: Vec<u32>,
    after: Vec<u32>,
    /// The length a text is cut to on the right, if any.
    max_length: Option<usize>,
}

impl Tokenizers {
    pub(crate) fn new(full: Tokenizer) -> Self {
        let plain = Plain::of(&full);
        Self { full, plain }
    }

    /// The tokenizer's encoding of `text`, as [`Tokenizer::encode`] gives it.
    pub(crate) fn encode(&self, text: &str, special: bool) -> tokenizers::Result<Tokens> {
        if let Some(p) = self.plain.as_ref().filter(|_| is_plain(text)) {
            let input = if p.lowercase {
                std::borrow::Cow::Owned(text.to_ascii_lowercase())
            } else {
                std::borrow::Cow::Borrowed(text)
            };
            // an added token is matched before normalising, as spelt: in
            // the text as given, or (lowercased here) where a tokenizer
            // without the normaliser would find one the full one does not
            let spelt = |a: &String| text.contains(a.as_str()) || input.contains(a.as_str());
            if !p.added.iter().any(spelt) {
                return Ok(p.pieces.encode(&input, special));
            }
        }
        let e = self.full.encode(text, special)?;
        Ok(Tokens {
            ids: e.get_ids().to_vec(),
            offsets: e.get_offsets().to_vec(),
        })
    }

    /// Whether the shortcut is available at all (for tests).
    #[cfg(test)]
    pub(crate) fn has_shortcut(&self) -> bool {
        self.plain.is_some()
    }
}

impl Plain {
    /// The shortcut for `full`, if it is a BERT tokenizer.
    fn of(full: &Tokenizer) -> Option<Self> {
        let Some(NormalizerWrapper::BertNormalizer(n)) = full.get_normalizer() else {
            return None;
        };
        let Some(PreTokenizerWrapper::BertPreTokenizer(_)) = full.get_pre_tokenizer() else {
            return None;
        };
        let ModelWrapper::WordPiece(wp) = full.get_model() else {
            return None;
        };
        if full.get_padding().is_some() {
            return None;
        }
        let vocab = wp.get_vocab();
        let prefix = wp.continuing_subword_prefix.as_str();
        let mut starts = HashMap::with_capacity(vocab.len());
        let mut continues = HashMap::new();
        for (piece, id) in vocab.iter() {
            starts.insert(piece.clone(), *id);
            if let Some(rest) = piece.strip_prefix(prefix).filter(|_| !prefix.is_empty()) {
                continues.insert(rest.to_string(), *id);
            }
        }
        let unk = *vocab.get(&wp.unk_token)?;
        // the special tokens around a text: what encoding a probe with
        // them adds to encoding it without (uncut)
        let mut uncut = full.clone();
        uncut.with_truncation(None).ok()?;
        let probe = |special: bool| {
            uncut
                .encode("a", special)
                .ok()
                .map(|e| e.get_ids().to_vec())
        };
        let (bare, with) = (probe(false)?, probe(true)?);
        let at = (0..=with.len().checked_sub(bare.len())?)
            .find(|&i| with[i..i + bare.len()] == bare[..])?;
        let (before, after) = (with[..at].to_vec(), with[at + bare.len()..].to_vec());
        let max_length = match full.get_truncation() {
            None => None,
            Some(t)
                if t.direction == TruncationDirection::Right
                    && t.strategy != TruncationStrategy::OnlySecond
                    && t.max_length >= before.len() + after.len() =>
            {
                Some(t.max_length)
            }
            Some(_) => return None,
        };
        let added = full
            .get_added_tokens_decoder()
            .values()
            .map(|t| t.content.clone())
            .filter(|c| !c.is_empty())
            .collect();
        Some(Plain {
            lowercase: n.lowercase,
            added,
            pieces: WordPieces {
                starts,
                continues,
                unk,
                max_chars: wp.max_input_chars_per_word,
                before,
                after,
                max_length,
            },
        })
    }
}

impl WordPieces {
    /// Encode plain (already lowercased) text.
    fn encode(&self, text: &str, special: bool) -> Tokens {
        let mut ids = Vec::with_capacity(text.len() / 4 + 2);
        let mut offsets = Vec::with_capacity(text.len() / 4 + 2);
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            // a punctuation character is a word of its own; a word runs to
            // the next whitespace or punctuation
            let end = if b.is_ascii_punctuation() {
                i + 1
            } else {
                let n = bytes[i..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || c.is_ascii_punctuation());
                n.map_or(bytes.len(), |n| i + n)
            };
            self.word(text, i, end, &mut ids, &mut offsets);
            i = end;
        }
        let limit = match (self.max_length, special) {
            (Some(m), true) => Some(m - self.before.len() - self.after.len()),
            (Some(m), false) => Some(m),
            (None, _) => None,
        };
        if let Some(limit) = limit {
            ids.truncate(limit);
            offsets.truncate(limit);
        }
        if special {
            let n = self.before.len();
            ids.splice(0..0, self.before.iter().copied());
            offsets.splice(0..0, std::iter::repeat_n((0, 0), n));
            ids.extend(&self.after);
            offsets.extend(std::iter::repeat_n((0, 0), self.after.len()));
        }
        Tokens { ids, offsets }
    }

    /// WordPiece over the word `text[start..end]`: the longest piece of the
    /// vocabulary at each point; the whole word unknown when some point has
    /// none or it is too long.
    fn word(
        &self,
        text: &str,
        start: usize,
        end: usize,
        ids: &mut Vec<u32>,
        offsets: &mut Vec<(usize, usize)>,
    ) {
        let mark = ids.len();
        if end - start <= self.max_chars {
            let mut at = start;
            while at < end {
                let map = if at == start {
                    &self.starts
                } else {
                    &self.continues
                };
                let found = (at + 1..=end)
                    .rev()
                    .find_map(|e| map.get(&text[at..e]).map(|id| (e, *id)));
                let Some((e, id)) = found else {
                    break;
                };
                ids.push(id);
                offsets.push((at, e));
                at = e;
            }
            if at == end {
                return;
            }
        }
        ids.truncate(mark);
        offsets.truncate(mark);
        ids.push(self.unk);
        offsets.push((start, end));
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
            assert_eq!(fast.ids, full.get_ids(), "ids of {text:?}");
            assert_eq!(fast.offsets, full.get_offsets(), "offsets of {text:?}");
        }
    }

    /// The test tokenizer, cutting texts to `max` tokens.
    fn truncating(max: usize) -> Tokenizers {
        let mut t = tokenizer();
        t.with_truncation(Some(tokenizers::TruncationParams {
            max_length: max,
            ..Default::default()
        }))
        .unwrap();
        Tokenizers::new(t)
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

    #[test]
    fn truncated_text_encodes_as_the_full_tokenizer_does() {
        for max in [2, 3, 5, 8, 64] {
            let t = truncating(max);
            assert!(t.has_shortcut());
            same(&t, "The cat sat on the mat, unbelievably quickly!");
            same(&t, "a");
            same(&t, "");
        }
    }

    #[test]
    fn other_tokenizers_take_the_full_path() {
        // cut from the left: no shortcut
        let mut t = tokenizer();
        t.with_truncation(Some(tokenizers::TruncationParams {
            max_length: 6,
            direction: TruncationDirection::Left,
            ..Default::default()
        }))
        .unwrap();
        let t = Tokenizers::new(t);
        assert!(!t.has_shortcut());
        same(&t, "The cat sat on the mat, unbelievably quickly!");
        // padding: no shortcut
        let mut t = tokenizer();
        t.with_padding(Some(tokenizers::PaddingParams::default()));
        assert!(!Tokenizers::new(t).has_shortcut());
        // another pre-tokenizer: no shortcut
        let mut t = tokenizer();
        t.with_pre_tokenizer(Some(tokenizers::pre_tokenizers::whitespace::Whitespace {}));
        assert!(!Tokenizers::new(t).has_shortcut());
    }

    proptest! {
        #[test]
        fn any_ascii_encodes_as_the_full_tokenizer_does(text in "[ -~\t\n\r]{0,80}") {
            let t = Tokenizers::new(tokenizer());
            same(&t, &text);
        }

        #[test]
        fn any_ascii_truncates_as_the_full_tokenizer_does(
            text in "[ -~\t\n\r]{0,80}",
            max in 2usize..20,
        ) {
            same(&truncating(max), &text);
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
            same(&truncating(9), &words.join(" "));
        }
    }
}
