//! The thing a phrase names, for [`super::topic`]: a determiner and up to
//! three words ending in a thing noun ("that plate", "my first full
//! screenplay", "a poetry reading"), the one thing a question points at,
//! and the one thing a speaker did something with ("I went to a poetry
//! reading" -> "the poetry reading that Ana went to"). Reads words only.

use super::clauses::{bare, is_verbish};
use super::lexicon::{past_of, verb, VerbForm};
use super::topic::{sentences, words};
use super::words::{CALENDAR, EVALUATIVE, VAGUE};

/// The one thing `w` points at ("that note"; "the deal with that note"
/// points at the note), or the one it names with "the"; `None` for none or
/// several.
pub(super) fn only_thing(w: &[&str]) -> Option<(String, String)> {
    let with = |dets: &[&str]| -> Vec<(String, String)> {
        (0..w.len())
            .filter(|&j| dets.contains(&bare(w[j]).as_str()))
            .filter_map(|j| phrase_after(w, j).map(|p| (bare(w[j]), p)))
            .collect()
    };
    let pointed = with(&["that", "this", "your"]);
    let some = with(&["a", "an", "my"]);
    match (pointed.as_slice(), some.is_empty()) {
        ([one], true) => Some(one.clone()),
        ([], true) => match with(&["the"]).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Verbs after which the thing is the doer's own ("I made this window":
/// "Caroline's window").
pub(super) const MAKING: &[&str] = &[
    "make", "paint", "draw", "build", "bake", "cook", "knit", "sew", "design", "create", "write",
    "buy", "get", "craft", "carve", "decorate", "plant", "grow", "frame", "print", "sculpt",
    "adopt", "win", "record", "publish", "launch", "open",
];

/// A head noun a thing can be: a lowercase word, not a vague word, a time,
/// a person or a picture (a question about a picture is about what it
/// shows, which the answer names itself).
pub(super) fn thing_noun(w: &str) -> bool {
    let b = bare(w);
    b.len() > 2
        && b.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !VAGUE.contains(&b.as_str())
        && !CALENDAR.contains(&b.as_str())
        && !EVALUATIVE.contains(&b.as_str())
        && !super::lexicon::PERSON_NOUNS.iter().any(|(p, _)| *p == b)
        && !matches!(
            b.as_str(),
            "pic" | "picture" | "photo" | "photos" | "pics" | "week" | "month" | "year" | "day"
                | "life" | "mind" | "heart" | "weekend" | "morning" | "night" | "evening"
                | "favorite" | "favourite"
                | "time" | "news" | "idea" | "chance" | "way" | "lot"
        )
        && (!b.ends_with('s')
            || b.ends_with("ss")
            || matches!(
                b.as_str(),
                "series" | "species" | "bus" | "lens" | "campus" | "canvas" | "thesis" | "status"
                    | "atlas" | "tennis" | "chess" | "bonus" | "virus" | "cactus" | "walrus"
            ))
        // ("that painting", "a poetry reading": after a determiner an
        // -ing form is a noun)
        && verb(&b).is_none_or(|(_, f)| {
            f == VerbForm::Gerund || (f == VerbForm::Base && !is_verbish_only(&b))
        })
}

/// Words the lexicon knows as verbs that are rarely nouns after a
/// determiner.
fn is_verbish_only(b: &str) -> bool {
    matches!(
        b,
        "be" | "do" | "go" | "get" | "make" | "take" | "have" | "say"
    )
}

/// The last "that/this/the/your" + up to two modifiers + a thing noun in
/// `w`: `(determiner, "modifiers noun")`.
pub(super) fn pointed_thing(w: &[&str]) -> Option<(String, String)> {
    (0..w.len()).rev().find_map(|j| {
        let det = bare(w[j]);
        if !matches!(det.as_str(), "that" | "this" | "the" | "your") || w[j].ends_with([',', '.']) {
            return None;
        }
        // "how does that sound": after an auxiliary it is the subject
        if j > 0 && super::lexicon::AUXILIARIES.contains(&bare(w[j - 1]).as_str()) {
            return None;
        }
        phrase_after(w, j).map(|p| (det, p))
    })
}

/// Whether `w` (bare) ends a thing's phrase when it follows it.
pub(super) fn ends_phrase(w: &str) -> bool {
    PHRASE_ENDS.contains(&w)
}

/// Words that end a thing's phrase when they follow it: joining words,
/// prepositions, times, pronouns.
const PHRASE_ENDS: &[&str] = &[
    "",
    "and",
    "or",
    "but",
    "for",
    "with",
    "in",
    "on",
    "at",
    "from",
    "to",
    "of",
    "you",
    "is",
    "was",
    "that",
    "last",
    "yesterday",
    "today",
    "tonight",
    "tomorrow",
    "this",
    "next",
    "recently",
    "again",
    "together",
    "so",
    "because",
    "'cause",
    "myself",
    "himself",
    "herself",
    "themselves",
    "yourself",
    "ourselves",
    "me",
    "us",
    "him",
    "her",
    "them",
    "it",
    "too",
    "alone",
    "there",
    "here",
    "now",
    "though",
    "while",
    "when",
];

/// The words after the determiner at `j` up to and including a thing
/// noun ending the phrase (at most three words, lowercase, no verb).
pub(super) fn phrase_after(w: &[&str], j: usize) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for k in j + 1..(j + 4).min(w.len()) {
        let b = bare(w[k]);
        let ends = w[k].ends_with([',', '.', '!', '?', ';'])
            || w.get(k + 1).is_none_or(|n| {
                let nb = bare(n);
                // ("a poetry reading": an -ing form goes on with the noun)
                (is_verbish(n) && verb(&nb).is_none_or(|(_, f)| f != VerbForm::Gerund))
                    || PHRASE_ENDS.contains(&nb.as_str())
            });
        if b.is_empty()
            || !b
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c == '+')
        {
            return None;
        }
        // (as written: "LGBTQ+ counseling workshop")
        parts.push(
            w[k].trim_matches(|c: char| c.is_ascii_punctuation() && c != '+' && c != '-')
                .to_string(),
        );
        // "a mix of emotions", "a piece of cake": the thing comes after
        if w.get(k + 1).is_some_and(|n| bare(n) == "of") {
            return None;
        }
        if ends {
            // ("a fantasy book": a book of a kind is a thing; "a book" says
            // little)
            let kind_of_book = parts.len() >= 2 && b == "book";
            return (thing_noun(w[k]) || kind_of_book).then(|| parts.join(" "));
        }
        if is_verbish(w[k]) && verb(&b).is_some_and(|(_, f)| f != VerbForm::Base) {
            return None;
        }
    }
    None
}

