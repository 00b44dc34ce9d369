//! A yes to the listener's yes/no question, said as the question's own
//! statement: "Have you seen all the Paddington films?" - "Yeah, I have!"
//! says "I have seen all the Paddington films"; "Are you going to invite
//! your old teammates?" - "Definitely!" says "I'm going to invite my old
//! teammates". The sentence is then read like any other.
//!
//! Only when the answer's sentence is nothing but the yes ("Yep, I did!"),
//! and only for questions that state something once "you" is "I": not
//! requests or offers ("Can you send it?"), not questions about anything
//! or ever ("Do you have any tips?", "Have you ever been?"), whose yes
//! says nothing in particular. Reads text only.

use super::clauses::bare;
use super::lexicon::{past_of, verb, VerbForm};
use super::short_answers::{last_question, mine};

/// The answer sentence `answer`, when it only says yes to the question in
/// `question`, said as that question's statement.
pub(super) fn said_yes(question: &str, answer: &str) -> Option<String> {
    if let Some(said) = taking(question, answer) {
        return Some(said);
    }
    // ("yes, StoneCo, but it's 2k more": a yes that names what was found;
    // a tool used may be named in lower case: "yeah, turborepo with pnpm")
    let uses = last_question(question).is_some_and(|q| {
        q.split_whitespace()
            .map(bare)
            .any(|w| matches!(w.as_str(), "use" | "using"))
    });
    // ("Have you picked the finishes yet?" - "yes, oak worktops and dark
    // green cabinets": what was chosen, in lower case too)
    let choosing = last_question(question).is_some_and(|q| {
        q.split_whitespace().map(bare).any(|w| {
            matches!(
                w.as_str(),
                "picked" | "chosen" | "chose" | "decided" | "settled" | "booked" | "ordered"
            )
        })
    });
    let named = yes_naming(answer, uses || choosing, if choosing { 8 } else { 4 });
    if !only_yes(answer) && named.is_none() {
        return None;
    }
    // the question's words as written, and lowercased to read
    let mut written: Vec<&str> = last_question(question)?
        .split_whitespace()
        .skip_while(|w| {
            matches!(
                bare(w).as_str(),
                "so" | "and" | "oh" | "wow" | "nice" | "cool" | "awesome"
            )
        })
        .collect();
    // ("... yet?" with what was found named: it is found)
    if named.is_some() && written.last().is_some_and(|w| bare(w) == "yet") {
        written.pop();
    }
    let lower: Vec<String> = written.iter().map(|w| bare(w)).collect();
    let q: Vec<&str> = lower.iter().map(String::as_str).collect();
    let rest = q.get(2..).filter(|r| !r.is_empty())?;
    if q[1] != "you"
        || rest.iter().any(|w| {
            w.starts_with("any")
                || matches!(
                    *w,
                    "ever"
                        | "often"
                        | "happen"
                        | "me"
                        | "us"
                        | "else"
                        | "yet"
                        | "really"
                        | "or"
                        | "think"
                        | "mean"
                )
        })
    {
        return None;
    }
    let said =
        |lead: String, from: usize| format!("{lead} {}", mine(&written[2 + from..].join(" ")));
    let first = bare(rest[0]);
    let form = verb(&first).map(|(_, f)| f);
    let statement = match q[0] {
        // "have you seen ...": a participle (regular ones read as past)
        "have" if matches!(form, Some(VerbForm::Past)) || first == "been" => {
            said("I have".into(), 0)
        }
        "did" => {
            let (base, _) = verb(&first)?;
            let lead = format!("I {}", past_of(base)?);
            said(lead, 1)
        }
        "are" if rest.len() > 2 && rest[0] == "going" && rest[1] == "to" => {
            said("I'm going to".into(), 2)
        }
        "are" if matches!(form, Some(VerbForm::Gerund)) => said("I'm".into(), 0),
        "will" if matches!(form, Some(VerbForm::Base)) => said("I will".into(), 0),
        // "do you use a monorepo?": what one does (named, "yeah, turborepo")
        "do" if matches!(form, Some(VerbForm::Base)) && named.is_some() => said("I".into(), 0),
        _ => return None,
    };
    // (a thing to state: at least two words after the verb)
    if statement.split_whitespace().count() < 4 {
        return None;
    }
    // (what was found is named only when the question asked for one: "a
    // new supplier", not "the kitchen")
    Some(match named {
        Some(name) if q.iter().any(|w| matches!(*w, "a" | "an")) => {
            format!("{statement}, {name}.")
        }
        // "I have picked the finishes: oak worktops and ..."
        Some(name) if choosing && q.contains(&"the") => format!("{statement}: {name}."),
        Some(_) => return None,
        None => format!("{statement}!"),
    })
}

