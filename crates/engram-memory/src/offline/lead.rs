//! Where a sentence proper starts, past what leads into it: a time or
//! adverbial phrase ("On 20 June 2023 Jon ...", "Apart from meetings,
//! Joanna ...") or a time clause of a doing put first without a comma
//! ("after finishing Jo's screenplay Jo got a letter"). For the shape
//! checks of [`super::shape`]; reads words only.

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