/// A thing got by its make ("a used Tesla Model 3", "a new Kindle"): after
/// the determiner at `j`, up to five words to the sentence's end, at
/// least one capitalised and none a function word or a verb but a
/// participle.
fn product_after(w: &[&str], j: usize) -> Option<String> {
    let rest = w.get(j + 1..)?;
    if rest.is_empty() || rest.len() > 5 || rest[..rest.len() - 1].iter().any(|x| x.ends_with(','))
    {
        return None;
    }
    let words: Vec<&str> = rest
        .iter()
        .map(|x| x.trim_end_matches(['.', '!', ',']))
        .collect();
    // (a participle is said of it: "used", "refurbished")
    let doing = |x: &str| {
        is_verbish(x)
            && !x.starts_with(char::is_uppercase)
            && verb(&bare(x)).is_none_or(|(_, f)| f != VerbForm::Past)
    };
    let fits = words.iter().all(|x| {
        !x.is_empty()
            && x.chars().all(|c| c.is_alphanumeric() || c == '-')
            && !super::words::FUNCTION.contains(&bare(x).as_str())
            && !doing(x)
    });
    let made = words.iter().any(|x| x.starts_with(char::is_uppercase));
    (fits && made).then(|| words.join(" "))
}

/// The one thing `speaker` said they did something with, in their turn
/// before the question: "I went to a poetry reading last Fri" -> "the
/// poetry reading Caroline went to", "I finished my first full
/// screenplay" -> "Joanna's first full screenplay".
pub(super) fn done_thing(before: &str, speaker: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for s in sentences(before) {
        let w = words(s);
        for (i, word) in w.iter().enumerate() {
            let b = bare(word);
            let Some((base, form)) = verb(&b) else {
                continue;
            };
            // (a stance is no doing: "I felt a mix of emotions")
            // "training for my first half marathon", "I'm training for
            // ...": a doing under way, its "I'm" perhaps left out
            // ("Losing my job was a bummer": a gerund subject, no doing)
            let ongoing = form == VerbForm::Gerund
                && ((i == 0 && !w[1..].iter().any(|x| is_verbish(x)))
                    || (i >= 1 && matches!(bare(w[i - 1]).as_str(), "i'm" | "im" | "we're"))
                    || (i >= 2 && bare(w[i - 1]) == "am" && bare(w[i - 2]) == "i"));
            if !(matches!(form, VerbForm::Past | VerbForm::Base) || ongoing)
                || matches!(
                    base,
                    "be" | "have"
                        | "feel"
                        | "think"
                        | "know"
                        | "want"
                        | "need"
                        | "hope"
                        | "wish"
                        | "seem"
                        | "look"
                        | "mean"
                        | "guess"
                        | "say"
                        | "tell"
                        | "hear"
                )
            {
                continue;
            }
            // said of the speaker: "I", "I just", "I finally"
            let own = ongoing
                || (1..=3).any(|k| {
                    i >= k
                        && bare(w[i - k]) == "i"
                        && !w[i - k..i].iter().any(|x| x.ends_with([',', '.']))
                });
            if !own {
                continue;
            }
            // the verb's object, after a particle ("went to a reading")
            let mut j = i + 1;
            let particle = w.get(j).map(|p| bare(p)).filter(|p| {
                matches!(p.as_str(), "to" | "at" | "on" | "into" | "up") || (ongoing && p == "for")
            });
            if particle.is_some() {
                j += 1;
            }
            let Some(det) = w.get(j).map(|d| bare(d)) else {
                continue;
            };
            // ("we're launching the new checkout": a team's own work is
            // "the" one)
            let ours = det == "the" && i >= 1 && bare(w[i - 1]) == "we're";
            if !matches!(det.as_str(), "a" | "an" | "my" | "this" | "our") && !ours {
                continue;
            }
            // ("I just bought a used Tesla Model 3": a make and model)
            let got = matches!(base, "buy" | "get" | "order" | "lease");
            let Some(noun) = phrase_after(&w, j).or_else(|| got.then(|| product_after(&w, j))?)
            else {
                continue;
            };
            // two things: which one the question means is not said
            if found.is_some() {
                return None;
            }
            // a taste holds now ("the series that Nate loves"); a doing is
            // past ("the reading that Ana went to")
            let taste = matches!(base, "love" | "like" | "enjoy" | "adore");
            let past = match form {
                VerbForm::Gerund => format!("is {b}"),
                VerbForm::Base if taste => format!("{base}s"),
                VerbForm::Past => b.clone(),
                _ => past_of(base).unwrap_or_else(|| b.clone()),
            };
            let particle = particle.map(|p| format!(" {p}")).unwrap_or_default();
            // what one made or got is theirs; an event was gone to
            let theirs = det == "my" || (particle.is_empty() && MAKING.contains(&base));
            found = Some(if theirs {
                format!("{speaker}'s {noun}")
            } else {
                format!("the {noun} that {speaker} {past}{particle}")
            });
        }
    }
    found
}

