//! Whose fact answers a question about someone: "where does Mei live?"
//! asks where Mei herself lives, and "Mei's boyfriend Jonas lives in
//! Munich" says where someone of hers does, which answers it worse than
//! any fact of her own. Only for the attributes one holds for oneself
//! (where one lives, works, what one does): a fact of someone's people
//! often is theirs too ("Mei's colleague Rob invited Mei to yoga").
//! A question that itself speaks of someone's people ("where do Mei's
//! parents live?", "what do her kids like?") asks of them, and is left
//! alone. Reads words only.

use crate::offline::clauses::bare;
use crate::offline::lexicon::PERSON_NOUNS;

/// The one person a question asks about by name alone ("where does Mei
/// live?": "mei"), lowercased; `None` when it names no one, more than
/// one, or speaks of anyone's people.
pub(super) fn asked_person(question: &str) -> Option<String> {
    let words: Vec<&str> = question.split_whitespace().collect();
    let people = words.iter().any(|w| {
        let b = bare(w);
        PERSON_NOUNS.iter().any(|(n, _)| *n == b)
            || matches!(b.as_str(), "his" | "her" | "their" | "partner" | "family")
            || w.trim_end_matches(['?', '.', ',']).ends_with("'s")
    });
    let names: Vec<String> = words
        .iter()
        .skip(1)
        .filter(|w| crate::offline::is_name_word(w))
        .map(|w| bare(w))
        .collect();
    match names.as_slice() {
        [one] if !people => Some(one.clone()),
        _ => None,
    }
}

/// The attribute a question asks of someone (a slot of
/// [`super::slots`]): "where does Mei live?" asks "home".
pub(super) fn asked_slot(question: &str) -> Option<&'static str> {
    let q: Vec<String> = question.split_whitespace().map(bare).collect();
    let has = |w: &str| q.iter().any(|x| x == w);
    if has("where") && (has("live") || has("living") || has("based")) {
        Some("home")
    } else if (has("where") || has("who")) && (has("work") || has("working")) {
        Some("employer")
    } else if has("job") || (has("what") && has("do") && (has("living") || has("work"))) {
        Some("occupation")
    } else {
        None
    }
}

/// Whether `memory` opens with one of `person`'s people ("Mei's boyfriend
/// Jonas ...", "Mei's kids ...") and states `slot` of them: their
/// attribute, not `person`'s own.
pub(super) fn of_their_people(memory: &str, person: &str, slot: &str) -> bool {
    opens_with_their_people(memory, person)
        && super::slots(memory).iter().any(|(s, _, _)| s == slot)
}

/// The doing a question asks of one person by name ("what car does Marta
/// drive?": "drive"), as a base verb; `None` for other questions.
pub(super) fn asked_doing(question: &str) -> Option<&'static str> {
    use crate::offline::lexicon::{verb, VerbForm};
    let q: Vec<String> = question.split_whitespace().map(bare).collect();
    if !matches!(q.first()?.as_str(), "what" | "which") {
        return None;
    }
    let aux = q
        .iter()
        .position(|w| matches!(w.as_str(), "does" | "did" | "do"))
        .filter(|&a| a <= 2)?;
    // the name, then the verb ("does Marta drive")
    let v = q.get(aux + 2)?;
    match verb(v) {
        Some((base, VerbForm::Base))
            if !matches!(base, "do" | "have" | "like" | "think" | "say") =>
        {
            Some(base)
        }
        _ => None,
    }
}

/// Whether `memory` opens with one of `person`'s people and says nothing
/// of `doing`: "Marta's partner Jonas wants an electric car" does not say
/// what car Marta drives.
pub(super) fn not_their_doing(memory: &str, person: &str, doing: &str) -> bool {
    use crate::offline::lexicon::verb;
    opens_with_their_people(memory, person)
        && !memory
            .split_whitespace()
            .any(|w| verb(&bare(w)).is_some_and(|(b, _)| b == doing))
}

/// Whether `memory` opens with one of `person`'s people ("Mei's boyfriend
/// Jonas ...", "Mei's kids ..."), not the two of them together.
fn opens_with_their_people(memory: &str, person: &str) -> bool {
    let mut words = memory.split_whitespace();
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return false;
    };
    let whose = first
        .strip_suffix("'s")
        .is_some_and(|n| n.eq_ignore_ascii_case(person));
    let noun = bare(second);
    // ("Mei's new boyfriend", "Mei's little sister")
    let noun = if matches!(
        noun.as_str(),
        "new" | "little" | "older" | "younger" | "big" | "best"
    ) {
        words.next().map(bare).unwrap_or_default()
    } else {
        noun
    };
    // ("Mei's boyfriend and Mei ...", "Mei's sister Ana and Mei ...": the
    // two of them together, hers too)
    let rest: Vec<String> = words.take(2).map(bare).collect();
    let together =
        rest.first().is_some_and(|w| w == "and") || (rest.get(1).is_some_and(|w| w == "and"));
    // (the words first: reading the memory's attributes costs more, and
    // this runs on every memory a search found)
    whose && !together && PERSON_NOUNS.iter().any(|(n, _)| *n == noun)
}

#[cfg(test)]
mod tests {
    use super::{asked_doing, asked_person, not_their_doing, of_their_people};

    #[test]
    fn a_doing_of_someones_people_is_theirs() {
        assert_eq!(asked_doing("what car does Marta drive?"), Some("drive"));
        assert_eq!(asked_doing("which instrument does Leo play?"), Some("play"));
        assert_eq!(asked_doing("what does Marta like?"), None);
        assert_eq!(asked_doing("where does Marta drive?"), None);
        let not = |m: &str| not_their_doing(m, "marta", "drive");
        assert!(not("Marta's partner Jonas wants an electric car."));
        assert!(!not("Marta's partner Jonas drives a Tesla."));
        assert!(!not("Marta drives a Tesla Model 3."));
        assert!(!not("Marta's partner and Marta drive to work."));
    }

    #[test]
    fn a_fact_of_someones_people_is_theirs() {
        assert_eq!(asked_person("where does Mei live?").as_deref(), Some("mei"));
        assert_eq!(asked_person("where do Mei's parents live?"), None);
        assert_eq!(asked_person("what do Mei and Jonas like?"), None);
        assert_eq!(asked_person("what does Mei do with her kids?"), None);
        assert_eq!(super::asked_slot("where does Mei live?"), Some("home"));
        assert_eq!(super::asked_slot("where did Mei camp?"), None);
        let of = |m: &str| of_their_people(m, "mei", "home");
        assert!(of("Mei's boyfriend Jonas lives in Munich."));
        assert!(of("Mei's little sister lives in Graz."));
        assert!(!of("Mei's little sister is a nurse."));
        assert!(!of("Mei's wife and Mei live in Graz."));
        assert!(!of("Jonas's sister lives in Graz."));
    }
}
