//! A day a calendar names with no year said ("April 9th", "9 April", "the
//! 9th of April"): the year is the one the sentence points to, read
//! against the day it was said. Ahead ("is flying on June 3rd"): the next
//! such day; done ("got married on June 3rd"): the last; a target of a
//! move ("got moved to April 9th") or a sentence that says neither: the
//! nearest. A weekday said alone ("first date is friday") and a day of
//! the month said alone ("on the 3rd") are the next such day when ahead,
//! the last one when done; a weekday with its day ("Tuesday the 11th")
//! is the date near that is both.

use super::{bare, month_number, the_alone, weekday, When};
use chrono::{Datelike, Duration, NaiveDate};

/// The day of the month of an ordinal or number ("9th", "9", "21st").
fn day_number(w: &str) -> Option<u32> {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

/// Of `candidates` (in order), the first on or after `today` when
/// `ahead`, the last on or before it when done, the nearest when not
/// known.
fn pick(candidates: Vec<NaiveDate>, today: NaiveDate, ahead: Option<bool>) -> Option<NaiveDate> {
    match ahead {
        Some(true) => candidates.into_iter().find(|d| *d >= today),
        Some(false) => candidates.into_iter().rev().find(|d| *d <= today),
        None => candidates
            .into_iter()
            .min_by_key(|d| (*d - today).num_days().abs()),
    }
}

/// A month's name as written: capitalised, and no other punctuation than
/// what ends the phrase.
fn month_of(w: &str) -> Option<(u32, &str)> {
    if !w.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let (name, punct) = bare(w);
    Some((month_number(&name)?, punct))
}

/// "April 9th", "9 April" or "the 9th of April" at the start of `words`,
/// with no year after it: the day, how many words it spans and the
/// punctuation after it. `ahead` as [`super::tense::tense_of`] reads it, `None`
/// for the nearest such day.
pub(super) fn named_day<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let (month, day, used, punct) = match words {
        [m, d, ..] if month_of(m).is_some_and(|(_, p)| p.is_empty()) => {
            let (d, punct) = bare(d);
            (month_of(m)?.0, day_number(&d)?, 2, punct)
        }
        [the, d, of, m, ..] if bare(the).0 == "the" && bare(of).0 == "of" => {
            let (d, p) = bare(d);
            if !p.is_empty() {
                return None;
            }
            let (month, punct) = month_of(m)?;
            (month, day_number(&d)?, 4, punct)
        }
        [d, m, ..] if bare(d).1.is_empty() && d.starts_with(|c: char| c.is_ascii_digit()) => {
            let (month, punct) = month_of(m)?;
            (month, day_number(&bare(d).0)?, 2, punct)
        }
        _ => return None,
    };
    // "April 9th 2025", "9 April, 2025": the year is said
    let next = words.get(used).map(|w| bare(w).0);
    let year = next.is_some_and(|n| n.len() == 4 && n.chars().all(|c| c.is_ascii_digit()));
    if (punct.is_empty() || punct == ",") && year {
        return None;
    }
    let on = |y: i32| NaiveDate::from_ymd_opt(y, month, day);
    let y = today.year();
    let candidates: Vec<NaiveDate> = [y - 1, y, y + 1].into_iter().filter_map(on).collect();
    let date = pick(candidates, today, ahead)?;
    Some((used, When::Day(date), punct))
}

/// A weekday said alone ("Friday", "sunday"), not "Friday night" or a
/// list of days: the next such day when `ahead`, else the last one (never
/// the day it was said on).
pub(super) fn named_weekday<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let ahead = ahead?;
    let (name, punct) = bare(words.first()?);
    let wd = weekday(&name).filter(|_| name.len() > 4)?;
    // ("Friday night", "Sunday morning": a part of it, said as is)
    let part = words.get(1).is_some_and(|n| {
        matches!(
            bare(n).0.as_str(),
            "night" | "morning" | "afternoon" | "evening" | "nights"
        )
    });
    // ("Saturday and Sunday": a list of days, each as is)
    let listed = words
        .get(1)
        .is_some_and(|n| matches!(bare(n).0.as_str(), "and" | "or"))
        && words.get(2).is_some_and(|d| weekday(&bare(d).0).is_some());
    if punct.is_empty() && (part || listed) {
        return None;
    }
    let gap = (wd.num_days_from_monday() as i64 - today.weekday().num_days_from_monday() as i64)
        .rem_euclid(7);
    let date = if ahead {
        today + Duration::days(if gap == 0 { 7 } else { gap })
    } else {
        let back = (7 - gap).rem_euclid(7);
        today - Duration::days(if back == 0 { 7 } else { back })
    };
    Some((1, When::Day(date), punct))
}

