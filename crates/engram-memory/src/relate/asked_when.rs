//! When and where a question asks ("when does Jonas fly out?", "where is
//! Sam staying?", "where does Leo go to school?"), and whether a memory
//! holds a time or a place to answer it with; and what someone did ("what
//! did Raj cook?"), which a memory of a doing done answers: the part of
//! [`super`] that reads times, places and what is done. Reads words only.

use super::asks;

/// Whether `question` asks when: "when ...", "what time/date/day ...",
/// "which day/month/year ...".
pub(super) fn asks_when(question: &str) -> bool {
    asks(question, "when", &["time", "date", "day", "month", "year"])
}

/// Whether `memory` holds a time: a month, a day of the week or a year.
pub(super) fn holds_a_time(memory: &str) -> bool {
    memory.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        let year =
            w.len() == 4 && w.starts_with(['1', '2']) && w.chars().all(|c| c.is_ascii_digit());
        let capital = w.starts_with(char::is_uppercase);
        year || (capital && crate::offline::dates::names_a_day(w))
    })
}

/// Whether `question` asks what someone did: "what did Raj cook?".
pub(super) fn asks_done(question: &str) -> bool {
    let q = super::bare_question(question);
    let w: Vec<&str> = q.split_whitespace().collect();
    // ("what dish did Raj make?": a kind of thing first)
    let w = match w.as_slice() {
        ["what", "did", ..] => &w[1..],
        ["what", _, "did", ..] => &w[2..],
        _ => return false,
    };
    matches!(w, ["did", _, v] | ["did", _, _, v] if crate::offline::lexicon::verb(v).is_some())
}

/// The verb of a question that asks what someone does it to ("what does
/// Sam teach?": "teach"), as its base; not "do", which asks for a job, nor
/// a stance or a taste.
pub(super) fn object_asked(question: &str) -> Option<&'static str> {
    let q = super::bare_question(question);
    let w: Vec<&str> = q.split_whitespace().collect();
    let v = match w.as_slice() {
        ["what", "does" | "do", _, v]
        | ["what", "does" | "do", _, _, v]
        | ["what", _, "does" | "do", _, v] => *v,
        _ => return None,
    };
    let (base, _) = crate::offline::lexicon::verb(v)?;
    (!matches!(
        base,
        "do" | "be"
            | "have"
            | "think"
            | "want"
            | "need"
            | "mean"
            | "like"
            | "love"
            | "enjoy"
            | "say"
    ))
    .then_some(base)
}

/// Whether `memory` says what its subject does `base` to: a form of the
/// verb with an object after it ("Sam teaches maths"), not a time ("Sam
/// has been teaching for about 6 years").
pub(super) fn states_object(memory: &str, base: &str) -> bool {
    let w: Vec<String> = memory
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    w.iter().enumerate().any(|(i, x)| {
        crate::offline::lexicon::verb(x).is_some_and(|(b, _)| b == base)
            && w.get(i + 1).is_some_and(|n| {
                !matches!(
                    n.as_str(),
                    "for" | "since" | "every" | "again" | "now" | "lately" | "at" | "in" | "on"
                )
            })
    })
}

/// Whether `memory` tells of a doing done: a verb in the past among its
/// first words ("Raj made a Thai green curry on 3 March 2025"), not a
/// form of "be" or "have".
pub(super) fn tells_done(memory: &str) -> bool {
    use crate::offline::lexicon::{verb, VerbForm};
    memory.split_whitespace().take(8).any(|w| {
        let b = crate::offline::clauses::bare(w);
        !matches!(b.as_str(), "was" | "were" | "had" | "did" | "got" | "used")
            && matches!(verb(&b), Some((_, VerbForm::Past)))
    })
}

/// Whether `question` asks where: "where ...", "which city/country ...".
pub(super) fn asks_where(question: &str) -> bool {
    asks(question, "where", &["city", "country", "town", "place"])
}

/// Whether `question` asks where someone goes to school or studies
/// ("where does Leo go to school?", "which school is Leo at?"): a
/// question only a named place answers ("after school" names none).
pub(super) fn asks_school(question: &str) -> bool {
    let q: Vec<String> = question
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    let school = q.iter().any(|w| {
        matches!(
            w.as_str(),
            "school" | "study" | "studying" | "college" | "university" | "uni"
        )
    });
    school
        && (asks(
            question,
            "where",
            &["school", "college", "university", "uni"],
        ) || q.first().is_some_and(|w| w == "which"))
}

/// Whether `memory` names a place: after "in", "at", "to", "from" or
/// "near", a capitalised word that is no month or day ("staying ... in
/// Delft") or a place in common words ("in the psych lab", "at a bubble
/// tea shop"; not "in the week of ...").
pub(super) fn holds_a_place(memory: &str) -> bool {
    use crate::offline::clauses::bare;
    let words: Vec<&str> = memory.split_whitespace().collect();
    // "Ella's school is St Anne's": a school named is where
    if words.windows(3).any(|p| {
        matches!(
            bare(p[0]).as_str(),
            "school" | "college" | "university" | "nursery"
        ) && bare(p[1]) == "is"
            && p[2].starts_with(char::is_uppercase)
    }) {
        return true;
    }
    // ("got into Edinburgh": a place one is admitted to)
    let prep = |w: &str| {
        matches!(
            bare(w).as_str(),
            "in" | "at" | "to" | "from" | "near" | "into"
        )
    };
    let named = words.windows(2).any(|p| {
        let w = p[1].trim_matches(|c: char| !c.is_alphanumeric());
        prep(p[0]) && w.starts_with(char::is_uppercase) && !crate::offline::dates::names_a_day(w)
    });
    let common = words.windows(3).any(|p| {
        let det = matches!(
            bare(p[1]).as_str(),
            "the" | "a" | "an" | "my" | "their" | "his" | "her"
        );
        let time = matches!(
            bare(p[2]).as_str(),
            "week"
                | "weekend"
                | "month"
                | "year"
                | "day"
                | "morning"
                | "evening"
                | "night"
                | "end"
                | "middle"
                | "beginning"
                | "past"
                | "future"
                | "meantime"
                | "moment"
        );
        prep(p[0]) && det && !time
    });
    named || common
}
