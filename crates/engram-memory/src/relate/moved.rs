//! Moved events said of no one: "The wedding got moved to September 2025
//! because the vineyard double booked", said after "Hana's sister Lena is
//! getting married to Tom in June 2025", is the old plan on its new date:
//! "Hana's sister Lena is getting married to Tom in September 2025". The
//! new fact names the event only ("the wedding"); the old one says whose
//! it is, so the next version is the old one with the date it was moved
//! to. So is "Hana moved the wedding to October" (in the year it was
//! on). Reads the two facts' words only.

use super::retraction::POSTPONED;
use crate::offline::dates::{month_number, weekday};

/// Whether `w` (as written, capitalised) is a month's name.
fn month(w: &str) -> bool {
    w.starts_with(char::is_uppercase) && month_number(w.trim_end_matches([',', '.', '!'])).is_some()
}

/// The date `new` moves its event to, with the preposition that goes
/// before it ("September 2025" -> "in September 2025", "12 June 2025" ->
/// "on 12 June 2025"), when it opens with "the" and names no one.
fn moved_to(new: &str) -> Option<String> {
    let after = moved_passive(new).or_else(|| moved_active(new))?;
    let date: Vec<&str> = after
        .split_whitespace()
        .take_while(|w| !matches!(*w, "because" | "due" | "since" | "as" | "after" | "and"))
        .collect();
    let date = date.join(" ");
    let date = date.trim_end_matches([',', '.', '!']);
    if date.is_empty() || date.split_whitespace().count() > 5 {
        return None;
    }
    let opens = date.split_whitespace().next()?;
    let day = weekday(&opens.to_lowercase()).is_some();
    let on = opens.starts_with(|c: char| c.is_ascii_digit()) || day;
    let dated =
        opens.starts_with(|c: char| c.is_ascii_digit()) || day || month(opens) || opens == "the";
    dated.then(|| format!("{} {date}", if on { "on" } else { "in" }))
}

/// What follows "The wedding got moved to": the date, when the event
/// opens with "the" and names no one.
fn moved_passive(new: &str) -> Option<&str> {
    let (i, p) = POSTPONED
        .iter()
        .find_map(|p| new.find(p).map(|i| (i, *p)))?;
    let subject = &new[..i];
    let first = subject.split_whitespace().next()?;
    if first != "The" || subject.contains("'s ") || subject.split_whitespace().count() > 3 {
        return None;
    }
    Some(&new[i + p.len()..])
}

/// What follows "Hana moved the wedding to": the date, when someone
/// named moved an event named by "the" (in a few words).
fn moved_active(new: &str) -> Option<&str> {
    let (i, p) = [
        " moved the ",
        " pushed the ",
        " rescheduled the ",
        " postponed the ",
    ]
    .iter()
    .find_map(|p| new.find(p).map(|i| (i, *p)))?;
    let who: Vec<&str> = new[..i].split_whitespace().collect();
    let named =
        (1..=2).contains(&who.len()) && who.iter().all(|w| w.starts_with(char::is_uppercase));
    let rest = &new[i + p.len()..];
    let (event, after) = rest
        .split_once(" to ")
        .or_else(|| rest.split_once(" until "))?;
    (named && !event.is_empty() && event.split_whitespace().count() <= 3).then_some(after)
}

/// The date `old` says, as written with its preposition: "in June 2025",
/// "on 3 June 2025", "in June"; `None` unless there is exactly one.
fn said_date(old: &str) -> Option<(usize, usize)> {
    let words: Vec<(usize, &str)> = old
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - old.as_ptr() as usize, w))
        .collect();
    let mut found = None;
    for (k, (_, w)) in words.iter().enumerate() {
        if !month(w) {
            continue;
        }
        // "on 3 June 2025": a day before the month
        let mut from = k;
        if from > 0 && words[from - 1].1.chars().all(|c| c.is_ascii_digit()) {
            from -= 1;
        }
        if from == 0 || !matches!(words[from - 1].1, "in" | "on") {
            return None;
        }
        from -= 1;
        let mut to = k;
        if words.get(k + 1).is_some_and(|(_, y)| {
            y.trim_end_matches([',', '.', '!'])
                .chars()
                .all(|c| c.is_ascii_digit())
        }) {
            to = k + 1;
        }
        if found.is_some() {
            return None;
        }
        let (end_at, end_w) = words[to];
        let end = end_at + end_w.trim_end_matches([',', '.', '!']).len();
        found = Some((words[from].0, end));
    }
    found
}

/// `old` on the date `new` moves its unowned event to (see the module
/// docs); `None` when `new` is no such move or `old` says no one date.
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    let mut to = moved_to(new)?;
    let (a, b) = said_date(old)?;
    // ("moved the wedding to October": the year of the date it was on,
    // or the next when the month comes before it)
    let was: Vec<&str> = old[a..b].split_whitespace().collect();
    let year = was.last().and_then(|y| y.parse::<i32>().ok());
    let month_to = to.strip_prefix("in ").and_then(month_number);
    let month_was = was.iter().find_map(|w| month_number(w));
    if let (Some(y), Some(m), Some(w)) = (year, month_to, month_was) {
        to = format!("{to} {}", if m >= w { y } else { y + 1 });
    }
    Some(format!("{}{to}{}", &old[..a], &old[b..]))
}

#[cfg(test)]
mod tests {
    use super::described;

    #[test]
    fn a_moved_event_takes_the_old_plan_to_its_new_date() {
        for (new, old, want) in [
            (
                "The wedding got moved to September 2025 because the vineyard double booked.",
                "Hana's sister Lena is getting married to Tom in June 2025.",
                Some("Hana's sister Lena is getting married to Tom in September 2025."),
            ),
            (
                "The check-up got moved to 9 April 2025.",
                "Greta has a check-up on 2 April 2025 with Dr. Okafor.",
                Some("Greta has a check-up on 9 April 2025 with Dr. Okafor."),
            ),
            (
                "Hana moved the wedding to October.",
                "Hana's partner Theo and Hana are getting married in September 2025 in Kyoto.",
                Some("Hana's partner Theo and Hana are getting married in October 2025 in Kyoto."),
            ),
            // whose it is said, or no date in the old fact, or two
            (
                "Kim's Tokyo trip was postponed until March.",
                "Kim is going to Tokyo in October.",
                None,
            ),
            (
                "The wedding got moved to September 2025.",
                "Lena is getting married to Tom.",
                None,
            ),
            (
                "The wedding got moved to September 2025.",
                "Lena moved from May 2024 to June 2025.",
                None,
            ),
        ] {
            assert_eq!(described(new, old).as_deref(), want, "{new}");
        }
    }
}
