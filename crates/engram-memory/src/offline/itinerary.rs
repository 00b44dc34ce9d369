//! A trip written down as a note: a stop per line ("Tokyo: April 3-8,
//! staying at Hotel Gracery Shinjuku") and what is not to be missed ("Must
//! do: teamLab, a cooking class in Osaka"). [`super::notes`] says each as
//! the writer's sentence: "I'm in Tokyo April 3 to 8, staying at
//! Hotel Gracery Shinjuku.", "I want to do teamLab and a cooking class in
//! Osaka.". A stop is a place's name as the label and a day of a month
//! opening the value; anything else is left to the note's other rules.
//! Reads text only.

use super::dates::MONTHS;

/// Labels of what one wants to do or see on a trip.
const MUST: &[(&str, &str)] = &[
    ("must do", "do"),
    ("must-do", "do"),
    ("must see", "see"),
    ("must-see", "see"),
    ("must try", "try"),
    ("must eat", "eat"),
    ("want to see", "see"),
    ("want to do", "do"),
    ("to book", "book"),
    ("still to book", "book"),
];

/// Labels of a day that name no place ("Date: May 3", "Due: June 1").
const NOT_PLACES: &[&str] = &[
    "date", "dates", "day", "when", "time", "due", "start", "starts", "end", "ends", "from",
    "until", "updated", "created", "posted", "sent", "deadline", "today", "tomorrow", "next",
];

/// Whether `w` is a month's name as written ("April", "Apr").
fn month(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.']);
    w.len() >= 3 && w.starts_with(char::is_uppercase) && MONTHS.iter().any(|m| m.starts_with(w))
}

/// "3-8" (or "3–8") as "3 to 8"; other words as they are.
fn span(w: &str) -> String {
    let core = w.trim_end_matches([',', '.']);
    let tail = &w[core.len()..];
    match core.split_once(['-', '\u{2013}']) {
        Some((a, b))
            if !a.is_empty()
                && !b.is_empty()
                && a.chars().all(|c| c.is_ascii_digit())
                && b.chars().all(|c| c.is_ascii_digit()) =>
        {
            format!("{a} to {b}{tail}")
        }
        _ => w.to_string(),
    }
}

/// A stop of a trip (`label` a place's name, `value` opening with a day:
/// "April 3-8, staying at ..."), said as where the writer is then.
pub(super) fn stop_said(label: &str, value: &str) -> Option<String> {
    let mut words = value.split_whitespace();
    let (first, second) = (words.next()?, words.next()?);
    let day = second.starts_with(|c: char| c.is_ascii_digit());
    let place = label.split_whitespace().all(super::intro::is_name_word)
        && !super::lexicon::is_event(label)
        && !NOT_PLACES.contains(&label.to_lowercase().as_str())
        && !month(label);
    if !(month(first) && day && place) {
        return None;
    }
    let said: Vec<String> = value.split_whitespace().map(span).collect();
    // (the date reads "from 3 to 8 April 2025" once resolved)
    Some(format!("I'm in {label} {}", said.join(" ")))
}

/// A trip note's title ("Trip plan - Lisbon, 3-7 June") said as where the
/// writer is going and when: "I'm going to Lisbon from 3 to 7 June".
pub(super) fn trip_title(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    let head = [
        "trip plan",
        "travel plan",
        "holiday plan",
        "itinerary",
        "trip",
        "holiday",
    ]
    .iter()
    .find(|h| lower.starts_with(*h))?;
    let rest = line[head.len()..]
        .trim_start_matches('s')
        .trim_start()
        .strip_prefix(['-', ':', '\u{2013}', '\u{2014}'])?
        .trim();
    let (place, when) = match rest.split_once(", ") {
        Some((p, w)) => (p.trim(), Some(w.trim())),
        None => (rest, None),
    };
    if place.is_empty() || !place.split_whitespace().all(super::intro::is_name_word) {
        return None;
    }
    let when: Vec<String> = when
        .map(|w| w.split_whitespace().map(span).collect())
        .unwrap_or_default();
    let from = if when.first().is_some_and(|w| w.contains(" to ")) {
        "from "
    } else {
        ""
    };
    Some(if when.is_empty() {
        format!("I'm going to {place}")
    } else {
        format!("I'm going to {place} {from}{}", when.join(" "))
    })
}

/// What not to miss (`label` "Must do", "Must see"), said as what the
/// writer wants: "I want to do teamLab, Fushimi Inari at sunrise and a
/// cooking class in Osaka".
pub(super) fn wants_said(label: &str, value: &str) -> Option<String> {
    let key = label.to_lowercase();
    let (_, verb) = MUST.iter().find(|(l, _)| *l == key)?;
    let value = value.trim_end_matches('.');
    let value = match value.rsplit_once(", ") {
        Some((head, last)) if !last.starts_with("and ") => format!("{head} and {last}"),
        _ => value.to_string(),
    };
    Some(format!("I want to {verb} {value}"))
}

#[cfg(test)]
mod tests {
    use super::{stop_said, wants_said};

    #[test]
    fn a_trip_title_says_where_and_when() {
        assert_eq!(
            super::trip_title("Trip plan - Lisbon, 3-7 June").as_deref(),
            Some("I'm going to Lisbon from 3 to 7 June")
        );
        assert_eq!(
            super::trip_title("Holiday: Crete").as_deref(),
            Some("I'm going to Crete")
        );
        assert_eq!(super::trip_title("Trip notes"), None);
        assert_eq!(super::trip_title("Trip - was great"), None);
    }

    #[test]
    fn a_stop_is_where_the_writer_is() {
        assert_eq!(
            stop_said("Tokyo", "April 3-8, staying at Hotel Gracery Shinjuku").as_deref(),
            Some("I'm in Tokyo April 3 to 8, staying at Hotel Gracery Shinjuku")
        );
        assert_eq!(
            stop_said("Osaka", "April 12-14").as_deref(),
            Some("I'm in Osaka April 12 to 14")
        );
        // a schedule's label, or no day
        assert_eq!(stop_said("Deadline", "April 3"), None);
        assert_eq!(stop_said("Date", "May 3"), None);
        assert_eq!(stop_said("Wedding", "June 12"), None);
        assert_eq!(stop_said("Tokyo", "great food"), None);
    }

    #[test]
    fn what_not_to_miss_is_wanted() {
        assert_eq!(
            wants_said(
                "Must do",
                "teamLab, Fushimi Inari at sunrise, a cooking class in Osaka."
            )
            .as_deref(),
            Some("I want to do teamLab, Fushimi Inari at sunrise and a cooking class in Osaka")
        );
        assert_eq!(wants_said("Budget", "4000 EUR"), None);
    }
}
