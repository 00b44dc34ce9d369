//! What someone does for work ("what does Dev do?"), and whether a memory
//! names an occupation ("is a nurse"); where someone works ("where does
//! Jo work?", "who does Ana work for?", "where does Ike teach?"), and
//! whether a memory names a workplace: an employer its wording gives
//! ("works at Monzo", "a teacher at Hillside Primary") or a named place
//! someone is still or now at ("Jo is still at Monzo"). For
//! [`super::Asked`]; reads words only.

/// Whether `question` asks what someone does for a living: "what does X
/// do (for work / for a living)?", "what is X's job / occupation?".
pub(super) fn asks_job(question: &str) -> bool {
    let q = super::bare_question(question);
    let words: Vec<&str> = q.split_whitespace().collect();
    let does = matches!(words.as_slice(), ["what", "does" | "do", .., "do"])
        || q.ends_with(" do for work")
        || q.ends_with(" do for a living");
    let job = words.first() == Some(&"what")
        && words
            .last()
            .is_some_and(|w| matches!(*w, "job" | "occupation" | "profession"));
    (does && words.first() == Some(&"what")) || job
}

/// Whether `memory` names an occupation: "is a nurse", "works as a
/// teacher", "is an ICU nurse".
pub(super) fn names_occupation(memory: &str) -> bool {
    let words: Vec<String> = memory
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    // ("got promoted to head of marketing", "is head of design")
    let role = words.windows(3).any(|p| {
        (matches!(p[0].as_str(), "promoted" | "appointed") && matches!(p[1].as_str(), "to" | "as"))
            || (matches!(p[0].as_str(), "is" | "as" | "was" | "to")
                && matches!(p[1].as_str(), "head" | "director" | "chief")
                && p[2] == "of")
    });
    // ("is starting a postdoc at the Crick": the job its wording gives)
    let slot = super::super::slots(memory)
        .iter()
        .any(|(slot, _, value)| slot == "occupation" && value != "none");
    slot || role
        || words.windows(2).enumerate().any(|(i, p)| {
            matches!(p[0].as_str(), "is" | "as" | "was")
                && matches!(p[1].as_str(), "a" | "an")
                && words[i + 2..]
                    .iter()
                    .take(3)
                    .any(|w| crate::offline::lexicon::is_occupation(w))
        })
}

/// Whether `memory` places something near or on the way to work ("a
/// gym near work", "a café by the office"): a place, but not the
/// workplace a question about where someone works asks for.
pub(super) fn says_work_near(memory: &str) -> bool {
    let m = memory.to_lowercase();
    [
        "near", "by", "next to", "close to", "around", "after", "before",
    ]
    .iter()
    .any(|p| {
        ["work", "the office", "my office", "their office"]
            .iter()
            .any(|w| m.contains(&format!(" {p} {w}")))
    })
}

/// Whether `question` asks where someone works.
pub(super) fn asks_workplace(question: &str) -> bool {
    let q = super::bare_question(question);
    let words: Vec<&str> = q.split_whitespace().collect();
    let last = words.last().copied().unwrap_or("");
    // ("where does Lucia like to eat near work?": a place near it)
    let near = words.len() >= 2
        && matches!(
            words[words.len() - 2],
            "near" | "by" | "after" | "before" | "from" | "to" | "around"
        );
    match words.first() {
        Some(&"where") => !near && matches!(last, "work" | "working" | "teach" | "teaching"),
        Some(&("who" | "which")) => {
            last == "for" && words.iter().any(|w| matches!(*w, "work" | "working"))
        }
        _ => false,
    }
}

/// Whether `memory` names where someone works.
pub(super) fn names_workplace(memory: &str) -> bool {
    let employed = super::super::slots(memory)
        .iter()
        .any(|(slot, _, value)| slot == "employer" && value != "none");
    let words: Vec<&str> = memory.split_whitespace().collect();
    // "Jo is still at Monzo", "Ana is now at Stripe"
    let at_named = words.windows(4).any(|w| {
        w[0] == "is"
            && matches!(w[1], "still" | "now")
            && w[2] == "at"
            && w[3].starts_with(char::is_uppercase)
    });
    // "moving to berlin for a new job at zalando"
    let m = memory.to_lowercase();
    let job_at = [
        " job at ",
        " job with ",
        " role at ",
        " position at ",
        " internship at ",
    ]
    .iter()
    .any(|p| m.contains(p));
    employed || at_named || job_at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workplaces_asked_and_told() {
        assert!(asks_workplace("where does Jo work?"));
        assert!(asks_workplace("Where does Ike teach?"));
        assert!(asks_workplace("who does Ana work for?"));
        assert!(!asks_workplace("where does Jo live?"));
        assert!(!asks_workplace("what does Jo do for work?"));
        assert!(names_workplace("Jo is still at Monzo."));
        assert!(names_workplace(
            "Jay is moving to berlin in April 2025 for a new job at zalando."
        ));
        assert!(names_workplace("Ana works at Stripe as a designer."));
        assert!(names_workplace(
            "Ike is a teacher at Hillside Primary, year 4."
        ));
        assert!(!names_workplace("Jo got promoted to senior engineer."));
        assert!(!names_workplace("Ike has been teaching for about 8 years."));
    }
}