/// The name a yes goes on with: "yes, StoneCo, but it's 2k more" names
/// "StoneCo"; "Yes, Dr. Lee!" names "Dr. Lee". Capitalised words only,
/// up to six (with "of", "at" and the like between), ending the sentence
/// or a comma.
fn yes_naming(sentence: &str, lower_case: bool, most: usize) -> Option<&str> {
    let rest = after_yes(sentence)?;
    let end = rest.find([',', '!', ';']).unwrap_or(rest.len());
    let name = rest[..end].trim_end_matches('.').trim();
    let words: Vec<&str> = name.split_whitespace().collect();
    // ("a Lifetime ISA with Moneybox": an article first, "with" inside)
    let capitalised = words.iter().enumerate().all(|(k, w)| {
        w.starts_with(char::is_uppercase)
            || matches!(
                *w,
                "&" | "and" | "of" | "the" | "at" | "from" | "in" | "with" | "on" | "by"
            )
            || (k == 0 && matches!(*w, "a" | "an") && words.len() > 1)
    });
    let pronoun = words
        .first()
        .is_some_and(|w| matches!(bare(w).as_str(), "i" | "i'm" | "i've" | "we" | "it"));
    let named = capitalised
        && words
            .last()
            .is_some_and(|w| w.starts_with(char::is_uppercase));
    // (a tool's name: no verb, at most four words)
    let tool = lower_case
        && words.len() <= most
        && !words.iter().any(|w| super::clauses::is_verbish(w))
        && !words.first().is_some_and(|w| {
            matches!(
                bare(w).as_str(),
                "a" | "an" | "the" | "some" | "just" | "mostly" | "of" | "not"
            )
        })
        // ("yes, finally": how, not what)
        && !words.iter().all(|w| bare(w).ends_with("ly"));
    (!words.is_empty() && words.len() <= 6 && (named || tool) && !pronoun).then_some(name)
}

/// "Is he on anything for it?" - "yes, metacam once a day": "he is on
/// metacam once a day"; "Are you taking anything?" - "yeah, ibuprofen":
/// "I'm taking ibuprofen". What someone takes, named after the yes.
fn taking(question: &str, answer: &str) -> Option<String> {
    let q: Vec<String> = last_question(question)?
        .split_whitespace()
        .map(bare)
        .collect();
    let at = q.iter().position(|w| matches!(w.as_str(), "is" | "are"))?;
    let (who, verb) = match q.get(at + 1..at + 4)? {
        [who, verb, any] if any == "anything" && matches!(verb.as_str(), "on" | "taking") => {
            (who.as_str(), verb.as_str())
        }
        _ => return None,
    };
    let subject = match who {
        "you" => "I'm",
        "he" => "he is",
        "she" => "she is",
        "they" => "they are",
        _ => return None,
    };
    let rest = after_yes(answer)?.trim_end().trim_end_matches(['.', '!']);
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.is_empty()
        || words.len() > 8
        || words.iter().take(2).any(|w| super::clauses::is_verbish(w))
        || matches!(
            bare(words[0]).as_str(),
            "i" | "i'm" | "he" | "she" | "it" | "just" | "not"
        )
    {
        return None;
    }
    Some(format!("{subject} {verb} {rest}."))
}

