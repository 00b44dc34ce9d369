//! Text analysis for the keyword side: the same function turns documents
//! and queries into terms, so both sides always agree.
//!
//! Terms are lowercase alphanumeric runs, English stop words removed,
//! reduced by the Snowball English (Porter 2) stemmer. Nothing here knows
//! about documents or scoring.

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;

/// Longest word kept (longer runs are noise: hashes, base64, URLs).
const MAX_WORD: usize = 40;

/// English stop words (the usual list; they carry no topic).
/// ("now" is not one: in memories it marks what is current, "where does
/// she live now?")
pub const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

fn is_stop(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
}

/// Every term of `text`, in order, repeats kept.
pub fn terms(text: &str) -> Vec<String> {
    let stem = stemmer();
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() || word.chars().count() > MAX_WORD {
            continue;
        }
        let lower = word.to_lowercase();
        // contractions split on the apostrophe leave "s", "t", "ll"...: the
        // stop list and this length rule drop them
        if is_stop(&lower) || (lower.len() == 1 && !lower.as_bytes()[0].is_ascii_digit()) {
            continue;
        }
        out.push(stem.stem(&lower).into_owned());
    }
    out
}

/// The distinct terms of a query, in first-seen order, at most `max`.
pub fn query_terms(q: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in terms(q) {
        if !out.contains(&t) {
            out.push(t);
            if out.len() == max {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_list_is_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    fn check(input: &str, expect: &[&str]) {
        assert_eq!(terms(input), expect, "terms of {input:?}");
    }

    #[test]
    fn analysis() {
        check("The cats were running!", &["cat", "run"]);
        check(
            "I'm researching adoption agencies",
            &["research", "adopt", "agenc"],
        );
        check("Paris, 8 May 2023", &["pari", "8", "may", "2023"]);
        check("ÉCOLE Straße", &["école", "straße"]);
        check("the of and", &[]);
        check(&"x".repeat(41), &[]);
    }

    #[test]
    fn query_terms_are_distinct_and_capped() {
        assert_eq!(
            query_terms("limits LIMIT limited rate", 10),
            ["limit", "rate"]
        );
        assert_eq!(query_terms("alpha beta gamma", 2), ["alpha", "beta"]);
    }
}
