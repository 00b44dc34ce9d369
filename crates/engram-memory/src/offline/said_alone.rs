//! What a fragment said alone amounts to, read for the slot the question
//! before it left: a duration ("5 years already"), a frequency ("every
//! Sunday"), a count ("three"), a time ("back in 2015"), a place, an age;
//! and the question's own doing said by the one answering ("go running
//! these days" as "go running"), a plan, a thing, an occupation ("data
//! scientist at Skyscanner"). [`super::short_answers`] puts them into the
//! speaker's sentence ([`super::said_listed`] reads answers that list).
//! Reads text only.

use super::clauses::{bare, is_verbish};
use super::short_answers::mine;

/// What the question asked "you" about, said by the one answering: "go
/// running these days" as "go running" (`past`: "start painting" as
/// "started painting"). It must open with a verb, after at most an adverb
/// of habit ("usually go"), and hold no second question or clause.
pub(super) fn doing_phrase(doing: &str, past: bool) -> Option<String> {
    use super::lexicon::{past_of, verb, VerbForm};
    let mut words: Vec<&str> = doing.split_whitespace().collect();
    // time words that end the question are the answer's to say
    for tail in [
        &["these", "days"][..],
        &["nowadays"],
        &["now"],
        &["lately"],
        &["again"],
    ] {
        if words.ends_with(tail) {
            words.truncate(words.len() - tail.len());
        }
    }
    let habit = words.first().is_some_and(|w| {
        matches!(
            *w,
            "usually" | "normally" | "typically" | "generally" | "still" | "actually"
        )
    });
    let at = usize::from(habit);
    let first = words.get(at)?;
    if words.len() > 8 || !matches!(verb(first), Some((_, VerbForm::Base))) {
        return None;
    }
    // ("when did you start it?": the answer would not say what)
    if words
        .iter()
        .any(|w| points_elsewhere(w) || matches!(*w, "him" | "her"))
    {
        return None;
    }
    // ("how often do you think you'll ...": no habit asked about)
    if matches!(
        *first,
        "think" | "feel" | "mean" | "say" | "want" | "need" | "wish"
    ) || words[at + 1..].iter().any(|w| {
        matches!(
            *w,
            "you" | "you'll" | "you'd" | "and" | "or" | "if" | "when"
        )
    }) {
        return None;
    }
    let mut said: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if past {
        said[at] = past_of(first)?;
    }
    Some(mine(&said.join(" ")))
}

/// What the question asked "you" had done, said by the one answering:
/// "lived in Denver" (a participle first, nothing pointed at: "worked
/// there" would not say where).
pub(super) fn done_phrase(done: &str) -> Option<String> {
    use super::lexicon::{verb, VerbForm};
    let said: Vec<&str> = done.split_whitespace().collect();
    let participle = said
        .first()
        .is_some_and(|w| matches!(verb(&bare(w)), Some((_, VerbForm::Past))));
    let pointing = said.iter().any(|w| {
        let b = bare(w);
        points_elsewhere(&b) || b == "here"
    });
    if !participle || pointing || said.len() > 6 {
        return None;
    }
    Some(mine(done))
}

/// A word that points at something said elsewhere ("it", "there").
fn points_elsewhere(w: &str) -> bool {
    matches!(
        w,
        "it" | "that" | "this" | "them" | "those" | "these" | "there"
    )
}

/// A frequency said alone: "Three times a week", "Every Sunday", "Twice
/// a month", "Most weekends", "Daily"; its opening word lowercased unless
/// a name ("Sundays"). No verb, no hedge ("Not very often").
pub(super) fn frequency(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let marker = lower.iter().any(|w| {
        matches!(
            w.as_str(),
            "once"
                | "twice"
                | "times"
                | "every"
                | "each"
                | "daily"
                | "weekly"
                | "monthly"
                | "yearly"
                | "nightly"
                | "weekend"
                | "weekends"
                | "mornings"
                | "evenings"
                | "nights"
        ) || (w.ends_with("days") && w.len() > 6)
    });
    let opens_badly = lower.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "not" | "no" | "never" | "hardly" | "rarely" | "maybe" | "depends" | "it"
        )
    });
    if !marker || opens_badly || words.len() > 6 || words.iter().any(|w| is_verbish(w)) {
        return None;
    }
    Some(lowered_opening(words))
}

