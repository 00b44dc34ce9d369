//! What a progressive question asks is going on ("what is Ana reading
//! now?": "reading"), and whether a memory says that doing is under way
//! ("Ana is reading Piranesi"), not done ("finished reading") or planned
//! ("plans to read"). Also whether a question asks which work or make
//! ("what book is Tim reading?", "what bike does Sol have?") and a
//! memory names one. For [`super::Asked`]; reads words only.

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

/// Kinds of things a question may ask the name of: works by their
/// title, and things bought or followed by their make or name.
const NAMED_KINDS: &[&str] = &[
    "book",
    "novel",
    "show",
    "series",
    "film",
    "movie",
    "game",
    "album",
    "song",
    "podcast",
    "play",
    "musical",
    "band",
    "car",
    "bike",
    "phone",
    "laptop",
    "guitar",
    "camera",
    "brand",
    "team",
    "club",
    "restaurant",
];

/// Whether `question` asks which work someone reads, watches or plays,
/// or which make they have: "what book is Tim reading?", "which show did
/// Ana binge?", "what bike does Sol have?".
pub(super) fn asks_title(question: &str) -> bool {
    let q: Vec<String> = question
        .split_whitespace()
        .take(3)
        .map(crate::offline::clauses::bare)
        .collect();
    matches!(
        q.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
        ["what" | "which", kind, "is" | "are" | "was" | "did" | "does" | "do"] if NAMED_KINDS.contains(kind)
    )
}

/// The question's words, read once, that a title must not merely repeat.
pub(super) fn said_words(question: &str) -> Vec<String> {
    question
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect()
}

/// Whether `memory` names a title the question does not already say
/// (a capitalised word past its first, not one of the question's words,
/// `said`): "... is The Name of the Wind by Patrick Rothfuss".
pub(super) fn names_title(memory: &str, said: &[String]) -> bool {
    memory.split_whitespace().skip(1).any(|w| {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        let core = core.strip_suffix("'s").unwrap_or(core);
        core.starts_with(char::is_uppercase) && !said.contains(&core.to_lowercase())
    })
}
