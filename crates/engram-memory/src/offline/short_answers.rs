//! A short answer to the question the listener just asked, said again as
//! the speaker's own sentence: "How long have you been married?" - "5
//! years already!" says "I have been married for 5 years"; "Where are you
//! from?" - "Lisbon, originally." says "I'm from Lisbon". The sentence is
//! then read like any other (the speaker named, dates resolved, its shape
//! checked).
//!
//! Only for questions whose answer fills one slot (how long, how often,
//! how many, when, where from, where someone lives or works, how old; a
//! thing asked for by "what's your X", "which X did you V", "what X do
//! you V", "what are you V-ing"), and only when the
//! answer opens with a fragment that has no verb of its own; "I've had
//! them for 3 years" says it itself. One exception: an answer that repeats
//! the question's verb alone ("I've been playing for four months") takes
//! back the question's object. Opinions, hedges and asides ("Besides the
//! classes, ...") fill nothing. Reads text only.

use super::clauses::bare;
use super::filled::{filled, finite, thing};
use super::said_alone::{
    age, ahead, counted, destination, doing_phrase, done_phrase, duration, frequency, one_thing,
    pastimes, place, planned, thing_said, when, whereabouts,
};

/// Questions of what to call someone.
const NAME_ASKED: &[&str] = &[
    "what should i call you",
    "what's your name",
    "what is your name",
];

/// Questions of where someone lives.
const LIVES: &[&str] = &[
    "where do you live",
    "where are you living",
    "where are you based",
];