/// "How many kids do you have?" - "Three, two boys and a girl." says "I
/// have three kids, two boys and a girl."; "How many languages do you
/// speak?" - "Four!" says "I speak four languages!". The answer opens with
/// a number (and may name the thing itself: "Two dogs").
pub(super) fn counted(asked: &str, words: &[&str]) -> Option<String> {
    // "How many people are you cooking for?": "I'm cooking for four people"
    // ("How many guests?": the count of guests one has, at what the talk
    // is of)
    let elliptic =
        !asked.contains(' ') && (asked.ends_with('s') || matches!(asked, "people" | "children"));
    let (noun, doing) = match asked.split_once(" do you ") {
        Some((noun, doing)) => (noun, format!("I {}", doing_phrase(doing, false)?)),
        None if elliptic => {
            let guests = matches!(asked, "guests" | "people" | "attendees");
            (
                asked,
                if guests { "I'm having" } else { "I have" }.to_string(),
            )
        }
        None => {
            let (noun, doing) = asked.split_once(" are you ")?;
            let gerund = doing.split_whitespace().next()?;
            if !gerund.ends_with("ing") || doing.split_whitespace().count() > 4 {
                return None;
            }
            (noun, format!("I'm {}", super::short_answers::mine(doing)))
        }
    };
    let noun_words: Vec<&str> = noun.split_whitespace().collect();
    if noun_words.is_empty() || noun_words.len() > 3 || noun_words.iter().any(|w| is_verbish(w)) {
        return None;
    }
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let skip = usize::from(lower.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "just" | "only" | "about" | "around" | "roughly" | "nearly" | "almost"
        )
    }));
    let number = lower.get(skip)?;
    let is_number = number.chars().all(|c| c.is_ascii_digit())
        || (NUMBERS.contains(&number.as_str())
            && !matches!(number.as_str(), "few" | "couple" | "several"));
    if !is_number || words.len() > skip + 6 || words.iter().any(|w| is_verbish(w)) {
        return None;
    }
    // "around 20, just close family": the thing goes after the number
    if elliptic && (words[skip].ends_with(',') || words.len() == skip + 1) {
        let said = lowered_opening(&words[..=skip]);
        let n = said.trim_end_matches([',', '.', '!']);
        let tail = &said[n.len()..];
        let rest = words[skip + 1..].join(" ");
        let rest = if rest.is_empty() {
            rest
        } else {
            format!(" {rest}")
        };
        return Some(format!("{doing} {n} {noun}{tail}{rest}"));
    }
    let said = lowered_opening(words);
    if words.len() > skip + 1 {
        // the answer names the thing: "Two dogs and a cat"
        return Some(format!("{doing} {said}"));
    }
    let one = matches!(number.as_str(), "one" | "1");
    let noun = if one && noun.ends_with('s') && !noun.ends_with("ss") {
        &noun[..noun.len() - 1]
    } else {
        noun
    };
    Some(format!("{doing} {said} {noun}"))
}

