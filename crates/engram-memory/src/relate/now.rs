//! Whether a question asks how things are now ("what car does Jo
//! drive?", "where does Ana work?") rather than how they were or how they
//! ended ("what did Jo sell?", "does Ana still work there?", "why did she
//! quit?"). Search ranks memories of something over ("Jo sold their
//! Civic") below the ones that hold for such a question. Reads words only.

/// Words that ask about the past, a change or an ending.
const NOT_NOW: &[&str] = &[
    "did",
    "was",
    "were",
    "used",
    "still",
    "anymore",
    "longer",
    "ever",
    "why",
    "before",
    "previous",
    "previously",
    "former",
    "formerly",
    "last",
    "first",
    "stop",
    "stopped",
    "quit",
    "sell",
    "sold",
    "leave",
    "left",
    "give",
    "gave",
    "end",
    "ended",
    "lose",
    "lost",
    "had",
    "change",
    "changed",
    "happen",
    "happened",
    "history",
    "again",
];

/// Whether `question` asks how things are now: it asks in the present
/// ("does", "is", "are") and says nothing of the past or of an ending.
pub fn asks_about_now(question: &str) -> bool {
    let words: Vec<String> = question
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    let present = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "does" | "do" | "is" | "are" | "what's" | "where's" | "who's"
        )
    });
    present && !words.iter().any(|w| NOT_NOW.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::asks_about_now;

    #[test]
    fn questions_about_now() {
        for q in [
            "what car does Jo drive?",
            "Where does Ana work?",
            "what instrument does Luis play?",
            "who is Omar engaged to?",
            "how old is Theo?",
        ] {
            assert!(asks_about_now(q), "{q}");
        }
        for q in [
            "what did Jo sell?",
            "does Walter still work?",
            "why did Leo quit Google?",
            "Is Omar still with Lena?",
            "where did Maya live before?",
            "Jo's car",
        ] {
            assert!(!asks_about_now(q), "{q}");
        }
    }
}
