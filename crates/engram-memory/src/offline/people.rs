//! Who a clause names: the names in it that may be people (not a title
//! after "the", not a plural noun opening a sentence), and which capitals
//! only open a sentence because the conversation writes the word in lower
//! case elsewhere. Reads text only.

use crate::{EntityKind, Turn};
use std::collections::HashSet;

/// Words these turns use in lower case: a capitalised word opening a
/// sentence is not a name when it is also written in lower case ("Meal
/// times are fun" beside "a meal"), since names keep their capital.
pub(super) fn common_words(turns: &[Turn]) -> HashSet<String> {
    turns
        .iter()
        .flat_map(|t| t.text.split_whitespace())
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .filter(|w| w.chars().next().is_some_and(char::is_lowercase))
        .map(str::to_string)
        .collect()
}

/// Who a conversation's people are: its speakers and listeners (the
/// second list), and whoever they name as someone's ("my girlfriend Mia").
pub(super) fn of_turns<'a>(turns: &[Turn<'a>]) -> (Vec<&'a str>, Vec<&'a str>) {
    let talkers: Vec<&str> = turns
        .iter()
        .flat_map(|t| [t.speaker, t.listener])
        .flatten()
        .filter(|p| *p != crate::UNNAMED_USER)
        .collect();
    let mut people = talkers.clone();
    people.extend(named_relations(turns));
    people.sort_unstable();
    people.dedup();
    (people, talkers)
}

/// People these turns name after a word for who they are to someone
/// ("my girlfriend Mia", "our son Leo", "her brother Sam"): known as
/// people from then on, so "Mia really wants to see the cherry blossoms"
/// is about someone named even where her name opens the sentence.
pub(super) fn named_relations<'a>(turns: &[Turn<'a>]) -> Vec<&'a str> {
    let own = |w: &str| matches!(w, "my" | "our" | "his" | "her" | "their");
    named_after_kin(turns.iter().map(|t| t.text), own)
}

/// People the space's earlier facts name as someone's ("Noa's daughter
/// Isla does ballet"): known as people here too, so "Isla quit ballet"
/// is about someone named.
pub(super) fn named_in_facts(facts: &[String]) -> Vec<&str> {
    named_after_kin(facts.iter().map(String::as_str), |w| w.ends_with("'s"))
}

/// The names in `texts` said right after a word for someone's kin whose
/// owner (the word before it, lowercased) `owned` accepts: "my girlfriend
/// Mia", "Noa's daughter Isla".
fn named_after_kin<'a>(
    texts: impl Iterator<Item = &'a str>,
    owned: impl Fn(&str) -> bool,
) -> Vec<&'a str> {
    let mut out = Vec::new();
    for text in texts {
        let words: Vec<&'a str> = text.split_whitespace().collect();
        for k in 2..words.len() {
            let noun = super::clauses::bare(words[k - 1]);
            let related = owned(&super::clauses::bare(words[k - 2]))
                && super::lexicon::PERSON_NOUNS
                    .iter()
                    .any(|(n, plural)| *n == noun && !plural)
                && !words[k - 1].ends_with([',', '.', '!', '?']);
            let name = super::entities::core(words[k]);
            let name = name.strip_suffix("'s").unwrap_or(name);
            if related
                && super::intro::is_name_word(name)
                && name.chars().skip(1).all(char::is_lowercase)
                && !out.contains(&name)
            {
                out.push(name);
            }
        }
    }
    out
}

/// `text` with its first word in lower case when these turns write that
/// word in lower case elsewhere and it is no speaker's name, so that the
/// shape of the fact is judged without taking it for a name; the first
/// letter is put back in capitals by [`tidy`].
pub(super) fn lowered_if_common(text: &str, common: &HashSet<String>, people: &[&str]) -> String {
    let Some(first) = text.split_whitespace().next() else {
        return text.to_string();
    };
    let core = first.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
    let stem = core.strip_suffix("'s").unwrap_or(core);
    let lower = stem.to_lowercase();
    if stem == lower || people.contains(&stem) || !common.contains(&lower) {
        return text.to_string();
    }
    super::surface::lowered(text)
}

/// Whether every time `name` comes up in `text` a determiner stands
/// before it ("the '16 Finals", "this Finals game", "the Rockies"): a
/// title or a thing, never a person "he" or "she" could mean.
pub(super) fn only_after_a_determiner(text: &str, name: &str) -> bool {
    let first = name.split_whitespace().next().unwrap_or(name);
    let words: Vec<&str> = text.split_whitespace().collect();
    let core = super::entities::core;
    let determiner = |w: &str| {
        matches!(
            core(w).to_lowercase().as_str(),
            "the" | "this" | "that" | "these" | "those" | "a" | "an"
        )
    };
    let mut seen = false;
    for (i, w) in words.iter().enumerate() {
        if core(w) != first {
            continue;
        }
        seen = true;
        // a year or number may stand between: "the 2016 Finals"
        let numbered =
            i >= 2 && words[i - 1].chars().any(|c| c.is_ascii_digit()) && determiner(words[i - 2]);
        if !(i >= 1 && determiner(words[i - 1]) || numbered) {
            return false;
        }
    }
    seen
}