/// A time said alone: "Back in 2015", "Last spring", "Two years ago",
/// "In March", "When I was 12"; "back" is dropped and the rest read like
/// any date in a sentence.
pub(super) fn when(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let skip = usize::from(lower.first().is_some_and(|w| w == "back"));
    let rest = &lower[skip..];
    let year = |w: &String| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit());
    let month = |w: &String| is_month(w);
    let unit = |w: &String| {
        matches!(
            w.trim_end_matches('s'),
            "year"
                | "month"
                | "week"
                | "day"
                | "summer"
                | "winter"
                | "spring"
                | "fall"
                | "autumn"
                | "weekend"
        )
    };
    let ok = match rest {
        [] => false,
        [p, w, ..] if matches!(p.as_str(), "in" | "around" | "about") => year(w) || month(w),
        [l, u] if matches!(l.as_str(), "last" | "this") => unit(u),
        [.., u, ago] if ago == "ago" => unit(u),
        [w] => matches!(w.as_str(), "yesterday" | "recently") || year(w),
        [w, i, was, ..] if w == "when" && i == "i" && was == "was" => rest.len() <= 6,
        _ => false,
    };
    if !ok || words.len() > skip + 6 {
        return None;
    }
    Some(lowered_opening(&words[skip..]))
}

/// A time ahead said alone, answering "when is your ...?": "On April
/// 2nd", "Next Tuesday", "In June", "Tomorrow at 3"; `None` for anything
/// else.
pub(super) fn ahead(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    // ("Tuesdays" too)
    let day = |w: &String| super::dates::names_a_day(w.trim_end_matches('s'));
    let ok = match lower.as_slice() {
        [] => false,
        [p, w, ..] if matches!(p.as_str(), "on" | "in") => {
            day(w) || w.starts_with(|c: char| c.is_ascii_digit()) || w == "the"
        }
        [n, w, ..] if matches!(n.as_str(), "next" | "this") => {
            day(w) || w == "week" || w == "month"
        }
        // "end of September", "early October": a part of a month
        [p, of, m, ..]
            if matches!(p.as_str(), "end" | "start" | "beginning" | "middle") && of == "of" =>
        {
            is_month(m)
        }
        [p, m, ..] if matches!(p.as_str(), "early" | "late" | "mid") => is_month(m),
        [w, ..] => day(w) || matches!(w.as_str(), "tomorrow" | "tonight"),
    };
    // ("end", "start": nouns here)
    let part = matches!(lower[0].as_str(), "end" | "start" | "beginning" | "middle");
    let verbs = words[usize::from(part)..]
        .iter()
        .any(|w| super::clauses::is_verbish(w));
    if !ok || words.len() > 6 || verbs {
        return None;
    }
    // ("end of September": at the end of it)
    if part {
        return Some(format!("at the {}", lowered_opening(words)));
    }
    let said = lowered_opening(words);
    // "April 2nd", "Tuesday": on that day
    let first = &lower[0];
    // ("September", "May 2026": in that month)
    let month = is_month(first)
        && lower
            .get(1)
            .is_none_or(|y| y.len() == 4 && y.chars().all(|c| c.is_ascii_digit()));
    Some(if month {
        format!("in {said}")
    } else if day(first) {
        format!("on {said}")
    } else {
        said
    })
}

/// A word written with a capital that names no month or weekday: a
/// place's or someone's name ("Lisbon", not "June" or "Friday").
pub(crate) fn named_not_dated(w: &str) -> bool {
    let b = bare(w);
    w.starts_with(char::is_uppercase) && !is_month(&b) && !super::dates::names_a_day(&b)
}

/// A month's name ("march", "May").
fn is_month(w: &str) -> bool {
    super::dates::MONTHS
        .iter()
        .any(|m| m.eq_ignore_ascii_case(w))
}

/// The words joined, the first lowercased unless it is a name.
fn lowered_opening(words: &[&str]) -> String {
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if let Some(first) = out.first_mut() {
        let b = bare(first);
        let name = super::dates::names_a_day(b.trim_end_matches('s'));
        if !name && first != "I" {
            *first = first.to_lowercase();
        }
    }
    out.join(" ")
}