/// The answer's first sentence (`answer`) said in full, given the
/// question turn before it; `None` when the question is not one of these
/// or the answer is no fragment that fits it.
pub(super) fn expanded(question: &str, answer: &str) -> Option<String> {
    let asked = last_question(question)?;
    // ("Besides the classes, I'm offering ...": an aside, not the thing)
    let opening: Vec<&str> = answer.split_whitespace().take(2).collect();
    let aside = opening
        .first()
        .is_some_and(|w| PREPOSITIONS.contains(&bare(w).as_str()))
        && !approximate(&opening);
    let answer = super::strip_openers(answer);
    // "Under two hours would be amazing": the thing hoped for
    let answer = hoped_for(answer);
    // ("Recently, education reform ...": the adverb leads the thing)
    let answer = answer
        .split_once(", ")
        .filter(|(lead, _)| {
            matches!(
                bare(lead).as_str(),
                "recently" | "lately" | "mostly" | "mainly" | "currently" | "honestly" | "actually"
            )
        })
        .map_or(answer, |(_, rest)| rest);
    // ("Definitely Star Wars!": sure of the name that follows)
    let answer = answer
        .split_once(' ')
        .filter(|(lead, rest)| {
            matches!(bare(lead).as_str(), "definitely" | "totally" | "obviously")
                && super::clauses::capitalised(rest)
        })
        .map_or(answer, |(_, rest)| rest);
    let norm = asked.replace('\u{2019}', "'");
    let lower = norm.to_lowercase();
    // a part of `lower` in the question's own case, where lowercasing kept
    // every byte in place ("move to Berlin", not "move to berlin")
    let cased = |part: &str| -> String {
        let at = part.as_ptr() as usize - lower.as_ptr() as usize;
        if norm.len() == lower.len()
            && norm.is_char_boundary(at)
            && norm.is_char_boundary(at + part.len())
        {
            norm[at..at + part.len()].to_string()
        } else {
            part.to_string()
        }
    };
    // the answer's opening fragment, and what follows it
    // (a title's full stop is no end: "Dr. Patel, she's amazing")
    let cut = answer
        .char_indices()
        .find(|&(i, c)| {
            matches!(
                c,
                ',' | '!' | '.' | '?' | ';' | '-' | '\u{2013}' | '\u{2014}'
            ) && !(c == '.' && titled(&answer[..i]))
        })
        .map_or(answer.len(), |(i, _)| i);
    // ("end of April if the solicitors get a move on": a condition is no
    // part of the slot)
    let cut = [" if ", " unless ", " assuming ", " provided "]
        .iter()
        .filter_map(|c| answer[..cut].find(c))
        .fold(cut, usize::min);
    // "How long have you been playing the piano?" - "I've been playing
    // for four months": the answer's verb alone, the question's object
    if let Some(doing) = after(&lower, &["how long have you been "]) {
        if let Some(said) = echoed(&cased(doing), answer) {
            return Some(said);
        }
    }
    // "Any testing setup?" - "vitest for unit tests, playwright for e2e":
    // the tools one uses, each for its job
    if let Some(said) = super::said_listed::tools_for(&lower, answer) {
        return Some(said);
    }
    // "Any foods you love?" - "mushrooms, anything with chickpeas, and I
    // hate olives"
    if let Some(said) = super::said_listed::tastes_listed(&lower, answer) {
        return Some(said);
    }
    let (fragment, rest) = answer.split_at(cut);
    let rest = affirmed(rest);
    let fragment = fragment.trim();
    let words: Vec<&str> = fragment.split_whitespace().collect();
    // (where one stays says how long too: "A ryokan in Kyoto for the first
    // three nights")
    let staying = after(
        &lower,
        &["where are you staying", "where will you be staying"],
    )
    .is_some();
    let plans = after(&lower, PLANS).is_some();
    if words.is_empty() || words.len() > if staying || plans { 12 } else { 8 } {
        return None;
    }
    let said = if let Some(doing) = after(&lower, &["how long have you been "]) {
        format!("I have been {} {}", mine(&cased(doing)), duration(&words)?)
    } else if let Some(had) = after(&lower, &["how long have you had "]) {
        // ("How long have you had Pixel?": the name keeps its capital)
        format!("I have had {} {}", mine(&cased(had)), duration(&words)?)
    } else if let Some(thing) = after(&lower, &["how long is your ", "how long is "]) {
        // "How long is recovery?" - "9 months apparently."
        let thing = thing.trim_start_matches("the ");
        let long = duration(&words)?;
        let long = long.strip_prefix("for ").unwrap_or(&long);
        format!("My {} is {long}", one_thing(&cased(thing))?)
    } else if let Some(thing) = after(&lower, &["how long in "]) {
        // "How long in the cast?" - "6 weeks they reckon" (what others
        // reckon is how long, as far as the speaker knows)
        let thing = thing.trim_end_matches(['?', '!', '.']).trim();
        let hedged = matches!(
            words.iter().rev().take(2).map(|w| bare(w)).collect::<Vec<_>>().as_slice(),
            [r, t] if t == "they" && matches!(r.as_str(), "reckon" | "think" | "say" | "said")
        );
        let words = &words[..words.len() - if hedged { 2 } else { 0 }];
        if thing.is_empty() || thing.split_whitespace().count() > 3 {
            return None;
        }
        format!("I'm in {} {}", mine(&cased(thing)), duration(words)?)
    } else if let Some(done) = after(&lower, &["how long have you "]) {
        // "How long have you lived in Denver?" - "About three years."
        format!(
            "I have {} {}",
            done_phrase(&cased(done))?,
            duration(&words)?
        )
    } else if after(
        &lower,
        &["where are you from", "where are you originally from"],
    )
    .is_some()
    {
        format!("I'm from {}", place(&words)?)
    } else if after(&lower, LIVES).is_some() {
        format!("I live in {}", place(&words)?)
    } else if staying {
        // a place, with no verb of its own
        let placed = words.first().is_some_and(|w| {
            matches!(bare(w).as_str(), "a" | "an" | "the") || w.starts_with(char::is_uppercase)
        });
        if !placed || (0..words.len()).any(|i| finite(&words, i)) {
            return None;
        }
        let first = match bare(words[0]).as_str() {
            a @ ("a" | "an" | "the") => a.to_string(),
            _ => words[0].to_string(),
        };
        format!("I'm staying at {first} {}", words[1..].join(" "))
    } else if after(&lower, &["where do you work"]).is_some() {
        format!("I work at {}", place(&words)?)
    } else if after(&lower, &["how old are you"]).is_some() {
        format!("I'm {} years old", age(&words)?)
    } else if let Some(state) = after(&lower, &["are you "]) {
        // "Are you married?" - "Yes, for 6 years now.": how long it has held
        let state: Vec<&str> = state.split_whitespace().collect();
        let lasting = matches!(
            state.as_slice(),
            [one] if !one.ends_with("ing")
                && matches!(
                    *one,
                    "married" | "engaged" | "vegetarian" | "vegan" | "retired" | "divorced"
                        | "sober" | "single" | "pescatarian"
                )
        );
        let words = match words.first().map(|w| bare(w)) {
            Some(f) if f == "for" => &words[1..],
            _ => &words[..],
        };
        if !lasting || words.is_empty() {
            return None;
        }
        format!("I have been {} {}", state[0], duration(words)?)
    } else if after(
        &lower,
        &[
            "what do you do for fun",
            "what do you like to do for fun",
            "what do you do in your free time",
            "what do you like to do in your free time",
            "what are your hobbies",
        ],
    )
    .is_some()
    {
        format!("For fun, I enjoy {}", pastimes(&words)?)
    } else if after(&lower, NAME_ASKED).is_some() {
        // "What should I call you?" - "Priya"
        let name = words.join(" ");
        if !super::people::is_person_name(&name) {
            return None;
        }
        format!("My name is {name}")
    } else if after(&lower, &["where did you grow up"]).is_some() {
        format!("I grew up {}", whereabouts(&words)?)
    } else if let Some(doing) = after(&lower, &["how often do you "]) {
        format!(
            "I {} {}",
            doing_phrase(&cased(doing), false)?,
            frequency(&words)?
        )
    } else if let Some(asked) = after(&lower, &["how many "]) {
        counted(&cased(asked), &words)?
    } else if let Some(doing) = after(&lower, &["when did you "]) {
        format!("I {} {}", doing_phrase(&cased(doing), true)?, when(&words)?)
    } else if after(
        &lower,
        &[
            "where are you thinking of going",
            "where are you going",
            "where are you heading",
            "where are you planning to go",
            "where do you want to go",
        ],
    )
    .is_some()
    {
        // "Where are you thinking of going?" - "Lisbon for four days, ..."
        format!("I'm going to {}", destination(&words)?)
    } else if let Some(asked) = after(&lower, &["how's ", "how is ", "how are "]) {
        // "How's she settling in?" - "Hiding under the bed mostly.": she is
        let asked: Vec<&str> = asked.split_whitespace().collect();
        let who = *asked.first()?;
        let doing = asked.get(1).is_some_and(|w| w.ends_with("ing"));
        let someone =
            matches!(who, "she" | "he" | "they") || cased(who).starts_with(char::is_uppercase);
        let gerund = words.first().is_some_and(|w| bare(w).ends_with("ing"));
        if !doing || !someone || !gerund || (1..words.len()).any(|i| finite(&words, i)) {
            return None;
        }
        let be = if who == "they" { "are" } else { "is" };
        let who = super::surface::upper_first(&cased(who));
        format!("{who} {be} {}", words.join(" ").to_lowercase())
    } else if let Some(doing) = after(&lower, &["when do you ", "when will you "]) {
        // "When do you start?" - "On September 1st."
        // ("hopefully end of September": a hope, said as one)
        let hoped = words.first().is_some_and(|w| bare(w) == "hopefully");
        let (lead, words) = if hoped {
            ("I hope to", &words[1..])
        } else {
            ("I", &words[..])
        };
        format!(
            "{lead} {} {}",
            doing_phrase(&cased(doing), false)?,
            ahead(words)?
        )
    } else if let Some((who, doing)) = after(&lower, &["when does "])
        .and_then(|rest| rest.split_once(' '))
        .filter(|(who, _)| matches!(*who, "she" | "he"))
    {
        // "When does she start?" - "September, ...": she, whom the talk
        // was of
        let did = doing_phrase(&cased(doing), false)?;
        let (v, rest) = did.split_once(' ').unwrap_or((did.as_str(), ""));
        let v = super::coref::third_person(v);
        let did = if rest.is_empty() {
            v
        } else {
            format!("{v} {rest}")
        };
        format!(
            "{} {did} {}",
            super::surface::upper_first(who),
            ahead(&words)?
        )
    } else if let Some(doing) = after(&lower, &["when are you "]) {
        // "When are you moving?" - "In August."
        let gerund = doing.split_whitespace().next()?;
        if !gerund.ends_with("ing") {
            return None;
        }
        format!("I'm {} {}", mine(&cased(doing)), ahead(&words)?)
    } else if let Some(thing) = after(
        &lower,
        &[
            "when is your ",
            "when's your ",
            "when is the ",
            "when's the ",
        ],
    ) {
        // "When is your next check-up?" - "On April 2nd."; "When's the
        // appointment?" - "next Thursday at 3": the speaker's
        format!("My {} is {}", one_thing(&cased(thing))?, ahead(&words)?)
    } else if let Some(thing) = after(&lower, &["where is the ", "where's the "]) {
        // "Where's the wedding?" - "in Porto, at a vineyard"
        format!(
            "My {} is {}",
            one_thing(&cased(thing))?,
            whereabouts(&words)?
        )
    } else if let Some(done) = after(&lower, &["how did you ", "where did you "]) {
        // "How did you propose?" - "On the beach in Brighton": where it
        // was done (a name said alone only answers "where")
        let did = doing_phrase(&cased(done), true)?;
        let placed = words
            .first()
            .is_some_and(|w| matches!(bare(w).as_str(), "in" | "on" | "at" | "near" | "by"));
        // ("How did you meet?": both of them did, not the speaker alone)
        if !(placed || lower.starts_with("where")) || did.starts_with("met") {
            return None;
        }
        format!("I {did} {}", whereabouts(&words)?)
    } else if after(&lower, JOB_ASKED).is_some_and(|rest| rest.len() <= 1) {
        // "What's the job?" - "data scientist at Skyscanner, started ..."
        super::said_alone::occupation(&words)?
    } else if after(&lower, FAVOURITE_PART).is_some_and(|rest| rest.len() <= 1) {
        // "Favourite part?" - "honestly the food, ..."
        format!("My favourite part was {}", thing(&words)?)
    } else if let Some(when) = after(&lower, PLANS) {
        // "Any plans for the weekend?" - "A hike in the Peak District."
        // (a hedge stays: "probably just family lunch")
        let (lead, words) = match words.first().map(|w| bare(w)).as_deref() {
            Some("probably" | "maybe" | "hopefully") => ("I'm probably planning", &words[1..]),
            _ => ("I'm planning", &words[..]),
        };
        let words = words.strip_prefix(&["just"]).unwrap_or(words);
        let when = when.trim_end_matches(['?', '!', '.']).trim();
        let when = if when.starts_with("for ") {
            format!(" {}", mine(&cased(when)))
        } else {
            String::new()
        };
        format!("{lead} {}{when}", planned(words)?)
    } else {
        filled(&lower, &words)
            .filter(|_| !aside)
            .or_else(|| {
                // "Do you have a budget in mind?" - "Around 150 euros a week."
                let had = after(&lower, &["do you have a ", "do you have an "])?;
                Some(format!(
                    "My {} is {}",
                    one_thing(&cased(had))?,
                    thing_said(&words)?
                ))
            })
            .or_else(|| {
                // "Any airline preference?" - "British Airways, I'm Gold
                // with them."
                let kind = after(&lower, &["any "])?
                    .strip_suffix(" preference")
                    .or_else(|| after(&lower, &["any preferred "]))?;
                Some(format!(
                    "My preferred {} is {}",
                    one_thing(&cased(kind))?,
                    thing_said(&words)?
                ))
            })?
    };
    // ("..., I'm Gold with them": the one just named as preferred)
    let preferred = after(&lower, &["any "]).is_some_and(|k| k.ends_with(" preference"))
        || after(&lower, &["any preferred "]).is_some();
    let named = preferred
        && words
            .first()
            .is_some_and(|w| w.starts_with(char::is_uppercase));
    let rest = match rest.find(" with them") {
        Some(at) if named => format!("{} with {fragment}{}", &rest[..at], &rest[at + 10..]),
        _ => rest.to_string(),
    };
    Some(format!("{said}{rest}"))
}

