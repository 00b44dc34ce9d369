//! Habits: how much or how often someone does something ("runs about 30 km
//! a week", "drinks two cups of coffee a day", "swims twice a week"), and
//! taking up again what was stopped ("is back to running", "started
//! swimming again").
//!
//! A new amount of the same habit of the same subject updates the old one
//! however the sentence around it is phrased ("Kofi is back to running,
//! about 20 km a week now" updates "Kofi runs about 30 km a week"); a
//! habit taken up again ends the fact that said it stopped. What the habit
//! is must agree: the same verb, and the same thing where both name one
//! ("plays tennis twice a week" is not "plays piano three times a week").
//! Back at work ends a leave: "Dev went back to work" ends "Dev is on
//! paternity leave until 15 November"; recovered ends an injury or an
//! illness: "Biscuit is fully recovered" ends "Biscuit needs rest for two
//! weeks" and "Biscuit has been limping".

use super::retraction::{retraction, stem};
use super::slots::{lead_subject, normalise, same_subject};
use crate::offline::lexicon::{number, verb, AUXILIARIES};

/// What a rate is counted per.
const PERIODS: &[&str] = &[
    "day",
    "week",
    "weekend",
    "fortnight",
    "month",
    "year",
    "night",
    "morning",
    "evening",
];

/// Words that say a rate is per period ("a week", "per day").
const PER: &[&str] = &["a", "per", "each", "every"];

/// Words around an amount or a habit that do not say what the habit is.
const FILLER: &[&str] = &[
    "about",
    "around",
    "roughly",
    "nearly",
    "almost",
    "over",
    "under",
    "up",
    "to",
    "at",
    "least",
    "most",
    "of",
    "the",
    "a",
    "an",
    "my",
    "their",
    "his",
    "her",
    "our",
    "now",
    "still",
    "again",
    "back",
    "usually",
    "normally",
    "mostly",
    "currently",
    "these",
    "days",
    "just",
    "only",
    "also",
    "and",
    "or",
    "more",
    "less",
    "than",
    // hedges and the way to a new amount ("like 4 coffees a day", "down
    // to one a day")
    "like",
    "maybe",
    "probably",
    "down",
];

/// Units that count a doing, not a thing: the habit they measure is named
/// by its verb ("runs 30 km a week" is not "cycles 30 km a week"), where
/// a unit that is a thing names the habit itself ("drinks 4 coffees a
/// day", "down to one coffee a day").
const MEASURES: &[&str] = &[
    "",
    "time",
    "km",
    "k",
    "kilometre",
    "kilometer",
    "mile",
    "metre",
    "meter",
    "hour",
    "hr",
    "minute",
    "min",
    "step",
    "lap",
    "length",
    "session",
    "class",
    "lesson",
    "shift",
    "page",
    "word",
    "rep",
    "set",
    "day",
    "night",
];

/// A habit's rate: `amount` `unit` per `period`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rate {
    /// The base of the verb that names the habit ("run").
    verb: String,
    /// Stems of what the habit is done with or to ("coffee", "tennis").
    things: Vec<String>,
    amount: i64,
    /// "km", "cup", "hour"; "time" for "twice", "three times".
    unit: String,
    period: String,
}

/// A singular unit ("cups" -> "cup", "times" -> "time").
fn singular(w: &str) -> &str {
    w.strip_suffix("es")
        .filter(|b| b.ends_with("ss") || b.ends_with("ch") || b.ends_with("sh"))
        .or_else(|| w.strip_suffix('s').filter(|b| !b.ends_with('s')))
        .unwrap_or(w)
}

/// The base of `w` as a verb, if it reads as one.
fn verb_base(w: &str) -> Option<String> {
    verb(w).map(|(base, _)| base.to_string())
}

fn things(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !FILLER.contains(w) && !AUXILIARIES.contains(w) && number(w).is_none())
        .map(|w| stem(w))
        .collect()
}

