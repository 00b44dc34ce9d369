//! Predicates that say nothing in particular although they have a verb and
//! a subject: an activity going on with nothing said about it ("Nate was
//! competing"), a period had with nothing in it ("John had a wild week").
//! [`super::shape::problem`] refuses facts these describe; this module only
//! recognises them and changes no text.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};
use super::shape::{content, Words, EMPTY_VERBS, FUNCTION};

/// Verbs whose going on is news by itself ("Tim is retiring").
const LIFE_EVENTS: Words = Words(
    "retire graduate move marry divorce resign quit relocate emigrate wed \
     propose adopt",
);

/// Forms of "be", "have", "do" and "will" (with their contractions) that
/// stand before a predicate's verb. Not [`super::lexicon::AUXILIARIES`]:
/// that list has no contractions, and it has negations ("isn't") that
/// must stop the skip here, or "Nate isn't competing" would count as
/// an activity going on.
const BEFORE_VERB: Words = Words(
    "is are was were be been being am 's 're has have had do does did will \
     would 'll 'd",
);

/// An activity going on or done as a habit, with nothing said about it:
/// "Nate was competing", "John practices", "Tim is plowing through". A
/// finished event stands alone ("Caroline graduated"), and so does a
/// change of life ("Tim is retiring").
pub(super) fn bare_activity(pred: &[&str], subject: &str) -> bool {
    let mut rest = pred.iter().skip_while(|w| {
        let b = bare(w);
        BEFORE_VERB.contains(&b.as_str()) || b.ends_with("ly") || FUNCTION.contains(&b.as_str())
    });
    let Some(main) = rest.next() else {
        return false;
    };
    let ongoing = verb(&bare(main)).is_some_and(|(base, form)| {
        matches!(form, VerbForm::Gerund | VerbForm::Third)
            && !EMPTY_VERBS.contains(&base)
            && !LIFE_EVENTS.contains(&base)
    });
    ongoing && !rest.any(|w| content(w, subject))
}

/// Nouns of a stretch of time or an experience ("had a wild week").
const PERIODS: Words = Words("week weekend day month year time night morning ride summer");

/// A period had, with nothing said of it: "John had a wild week", "had a
/// great time". What made it so is the fact, when it is said.
pub(super) fn empty_period(pred: &[&str]) -> bool {
    let Some(first) = pred.first() else {
        return false;
    };
    if !matches!(bare(first).as_str(), "had" | "has" | "have") {
        return false;
    }
    let rest: Vec<String> = pred[1..].iter().map(|w| bare(w)).collect();
    matches!(rest.first().map(String::as_str), Some("a" | "an"))
        && (2..=4).contains(&rest.len())
        && rest.last().is_some_and(|w| PERIODS.contains(&w.as_str()))
}
