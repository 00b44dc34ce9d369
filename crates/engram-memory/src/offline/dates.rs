//! Relative dates ("yesterday", "last week", "two years ago", "next
//! spring") resolved against the date a turn was said, rewritten in place
//! as absolute dates ("on 7 May 2023", "in the week of 1 May 2023", "in
//! April 2023", "in the spring of 2024"). Seasons are the northern
//! meteorological ones (spring from March, winter from December).

use chrono::{Datelike, Duration, NaiveDate, Weekday};

mod named_day;
mod tense;

use tense::tense_of;

/// The text with each relative date it recognises replaced, and the
/// resolved dates (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`).
pub fn resolve(text: &str, today: NaiveDate) -> (String, Vec<String>) {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut dates = Vec::new();
    // (a year said elsewhere in it says which June: "last year ... in June")
    let year_said = words.iter().any(|w| is_year_word(w))
        || words.windows(2).any(|p| {
            matches!(p[0].to_lowercase().as_str(), "last" | "this" | "next")
                && bare(p[1]).0 == "year"
        });
    // (a habit has no one date: "we used to go there in the summer")
    let habitual = words
        .windows(2)
        .any(|p| p[0].eq_ignore_ascii_case("used") && p[1].eq_ignore_ascii_case("to"))
        || words.iter().any(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "usually" | "always" | "every" | "often" | "sometimes" | "normally"
            )
        });
    let tense = tense_of(&words).filter(|_| !year_said && !habitual);
    // (a birthday comes every year: "my birthday is on June 3rd" says no
    // one year)
    let yearly = words.iter().any(|w| {
        let (b, _) = bare(w);
        b.starts_with("birthday") || b.starts_with("anniversar") || b == "bday"
    });
    let named_days = !year_said && !habitual && !yearly;
    let mut i = 0;
    while i < words.len() {
        // "is visiting in June": the June the tense points to
        let after_in = out.last().is_some_and(|w| w.eq_ignore_ascii_case("in"));
        // "got moved to September": where it is moved to is ahead
        let moved_to = out.len() >= 2
            && matches!(
                out[out.len() - 1].to_ascii_lowercase().as_str(),
                "to" | "until" | "till"
            )
            && {
                let verb = out[out.len() - 2].to_ascii_lowercase();
                // ("pushed back to")
                verb == "back" || crate::offline::lexicon::MOVE_VERBS.contains(&verb.as_str())
            };
        // ("my defence is sometime in June": an event one has is ahead)
        let event_is = tense.is_none()
            && named_days
            && words
                .iter()
                .any(|w| matches!(bare(w).0.as_str(), "is" | "are"))
            && words
                .iter()
                .any(|w| crate::offline::lexicon::is_personal_event(&bare(w).0));
        let month_ahead = if (moved_to || event_is) && named_days {
            Some(true)
        } else {
            tense.filter(|_| after_in)
        };
        // ("reading Tomorrow, and Tomorrow, and Tomorrow": a capital
        // inside a sentence is a title's, no day)
        let titled = i > 0
            && words[i].starts_with(char::is_uppercase)
            && !words[i - 1].ends_with(['.', '!', '?', ':'])
            && matches!(
                bare(words[i]).0.as_str(),
                "yesterday" | "today" | "tonight" | "tomorrow"
            );
        let found = (!titled)
            .then(|| phrase(&words[i..], today))
            .flatten()
            .or_else(|| bare_month(&words[i..], today, month_ahead))
            // ("my interview is on the 3rd": a day something is on is
            // ahead, unless the sentence says it is past)
            .or_else(|| {
                named_day::bare_day(&words[i..], today, named_day::said_ahead(&out, true, tense))
            })
            // "on Tuesday the 11th": the date that is both
            .or_else(|| {
                let ahead = named_day::said_ahead(&out, true, tense);
                named_day::weekday_dated(&words[i..], today, ahead)
            })
            // "first date is friday", "seeing each other again on Sunday"
            .or_else(|| {
                let ahead = named_day::said_ahead(&out, false, tense).filter(|_| named_days);
                named_day::named_weekday(&words[i..], today, ahead)
            })
            .or_else(|| {
                // "got moved to April 9th": where it is moved to is
                // ahead or near, whatever the tense of the move
                // (or where a span starts: "from March 24 to March 28")
                let target = out.last().is_some_and(|w| {
                    matches!(
                        w.to_ascii_lowercase().as_str(),
                        "to" | "until" | "till" | "from"
                    )
                });
                // "the check-up is on April 2nd": a day something is on
                // (or "is now on", "is still on")
                let copula = |w: &String| {
                    matches!(w.to_ascii_lowercase().as_str(), "is" | "are" | "was" | "'s")
                };
                let n = out.len();
                // or an event one has ("my chem final on December 12th")
                let dated = n >= 2
                    && out[n - 1].eq_ignore_ascii_case("on")
                    && (copula(&out[n - 2])
                        || crate::offline::lexicon::is_event(&out[n - 2])
                        || (n >= 3
                            && matches!(
                                out[n - 2].to_ascii_lowercase().as_str(),
                                "now" | "still" | "also"
                            )
                            && copula(&out[n - 3])));
                // (a sentence that says neither: "I love it on the 20th
                // of July" may mean every year)
                let ahead = tense.filter(|_| !target);
                // ("in Tokyo April 3 to 8": a span of days is a date)
                let span = words.len() > i + 2 && day_range_end(&words[i + 2..]).is_some();
                (named_days && (ahead.is_some() || target || dated || span))
                    .then(|| named_day::named_day(&words[i..], today, ahead))
                    .flatten()
            })
            .or_else(|| {
                let after_span = out.last().is_some_and(|w| {
                    matches!(w.to_ascii_lowercase().as_str(), "over" | "during" | "in")
                });
                bare_season(&words[i..], today, tense.filter(|_| after_span))
            });
        match found {
            Some((used, when, trailing)) => {
                // "on yesterday" reads badly: a preposition before it goes
                let prev = out.last().map(|w| w.to_ascii_lowercase());
                if matches!(
                    prev.as_deref(),
                    Some("on" | "in" | "during" | "at" | "over")
                ) {
                    out.pop();
                }
                // "in January last year": the year joins the month
                let is_month = |w: &String| MONTHS.iter().any(|m| m.eq_ignore_ascii_case(w));
                // ("June 14th next year": "June 14th, 2025")
                let day_before = out.len() >= 2
                    && is_month(&out[out.len() - 2])
                    && out.last().is_some_and(|w| {
                        let d = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
                        !d.is_empty() && d.len() <= 2 && d.chars().all(|c| c.is_ascii_digit())
                    });
                if day_before && matches!(when, When::Year(_)) {
                    if let Some(last) = out.last_mut() {
                        last.push(',');
                    }
                }
                let month_before = out.last().is_some_and(is_month) || day_before;
                // "pushed to next spring": "to the spring of 2024", not
                // "to in the spring of 2024"
                let joined = matches!(
                    out.last().map(|w| w.to_ascii_lowercase()).as_deref(),
                    Some(
                        "to" | "until"
                            | "till"
                            | "by"
                            | "from"
                            | "since"
                            | "before"
                            | "after"
                            | "for"
                    )
                );
                let text = when.text();
                let text = match text.split_once(' ') {
                    Some(("in" | "on", rest)) if joined => rest.to_string(),
                    _ => text,
                };
                // "October 3 to 17": from one day to another of the month
                let (text, used, trailing) = match (when, day_range_end(&words[i + used..])) {
                    (When::Day(d), Some((end, more, punct)))
                        if trailing.is_empty() && !joined && end > d.day() =>
                    {
                        let month = MONTHS[d.month0() as usize];
                        let from = format!("from {} to {end} {month} {}", d.day(), d.year());
                        (from, used + more, punct)
                    }
                    _ => (text, used, trailing),
                };
                match when {
                    When::Year(y) if month_before => out.push(format!("{y}{trailing}")),
                    _ => out.push(format!("{text}{trailing}")),
                }
                dates.push(when.iso());
                // "Tomorrow is my birthday": "my birthday is on 9 May"
                if i == 0 && trailing.is_empty() {
                    let verb = words.get(used).map(|w| w.to_ascii_lowercase());
                    if let Some(v @ ("is" | "was")) = verb.as_deref() {
                        let rest = words[used + 1..].join(" ");
                        let end = rest.trim_end_matches(['.', '!', '?']);
                        let punct = &rest[end.len()..];
                        if !end.is_empty() {
                            let when_text = when.text();
                            let mut tail: Vec<String> = Vec::new();
                            // later phrases of the rest resolve too
                            let (end, more) = resolve(end, today);
                            dates.extend(more);
                            tail.push(format!("{end} {v} {when_text}{punct}"));
                            return (tail.join(" "), dates);
                        }
                    }
                }
                i += used;
            }
            None => {
                out.push(words[i].to_string());
                i += 1;
            }
        }
    }
    (out.join(" "), dates)
}

