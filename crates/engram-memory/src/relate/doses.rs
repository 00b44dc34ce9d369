//! Doses: "The metformin dose went up to 1000mg twice a day." updates
//! "Grace's doctor put Grace on metformin, 500mg twice a day.". A new
//! amount of the same medicine (a word both name, besides the amount and
//! how often), in the same unit, is the next version however it is
//! phrased; and when the new fact names no one ("The metformin dose ..."),
//! it is said as the dose of the one the old fact is about.

use super::slots::normalise;

/// Units a dose is measured in.
const UNITS: &[&str] = &[
    "mg", "mcg", "µg", "g", "ml", "units", "iu", "tablets", "pills",
];

/// Words of a dose fact that do not name the medicine.
const GENERIC: &[&str] = &[
    "dose",
    "dosage",
    "twice",
    "once",
    "daily",
    "day",
    "week",
    "morning",
    "night",
    "evening",
    "doctor",
    "went",
    "up",
    "down",
    "increased",
    "decreased",
    "raised",
    "lowered",
    "put",
    "on",
    "the",
    "a",
    "an",
    "my",
    "her",
    "his",
    "their",
    "to",
    "from",
    "is",
    "was",
    "now",
    "per",
    "every",
    "times",
    "and",
    "of",
    "with",
    "at",
    "takes",
    "take",
    "taking",
    "started",
    "still",
];

/// The dose amounts `fact` (normalised) states, as (number, unit):
/// "500mg", "500 mg".
fn amounts(words: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            continue;
        }
        let glued = &w[digits.len()..];
        let unit = if UNITS.contains(&glued) {
            glued.to_string()
        } else if glued.is_empty() && words.get(i + 1).is_some_and(|u| UNITS.contains(u)) {
            words[i + 1].to_string()
        } else {
            continue;
        };
        out.push((digits, unit));
    }
    out
}

/// The words naming what is dosed: the fact's words besides the amounts,
/// the generic ones and the people.
fn named(words: &[&str], people: &str) -> Vec<String> {
    words
        .iter()
        .filter(|w| !w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter(|w| !UNITS.contains(w) && !GENERIC.contains(w) && w.len() >= 4)
        .filter(|w| {
            !people
                .split_whitespace()
                .any(|p| p.trim_end_matches("'s") == w.trim_end_matches("'s"))
        })
        .map(|w| w.trim_end_matches("'s").to_string())
        .collect()
}

/// Whether `fact` states a dose ("500mg twice a day").
pub(super) fn states_dose(fact: &str) -> bool {
    let n = normalise(fact);
    !amounts(&n.split_whitespace().collect::<Vec<_>>()).is_empty()
}

/// Whether `new` states another dose of the medicine `old` doses.
pub(super) fn new_dose(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let (nw, ow): (Vec<&str>, Vec<&str>) = (
        n.split_whitespace().collect(),
        o.split_whitespace().collect(),
    );
    let (an, ao) = (amounts(&nw), amounts(&ow));
    let Some((_, unit)) = an.first() else {
        return false;
    };
    if ao.is_empty() || an.iter().any(|a| ao.contains(a)) || !ao.iter().any(|(_, u)| u == unit) {
        return false;
    }
    // who the facts are about: a first word, or one owning something
    // ("Grace's doctor"), when capitalised
    let people: String = [new, old]
        .iter()
        .flat_map(|f| f.split_whitespace().enumerate())
        .filter(|(i, w)| *i == 0 || w.ends_with("'s"))
        .map(|(_, w)| w)
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase) && *w != "The")
        .map(|w| w.trim_end_matches("'s").to_lowercase())
        .collect::<Vec<_>>()
        .join(" ");
    let medicine = named(&nw, &people);
    let before = named(&ow, &people);
    !medicine.is_empty() && medicine.iter().any(|m| before.contains(m))
}

/// `new` said as the dose of the one `old` is about, when it names no one
/// ("The metformin dose went up ..." after "Grace's doctor put Grace on
/// metformin ...": "Grace's metformin dose went up ...").
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    let rest = new.strip_prefix("The ")?;
    if !new_dose(new, old) {
        return None;
    }
    // the person the old fact names first
    let first = old.split_whitespace().next()?;
    let person = first.trim_end_matches("'s").trim_end_matches('\u{2019}');
    let is_person = person.chars().next().is_some_and(char::is_uppercase)
        && crate::offline::is_name_word(person)
        && person != "The";
    is_person.then(|| format!("{person}'s {rest}"))
}

/// Whether `question` asks what medicine someone is on or takes ("what
/// medication is Biscuit on?", "what meds does Grace take?").
pub(super) fn asks_medication(question: &str) -> bool {
    let q = normalise(question);
    let w: Vec<&str> = q.split_whitespace().collect();
    matches!(w.first(), Some(&("what" | "which")))
        && w.get(1).is_some_and(|x| {
            matches!(
                *x,
                "medication"
                    | "medications"
                    | "medicine"
                    | "medicines"
                    | "meds"
                    | "drug"
                    | "drugs"
                    | "pills"
                    | "tablets"
            )
        })
}

/// Whether `memory` says what someone is on or takes ("Biscuit is on
/// metacam once a day", "Grace takes 20mg of lisinopril").
pub(super) fn says_taking(memory: &str) -> bool {
    let m = format!(" {} ", normalise(memory));
    states_dose(memory)
        || [
            " is on ",
            " are on ",
            " is taking ",
            " takes ",
            " started taking ",
        ]
        .iter()
        .any(|p| m.contains(p))
}

#[cfg(test)]
mod tests {
    use super::{described, new_dose};

    #[test]
    fn another_dose_of_the_same_medicine() {
        let old = "Grace's doctor put Grace on metformin, 500mg twice a day.";
        let new = "The metformin dose went up to 1000mg twice a day.";
        assert!(new_dose(new, old));
        assert_eq!(
            described(new, old).as_deref(),
            Some("Grace's metformin dose went up to 1000mg twice a day.")
        );
        assert!(new_dose(
            "Omar now takes 20 mg of lisinopril daily.",
            "Omar takes 10 mg of lisinopril daily."
        ));
        // another medicine, the same dose, or no dose
        assert!(!new_dose(
            "Omar takes 20 mg of atorvastatin.",
            "Omar takes 10 mg of lisinopril."
        ));
        assert!(!new_dose(
            "Omar takes 10 mg of lisinopril at night.",
            "Omar takes 10 mg of lisinopril."
        ));
        assert!(!new_dose(
            "Omar ran 10 km.",
            "Omar takes 10 mg of lisinopril."
        ));
    }
}