/// Questions that ask what someone's job is, said in full to the mark.
const JOB_ASKED: &[&str] = &[
    "what's the job",
    "what's the new job",
    "what's your job",
    "what is your job",
    "what's the role",
    "what's the new role",
    "what do you do",
    "what do you do for work",
    "what do you do for a living",
    "what kind of job",
];

/// Questions that ask for the best of something just told of (a trip, a
/// show): the question said in full, to its mark.
const FAVOURITE_PART: &[&str] = &[
    "favourite part",
    "favorite part",
    "what was your favourite part",
    "what was your favorite part",
    "what was the best part",
    "best part",
    "highlight",
    "what was the highlight",
];

/// Questions that ask what one plans ("Any plans for the weekend?").
const PLANS: &[&str] = &[
    "any plans",
    "any big plans",
    "what are your plans",
    "what are the plans",
    "what's the plan",
];

/// An answer's first sentence without what it says of the thing it names
/// when that is only how good it would be ("Under two hours would be
/// amazing." says "Under two hours."); other answers as they are.
fn hoped_for(answer: &str) -> &str {
    let end = answer.find(['.', '!', '?']).unwrap_or(answer.len());
    let first = &answer[..end];
    let lower = first.to_lowercase();
    let cut = [
        " would be amazing",
        " would be great",
        " would be ideal",
        " would be perfect",
        " would be awesome",
        " would be nice",
        " would be a dream",
        " would be the dream",
    ]
    .iter()
    .find_map(|t| lower.strip_suffix(t).map(str::len));
    match cut {
        Some(n) if first.is_char_boundary(n) && n > 0 => &first[..n],
        _ => answer,
    }
}