/// The last day of a range after a day ("to 17", "- 17", "until the
/// 17th"), when it names no month of its own: the day, how many words it
/// spans and the punctuation after it.
fn day_range_end<'a>(words: &[&'a str]) -> Option<(u32, usize, &'a str)> {
    let (to, p) = bare(words.first()?);
    if !p.is_empty() || !matches!(to.as_str(), "to" | "until" | "till" | "through" | "-") {
        return None;
    }
    let (d, punct) = bare(words.get(1)?);
    let digits = d.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let day: u32 = digits.parse().ok().filter(|d| (1..=31).contains(d))?;
    // ("to 17 November": a month of its own is another date)
    let month_next = punct.is_empty()
        && words
            .get(2)
            .is_some_and(|m| month_number(&bare(m).0).is_some());
    (!month_next).then_some((day, 2, punct))
}

/// A resolved date and how precise it is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum When {
    Day(NaiveDate),
    Week(NaiveDate),
    Weekend(NaiveDate),
    Month(i32, u32),
    Year(i32),
    /// A season by the year and month it starts in.
    Season(i32, u32),
}

pub(crate) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl When {
    fn text(self) -> String {
        let day =
            |d: NaiveDate| format!("{} {} {}", d.day(), MONTHS[d.month0() as usize], d.year());
        match self {
            When::Day(d) => format!("on {}", day(d)),
            When::Week(d) => format!("in the week of {}", day(d)),
            When::Weekend(d) => format!("on the weekend of {}", day(d)),
            When::Month(y, m) => format!("in {} {y}", MONTHS[m as usize - 1]),
            When::Year(y) => format!("in {y}"),
            When::Season(y, 12) => format!("in the winter of {y}-{:02}", (y + 1) % 100),
            When::Season(y, m) => {
                let name = match m {
                    3 => "spring",
                    6 => "summer",
                    _ => "fall",
                };
                format!("in the {name} of {y}")
            }
        }
    }

    fn iso(self) -> String {
        match self {
            When::Day(d) | When::Week(d) | When::Weekend(d) => d.format("%Y-%m-%d").to_string(),
            When::Month(y, m) => format!("{y}-{m:02}"),
            When::Year(y) | When::Season(y, _) => format!("{y}"),
        }
    }
}

