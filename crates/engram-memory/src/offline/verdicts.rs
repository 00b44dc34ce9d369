//! Verdicts said in a fact's shape: how something will turn out ("their
//! studio will be a huge success", "will rock the dance floor") and how
//! someone feels in an idiom ("is on fire", "is over the moon"). They
//! state no fact of their own; [`super::shape`] drops them. Reads words
//! only.

use super::clauses::bare;
use super::words::EVALUATIVE;

/// Idioms of how someone feels, said after "is" with nothing more: "is on
/// fire", "is over the moon" (with a reason after them, the reason is
/// the fact).
pub(super) fn feeling_idiom(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let rest = match words.first().map(String::as_str) {
        Some("is" | "was" | "am" | "'m" | "feels" | "felt") => &words[1..],
        _ => return false,
    };
    let rest: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "so" | "totally" | "just" | "really" | "absolutely"))
        .collect();
    matches!(
        rest.as_slice(),
        ["on", "fire"]
            | ["on", "cloud", "nine"]
            | ["over", "the", "moon"]
            | ["on", "top", "of", "the", "world"]
            | ["in", "seventh", "heaven"]
            | ["on", "a", "roll"]
    )
}

/// Verbs that say how well something will go, and nothing of what:
/// "will rock", "will crush it", "will nail it", "will smash it".
const HYPE: &[&str] = &["rock", "crush", "nail", "smash", "slay", "ace", "kill"];

/// A forecast of how something will turn out: "their studio will be a
/// huge success", "Gina's store is gonna be amazing". Encouragement, not a
/// fact, whoever it is about.
pub(super) fn forecast(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let future = |i: usize| {
        matches!(words[i].as_str(), "will" | "gonna" | "'ll")
            || (words[i] == "going" && words.get(i + 1).is_some_and(|t| t == "to"))
    };
    // "will rock the dance floor", "is gonna crush it": a verdict in a verb
    let hyped = |i: usize| {
        future(i)
            && words[i + 1..]
                .iter()
                .find(|w| !matches!(w.as_str(), "to" | "definitely" | "surely" | "totally"))
                .is_some_and(|w| HYPE.contains(&w.as_str()))
    };
    (0..words.len()).any(|i| {
        if hyped(i) {
            return true;
        }
        let mut after = words[i + 1..]
            .iter()
            .skip_while(|w| matches!(w.as_str(), "to" | "definitely" | "surely" | "totally"));
        // "will be (a huge) success", "is gonna be (so) amazing": what
        // comes after "be" is the verdict
        future(i)
            && after.next().is_some_and(|w| w == "be")
            && after
                .find(|w| {
                    !matches!(
                        w.as_str(),
                        "a" | "an" | "so" | "such" | "super" | "really" | "very" | "huge" | "big"
                    )
                })
                .is_some_and(|w| {
                    EVALUATIVE.contains(&w.as_str()) || matches!(w.as_str(), "success" | "hit")
                })
    })
}