/// The rate `fact` states of its subject's habit, if any.
fn rate(fact: &str) -> Option<Rate> {
    let t = normalise(fact);
    let w: Vec<&str> = t.split_whitespace().collect();
    let k = (1..w.len().saturating_sub(1))
        .find(|&k| PER.contains(&w[k]) && PERIODS.contains(&w[k + 1]))?;
    // the amount: "twice", "three times", "30 km", "two cups of coffee"
    let (j, n) = (k.saturating_sub(5)..k).rev().find_map(|j| match w[j] {
        "once" => Some((j, 1)),
        "twice" => Some((j, 2)),
        x => number(x).map(|n| (j, n)),
    })?;
    let unit = match w[j] {
        "once" | "twice" => "time".to_string(),
        _ if j + 1 < k => singular(w[j + 1]).to_string(),
        // ("makes 4200 a month": money, said without its currency)
        _ => String::new(),
    };
    let after_unit = if matches!(w[j], "once" | "twice") || unit.is_empty() {
        j + 1
    } else {
        j + 2
    };
    // the verb: the first after the subject, past auxiliaries and "back to"
    let subject_end = w
        .iter()
        .position(|x| AUXILIARIES.contains(x) || verb(x).is_some())?;
    if subject_end >= j {
        return None;
    }
    // ("is down to five cigarettes a day": no verb but "be")
    let v = (subject_end..j).find(|&i| !AUXILIARIES.contains(&w[i]) && !FILLER.contains(&w[i]));
    let verb = v.map_or_else(
        || "be".to_string(),
        |v| verb_base(w[v]).unwrap_or_else(|| stem(w[v])),
    );
    let mut th = things(&w[v.map_or(subject_end, |v| v + 1)..j]);
    th.extend(things(&w[after_unit.min(k)..k]));
    Some(Rate {
        verb,
        things: th,
        amount: n,
        unit,
        period: w[k + 1].to_string(),
    })
}

/// Whether `fact` states how much or how often its subject does
/// something ("climbs twice a week", "drinks 4 coffees a day").
pub(super) fn states_rate(fact: &str) -> bool {
    rate(fact).is_some()
}

/// Whether `new` gives a new amount of the habit `old` states.
pub(super) fn new_amount(new: &str, old: &str) -> bool {
    let (Some(a), Some(b)) = (rate(new), rate(old)) else {
        return false;
    };
    let things_agree =
        a.things.is_empty() || b.things.is_empty() || a.things.iter().any(|t| b.things.contains(t));
    a.amount != b.amount
        && a.unit == b.unit
        && a.period == b.period
        && (a.verb == b.verb || !MEASURES.contains(&a.unit.as_str()))
        && things_agree
        && same_subject(
            &lead_subject(&normalise(new)),
            &lead_subject(&normalise(old)),
        )
}

/// Wordings of taking something up again: (before, after) the thing.
const RESUMED: &[(&str, &str)] = &[
    (" is back to ", ""),
    (" am back to ", ""),
    (" are back to ", ""),
    (" started ", " again"),
    (" took up ", " again"),
    (" picked up ", " again"),
    (" resumed ", ""),
    (" went back to ", ""),
];

/// What `fact` says is taken up again, as stems.
fn resumed(fact: &str) -> Option<Vec<String>> {
    let t = format!(" {} ", normalise(fact));
    for (before, after) in RESUMED {
        let Some(i) = t.find(before) else { continue };
        let rest = &t[i + before.len()..];
        let thing = if after.is_empty() {
            rest.split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            let Some(e) = rest.find(after) else { continue };
            rest[..e].to_string()
        };
        let stems: Vec<String> = thing
            .split_whitespace()
            .filter(|w| !FILLER.contains(w))
            .map(|w| verb_base(w).unwrap_or_else(|| stem(w)))
            .collect();
        if !stems.is_empty() {
            return Some(stems);
        }
    }
    None
}

/// Whether `new` takes up again what `old` said its subject stopped
/// ("Kofi is back to running" ends "Kofi stopped running for now").
pub(super) fn taken_up_again(new: &str, old: &str) -> bool {
    let (Some(again), Some(stopped)) = (resumed(new), retraction(old)) else {
        return false;
    };
    let ended: Vec<String> = stopped
        .stems
        .iter()
        .map(|s| verb_base(s).unwrap_or_else(|| s.clone()))
        .collect();
    !stopped.is_subject
        && again.iter().any(|s| ended.contains(s))
        && same_subject(&lead_subject(&normalise(new)), &stopped.who)
}

/// Wordings of being back at work after time off.
const BACK_AT_WORK: &[&str] = &[
    " went back to work",
    " is back at work",
    " is back to work",
    " returned to work",
    " started back at work",
];

/// Wordings of time off work.
const ON_LEAVE: &[&str] = &[" leave ", " is off work", " is off for "];