/// Whether `before` ends with a title its full stop belongs to ("Dr",
/// "Mrs", "Prof").
fn titled(before: &str) -> bool {
    let last = before.rsplit(' ').next().unwrap_or(before);
    matches!(last, "Dr" | "Mr" | "Mrs" | "Ms" | "Prof" | "St")
}

/// "I've been playing for four months now", answering "how long have you
/// been playing the piano": said with the question's words ("I have been
/// playing the piano for four months now"), when the answer repeats its
/// verb alone and goes on with "for" or "since".
fn echoed(doing: &str, answer: &str) -> Option<String> {
    // ("... the piano again?": "again" asks to be reminded)
    let doing = doing.strip_suffix(" again").unwrap_or(doing);
    let asked: Vec<&str> = doing.split_whitespace().collect();
    let verb = asked.first()?;
    if asked.len() < 2 || asked.len() > 6 {
        return None;
    }
    let lower = answer.to_lowercase().replace('\u{2019}', "'");
    let opening = ["i've been ", "i have been "]
        .iter()
        .find(|o| lower.starts_with(*o))?;
    let rest = &answer[opening.len()..];
    let mut w = rest.split_whitespace();
    let (said_verb, next) = (w.next().map(bare)?, w.next().map(bare)?);
    if said_verb != *verb || !matches!(next.as_str(), "for" | "since") {
        return None;
    }
    let after_verb = rest.trim_start()[said_verb.len()..].trim_start();
    Some(format!("I have been {} {after_verb}", mine(doing)))
}