/// "5 years already", "about four months", "since I was 17 or so": as
/// "for 5 years", "for about four months", "since I was 17 or so".
pub(super) fn duration(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    if lower.first().is_some_and(|w| w == "since") {
        return Some(format!("since {}", words[1..].join(" ")));
    }
    let unit = lower.iter().any(|w| {
        matches!(
            w.trim_end_matches('s'),
            "year" | "month" | "week" | "day" | "decade" | "hour"
        )
    });
    let opens = lower.first().is_some_and(|w| {
        w.chars().all(|c| c.is_ascii_digit())
            || NUMBERS.contains(&w.as_str())
            || matches!(
                w.as_str(),
                "a" | "about" | "almost" | "nearly" | "over" | "around" | "just" | "roughly"
            )
    });
    // no verb of its own ("5 years ago I started" answers when, not how long)
    let verb = words.iter().any(|w| is_verbish(w)) || lower.iter().any(|w| w == "ago");
    if !(unit && opens) || verb {
        return None;
    }
    let kept: Vec<&str> = words
        .iter()
        .zip(&lower)
        .filter(|(_, l)| !matches!(l.as_str(), "already" | "now"))
        .map(|(w, _)| *w)
        .collect();
    Some(format!("for {}", kept.join(" ").to_lowercase()))
}

/// Number words a duration or an age may open with.
const NUMBERS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "few", "couple", "several",
];

/// A place said alone: capitalised words ("Lisbon", "New York",
/// "Porto, originally" has already lost its comma).
pub(super) fn place(words: &[&str]) -> Option<String> {
    let kept: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| {
            !matches!(
                bare(w).as_str(),
                "originally" | "now" | "currently" | "mostly"
            )
        })
        .skip_while(|w| matches!(bare(w).as_str(), "in" | "from" | "at"))
        .collect();
    let capital = |w: &&str| w.chars().next().is_some_and(char::is_uppercase);
    (!kept.is_empty()
        && kept.len() <= 4
        && kept.iter().all(capital)
        && !kept.iter().any(|w| is_verbish(w)))
    .then(|| kept.join(" "))
}

/// Where one is going, said alone: a place's name first ("Lisbon for
/// four days", "To Porto", "Japan and Korea"), then no verb.
pub(super) fn destination(words: &[&str]) -> Option<String> {
    let words = match words.first().map(|w| bare(w)) {
        Some(t) if t == "to" => &words[1..],
        _ => words,
    };
    let first = words.first()?;
    // (a capital that opens the answer, not a name: "Somewhere warm!")
    let unnamed = matches!(
        bare(first).as_str(),
        "somewhere"
            | "anywhere"
            | "nowhere"
            | "home"
            | "not"
            | "no"
            | "maybe"
            | "probably"
            | "just"
            | "still"
            | "abroad"
            | "away"
    );
    let named = first.chars().next().is_some_and(char::is_uppercase)
        && super::intro::is_name_word(first)
        && !unnamed;
    (named && !words.iter().any(|w| is_verbish(w))).then(|| words.join(" "))
}

/// Where, said alone with what places it: "In a small town near Porto",
/// "Lisbon", "Outside Leeds" (as "in Lisbon" where no word places it); a
/// name must be in it, and no verb.
pub(super) fn whereabouts(words: &[&str]) -> Option<String> {
    let first = bare(words.first()?);
    let placed = matches!(
        first.as_str(),
        "in" | "near" | "outside" | "around" | "on" | "by" | "at"
    );
    if !placed {
        return place(words).map(|p| format!("in {p}"));
    }
    let named = words
        .iter()
        .skip(1)
        .any(|w| w.starts_with(char::is_uppercase));
    if !named || words.len() > 8 || words.iter().any(|w| is_verbish(w)) {
        return None;
    }
    Some(lowered_opening(words))
}

/// An age said alone: "34", "thirty-four", "34 in May" is not taken.
pub(super) fn age(words: &[&str]) -> Option<String> {
    match words {
        [n] | [n, "years", "old"] | [n, "next", "month"]
            if n.chars().all(|c| c.is_ascii_digit()) && n.len() <= 3 =>
        {
            Some(n.to_string())
        }
        _ => None,
    }
}