/// A word without surrounding punctuation, lowercased, and the punctuation
/// that followed it.
fn bare(w: &str) -> (String, &str) {
    let end = w
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    (w[..end].to_ascii_lowercase(), &w[end..])
}

fn number(w: &str) -> Option<i64> {
    match w {
        "a" | "an" => Some(1),
        "couple" => Some(2),
        _ => super::lexicon::number(w).filter(|n| (1..=100).contains(n)),
    }
}

/// Whether `w` (a bare word, any case) names a month or a day of the
/// week ("April", "tuesday", "Tue"): the words a calendar names a day by.
pub(crate) fn names_a_day(w: &str) -> bool {
    MONTHS.iter().any(|m| m.eq_ignore_ascii_case(w)) || w.parse::<Weekday>().is_ok()
}

/// A day of the week, in full or cut short as people write it ("last
/// Fri"; only ever read after "last").
pub(crate) fn weekday(w: &str) -> Option<Weekday> {
    Some(match w {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" | "tues" => Weekday::Tue,
        "wednesday" | "wed" => Weekday::Wed,
        "thursday" | "thu" | "thur" | "thurs" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" | "sat" => Weekday::Sat,
        "sunday" | "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// The month a season starts in.
fn season(w: &str) -> Option<u32> {
    Some(match w {
        "spring" => 3,
        "summer" => 6,
        "fall" | "autumn" => 9,
        "winter" => 12,
        _ => return None,
    })
}

/// "last", "this" or "next" season starting in month `s`, said on `today`:
/// this one is the one of today's year (a winter that began last December
/// while it is January or February); last, the latest that has ended; next,
/// the first still to start.
fn season_of(which: &str, s: u32, today: NaiveDate) -> When {
    let start = |y: i32| NaiveDate::from_ymd_opt(y, s, 1).expect("a season's first day");
    let this = if s == 12 && today.month() <= 2 {
        today.year() - 1
    } else {
        today.year()
    };
    let year = match which {
        "last" => {
            let (ey, em) = add_months(this, s, 3);
            let ended = NaiveDate::from_ymd_opt(ey, em, 1).expect("a month's first day") <= today;
            if ended {
                this
            } else {
                this - 1
            }
        }
        "next" if start(this) <= today => this + 1,
        _ => this,
    };
    When::Season(year, s)
}

/// A month's number (1 for January) from its name.
pub(crate) fn month_number(w: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|n| n.eq_ignore_ascii_case(w))
        .map(|i| i as u32 + 1)
}

fn monday_of(d: NaiveDate) -> NaiveDate {
    d - Duration::days(d.weekday().num_days_from_monday() as i64)
}

fn add_months(y: i32, m: u32, delta: i32) -> (i32, u32) {
    let total = y * 12 + (m as i32 - 1) + delta;
    (total.div_euclid(12), (total.rem_euclid(12) + 1) as u32)
}

/// Whether `w` is a year ("2024", "2024.").
fn is_year_word(w: &str) -> bool {
    let (b, _) = bare(w);
    b.len() == 4 && b.starts_with(['1', '2']) && b.chars().all(|c| c.is_ascii_digit())
}

/// "June" after "in", with no year after it, as the June `ahead` points to:
/// the next one (this month included) for what is ahead, the last one
/// for what is done.
fn bare_month<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let ahead = ahead?;
    let first = words.first()?;
    let (name, punct) = bare(first);
    // a name, capitalised ("in may" may be anything)
    if !first.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let want = month_number(&name)?;
    // "in June 2025", "in June 12": said already
    let said = words
        .get(1)
        .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
    if said && punct.is_empty() {
        return None;
    }
    let (y, m) = (today.year(), today.month());
    let year = match ahead {
        true if want < m => y + 1,
        false if want > m => y - 1,
        _ => y,
    };
    Some((1, When::Month(year, want), punct))
}

/// The word after an opening "the" (lowercased) and the punctuation after
/// it, unless "of" follows ("the 20th of July", "the summer of 2019" say
/// what they are of).
pub(super) fn the_alone<'a>(words: &[&'a str]) -> Option<(String, &'a str)> {
    if bare(words.first()?).0 != "the" {
        return None;
    }
    let (word, punct) = bare(words.get(1)?);
    let of = punct.is_empty() && words.get(2).is_some_and(|w| bare(w).0 == "of");
    (!of).then_some((word, punct))
}

