//! A short answer to the question the listener just asked, said again as
//! the speaker's own sentence: "How long have you been married?" - "5
//! years already!" says "I have been married for 5 years"; "Where are you
//! from?" - "Lisbon, originally." says "I'm from Lisbon". The sentence is
//! then read like any other (the speaker named, dates resolved, its shape
//! checked).
//!
//! Only for a few questions whose answer fills one slot (how long, where
//! from, where someone lives or works, how old), and only when the answer
//! opens with a fragment that has no verb of its own; "I've had them for 3
//! years" says it itself. Reads text only.

use super::clauses::{bare, is_verbish};

/// The answer's first sentence (`answer`) said in full, given the
/// question turn before it; `None` when the question is not one of these
/// or the answer is no fragment that fits it.
pub(super) fn expanded(question: &str, answer: &str) -> Option<String> {
    let asked = last_question(question)?;
    let answer = super::strip_openers(answer);
    let lower = asked.to_lowercase().replace('\u{2019}', "'");
    // the answer's opening fragment, and what follows it
    let cut = answer
        .find([',', '!', '.', '?', ';', '-', '\u{2013}', '\u{2014}'])
        .unwrap_or(answer.len());
    let (fragment, rest) = answer.split_at(cut);
    let fragment = fragment.trim();
    let words: Vec<&str> = fragment.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let said = if let Some(doing) = after(&lower, &["how long have you been "]) {
        format!("I have been {} {}", mine(doing), duration(&words)?)
    } else if let Some(had) = after(&lower, &["how long have you had "]) {
        format!("I have had {} {}", mine(had), duration(&words)?)
    } else if after(
        &lower,
        &["where are you from", "where are you originally from"],
    )
    .is_some()
    {
        format!("I'm from {}", place(&words)?)
    } else if after(&lower, &["where do you live", "where are you living"]).is_some() {
        format!("I live in {}", place(&words)?)
    } else if after(&lower, &["where do you work"]).is_some() {
        format!("I work at {}", place(&words)?)
    } else if after(&lower, &["how old are you"]).is_some() {
        format!("I'm {} years old", age(&words)?)
    } else {
        return None;
    };
    Some(format!("{said}{rest}"))
}

/// The last question of a turn, without its question mark.
fn last_question(turn: &str) -> Option<&str> {
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
    openings.iter().find_map(|o| {
        let at = q.find(o)?;
        // only at the start, or after a short lead ending in a comma
        let lead = &q[..at];
        (lead.is_empty() || (lead.trim_end().ends_with(',') && lead.len() < 24))
            .then(|| q[at + o.len()..].trim())
    })
}

/// A question's words said by the one answering: "your" is "my".
fn mine(words: &str) -> String {
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

/// "5 years already", "about four months", "since I was 17 or so": as
/// "for 5 years", "for about four months", "since I was 17 or so".
fn duration(words: &[&str]) -> Option<String> {
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
fn place(words: &[&str]) -> Option<String> {
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

/// An age said alone: "34", "thirty-four", "34 in May" is not taken.
fn age(words: &[&str]) -> Option<String> {
    match words {
        [n] | [n, "years", "old"] | [n, "next", "month"]
            if n.chars().all(|c| c.is_ascii_digit()) && n.len() <= 3 =>
        {
            Some(n.to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_answers_said_in_full() {
        for (question, answer, expect) in [
            (
                "Wow, what a lovely photo! How long have you been married?",
                "6 years already! Time flies.",
                Some("I have been married for 6 years! Time flies."),
            ),
            (
                "How long have you been painting?",
                "Since I was 12 or so.",
                Some("I have been painting since I was 12 or so."),
            ),
            (
                "So, how long have you been into pottery?",
                "About four years now, and I love it.",
                Some("I have been into pottery for about four years, and I love it."),
            ),
            (
                "How long have you had your cat?",
                "A couple of years!",
                Some("I have had my cat for a couple of years!"),
            ),
            (
                "Nice to meet you! Where are you from?",
                "Lisbon, originally.",
                Some("I'm from Lisbon, originally."),
            ),
            (
                "Where do you live now?",
                "Berlin.",
                Some("I live in Berlin."),
            ),
            ("How old are you?", "34.", Some("I'm 34 years old.")),
        ] {
            assert_eq!(
                expanded(question, answer).as_deref(),
                expect,
                "{question} | {answer}"
            );
        }
    }

    #[test]
    fn full_answers_and_other_questions_are_left() {
        for (question, answer) in [
            // the answer says it itself
            (
                "How long have you had them?",
                "I've had them for 3 years now.",
            ),
            // not how long
            ("How long have you been surfing?", "5 years ago I started."),
            // no such question
            ("What did you think of it?", "Super good!"),
            ("Where are you from?", "Oh, far away."),
            ("How old are you?", "Old enough!"),
            // a question that is not the last one
            ("How long have you been married? Any kids?", "Two!"),
        ] {
            assert_eq!(expanded(question, answer), None, "{question} | {answer}");
        }
    }
}