/// The last question of a turn, without its question mark.
pub(super) fn last_question(turn: &str) -> Option<&str> {
    let text = turn.trim_end();
    let end = text.rfind('?')?;
    let start = text[..end].rfind(['.', '!', '?']).map_or(0, |i| i + 1);
    Some(text[start..end].trim())
}

/// What follows one of `openings` at the start of the question (or after
/// a lead such as "So, "), or `None`.
fn after<'a>(question: &'a str, openings: &[&str]) -> Option<&'a str> {
    let q = question
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim();
    // ("And where are you based?")
    let q = q.strip_prefix("and ").unwrap_or(q);
    openings.iter().find_map(|o| {
        let at = q.find(o)?;
        // only at the start, or after a short lead ending in a comma
        let lead = &q[..at];
        (lead.is_empty() || (lead.trim_end().ends_with(',') && lead.len() < 24))
            .then(|| q[at + o.len()..].trim())
    })
}

/// A question's words said by the one answering: "your" is "my".
pub(super) fn mine(words: &str) -> String {
    words
        .split_whitespace()
        .map(|w| match w {
            "your" => "my",
            "you" => "me",
            "yourself" => "myself",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words that open a place, a time or an aside, never the thing asked
/// for ("On that whiteboard, I wrote ...", "Besides the classes, ...").
/// An amount given roughly: "about $2000", "around 40 people".
pub(super) fn approximate(words: &[&str]) -> bool {
    let lead = words.first().map(|w| bare(w));
    matches!(
        lead.as_deref(),
        Some(
            "about"
                | "around"
                | "roughly"
                | "approximately"
                | "nearly"
                | "almost"
                | "over"
                | "under"
        )
    ) && words.get(1).is_some_and(|w| {
        w.starts_with(|c: char| c.is_ascii_digit() || "$\u{20ac}\u{a3}".contains(c))
            || super::lexicon::number(&bare(w)).is_some()
    })
}

/// What follows the answer's fragment, without an affirmation that adds
/// nothing ("Blue, definitely." is "Blue."); hedges stay ("Blue, I
/// think").
fn affirmed(rest: &str) -> &str {
    let Some(after) = rest.strip_prefix(',') else {
        return rest;
    };
    let end = after.trim_end_matches(['.', '!']);
    let said = end.trim().to_lowercase();
    let affirmation = matches!(
        said.as_str(),
        "definitely" | "for sure" | "of course" | "obviously" | "absolutely" | "haha" | "lol"
    );
    if affirmation {
        &after[end.len()..]
    } else {
        rest
    }
}

pub(super) const PREPOSITIONS: &[&str] = &[
    "besides", "except", "apart", "on", "in", "at", "for", "with", "from", "about", "after",
    "before", "during", "like", "by", "over", "under", "to", "into", "around", "through",
];

#[cfg(test)]
#[path = "short_answers_tests.rs"]
mod tests;
