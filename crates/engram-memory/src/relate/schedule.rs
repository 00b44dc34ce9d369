//! Two updates of something held at a value that moves on: a weekly
//! habit moved to another weekday ("Kenji is switching their lessons to
//! Thursdays" after "Kenji has lessons with their tutor Min-ji every
//! Tuesday evening") and a level reached ("Kenji passed TOPIK level 3"
//! after "Kenji is learning Korean, currently at TOPIK level 2"; "Ana got
//! her purple belt" after "Ana is a blue belt in judo").
//!
//! The new version keeps what the old one said beside the value
//! ([`described`]): "Kenji has lessons with their tutor Min-ji every
//! Thursday evening", "Kenji is learning Korean, currently at TOPIK level
//! 3". Reads the two facts' words only.

use super::slots::{lead_subject, normalise, same_subject};

/// The weekday a (lowercase) word names in full, and whether it is
/// plural ("thursdays"), read as the extractor's dates read it.
fn weekday(w: &str) -> Option<(chrono::Weekday, bool)> {
    let plural = w.strip_suffix('s');
    let day = plural.unwrap_or(w);
    crate::offline::dates::weekday(day)
        .filter(|_| day.ends_with("day"))
        .map(|d| (d, plural.is_some()))
}

/// Wordings that move something to a day: "switching X to Thursdays",
/// "moved X to Thursdays", "X are on Thursdays now".
const TO_DAY: &[&str] = &["to", "onto"];

/// The thing `new` (normalised words) moves to a weekday, and the day:
/// "switching their lessons to thursdays" -> ("lessons", Thu,
/// "thursday").
fn moved_to_day(words: &[&str]) -> Option<(String, chrono::Weekday, String)> {
    let moving = words.iter().position(|w| {
        matches!(
            *w,
            "switching"
                | "switched"
                | "moving"
                | "moved"
                | "move"
                | "switch"
                | "changing"
                | "changed"
        )
    })?;
    let to = (moving + 1..words.len()).find(|&i| TO_DAY.contains(&words[i]))?;
    let said = words.get(to + 1)?;
    let (day, plural) = weekday(said)?;
    let name = if plural {
        &said[..said.len() - 1]
    } else {
        said
    };
    // the thing moved: the last word before "to" ("their lessons")
    let thing = words[to - 1];
    (to > moving + 1 && thing.len() > 3).then(|| (thing.to_string(), day, name.to_string()))
}

/// The weekday a habit `old` (normalised words) is held on: "every
/// tuesday", "on tuesdays", "tuesday evenings".
fn held_on(words: &[&str]) -> Option<chrono::Weekday> {
    let days: Vec<chrono::Weekday> = words
        .iter()
        .filter_map(|w| weekday(w))
        .map(|(d, _)| d)
        .collect();
    let every = words.iter().enumerate().any(|(i, w)| {
        weekday(w).is_some_and(|(_, plural)| plural || (i > 0 && words[i - 1] == "every"))
    });
    match days.as_slice() {
        [d] if every => Some(*d),
        _ => None,
    }
}

/// Whether `new` moves the weekly habit `old` to another weekday.
pub(super) fn new_weekday(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let nw: Vec<&str> = n.split_whitespace().collect();
    let ow: Vec<&str> = o.split_whitespace().collect();
    let (Some((thing, day, _)), Some(was)) = (moved_to_day(&nw), held_on(&ow)) else {
        return false;
    };
    let stem = thing.trim_end_matches('s');
    day != was
        && ow.iter().any(|w| w.trim_end_matches('s') == stem)
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// Markers of a level and on which side their value stands: "level 2",
/// "grade 5", "band 7"; "blue belt".
fn level_of(words: &[&str]) -> Option<(String, String, String)> {
    let i = words
        .iter()
        .position(|w| matches!(*w, "level" | "grade" | "band" | "belt"))?;
    let marker = words[i].to_string();
    let (value, scale) = if marker == "belt" {
        (words.get(i.checked_sub(1)?)?.to_string(), String::new())
    } else {
        let scale = i
            .checked_sub(1)
            .map(|p| words[p])
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || w.len() >= 3)
            .unwrap_or("")
            .to_string();
        (words.get(i + 1)?.to_string(), scale)
    };
    let valued = value.chars().all(|c| c.is_ascii_digit())
        || (marker == "belt" && value.len() >= 3 && value.chars().all(char::is_alphabetic));
    valued.then_some((marker, scale, value))
}

/// Words that say a level was reached, or is held now.
const REACHED: &[&str] = &[
    "passed", "reached", "got", "earned", "achieved", "hit", "now", "made",
];