/// Names in a text that may be people (not places or organisations).
pub(super) fn person_names(text: &str, people: &[&str], common: &HashSet<String>) -> Vec<String> {
    let mut words = text.split_whitespace();
    // a capitalised first word is a name only when it is known or stands
    // alone in a fragment ("Luna and Oliver!")
    let mut out: Vec<String> = super::entities::find(text, people)
        .into_iter()
        .filter(|e| matches!(e.kind, EntityKind::Person | EntityKind::Other))
        .flat_map(|e| {
            e.name
                .split(" and ")
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    // ("PAY-1423", "Q2": a code or a number is no one)
    out.retain(|name| {
        !only_after_a_determiner(text, name) && !name.chars().any(|c| c.is_ascii_digit())
    });
    if let Some(first) = words.next() {
        let core = first.trim_matches(|c: char| !c.is_alphanumeric());
        // "Veggies are his fave", "Pets have a way ...", "Turtles really
        // bring me joy": a plural noun (a verb in its plain form, past
        // adverbs; "James really likes ..." is someone)
        let plural = core.ends_with('s')
            && words
                .find(|v| !super::coref::is_adverb(&super::clauses::bare(v)))
                .is_some_and(|v| {
                    let v = super::clauses::bare(v);
                    matches!(
                        v.as_str(),
                        "are" | "were" | "have" | "do" | "don't" | "aren't"
                    ) || super::lexicon::verb(&v)
                        .is_some_and(|(base, f)| f == super::lexicon::VerbForm::Base && base == v)
                });
        // ("Exhausted but happy.": a state, not someone)
        let state = text
            .split_whitespace()
            .nth(1)
            .is_some_and(|n| super::clauses::bare(n) == "but");
        if super::intro::is_name_word(first)
            && !plural
            && !state
            && !super::entities::common_opener(core)
            && !common.contains(&core.to_lowercase())
            && !out.iter().any(|n| n == core)
        {
            out.push(core.to_string());
        }
    }
    out
}

/// The name the application's user gives themself in these turns ("Hi!
/// I'm Maya, ...", or "Priya" answering "What should I call you?"), if
/// they do: the first self-introduction in a generic speaker's turn
/// ([`Turn::generic`]).
pub fn self_introduction(turns: &[crate::Turn]) -> Option<String> {
    // ("What should I call you?" - "Priya"): the name given when asked
    let answered = turns.windows(2).find_map(|p| {
        let user = p[1].generic && p[1].role == crate::Role::User;
        (user && asks_name(p[0].text))
            .then(|| name_given(p[1].text))
            .flatten()
    });
    if answered.is_some() {
        return answered;
    }
    turns
        .iter()
        .filter(|t| t.generic && t.role == crate::Role::User)
        .find_map(|t| {
            let text = super::without_attachments(t.text);
            // ("Name: Ruth Okafor" heading a note)
            let text = super::notes::as_prose(&text).unwrap_or(text);
            engram_extract::split_sentences(&text, 0, text.len())
                .into_iter()
                .find_map(|(s, e)| {
                    super::clauses::split(super::strip_openers(&text[s..e]))
                        .iter()
                        .find_map(|c| {
                            super::introduced(super::strip_openers(c)).map(|(name, _)| name)
                        })
                })
        })
}

/// Whether a turn's last question asks the listener's name ("What should
/// I call you?", "What's your name?").
fn asks_name(turn: &str) -> bool {
    let Some(q) = super::short_answers::last_question(turn) else {
        return false;
    };
    let q = q.to_lowercase().replace('\u{2019}', "'");
    [
        "your name",
        "call you",
        "who am i talking to",
        "who am i speaking to",
    ]
    .iter()
    .any(|p| q.contains(p))
}

/// The name an answer gives alone ("Priya", "it's Priya", "call me Pri!",
/// "Priya Shah"): `None` for anything longer.
fn name_given(answer: &str) -> Option<String> {
    let a = super::strip_openers(answer.trim())
        .trim_end_matches(['.', '!', ' '])
        .trim();
    let lower = a.to_lowercase();
    let name = ["it's ", "its ", "call me ", "i'm ", "im ", "just "]
        .iter()
        .find_map(|p| lower.starts_with(p).then(|| &a[p.len()..]))
        .unwrap_or(a)
        .trim();
    let name = name.split(',').next().unwrap_or(name).trim();
    is_person_name(name).then(|| name.to_string())
}

/// Whether a string reads as a person's name: one to three capitalised
/// words of letters ("Maya", "Li Wei", "Anne-Marie Dubois").
pub fn is_person_name(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    (1..=3).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        && super::introduced(&format!("I'm {s}")).is_some_and(|(n, _)| n == s)
}
