//! What a progressive question asks is going on ("what is Ana reading
//! now?": "reading"), and whether a memory says that doing is under way
//! ("Ana is reading Piranesi"), not done ("finished reading") or planned
//! ("plans to read"). For [`super::Asked`]; reads words only.

/// The doing a progressive question asks about: "what is Ana reading
/// (now)?" -> "reading"; `None` for other questions.
pub(super) fn going_on(question: &str) -> Option<String> {
    use crate::offline::lexicon::{verb, VerbForm};
    let q: Vec<String> = question
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    if !matches!(q.first()?.as_str(), "what" | "which") {
        return None;
    }
    let be = q
        .iter()
        .position(|w| matches!(w.as_str(), "is" | "are"))
        .filter(|&b| b <= 2)?;
    q[be + 1..]
        .iter()
        .take(4)
        .find(|w| matches!(verb(w), Some((_, VerbForm::Gerund))))
        .filter(|g| !matches!(g.as_str(), "going" | "doing" | "happening"))
        .cloned()
}

/// Whether `memory` says the doing goes on ("Ana is reading Piranesi"),
/// not that it was done or is planned.
pub(super) fn says_going_on(memory: &str, gerund: &str) -> bool {
    let m = crate::relate::slots::normalise(memory);
    [" is ", " are ", " am ", "'s ", "'re ", "'m "]
        .iter()
        .any(|be| {
            m.contains(&format!("{be}{gerund} ")) || m.contains(&format!("{be}currently {gerund} "))
        })
}
