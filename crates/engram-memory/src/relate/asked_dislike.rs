//! What someone dislikes ("what food does Femi hate?", "what can't Ana
//! stand?"), and whether a memory says what they hate, dislike or cannot
//! stand ("Femi can't stand mushrooms"). For [`super::Asked`]; reads words
//! only.

/// Whether `question` asks what someone dislikes.
pub(super) fn asks_dislike(question: &str) -> bool {
    let q = super::bare_question(question);
    let words: Vec<&str> = q.split_whitespace().collect();
    if !matches!(words.first(), Some(&("what" | "which"))) {
        return false;
    }
    let last = words.last().copied().unwrap_or("");
    let negated = words.iter().any(|w| w.ends_with("n't") || *w == "not");
    matches!(last, "hate" | "dislike" | "detest" | "avoid")
        || (matches!(last, "like" | "stand" | "eat") && negated)
}

/// Whether `memory` says what someone hates, dislikes or cannot stand.
pub(super) fn states_dislike(memory: &str) -> bool {
    let m = format!(" {} ", memory.to_lowercase().replace('\u{2019}', "'"));
    [
        " hates ",
        " hate ",
        " dislikes ",
        " can't stand ",
        " cannot stand ",
        " doesn't like ",
        " doesn't want ",
        " detests ",
        " avoids ",
    ]
    .iter()
    .any(|p| m.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dislikes_asked_and_told() {
        assert!(asks_dislike("what food does Femi hate?"));
        assert!(asks_dislike("what can't Ana stand?"));
        assert!(asks_dislike("what doesn't Tom like?"));
        assert!(!asks_dislike("what does Femi like?"));
        assert!(states_dislike("Femi can't stand mushrooms."));
        assert!(states_dislike("Ines hates flying."));
        assert!(!states_dislike("Femi eats fish now and then."));
    }
}
