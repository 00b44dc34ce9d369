//! The offline extractor: sentence-level fact candidates from what people
//! said, with pronouns resolved to the speaker (and "you" to the listener),
//! relative dates resolved against the day it was said, questions and
//! small talk dropped, durable traits marked static, and named entities.
//! Assistant turns give context only and yield no facts.
//!
//! It is a rule set, not a model: it keeps facts that are stated, in the
//! words they were stated in, and prefers dropping a sentence to inventing
//! meaning. An LLM extractor, when configured, does better; this one is the
//! always-available floor.

mod classify;
mod coref;
mod dates;
mod entities;

pub use classify::{is_fact_like, is_static};

/// The named entities of a fact (people, places, organisations, ...).
pub fn entities_of(text: &str) -> Vec<crate::Entity> {
    entities::find(text, &[])
}

use crate::{Candidate, EntityKind, Role, Turn};
use engram_extract::split_sentences;

/// Interjections that open chat sentences without adding to them.
const OPENERS: &[&str] = &[
    "oh", "yeah", "yes", "well", "so", "haha", "wow", "hey", "ok", "okay", "honestly", "actually",
    "lol", "omg", "ah", "aw", "aww", "um", "hmm", "anyway", "btw", "woah", "whoa", "yay", "ooh",
];

/// Drop leading interjections ("Yeah, so I ...").
fn strip_openers(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let Some((first, rest)) = s.split_once([',', ' ']) else {
            return s;
        };
        let word = first.trim_end_matches(['!', '.', ',']).to_ascii_lowercase();
        if !OPENERS.contains(&word.as_str()) || rest.trim().is_empty() {
            return s;
        }
        s = rest.trim_start_matches([',', ' ', '!']).trim();
    }
}

/// Drop a name the sentence is addressed to ("Caroline, I think ..."
/// and "... for me, Caroline."): a vocative, not part of the fact.
fn strip_vocative<'a>(s: &'a str, people: &[&str]) -> &'a str {
    let mut s = s.trim();
    for p in people {
        if let Some(rest) = s.strip_prefix(p).and_then(|r| r.strip_prefix(',')) {
            s = rest.trim_start();
        }
        let end = s.trim_end_matches(['.', '!']);
        if let Some(head) = end
            .strip_suffix(p)
            .and_then(|h| h.trim_end().strip_suffix(','))
        {
            s = head.trim_end();
        }
    }
    s
}

/// A sentence as a memory: capitalised, ending with a full stop.
fn tidy(s: &str) -> String {
    let s = s.trim().trim_end_matches(['!', '.', ',', ';', ':', ' ']);
    let mut c = s.chars();
    let Some(first) = c.next() else {
        return String::new();
    };
    format!("{}{}.", first.to_uppercase(), c.as_str())
}

fn has_number(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_digit())
}

