//! How the chunker sees text: as a sequence of tokens with byte offsets.
//!
//! The embedding crate implements [`TokenCounter`] with the model's own
//! tokenizer; providers without a local tokenizer use [`ApproxTokenCounter`].

/// Splits text into tokens, reporting each token's byte range in the input.
pub trait TokenCounter: Send + Sync {
    /// Byte ranges `(start, end)` of each token of `text`, in order, without
    /// special tokens.
    fn token_offsets(&self, text: &str) -> Vec<(usize, usize)>;

    /// Number of tokens of `text`, without special tokens.
    fn count(&self, text: &str) -> usize {
        self.token_offsets(text).len()
    }
}

/// A tokenizer-free approximation: words and punctuation marks, with long
/// words counted as one token per four bytes (roughly what subword
/// tokenizers do to English).
#[derive(Debug, Default, Clone, Copy)]
pub struct ApproxTokenCounter;

impl TokenCounter for ApproxTokenCounter {
    fn token_offsets(&self, text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut word_start: Option<usize> = None;
        let flush = |start: usize, end: usize, out: &mut Vec<(usize, usize)>| {
            let mut s = start;
            while s < end {
                let mut e = (s + 6).min(end);
                while !text.is_char_boundary(e) {
                    e += 1;
                }
                out.push((s, e));
                s = e;
            }
        };
        for (i, c) in text.char_indices() {
            if c.is_alphanumeric() {
                if word_start.is_none() {
                    word_start = Some(i);
                }
                continue;
            }
            if let Some(s) = word_start.take() {
                flush(s, i, &mut out);
            }
            if !c.is_whitespace() {
                out.push((i, i + c.len_utf8()));
            }
        }
        if let Some(s) = word_start {
            flush(s, text.len(), &mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_counts_words_and_punctuation() {
        let t = ApproxTokenCounter;
        assert_eq!(t.count("Hello, world!"), 4);
        assert_eq!(t.count(""), 0);
        // long words split into pieces of at most six bytes
        assert_eq!(t.count("internationalization"), 4);
        for (s, e) in t.token_offsets("héllo wörld ünïcode") {
            assert!(s < e);
        }
    }
}