/// What a sentence says after a one-word yes and a comma ("yes, StoneCo"
/// -> "StoneCo"); `None` when it opens with no such yes.
fn after_yes(sentence: &str) -> Option<&str> {
    let (yes, rest) = sentence.split_once(',')?;
    (yes.split_whitespace().count() == 1 && YES.contains(&bare(yes).as_str()))
        .then(|| rest.trim_start())
}

/// Words that say yes ("of course", "for sure" by their first word).
const YES: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "definitely",
    "absolutely",
    "sure",
    "totally",
    "of",
    "for",
];

/// Words a bare yes may go on with: "Yeah, I have!", "Of course!".
const WITH_YES: &[&str] = &[
    "course", "i", "have", "did", "am", "will", "do", "we", "i'm", "i've", "i'll", "indeed", "so",
];

/// Whether `sentence` says yes and nothing else: "Yeah, I have!",
/// "Definitely!", "Yep, I did.", "Of course!".
fn only_yes(sentence: &str) -> bool {
    let words: Vec<String> = sentence.split_whitespace().map(bare).collect();
    words.first().is_some_and(|w| YES.contains(&w.as_str()))
        && words.len() <= 5
        && words
            .iter()
            .all(|w| YES.contains(&w.as_str()) || WITH_YES.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yes_says_the_question() {
        for (question, answer, expect) in [
            (
                "Oh nice! Have you seen all the Paddington films?",
                "Yeah, I have!",
                Some("I have seen all the Paddington films!"),
            ),
            (
                "Are you going to invite your old teammates?",
                "Definitely!",
                Some("I'm going to invite my old teammates!"),
            ),
            (
                "Did you finish the marathon in the end?",
                "Yep, I did!",
                Some("I finished the marathon in the end!"),
            ),
            (
                "That's frustrating. Have you found a new supplier?",
                "yes, StoneCo, but it's 2k more",
                Some("I have found a new supplier, StoneCo."),
            ),
            (
                "Did you find a dentist?",
                "Yes, Dr. Lee at Smile Studio.",
                Some("I found a dentist, Dr. Lee at Smile Studio."),
            ),
            (
                "Sure! Do you use a monorepo?",
                "yeah, turborepo with pnpm.",
                Some("I use a monorepo, turborepo with pnpm."),
            ),
            // no yes alone, or nothing stated
            ("Do you use a monorepo?", "yeah, it helps", None),
            ("Have you found the keys?", "Yes, Tom had them!", None),
            (
                "Exciting! Have you picked the finishes yet?",
                "yes, oak worktops and dark green cabinets",
                Some("I have picked the finishes: oak worktops and dark green cabinets."),
            ),
            (
                "Have you booked a hotel yet?",
                "yes, the Hoxton in Shoreditch",
                Some("I have booked a hotel, the Hoxton in Shoreditch."),
            ),
            ("Have you picked the finishes yet?", "yes, finally", None),
            (
                "Poor Biscuit. Is he on anything for it?",
                "yes, metacam once a day with his dinner",
                Some("he is on metacam once a day with his dinner."),
            ),
            (
                "Are you taking anything for the pain?",
                "yeah, ibuprofen when it flares up",
                Some("I'm taking ibuprofen when it flares up."),
            ),
            ("Is he on anything?", "yes, I think so", None),
            (
                "Great goal! Are you using an ISA?",
                "yes, a Lifetime ISA with Moneybox",
                Some("I'm using an ISA, a Lifetime ISA with Moneybox."),
            ),
            (
                "Did you call a plumber?",
                "Yes, I did, he comes Monday.",
                None,
            ),
            ("Did you finish the marathon?", "Yep, in four hours!", None),
            ("Do you have any tips for me?", "Yeah, totally!", None),
            ("Have you ever been to Oslo?", "Yes!", None),
            ("Are you planning on writing anymore songs?", "Yes!", None),
            ("Can you send me the recipe?", "Sure!", None),
            ("Are you okay?", "Yeah!", None),
        ] {
            assert_eq!(
                said_yes(question, answer).as_deref(),
                expect,
                "{question} | {answer}"
            );
        }
    }
}
