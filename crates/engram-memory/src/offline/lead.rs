//! Where a sentence proper starts, past what leads into it: a time or
//! adverbial phrase ("On 20 June 2023 Jon ...", "Apart from meetings,
//! Joanna ...") or a time clause of a doing put first without a comma
//! ("after finishing Jo's screenplay Jo got a letter"). For the shape
//! checks of [`super::shape`], to put a date that leads a fact last, and
//! for [`super::clauses::split`], which cuts before a time that opens a
//! clause ("..., last night I made a curry"); reads words only.

use super::clauses::{bare, is_verbish};
use super::lexicon::{verb, VerbForm};
use super::words::LEADING;

/// Whether the last of `words` is a noun of a counted phrase though the
/// lexicon knows it as a verb: "30k long runs", "two long walks" (a
/// lead with no verb of its own).
pub(super) fn counted_noun(words: &[&str]) -> bool {
    let n = words.len();
    n >= 2
        && words[n.saturating_sub(3)..n - 1].iter().any(|w| {
            w.starts_with(|c: char| c.is_ascii_digit())
                || super::lexicon::number(&bare(w)).is_some()
        })
        && !words[n - 2].ends_with(',')
}

pub(super) fn is_year(w: &str) -> bool {
    w.len() == 4 && w.chars().all(|c| c.is_ascii_digit())
}

/// `fact` with a date put first ("On 3 March 2025 Raj made a curry.")
/// put last ("Raj made a curry on 3 March 2025."): the subject leads, as
/// in every other memory. Only a lead of "on", "in" or "during" that ends
/// in a year and is followed by a capitalised subject with a verb after
/// it, in one clause; anything else as it was.
pub(super) fn date_last(fact: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let words: Vec<&str> = fact.split_whitespace().collect();
    let opens = words
        .first()
        .is_some_and(|w| matches!(*w, "On" | "In" | "During" | "on" | "in" | "during"));
    let Some(y) = words
        .iter()
        .take(8)
        .position(|w| is_year(w))
        .filter(|_| opens)
    else {
        return Cow::Borrowed(fact);
    };
    let subject = words
        .get(y + 1)
        .is_some_and(|s| s.starts_with(char::is_uppercase));
    let rest = &words[(y + 1).min(words.len())..];
    // (not after a clause of its own: ", which ...")
    let clauses = rest[..rest.len().saturating_sub(1)]
        .iter()
        .any(|w| w.ends_with([',', ';']));
    if !subject || clauses || rest.len() < 3 || !rest.iter().skip(1).any(|w| is_verbish(w)) {
        return Cow::Borrowed(fact);
    }
    let body = rest.join(" ");
    let end = body.trim_end_matches(['.', '!']);
    let stop = &body[end.len()..];
    let lead = words[..=y].join(" ");
    let lead = format!("{}{}", lead[..1].to_lowercase(), &lead[1..]);
    Cow::Owned(format!("{end} {lead}{stop}"))
}

/// Times said after "last" or "this" that may open a clause.
const TIMES: &[&str] = &[
    "night",
    "week",
    "weekend",
    "month",
    "year",
    "summer",
    "winter",
    "spring",
    "autumn",
    "morning",
    "evening",
    "afternoon",
];

/// How many words of a time put first `words` opens with ("the rest of
/// the week", "on weekends", "most days", "last night"); 0 for none.
pub(super) fn time_lead(words: &[&str]) -> usize {
    let w: Vec<String> = words.iter().take(5).map(|x| bare(x)).collect();
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["the", "rest", "of", "the", "week" | "time" | "year" | "month" | "day", ..] => 5,
        ["on" | "at", "weekends" | "weekdays", ..] => 2,
        ["most" | "some" | "other", "days" | "weeks" | "evenings" | "mornings", ..] => 2,
        // "..., last night I made a curry"
        ["last" | "this", when, ..] if super::dates::names_a_day(when) || TIMES.contains(when) => 2,
        ["yesterday" | "today" | "tonight", ..] => 1,
        _ => 0,
    }
}

/// Where the sentence proper starts, past a leading time or adverbial
/// phrase.
pub(super) fn start(words: &[&str]) -> usize {
    let first = words.first().map(|w| bare(w)).unwrap_or_default();
    if !LEADING.contains(&first.as_str()) {
        return 0;
    }
    // "On 20 June 2023 Jon ...", "In the week of 2 October 2023 Tim ..."
    if let Some(y) = words.iter().take(8).position(|w| is_year(&bare(w))) {
        return y + 1;
    }
    // "Apart from meetings, Joanna ..."
    if let Some(c) = words.iter().take(8).position(|w| w.ends_with(',')) {
        return c + 1;
    }
    0
}

/// Where the sentence proper starts past a time clause of a doing put
/// first without a comma ("after finishing Jo's screenplay Jo got a
/// letter"): at the first person named who does something.
pub(super) fn after_doing(words: &[&str], people: &[&str]) -> usize {
    let opens = words.first().is_some_and(|w| {
        matches!(
            bare(w).as_str(),
            "after" | "before" | "while" | "since" | "when"
        )
    }) && words
        .get(1)
        .is_some_and(|w| verb(&bare(w)).is_some_and(|(_, f)| f == VerbForm::Gerund));
    // "at work Marek uses Rust", "on weekends Ana teaches piano": a short
    // place or time put first without a comma
    let placed = words
        .first()
        .is_some_and(|w| matches!(bare(w).as_str(), "at" | "in" | "on" | "during" | "outside"));
    if placed {
        return (2..words.len().min(6))
            .find(|&j| {
                people.iter().any(|p| bare(p) == bare(words[j]))
                    && words[j + 1..].iter().take(2).any(|n| is_verbish(n))
                    && !words[..j].iter().any(|w| w.ends_with([',', '.', '!', '?']))
            })
            .unwrap_or(0);
    }
    if !opens {
        return 0;
    }
    (2..words.len().min(10))
        .find(|&j| {
            people.iter().any(|p| bare(p) == bare(words[j]))
                && words.get(j + 1).is_some_and(|n| is_verbish(n))
                && !words[j - 1].ends_with([',', '.', '!', '?'])
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::date_last;

    #[test]
    fn a_leading_date_goes_last() {
        assert_eq!(
            date_last("On 3 March 2025 Raj made a Thai green curry from scratch."),
            "Raj made a Thai green curry from scratch on 3 March 2025."
        );
        assert_eq!(
            date_last("In the week of 21 July 2025 Rosa's grandma passed away."),
            "Rosa's grandma passed away in the week of 21 July 2025."
        );
        for same in [
            "On 3 March 2025 the shop closed.",
            "Raj made a curry on 3 March 2025.",
            "In 2020 Raj.",
            "In 2022 Mel got hurt, which was hard.",
        ] {
            assert_eq!(date_last(same), same);
        }
    }
}
