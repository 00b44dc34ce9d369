//! A plan moved to another day: "Amara is now flying on August 6th
//! instead." ends "Amara has flights on August 4th from Manchester to
//! Faro.". A fact that says "instead" and names a day replaces the one of
//! the same subject, on the same topic (the cosine says so), that has
//! something ahead on another day. A fact told in the past ("flew to Rome
//! on May 3") is history, and nothing new replaces it.

use super::slots::{lead_subject, normalise, same_subject};
use crate::offline::dates::MONTHS;
use crate::offline::lexicon::{verb, VerbForm, AUXILIARIES};

/// Cosine a fact that says "instead" must reach with the plan it moves.
pub(super) const INSTEAD_COSINE: f32 = 0.5;

/// The days a fact names, as (month, day): "August 4th", "4 August".
fn days(fact: &str) -> Vec<(usize, u32)> {
    let words: Vec<&str> = fact
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    let day = |w: &str| -> Option<u32> {
        let d = w.trim_end_matches(|c: char| !c.is_ascii_digit());
        let d: u32 = d.parse().ok()?;
        let suffix = &w[d.to_string().len()..];
        let ok = suffix.is_empty() || matches!(suffix, "st" | "nd" | "rd" | "th");
        (ok && (1..=31).contains(&d)).then_some(d)
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Some(m) = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(w)) else {
            continue;
        };
        let after = words.get(i + 1).and_then(|n| day(n));
        let before = i.checked_sub(1).and_then(|j| day(words[j]));
        if let Some(d) = after.or(before) {
            out.push((m, d));
        }
    }
    out
}

/// Whether `fact` (normalised) tells something done: its first verb after
/// the subject is in the past.
fn told_as_past(fact: &str) -> bool {
    let subject = lead_subject(fact);
    fact.split_whitespace()
        .skip(subject.split_whitespace().count())
        .find(|w| AUXILIARIES.contains(w) || verb(w).is_some())
        .is_some_and(|w| {
            matches!(w, "was" | "were" | "did")
                || (!AUXILIARIES.contains(&w) && verb(w).is_some_and(|(_, f)| f == VerbForm::Past))
        })
}

/// Whether `new` moves to another day the plan `old` has.
pub(super) fn moves_day(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    if !n.split_whitespace().any(|w| w == "instead") {
        return false;
    }
    let (dn, d_old) = (days(new), days(old));
    if dn.is_empty() || d_old.is_empty() || dn.iter().any(|d| d_old.contains(d)) {
        return false;
    }
    !told_as_past(&o) && same_subject(&lead_subject(&n), &lead_subject(&o))
}

#[cfg(test)]
mod tests {
    use super::moves_day;

    #[test]
    fn a_plan_moved_to_another_day() {
        for (new, old, moves) in [
            (
                "Amara is now flying on August 6th instead.",
                "Amara has flights on August 4th from Manchester to Faro.",
                true,
            ),
            (
                "Ben's party is on 12 May instead.",
                "Ben's party is on 10 May.",
                true,
            ),
            // no "instead", the same day, someone else, or done
            (
                "Amara is flying on August 6th.",
                "Amara has flights on August 4th.",
                false,
            ),
            (
                "Amara is now flying on August 4th instead.",
                "Amara has flights on August 4th.",
                false,
            ),
            (
                "Dev is now flying on August 6th instead.",
                "Amara has flights on August 4th.",
                false,
            ),
            (
                "Amara is now flying on August 6th instead.",
                "Amara flew to Rome on May 3.",
                false,
            ),
        ] {
            assert_eq!(moves_day(new, old), moves, "{new} | {old}");
        }
    }
}