/// The thing `speaker` said they made or got, named before the doing
/// ("Here's a pic of a cake I made recently!" -> "the cake Joanna
/// made"): one such thing in the text, else `None`.
pub(super) fn thing_i_made(before: &str, speaker: &str) -> Option<String> {
    let mut found: Vec<String> = Vec::new();
    for s in sentences(before) {
        let w = words(s);
        for i in 2..w.len().saturating_sub(1) {
            let past = verb(&bare(w[i + 1]))
                .is_some_and(|(base, f)| f == VerbForm::Past && MAKING.contains(&base));
            let noun = thing_noun(w[i - 1])
                && !super::words::FUNCTION.contains(&bare(w[i - 1]).as_str())
                && !w[i - 1].ends_with([',', '.']);
            if w[i] != "I" || !past || !noun {
                continue;
            }
            // the determiner, up to two words before the noun
            let Some(d) = (i.saturating_sub(3)..i - 1)
                .rev()
                .find(|&d| matches!(bare(w[d]).as_str(), "a" | "an" | "the" | "this" | "that"))
            else {
                continue;
            };
            let phrase: Vec<String> = w[d + 1..i].iter().map(|x| bare(x)).collect();
            if phrase
                .iter()
                .any(|p| !p.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            {
                continue;
            }
            found.push(format!(
                "the {} {speaker} {}",
                phrase.join(" "),
                bare(w[i + 1])
            ));
        }
    }
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The work the speaker says they are reading, watching or playing, by
/// its name ("I'm reading Project Hail Mary at the moment" -> "Project Hail
/// Mary"): the capitalised words after the verb, one to six, when the
/// speaker is doing it now. `None` for more than one.
pub(super) fn work_taken_in(text: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for s in sentences(text) {
        let w = words(s);
        for i in 1..w.len() {
            let doing = matches!(
                bare(w[i]).as_str(),
                "reading" | "watching" | "rewatching" | "playing" | "bingeing" | "binging"
            );
            let own = matches!(bare(w[i - 1]).as_str(), "i'm" | "im" | "been" | "am");
            if !doing || !own {
                continue;
            }
            let name: Vec<&str> = w[i + 1..]
                .iter()
                .take(6)
                .take_while(|x| x.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()))
                .copied()
                .collect();
            let Some(last) = name.last() else {
                continue;
            };
            // (a name that ends the phrase: "Project Hail Mary at ...")
            let closed = last.ends_with([',', '.', '!', '?'])
                || w.get(i + 1 + name.len())
                    .is_none_or(|n| !n.starts_with(char::is_uppercase));
            if !closed || found.is_some() {
                return None;
            }
            let joined = name.join(" ");
            found = Some(joined.trim_end_matches([',', '.', '!', '?']).to_string());
        }
    }
    found
}
