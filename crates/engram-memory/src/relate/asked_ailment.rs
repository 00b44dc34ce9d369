//! What is wrong with someone ("what's wrong with Rosa's back?", "what
//! did the doctor say Leo has?"), and whether a memory names a condition:
//! "has a slipped disc", "was diagnosed with type 1 diabetes", "has
//! tendonitis". For [`super::Asked`]; reads words only.

/// Whether `question` asks what is wrong with someone or what they have.
pub(super) fn asks_ailment(question: &str) -> bool {
    let q = super::bare_question(question);
    [
        "what's wrong with ",
        "what is wrong with ",
        "what's the matter with ",
        "what is the matter with ",
        "what condition does ",
        "what illness does ",
        "what injury does ",
        "what was wrong with ",
    ]
    .iter()
    .any(|o| q.starts_with(o))
        || (q.starts_with("what did the ") && q.contains(" say ") && q.ends_with(" has"))
}

/// Whether `memory` names a condition someone has or was diagnosed with.
pub(super) fn names_ailment(memory: &str) -> bool {
    let words: Vec<String> = memory
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    (0..words.len()).any(|i| {
        let w = |k: usize| words.get(i + k).map(String::as_str).unwrap_or("");
        let has = matches!(w(0), "has" | "had");
        let named =
            matches!(w(1), "a" | "an") && !matches!(w(2), "" | "new" | "great" | "good" | "lot");
        // ("has patellar tendinitis": a word that says where, then it)
        let condition = crate::offline::lexicon::condition_by_ending(w(1))
            || crate::offline::lexicon::condition_by_ending(w(2));
        (has && (named || condition)) || (w(0) == "diagnosed" && w(1) == "with")
    })
}

#[cfg(test)]
mod tests {
    use super::{asks_ailment, names_ailment};

    #[test]
    fn what_is_wrong_and_the_memory_that_names_it() {
        assert!(asks_ailment("what's wrong with Rosa's back?"));
        assert!(asks_ailment("What is the matter with Leo?"));
        assert!(!asks_ailment("what's Rosa's back like?"));
        assert!(names_ailment("Rosa has a slipped disc in Rosa's back."));
        assert!(names_ailment(
            "Oli was diagnosed with type 1 diabetes when Oli was 12."
        ));
        assert!(names_ailment("Rosa has tendonitis."));
        assert!(names_ailment(
            "Omar's physio thinks Omar has patellar tendinitis in Omar's knee."
        ));
        assert!(!names_ailment("Rosa's back has been hurting."));
        assert!(!names_ailment("Rosa has a new job."));
    }
}