/// Whether `new` says its subject is back at work and `old` that the same
/// subject was on leave.
pub(super) fn back_from_leave(new: &str, old: &str) -> bool {
    let (n, o) = (
        format!(" {} ", normalise(new)),
        format!(" {} ", normalise(old)),
    );
    BACK_AT_WORK.iter().any(|b| n.contains(b))
        && ON_LEAVE.iter().any(|l| o.contains(l))
        && !ON_LEAVE.iter().any(|l| n.contains(l))
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// Wordings of being well again.
const RECOVERED: &[&str] = &[
    " recovered",
    " is healed",
    " has healed",
    " is all better",
    " is better now",
    " is back to normal",
    " is back on their feet",
];

/// Words of an injury, an illness or what it needs.
const UNWELL: &[&str] = &[
    "limping",
    "sprained",
    "injured",
    "injury",
    "hurt",
    "hurts",
    "broke",
    "broken",
    "sick",
    "ill",
    "fever",
    "infection",
    "rest",
    "recovering",
    "flu",
    "covid",
    "cast",
    "crutches",
];

/// Whether `new` says its subject is well again and `old` that the same
/// subject was hurt or ill.
pub(super) fn recovered(new: &str, old: &str) -> bool {
    let (n, o) = (
        format!(" {} ", normalise(new)),
        format!(" {} ", normalise(old)),
    );
    RECOVERED.iter().any(|r| n.contains(r))
        && !n.contains(" not ")
        && o.split_whitespace().any(|w| UNWELL.contains(&w))
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// How often a fact says something happens: "twice a week", "once a
/// month", "3 times a day", "every day", as (count, period).
fn how_often(t: &str) -> Option<(String, String)> {
    let w: Vec<&str> = t
        .split_whitespace()
        .map(|x| x.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    let period = |p: &str| matches!(p, "day" | "week" | "month" | "year");
    for (i, x) in w.iter().enumerate() {
        if *x == "every" && w.get(i + 1).is_some_and(|p| period(p)) {
            return Some(("1".to_string(), w[i + 1].to_string()));
        }
        let count = match *x {
            "once" => Some((1, i + 1)),
            "twice" => Some((2, i + 1)),
            _ if w.get(i + 1) == Some(&"times") => {
                crate::offline::lexicon::number(x).map(|n| (n, i + 2))
            }
            _ => None,
        };
        if let Some((n, at)) = count {
            if matches!(w.get(at), Some(&"a" | &"per")) && w.get(at + 1).is_some_and(|p| period(p))
            {
                return Some((n.to_string(), w[at + 1].to_string()));
            }
        }
    }
    None
}

/// Whether `new` says a symptom of the same one comes at another rate
/// than `old` does ("Priya's migraines are down to once a month now"
/// after "Priya has been getting migraines about twice a week").
pub(super) fn symptom_rate(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let symptom = crate::offline::lexicon::SYMPTOMS.iter().find(|s| {
        n.split_whitespace()
            .any(|w| w.trim_end_matches("'s") == **s)
            && o.split_whitespace().any(|w| w == **s)
    });
    let (Some(symptom), Some(a), Some(b)) = (symptom, how_often(&n), how_often(&o)) else {
        return false;
    };
    // ("priya's migraines": priya's; "priya's mum": the mum)
    let whose = |t: &str| {
        let s = lead_subject(t);
        match s.split_once("'s ") {
            Some((owner, thing)) if thing == *symptom => owner.to_string(),
            _ => s,
        }
    };
    a != b && same_subject(&whose(&n), &whose(&o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_amount_unit_period_and_habit() {
        let r = rate("Kofi is back to running, about 20 km a week now.").unwrap();
        assert_eq!(
            (r.verb.as_str(), r.amount, r.unit.as_str()),
            ("run", 20, "km")
        );
        assert_eq!(r.period, "week");
        let r = rate("Ada drinks two cups of coffee a day.").unwrap();
        assert_eq!((r.amount, r.unit.as_str()), (2, "cup"));
        assert_eq!(r.things, vec!["coffe".to_string()]);
        let r = rate("Sam swims twice a week.").unwrap();
        assert_eq!(
            (r.verb.as_str(), r.amount, r.unit.as_str()),
            ("swim", 2, "time")
        );
        assert_eq!(rate("Sam went to Rome a week ago."), None);
    }

    #[test]
    fn what_is_taken_up_again() {
        assert_eq!(
            resumed("Kofi is back to running."),
            Some(vec!["run".to_string()])
        );
        assert_eq!(
            resumed("Kofi started swimming again last month."),
            Some(vec!["swim".to_string()])
        );
        assert_eq!(resumed("Kofi started a new job."), None);
    }
}