/// "the summer" after "over", "during" or "in", said alone: the season
/// the tense points to ("we moved over the summer", said in September:
/// this year's; "we're going in the spring", said in October: next
/// year's). Not "the summer of 2019", which says its year.
fn bare_season<'a>(
    words: &[&'a str],
    today: NaiveDate,
    ahead: Option<bool>,
) -> Option<(usize, When, &'a str)> {
    let ahead = ahead?;
    let (name, punct) = the_alone(words)?;
    let s = season(&name)?;
    // ahead: this one unless it has ended; done: this one once it has
    // started, else last year's
    let this = season_of("this", s, today);
    let When::Season(y, _) = this else {
        return None;
    };
    let start = NaiveDate::from_ymd_opt(y, s, 1)?;
    let (ey, em) = add_months(y, s, 3);
    let end = NaiveDate::from_ymd_opt(ey, em, 1)?;
    let year = match ahead {
        true if end <= today => y + 1,
        false if start > today => y - 1,
        _ => y,
    };
    Some((2, When::Season(year, s), punct))
}

/// A relative date at the start of `words`: how many words it spans, the
/// date, and the punctuation after its last word.
fn phrase<'a>(words: &[&'a str], today: NaiveDate) -> Option<(usize, When, &'a str)> {
    let (w0, p0) = bare(words.first()?);
    let next = words.get(1).map(|w| bare(w));
    let third = words.get(2).map(|w| bare(w));
    let one = |when| Some((1, when, p0));
    match w0.as_str() {
        "yesterday" => return one(When::Day(today - Duration::days(1))),
        "today" | "tonight" => return one(When::Day(today)),
        "tomorrow" => return one(When::Day(today + Duration::days(1))),
        _ => {}
    }
    let (w1, p1) = next?;
    let two = |when| Some((2, when, p1));
    let (y, m) = (today.year(), today.month());
    match (w0.as_str(), w1.as_str()) {
        ("last", "night") => return two(When::Day(today - Duration::days(1))),
        ("this", "morning" | "afternoon" | "evening") => return two(When::Day(today)),
        ("last", "week") => return two(When::Week(monday_of(today - Duration::days(7)))),
        ("this", "week") => return two(When::Week(monday_of(today))),
        ("next", "week") => return two(When::Week(monday_of(today + Duration::days(7)))),
        ("last", "weekend") => {
            // the Saturday of the last weekend that has ended
            let back = (today.weekday().num_days_from_monday() as i64 + 2) % 7;
            let back = if back < 2 { back + 7 } else { back };
            return two(When::Weekend(today - Duration::days(back)));
        }
        ("this", "weekend") => {
            let ahead = (5 - today.weekday().num_days_from_monday() as i64).rem_euclid(7);
            let sat = if today.weekday() == Weekday::Sun {
                today - Duration::days(1)
            } else {
                today + Duration::days(ahead)
            };
            return two(When::Weekend(sat));
        }
        ("last", "month") => {
            let (y, m) = add_months(y, m, -1);
            return two(When::Month(y, m));
        }
        ("this", "month") => return two(When::Month(y, m)),
        ("next", "month") => {
            let (y, m) = add_months(y, m, 1);
            return two(When::Month(y, m));
        }
        ("last" | "this" | "next", s) if season(s).is_some() => {
            return two(season_of(&w0, season(s)?, today));
        }
        // "next June": the first June after this month; "last June", the
        // latest before it ("may" only as a name: "the last may be ...")
        ("last" | "this" | "next", month)
            if month_number(month).is_some() && (month != "may" || words[1].starts_with('M')) =>
        {
            let want = month_number(month)?;
            let year = match w0.as_str() {
                "next" if want <= m => y + 1,
                "last" if want >= m => y - 1,
                _ => y,
            };
            return two(When::Month(year, want));
        }
        ("last", "year") => return two(When::Year(y - 1)),
        ("this", "year") => return two(When::Year(y)),
        ("next", "year") => return two(When::Year(y + 1)),
        // "next Tuesday": that day of next week (said on a Monday, eight
        // days on); "this Tuesday": the coming one
        ("next", day) if weekday(day).is_some() => {
            let wd = weekday(day)?;
            let monday = monday_of(today + Duration::days(7));
            return two(When::Day(
                monday + Duration::days(wd.num_days_from_monday() as i64),
            ));
        }
        ("this", day) if weekday(day).is_some() => {
            let wd = weekday(day)?;
            let ahead = (wd.num_days_from_monday() as i64
                - today.weekday().num_days_from_monday() as i64)
                .rem_euclid(7);
            return two(When::Day(today + Duration::days(ahead)));
        }
        ("last", day) => {
            if let Some(wd) = weekday(day) {
                let back = (today.weekday().num_days_from_monday() as i64
                    - wd.num_days_from_monday() as i64)
                    .rem_euclid(7);
                let back = if back == 0 { 7 } else { back };
                return two(When::Day(today - Duration::days(back)));
            }
        }
        _ => {}
    }
    // "two weeks ago", "a few days ago" is too vague and stays as it is
    let n = number(&w0)?;
    let (w2, p2) = third?;
    if w2 != "ago" {
        return None;
    }
    let when = match w1.trim_end_matches('s') {
        "day" => When::Day(today - Duration::days(n)),
        "week" => When::Week(monday_of(today - Duration::days(7 * n))),
        "month" => {
            let (y, m) = add_months(y, m, -(n as i32));
            When::Month(y, m)
        }
        "year" => When::Year(y - n as i32),
        _ => return None,
    };
    Some((3, when, p2))
}

#[cfg(test)]
#[path = "dates_tests.rs"]
mod tests;