/// Whether `new` says the same subject reached another level of the same
/// scale `old` held.
pub(super) fn new_level(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let nw: Vec<&str> = n.split_whitespace().collect();
    let ow: Vec<&str> = o.split_whitespace().collect();
    let (Some((m1, s1, v1)), Some((m2, s2, v2))) = (level_of(&nw), level_of(&ow)) else {
        return false;
    };
    // (a scale word on one side only is the same scale: "level 3" said
    // after "TOPIK level 2" in the same talk; a level of the subject's own
    // is a different thing than a level someone reached in passing, so the
    // new fact must say it was reached)
    let same_scale = s1 == s2 || s1.is_empty() || s2.is_empty() || m1 == "belt";
    m1 == m2
        && same_scale
        && v1 != v2
        && nw.iter().any(|w| REACHED.contains(w))
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// The old fact told with the new value, when it says what the habit or
/// the level belongs to beside it: "Kenji has lessons with their tutor
/// Min-ji every Thursday evening"; `None` when the new fact already says
/// as much as the old.
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    if new_weekday(new, old) {
        let n = normalise(new);
        let (_, _, day) = moved_to_day(&n.split_whitespace().collect::<Vec<_>>())?;
        let day = format!("{}{}", day[..1].to_uppercase(), &day[1..]);
        let words: Vec<String> = old
            .split_whitespace()
            .map(|w| {
                let (lead, core, tail) = crate::offline::coref::parts(w);
                match weekday(&core.to_lowercase()) {
                    Some((_, plural)) => {
                        format!("{lead}{day}{}{tail}", if plural { "s" } else { "" })
                    }
                    None => w.to_string(),
                }
            })
            .collect();
        return Some(words.join(" "));
    }
    if new_level(new, old) {
        let nw: Vec<String> = normalise(new)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let nw: Vec<&str> = nw.iter().map(String::as_str).collect();
        let (marker, _, value) = level_of(&nw)?;
        let ow: Vec<&str> = old.split_whitespace().collect();
        let at = ow.iter().position(|w| {
            crate::offline::coref::parts(w)
                .1
                .eq_ignore_ascii_case(&marker)
        })?;
        let v = if marker == "belt" {
            at.checked_sub(1)?
        } else {
            at + 1
        };
        // only a level held in the old words ("at level 2", "is a blue
        // belt"), not one planned
        let held = ow[..at]
            .iter()
            .any(|w| matches!(w.to_lowercase().as_str(), "at" | "is" | "a" | "currently"));
        if !held {
            return None;
        }
        let mut out: Vec<String> = ow.iter().map(|w| w.to_string()).collect();
        let (lead, _, tail) = crate::offline::coref::parts(ow[v]);
        out[v] = format!("{lead}{value}{tail}");
        return Some(out.join(" "));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{described, new_level, new_weekday};

    #[test]
    fn a_weekly_habit_moved_to_another_day() {
        let old = "Kenji has lessons with their tutor Min-ji every Tuesday evening.";
        let new = "Kenji is switching their lessons to Thursdays from the week of 16 June 2025.";
        assert!(new_weekday(new, old));
        assert_eq!(
            described(new, old).as_deref(),
            Some("Kenji has lessons with their tutor Min-ji every Thursday evening.")
        );
        assert!(new_weekday(
            "Ana moved her yoga class to Mondays.",
            "Ana goes to a yoga class on Wednesdays."
        ));
        // another thing, another person, the same day
        assert!(!new_weekday(
            "Ana moved her piano lessons to Mondays.",
            "Ana goes to a yoga class on Wednesdays."
        ));
        assert!(!new_weekday(
            "Ben moved his yoga class to Mondays.",
            "Ana goes to a yoga class on Wednesdays."
        ));
        assert!(!new_weekday(
            "Ana moved her yoga class to Wednesdays.",
            "Ana goes to a yoga class on Wednesdays."
        ));
        // a one-off day is no habit
        assert!(!new_weekday(
            "Ana moved the meeting to Friday.",
            "Ana has a meeting on Tuesday."
        ));
    }

    #[test]
    fn a_level_reached() {
        let old = "Kenji is learning Korean, currently at TOPIK level 2.";
        let new = "Kenji passed TOPIK level 3 on 14 June 2025.";
        assert!(new_level(new, old));
        assert_eq!(
            described(new, old).as_deref(),
            Some("Kenji is learning Korean, currently at TOPIK level 3.")
        );
        assert!(new_level(
            "Ana got their purple belt.",
            "Ana is a blue belt in judo."
        ));
        assert_eq!(
            described("Ana got their purple belt.", "Ana is a blue belt in judo.").as_deref(),
            Some("Ana is a purple belt in judo.")
        );
        assert!(!new_level(
            "Ben passed TOPIK level 3.",
            "Kenji is currently at TOPIK level 2."
        ));
        assert!(!new_level(
            "Kenji passed TOPIK level 2.",
            "Kenji is currently at TOPIK level 2."
        ));
        assert!(!new_level(
            "Kenji passed HSK level 3.",
            "Kenji is currently at TOPIK level 2."
        ));
        // a level said without reaching it is another thing
        assert!(!new_level(
            "Kenji teaches level 3 students.",
            "Kenji is currently at TOPIK level 2."
        ));
    }
}