/// A weekday with its day of the month ("Tuesday the 11th", "Friday
/// 3rd"): the date near `today` that is both, ahead or past as `ahead`
/// says (the nearest when not known); `None` when no month near has that
/// day on that weekday.
pub(super) fn weekday_dated<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let (name, lead) = bare(words.first()?);
    let wd = weekday(&name).filter(|_| name.len() > 4 && lead.is_empty())?;
    let the = words.get(1).is_some_and(|w| bare(w).0 == "the");
    let at = 1 + usize::from(the);
    let (ordinal, punct) = bare(words.get(at)?);
    let digits = ordinal.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &ordinal[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !matches!(suffix, "st" | "nd" | "rd" | "th") {
        return None;
    }
    let day: u32 = digits.parse().ok()?;
    let first = today.with_day(1)?;
    let candidates: Vec<NaiveDate> = (-2..=3)
        .filter_map(|k: i32| {
            let months = chrono::Months::new(k.unsigned_abs());
            let month = if k < 0 {
                first.checked_sub_months(months)
            } else {
                first.checked_add_months(months)
            }?;
            month.with_day(day)
        })
        .filter(|d| d.weekday() == wd)
        .collect();
    let date = pick(candidates, today, ahead)?;
    Some((at + 1, When::Day(date), punct))
}

/// "the 20th" after "on", said alone: the day of the month the tense
/// points to ("is moving in on the 20th", said on 2 July: 20 July; "moved
/// in on the 20th": 20 June). Not "the 20th of July", which says its month.
pub(super) fn bare_day<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let ahead = ahead?;
    let (ordinal, punct) = the_alone(words)?;
    let digits = ordinal.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &ordinal[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !matches!(suffix, "st" | "nd" | "rd" | "th") {
        return None;
    }
    let day: u32 = digits.parse().ok()?;
    let (y, m) = (today.year(), today.month());
    let month_of = |back: bool| {
        let (y, m) = match (back, m) {
            (false, 12) => (y + 1, 1),
            (false, m) => (y, m + 1),
            (true, 1) => (y - 1, 12),
            (true, m) => (y, m - 1),
        };
        NaiveDate::from_ymd_opt(y, m, day)
    };
    let date = match ahead {
        true if day > today.day() => NaiveDate::from_ymd_opt(y, m, day),
        true => month_of(false),
        false if day < today.day() => NaiveDate::from_ymd_opt(y, m, day),
        false => month_of(true),
    }?;
    Some((2, When::Day(date), punct))
}

/// Whether a day said next (after the words `out`) is ahead: after "is"
/// (and "on", when `on_only`) it is, unless the tense says it is past;
/// after "was" it is past (weekdays only); after "on" alone, as the tense
/// says; else not known.
pub(super) fn said_ahead(out: &[String], on_only: bool, tense: Option<bool>) -> Option<bool> {
    let from_end = |k: usize| {
        out.len()
            .checked_sub(k)
            .map(|i| out[i].to_ascii_lowercase())
    };
    let after_on = from_end(1).as_deref() == Some("on");
    // "on holiday until the 10th", "done by the 15th": a day ahead,
    // unless the tense is past
    if on_only && matches!(from_end(1).as_deref(), Some("until" | "till" | "by")) {
        return Some(tense.unwrap_or(true));
    }
    // ("we fly out to Iceland Friday": where to, between)
    let to_place = !on_only && from_end(2).as_deref() == Some("to");
    let be = if on_only {
        from_end(2).filter(|_| after_on)
    } else if to_place {
        from_end(3)
    } else {
        from_end(1)
    };
    match be.as_deref() {
        Some("is" | "'s") => Some(tense.unwrap_or(true)),
        Some("was") if !on_only => Some(false),
        // "we fly out Friday", "she starts Monday": setting off or
        // starting, ahead unless the tense is past
        Some(
            "out" | "off" | "leave" | "leaves" | "fly" | "flies" | "arrive" | "arrives" | "start"
            | "starts",
        ) if !on_only => Some(tense.unwrap_or(true)),
        _ => tense.filter(|_| after_on),
    }
}
