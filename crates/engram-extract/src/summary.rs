//! A short extractive summary: the leading sentences, up to a character
//! budget. (An LLM-written summary replaces it when one is configured.)

use crate::sentences::split_sentences;

/// Characters a summary aims at.
pub const SUMMARY_CHARS: usize = 280;

/// The first sentences of `text` that fit in [`SUMMARY_CHARS`] (at least one,
/// clipped).
pub fn lead_summary(text: &str) -> Option<String> {
    let mut out = String::new();
    for (s, e) in split_sentences(text, 0, text.len()) {
        let sentence = text[s..e].split_whitespace().collect::<Vec<_>>().join(" ");
        if sentence.is_empty() || sentence.starts_with('#') {
            continue; // markdown headings are titles, not summary
        }
        if out.is_empty() {
            out = crate::clip(&sentence, SUMMARY_CHARS);
            continue;
        }
        if out.chars().count() + 1 + sentence.chars().count() > SUMMARY_CHARS {
            break;
        }
        out.push(' ');
        out.push_str(&sentence);
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_sentences_within_budget() {
        assert_eq!(
            lead_summary("One. Two.\nThree.").as_deref(),
            Some("One. Two. Three.")
        );
        let long = format!("{}. Next.", "word ".repeat(100));
        let s = lead_summary(&long).unwrap();
        assert!(s.chars().count() <= SUMMARY_CHARS + 1);
        assert!(lead_summary("  ").is_none());
        assert_eq!(
            lead_summary("# Title\n\nBody text.").as_deref(),
            Some("Body text.")
        );
    }
}