/// Pastimes said alone: "Mostly rock climbing and board games", "Hiking"
/// (what follows a comma is the caller's: "Hiking, reading and cooking");
/// doings in -ing and things, no other verb, no pronoun, no hedge.
pub(super) fn pastimes(words: &[&str]) -> Option<String> {
    use super::lexicon::{verb, VerbForm};
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let skip = usize::from(lower.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "mostly" | "mainly" | "usually" | "lots" | "probably"
        )
    }));
    let said = &lower[skip..];
    let gerund = said
        .iter()
        .any(|w| matches!(verb(w), Some((_, VerbForm::Gerund))));
    let other_verb = said.iter().any(|w| {
        !matches!(verb(w), None | Some((_, super::lexicon::VerbForm::Gerund)))
            && !matches!(w.as_str(), "games" | "movies" | "walks" | "runs" | "hikes")
    });
    let pointing = said.iter().any(|w| {
        matches!(
            w.as_str(),
            "it" | "that" | "this" | "them" | "nothing" | "not" | "i" | "you" | "stuff"
        )
    });
    if said.is_empty() || said.len() > 6 || !gerund || other_verb || pointing {
        return None;
    }
    Some(lowered_opening(&words[skip..]))
}

/// What one plans, said as a thing ("a small dinner at Dishoom with
/// friends"): up to ten words, no verb, no "nothing" or "no".
pub(super) fn planned(words: &[&str]) -> Option<String> {
    let first = bare(words.first()?);
    let none = matches!(
        first.as_str(),
        "no" | "nope" | "not" | "nothing" | "none" | "nah" | "yes" | "yeah" | "yep"
    );
    // ("Melanie!": a name called out, no plan)
    let said = words.iter().any(|w| w.starts_with(char::is_lowercase));
    // ("lunch at my mum's": whose, not "is")
    let verbless = !(0..words.len())
        .any(|i| super::filled::finite(words, i) && !bare(words[i]).ends_with("'s"));
    (words.len() <= 10 && !none && verbless && said)
        .then(|| super::notes::lowered(&words.join(" ")))
}

/// The thing "do you have a ..." asks for, a word or two with no verb
/// ("budget" of "budget in mind", "favourite band"); `None` for more.
pub(super) fn one_thing(had: &str) -> Option<String> {
    let had = ["in mind", "yet", "already", "set", "planned"]
        .iter()
        .find_map(|s| had.strip_suffix(s))
        .unwrap_or(had)
        .trim();
    let words: Vec<&str> = had.split_whitespace().collect();
    let verbless = !words.iter().any(|w| super::clauses::is_verbish(w));
    ((1..=2).contains(&words.len()) && verbless).then(|| had.to_string())
}

/// A fragment that names a thing ("Around 150 euros a week", "A golden
/// retriever", "Star Wars") as said after "is": a thing as
/// [`super::filled`] reads one, and no count alone ("Two, actually"
/// answers how many).
pub(super) fn thing_said(words: &[&str]) -> Option<String> {
    let first = bare(words.first()?);
    let count = first.chars().all(|c| c.is_ascii_digit())
        || super::lexicon::number(&first).is_some()
        || matches!(first.as_str(), "one" | "a" | "an") && words.len() == 1;
    if count && words.len() <= 2 {
        return None;
    }
    super::filled::thing(words)
}

/// "data scientist at Skyscanner" answering "What's the job?": "I'm a data
/// scientist at Skyscanner". An occupation among the first four words,
/// no verb; the article added when the answer has none.
pub(super) fn occupation(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let at = lower
        .iter()
        .take(4)
        .position(|w| super::lexicon::is_occupation(w))?;
    let plain = lower[..at]
        .iter()
        .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    if !plain || words.len() > 10 || words.iter().any(|w| is_verbish(w)) {
        return None;
    }
    let said = lowered_opening(words);
    let article = match lower[0].as_str() {
        "a" | "an" => "",
        w if w.starts_with(['a', 'e', 'i', 'o', 'u']) => "an ",
        _ => "a ",
    };
    Some(format!("I'm {article}{said}"))
}