/// Fact candidates from a conversation or document, in order, without
/// duplicates.
pub fn extract(turns: &[Turn]) -> Vec<Candidate> {
    let mut people: Vec<&str> = turns
        .iter()
        .flat_map(|t| [t.speaker, t.listener])
        .flatten()
        .collect();
    people.sort_unstable();
    people.dedup();
    let mut out: Vec<Candidate> = Vec::new();
    for t in turns.iter().filter(|t| t.role == Role::User) {
        for (s, e) in split_sentences(t.text, 0, t.text.len()) {
            let sentence = strip_vocative(strip_openers(&t.text[s..e]), &people);
            if !is_fact_like(sentence) {
                continue;
            }
            let (text, about_speaker) = match t.speaker {
                Some(sp) => coref::resolve(sentence, sp, t.listener),
                None => (sentence.to_string(), false),
            };
            let entities = entities::find(&text, &people);
            // a fact is about someone or something named, or holds a number
            if !about_speaker && entities.is_empty() && !has_number(&text) {
                continue;
            }
            let (text, event_dates) = match t.date {
                Some(d) => dates::resolve(&text, d),
                None => (text, Vec::new()),
            };
            let content = tidy(&text);
            if out.iter().any(|c| c.content.eq_ignore_ascii_case(&content)) {
                continue;
            }
            let subject = if about_speaker {
                t.speaker.map(str::to_string)
            } else {
                entities
                    .iter()
                    .find(|e| e.kind == EntityKind::Person)
                    .map(|e| e.name.clone())
            };
            out.push(Candidate {
                is_static: is_static(&content),
                content,
                subject,
                document_date: t.date,
                event_dates,
                entities,
                derived_from: Vec::new(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn turn<'a>(speaker: &'a str, listener: &'a str, text: &'a str) -> Turn<'a> {
        Turn {
            role: Role::User,
            speaker: Some(speaker),
            listener: Some(listener),
            text,
            date: NaiveDate::from_ymd_opt(2023, 5, 8),
        }
    }

    #[test]
    fn a_chat_becomes_attributed_dated_facts() {
        let turns = [
            turn("Ana", "Ben", "Hey Ben! How have you been?"),
            turn(
                "Ben",
                "Ana",
                "Good, thanks! Yeah, I ran my first half marathon last weekend.",
            ),
            turn(
                "Ana",
                "Ben",
                "Wow, congrats! I'm a nurse at Mercy Hospital, so I know how hard that is.",
            ),
            turn(
                "Ben",
                "Ana",
                "Haha. My sister lives in Denver and she convinced me.",
            ),
            Turn {
                role: Role::Assistant,
                speaker: Some("Bot"),
                listener: Some("Ana"),
                text: "I recommend stretching after long runs every day.",
                date: None,
            },
        ];
        let got = extract(&turns);
        let facts: Vec<(&str, Option<&str>, bool)> = got
            .iter()
            .map(|c| (c.content.as_str(), c.subject.as_deref(), c.is_static))
            .collect();
        assert_eq!(
            facts,
            [
                (
                    "Ben ran their first half marathon on the weekend of 6 May 2023.",
                    Some("Ben"),
                    false
                ),
                (
                    "Ana is a nurse at Mercy Hospital, so Ana knows how hard that is.",
                    Some("Ana"),
                    true
                ),
                (
                    "Ben's sister lives in Denver and she convinced Ben.",
                    Some("Ben"),
                    true
                ),
            ]
        );
        assert_eq!(got[0].event_dates, ["2023-05-06"]);
        assert_eq!(got[0].document_date, NaiveDate::from_ymd_opt(2023, 5, 8));
        let denver = &got[2].entities;
        assert!(denver
            .iter()
            .any(|e| e.name == "Denver" && e.kind == EntityKind::Place));
        assert!(got[1]
            .entities
            .iter()
            .any(|e| e.name == "Mercy Hospital" && e.kind == EntityKind::Organisation));
    }

    #[test]
    fn vocatives_are_not_part_of_the_fact() {
        let people = ["Caroline", "Melanie"];
        assert_eq!(
            strip_vocative("Caroline, my family has been great.", &people),
            "my family has been great."
        );
        assert_eq!(
            strip_vocative("I'm getting there, Caroline.", &people),
            "I'm getting there"
        );
        assert_eq!(
            strip_vocative("Caroline moved to Sweden.", &people),
            "Caroline moved to Sweden."
        );
    }

    #[test]
    fn documents_without_speakers_keep_named_facts() {
        let turns = [Turn {
            role: Role::User,
            speaker: None,
            listener: None,
            text:
                "Ada prefers green tea and lives in Lisbon. It is nice. The meeting moved to 3 pm.",
            date: None,
        }];
        let got: Vec<String> = extract(&turns).into_iter().map(|c| c.content).collect();
        assert_eq!(
            got,
            [
                "Ada prefers green tea and lives in Lisbon.",
                "The meeting moved to 3 pm."
            ]
        );
    }

    #[test]
    fn openers_are_dropped_and_duplicates_merged() {
        assert_eq!(strip_openers("Oh, yeah, I did that"), "I did that");
        assert_eq!(strip_openers("Well"), "Well");
        let turns = [
            turn("Ana", "Ben", "I adopted a puppy named Max."),
            turn("Ana", "Ben", "Oh, I adopted a puppy named Max!"),
        ];
        assert_eq!(extract(&turns).len(), 1);
    }
}
