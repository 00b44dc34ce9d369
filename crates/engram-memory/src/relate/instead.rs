//! A plan moved to another day: "Amara is now flying on August 6th
//! instead." ends "Amara has flights on August 4th from Manchester to
//! Faro.". A fact that says "instead" and names a day replaces the one of
//! the same subject, on the same topic (the cosine says so), that has
//! something ahead on another day. A fact told in the past ("flew to Rome
//! on May 3") is history, and nothing new replaces it. When the new fact
//! says nothing but the new day ("I'm going on the 5th instead"), the new
//! version is the plan with its day changed ([`described`]): "Keiko is
//! flying to Tokyo on 5 March 2025 for two weeks."

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
    // "... instead", or "the flight is now on ..."
    let thing = event_now_on(&n, &o);
    if !n.split_whitespace().any(|w| w == "instead") && thing.is_none() {
        return false;
    }
    let (dn, d_old) = (days(new), days(old));
    if dn.is_empty() || d_old.is_empty() || dn.iter().any(|d| d_old.contains(d)) {
        return false;
    }
    !told_as_past(&o) && (thing.is_some() || same_subject(&lead_subject(&n), &lead_subject(&o)))
}

/// Where a normalised fact says its subject is (or was) going: the word
/// after "going to", when it is no verb ("going to start" is a plan of
/// another kind).
fn going_to(fact: &str) -> Option<&str> {
    let (_, after) = fact.split_once(" going to ")?;
    let place = after.split_whitespace().next()?;
    (verb(place).is_none() && !AUXILIARIES.contains(&place)).then_some(place)
}

/// Whether `new` sends a plan `old` has elsewhere: "Lena is now going to
/// Lisbon in June instead" after "Lena was going to Rome in May" (a plan
/// given up is said "was going to"; a plan still on may lose one stop
/// only). Same subject, another place, and "instead".
pub(super) fn goes_elsewhere(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    if !n.split_whitespace().any(|w| w == "instead") {
        return false;
    }
    // (only a plan said as given up: "is going to Lisbon, then Porto"
    // may lose one stop, not the whole trip)
    let given_up = o.contains(" was going to ") || o.contains(" were going to ");
    match (going_to(&n), going_to(&o)) {
        (Some(to), Some(was)) if given_up => {
            to != was && same_subject(&lead_subject(&n), &lead_subject(&o))
        }
        _ => false,
    }
}

/// Whether `new` moves to another day an event `old` names ("The flight
/// is now on 14 June" after "Jonas flies out on 12 June"): the event's
/// words tie the two, so a lower cosine than "instead" needs will do.
pub(super) fn event_moved(new: &str, old: &str) -> bool {
    event_now_on(&normalise(new), &normalise(old)).is_some() && moves_day(new, old)
}

/// Whether `new` gives an event `old` names a place of its own now ("The
/// hen party is now in Barcelona." after "Hana needs to plan the hen
/// party, thinking Lisbon."): the event's words tie the two, and the
/// place is new to the old fact.
pub(super) fn event_placed(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    if event_now_on(&n, &o).is_none() || told_as_past(&o) {
        return false;
    }
    let Some((_, place)) = n
        .split_once(" is now in ")
        .or_else(|| n.split_once(" is now at "))
    else {
        return false;
    };
    let place = place.split([',', '.']).next().unwrap_or("").trim();
    !place.is_empty() && !o.contains(place)
}

/// Events and the words an older fact names them by ("flies out on June
/// 12th" has a flight).
const EVENT_WORDS: &[(&str, &[&str])] = &[
    ("flight", &["flight", "flights", "fly", "flies", "flying"]),
    (
        "trip",
        &["trip", "going", "travelling", "traveling", "visiting"],
    ),
    ("wedding", &["wedding", "marrying", "married"]),
    ("party", &["party"]),
    ("appointment", &["appointment"]),
    ("meeting", &["meeting", "meetings"]),
    ("interview", &["interview"]),
    ("move", &["move", "moving"]),
];

/// The event of a new fact that opens with "the <event> is now on" a day,
/// when the old fact (normalised, as `n`) names that event: "the flight is
/// now on 14 june" of "jonas flies out of hamburg on 12 june".
fn event_now_on(n: &str, o: &str) -> Option<&'static str> {
    let rest = n.strip_prefix("the ")?;
    // ("the hen party is now ...": the event's last word names it)
    let (event, _) = rest.split_once(" is now ")?;
    let event = match event.split_once(' ') {
        Some((_, e)) if !e.contains(' ') => e,
        Some(_) => return None,
        None => event,
    };
    let (name, words) = EVENT_WORDS.iter().find(|(e, _)| *e == event)?;
    o.split_whitespace()
        .any(|w| words.contains(&w))
        .then_some(*name)
}

