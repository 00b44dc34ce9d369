//! An event moved to another time of day: "Ruth's standup moved to 10am"
//! after "Ruth's standup is at 9:30 every day" is the next version of it.
//! The same owner and the same event, said at a time of day in both, and
//! a different time. (A move to another day is [`super::instead`]'s.) So
//! is a term renewed: "Katja's visa got renewed until 2027" after "Katja's
//! visa expires in March 2025". Reads the two facts' words only.

use super::slots::normalise;

/// Wordings that move an event to a time ("moved to 10am").
const MOVED: &[&str] = &[
    " moved to ",
    " got moved to ",
    " was moved to ",
    " has moved to ",
    " is now at ",
    " has been moved to ",
];

/// Whether `w` is a time of day ("10am", "9:30", "10:00", "noon").
fn clock(w: &str) -> bool {
    let digits = w.trim_end_matches("am").trim_end_matches("pm");
    matches!(w, "noon" | "midday")
        || (w.contains(':')
            && w.split(':')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())))
        || (digits != w && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
}

/// The event (owner's words before the wording) and the time `fact` says
/// it is at, through one of `wordings`.
fn timed<'a>(fact: &'a str, wordings: &[&str]) -> Option<(&'a str, String)> {
    let (i, w) = wordings
        .iter()
        .find_map(|w| fact.find(w).map(|i| (i, *w)))?;
    let event = &fact[..i];
    let first = fact[i + w.len()..].split_whitespace().next()?;
    // ("10 am": the number and its mark; "9 30": a time whose colon
    // normalising took)
    let next = fact[i + w.len()..].split_whitespace().nth(1).unwrap_or("");
    let numeric = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
    let time = if matches!(next, "am" | "pm") {
        format!("{first}{next}")
    } else if numeric(first) && next.len() == 2 && numeric(next) {
        format!("{first}:{next}")
    } else {
        first.to_string()
    };
    (event.contains("'s ") && clock(&time)).then_some((event, time))
}

/// Whether `new` moves the event `old` says is at a time of day to
/// another time.
pub(super) fn new_time(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    match (
        timed(&n, MOVED),
        timed(&o, &[" is at ", " is every day at ", " starts at "]),
    ) {
        (Some((e1, t1)), Some((e2, t2))) => e1 == e2 && t1 != t2,
        _ => false,
    }
}

/// Wordings that give a term a new end ("renewed until 2027").
const RENEWED: &[&str] = &[
    " got renewed until ",
    " was renewed until ",
    " has been renewed until ",
    " is renewed until ",
    " got extended until ",
    " was extended until ",
    " has been extended until ",
    " got extended to ",
    " was extended to ",
    " now expires ",
    " now runs until ",
];

/// Wordings that say when a term ends.
const ENDS: &[&str] = &[
    " expires ",
    " ends ",
    " runs out ",
    " is valid until ",
    " runs until ",
];

/// Whether `new` renews the term whose end `old` says ("Katja's visa got
/// renewed until 2027" after "Katja's visa expires in March 2025"): the
/// same owner's same thing.
pub(super) fn renewed(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let head = |fact: &str, wordings: &[&str]| {
        wordings
            .iter()
            .find_map(|w| fact.find(w))
            .map(|i| fact[..i].to_string())
            .filter(|h| h.contains("'s "))
    };
    match (head(&n, RENEWED), head(&o, ENDS)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{new_time, renewed};

    #[test]
    fn a_term_renewed() {
        assert!(renewed(
            "Katja's visa got renewed until 2027.",
            "Katja's visa expires in March 2025."
        ));
        assert!(renewed(
            "Jakub's lease was extended until June 2026.",
            "Jakub's lease ends in June 2025."
        ));
        assert!(!renewed(
            "Katja's visa got renewed until 2027.",
            "Katja's passport expires in March 2025."
        ));
        assert!(!renewed(
            "Katja's visa got renewed until 2027.",
            "Tom's visa expires in March 2025."
        ));
    }

    #[test]
    fn an_event_moved_to_another_time_of_day() {
        assert!(new_time(
            "Ruth's standup moved to 10am.",
            "Ruth's standup is at 9:30 every day."
        ));
        assert!(new_time(
            "Ruth's standup is now at 10 am.",
            "Ruth's standup is at 9:30 every day."
        ));
        assert!(!new_time(
            "Ruth's standup moved to 10am.",
            "Tom's standup is at 9:30 every day."
        ));
        assert!(!new_time(
            "Ruth's standup moved to 9:30.",
            "Ruth's standup is at 9:30 every day."
        ));
        assert!(!new_time(
            "Ruth's team moved to Berlin.",
            "Ruth's team is at 5 people."
        ));
    }
}