/// Where the day of `words` is: the month, the day beside it, and a year
/// after them, as a span of word indexes.
fn day_span(words: &[&str]) -> Option<(usize, usize)> {
    let clean = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let is_day = |w: &str| {
        let w = clean(w);
        let d = w.trim_end_matches(|c: char| !c.is_ascii_digit());
        !d.is_empty() && d.len() <= 2 && d.chars().all(|c| c.is_ascii_digit())
    };
    let is_year = |w: &str| {
        let w = clean(w);
        w.len() == 4 && w.chars().all(|c| c.is_ascii_digit())
    };
    let m = words
        .iter()
        .position(|w| MONTHS.iter().any(|m| m.eq_ignore_ascii_case(&clean(w))))?;
    let mut start = m;
    let mut end = m + 1;
    if m > 0 && is_day(words[m - 1]) && !words[m - 1].ends_with(',') {
        start = m - 1;
    } else if words.get(m + 1).is_some_and(|w| is_day(w)) && !words[m].ends_with(',') {
        end = m + 2;
    } else {
        return None;
    }
    if words.get(end).is_some_and(|w| is_year(w)) && !words[end - 1].ends_with(['.', '!']) {
        end += 1;
    }
    Some((start, end))
}

/// The plan `old` with its day changed to the one `new` moves it to, when
/// `new` says nothing else ("Keiko is going on 5 March 2025 instead."):
/// the plan keeps where and for how long.
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    if !moves_day(new, old) {
        return None;
    }
    // "The flight is now on ..." of Jonas's flight: said as his
    if let Some(event) = event_now_on(&normalise(new), &normalise(old)) {
        let who = old.split_whitespace().next()?;
        let named = who.starts_with(char::is_uppercase)
            && !who.ends_with("'s")
            && who != "The"
            && new.split_whitespace().nth(2) == Some("is");
        let rest = new.split_once(' ')?.1.split_once(' ')?.1;
        return named.then(|| format!("{who}'s {event} {rest}"));
    }
    let nw: Vec<&str> = new.split_whitespace().collect();
    let ow: Vec<&str> = old.split_whitespace().collect();
    let (ns, ne) = day_span(&nw)?;
    let (os, oe) = day_span(&ow)?;
    // nothing but the subject, a verb of going and "instead" beside the day
    let subject = lead_subject(&normalise(new)).split_whitespace().count();
    let rest: Vec<&&str> = nw
        .iter()
        .enumerate()
        .filter(|(i, _)| *i >= subject && !(ns..ne).contains(i))
        .map(|(_, w)| w)
        .collect();
    let plain = rest.iter().all(|w| {
        let b = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        matches!(
            b.as_str(),
            "is" | "am"
                | "are"
                | "now"
                | "going"
                | "flying"
                | "leaving"
                | "travelling"
                | "traveling"
                | "on"
                | "instead"
                | "will"
                | "go"
                | "fly"
                | "leave"
                | "be"
        )
    });
    if !plain {
        return None;
    }
    let date: Vec<&str> = nw[ns..ne]
        .iter()
        .map(|w| w.trim_end_matches([',', '.', '!']))
        .collect();
    let tail = ow[oe - 1]
        .trim_start_matches(|c: char| c.is_alphanumeric())
        .to_string();
    let mut out: Vec<String> = ow[..os].iter().map(|w| w.to_string()).collect();
    out.push(format!("{}{tail}", date.join(" ")));
    out.extend(ow[oe..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{described, moves_day};

    #[test]
    fn the_plan_keeps_all_but_its_day() {
        assert_eq!(
            described(
                "Keiko is going on 5 March 2025 instead.",
                "Keiko is flying to Tokyo on March 3rd for two weeks."
            )
            .as_deref(),
            Some("Keiko is flying to Tokyo on 5 March 2025 for two weeks.")
        );
        assert_eq!(
            described(
                "Amara is now flying on August 6th instead.",
                "Amara has flights on August 4th from Manchester to Faro."
            )
            .as_deref(),
            Some("Amara has flights on August 6th from Manchester to Faro.")
        );
        // "the flight is now on": whose flight the old fact says
        assert_eq!(
            described(
                "The flight is now on 14 June 2025 because Lea has a work thing.",
                "Jonas flies out of Hamburg on 12 June 2025."
            )
            .as_deref(),
            Some("Jonas's flight is now on 14 June 2025 because Lea has a work thing.")
        );
        assert_eq!(
            described(
                "The wedding is now on 3 May 2025.",
                "Jonas flies out of Hamburg on 12 June 2025."
            ),
            None
        );
        // the new fact says more than the day
        assert_eq!(
            described(
                "Keiko is flying to Osaka on 5 March instead.",
                "Keiko is flying to Tokyo on March 3rd."
            ),
            None
        );
    }

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
