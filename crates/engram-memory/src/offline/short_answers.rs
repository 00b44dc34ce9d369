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

use super::clauses::{bare, is_verbish};
use super::said_alone::{
    age, counted, doing_phrase, done_phrase, duration, frequency, pastimes, place, when,
    whereabouts,
};
use super::surface::upper_first;

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
    // "How long have you been playing the piano?" - "I've been playing
    // for four months": the answer's verb alone, the question's object
    if let Some(doing) = after(&lower, &["how long have you been "]) {
        if let Some(said) = echoed(&cased(doing), answer) {
            return Some(said);
        }
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
    if words.is_empty() || words.len() > if staying { 12 } else { 8 } {
        return None;
    }
    let said = if let Some(doing) = after(&lower, &["how long have you been "]) {
        format!("I have been {} {}", mine(&cased(doing)), duration(&words)?)
    } else if let Some(had) = after(&lower, &["how long have you had "]) {
        // ("How long have you had Pixel?": the name keeps its capital)
        format!("I have had {} {}", mine(&cased(had)), duration(&words)?)
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
    } else if after(&lower, &["where do you live", "where are you living"]).is_some() {
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
    } else {
        filled(&lower, &words).filter(|_| !aside)?
    };
    Some(format!("{said}{rest}"))
}

/// A "what" or "which" question whose answer is a thing, said back with
/// the thing in its place: "Which team did you sign with?" - "The Harbor
/// Hawks!" says "I signed with The Harbor Hawks"; "What's your dog's
/// name?" - "Biscuit!" says "My dog's name is Biscuit"; "What are you
/// reading?" - "A thriller by Tana French." says "I'm reading a thriller
/// by Tana French". The answer must be a thing (no verb, no yes, no or
/// judgement), and the question's verb one that takes one.
fn filled(question: &str, words: &[&str]) -> Option<String> {
    let thing = thing(words)?;
    let q: Vec<&str> = question
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .split_whitespace()
        .skip_while(|w| matches!(*w, "so" | "so," | "and" | "oh," | "ok," | "well,"))
        .collect();
    let wh = q.first().map(|w| bare(w))?;
    let owned = |w: Option<&&str>| {
        w.is_some_and(|w| matches!(bare(w).as_str(), "your" | "his" | "her" | "their"))
    };
    // "Who's your supervisor?" - "Dr. Patel": whose one it is, named
    if (wh == "who's" || (wh == "who" && q.get(1).is_some_and(|w| bare(w) == "is")))
        && words
            .first()
            .is_some_and(|w| w.starts_with(char::is_uppercase))
    {
        let from = if wh == "who's" { 1 } else { 2 };
        if owned(q.get(from)) && (q.len() == from + 2) {
            let np = upper_first(&mine(&q[from..].join(" ")));
            return Some(format!("{np} is {thing}"));
        }
        return None;
    }
    if wh == "what's" || (wh == "what" && q.get(1).is_some_and(|w| bare(w) == "is")) {
        // "what's your dog's name": mine, and said of one's own
        let from = if wh == "what's" { 1 } else { 2 };
        let owner = bare(q.get(from)?);
        // ("what's your budget for the trip": a thing and where it belongs)
        let tail = q[from..]
            .iter()
            .any(|w| PREPOSITIONS.contains(&bare(w).as_str()));
        let longest = from + if tail { 6 } else { 4 };
        if !matches!(owner.as_str(), "your" | "his" | "her" | "their") || q.len() > longest {
            return None;
        }
        let np = upper_first(&mine(&q[from..].join(" ")));
        return (!q[from + 1..].iter().any(|w| verb_not_owner(w)))
            .then(|| format!("{np} is {thing}"));
    }
    if wh == "what" && q.get(1).is_some_and(|w| bare(w) == "are") && owned(q.get(2)) {
        if q.len() > 6 {
            return None;
        }
        let np = upper_first(&mine(&q[2..].join(" ")));
        return (!q[3..].iter().any(|w| verb_not_owner(w))).then(|| format!("{np} are {thing}"));
    }
    // "What does your team work on?" - "Payments infrastructure": what
    // someone or something of one's own does, said of it
    if wh == "what" && owned(q.get(2)) && (5..=6).contains(&q.len()) {
        let aux = bare(q[1]);
        let noun = bare(q[3]);
        let v = bare(q[4]);
        let base = matches!(
            super::lexicon::verb(&v),
            Some((_, super::lexicon::VerbForm::Base))
        );
        let prep = q.get(5).map(|p| bare(p));
        let prep_ok = prep
            .as_deref()
            .is_none_or(|p| matches!(p, "on" | "with" | "about" | "for" | "at" | "in" | "to"));
        let weak = matches!(
            v.as_str(),
            "do" | "think"
                | "mean"
                | "say"
                | "like"
                | "love"
                | "want"
                | "need"
                | "feel"
                | "go"
                | "look"
                | "happen"
        );
        if matches!(aux.as_str(), "does" | "do") && base && prep_ok && !weak && !is_verbish(&noun) {
            let said = if aux == "does" {
                third_person(&v)
            } else {
                v.clone()
            };
            let prep = prep.map(|p| format!(" {p}")).unwrap_or_default();
            let np = upper_first(&mine(&format!("{} {noun}", bare(q[2]))));
            return Some(format!("{np} {said}{prep} {}", lowered(&thing)));
        }
    }
    // a rough amount is the value of a thing of one's own ("about $2000"
    // for a budget), not what a verb takes ("What time do you wake up?" -
    // "Around 6am.")
    if approximate(words) {
        return None;
    }
    // "Do you have any favorite fantasy movies?" - "Star Wars!": a
    // favorite named
    let fav = |w: &&str| matches!(bare(w).as_str(), "favorite" | "favourite" | "fave");
    if wh == "do"
        && q.get(1).is_some_and(|w| bare(w) == "you")
        && q.get(2).is_some_and(|w| bare(w) == "have")
        && q.get(3)
            .is_some_and(|w| matches!(bare(w).as_str(), "a" | "any"))
        && q.get(4).is_some_and(fav)
    {
        let kind: Vec<String> = q[5..]
            .iter()
            .map(|w| bare(w))
            .take_while(|w| !matches!(w.as_str(), "as" | "too" | "right" | "now" | "that" | "you"))
            .collect();
        if kind.is_empty() || kind.len() > 3 || kind.iter().any(|w| is_verbish(w)) {
            return None;
        }
        let kind = kind.join(" ");
        let plural = kind.ends_with('s') && !kind.ends_with("ss");
        let verb = if plural { "include" } else { "is" };
        return Some(format!("My favorite {kind} {verb} {thing}"));
    }
    // "Do you have any pets?" - "A golden retriever called Max.": what
    // one has, named
    if wh == "do"
        && q.get(1).is_some_and(|w| bare(w) == "you")
        && q.get(2).is_some_and(|w| bare(w) == "have")
        && q.get(3)
            .is_some_and(|w| matches!(bare(w).as_str(), "any" | "a" | "an"))
        && (4..=6).contains(&q.len())
        && q.get(4).is_some_and(|w| {
            // things one has, not suggestions, tips or plans
            matches!(
                bare(w).trim_end_matches('s'),
                "pet"
                    | "kid"
                    | "children"
                    | "child"
                    | "sibling"
                    | "brother"
                    | "sister"
                    | "cat"
                    | "dog"
                    | "animal"
                    | "plant"
                    | "allergie"
                    | "allergy"
                    | "roommate"
                    | "tattoo"
                    | "instrument"
                    | "car"
                    | "bike"
            )
        })
    {
        // a thing had, with an article or counted ("Edinburgh!" to "any
        // suggestions?" is no thing had)
        let had = words.first().is_some_and(|w| {
            let b = bare(w);
            matches!(b.as_str(), "a" | "an" | "one" | "two" | "three" | "four")
                || (!b.is_empty() && b.chars().all(|c| c.is_ascii_digit()))
        });
        return had.then(|| format!("I have {thing}"));
    }
    if !matches!(wh.as_str(), "what" | "which") {
        return None;
    }
    // the question's own noun ("which team"), then its auxiliary and "you"
    let you = q.iter().position(|w| bare(w) == "you")?;
    if !(2..=5).contains(&you) {
        return None;
    }
    let aux = bare(q[you - 1]);
    let rest: Vec<String> = q[you + 1..].iter().map(|w| bare(w)).collect();
    let (said, verb_at) = match (aux.as_str(), rest.as_slice()) {
        ("did", [v, ..]) => (super::lexicon::past_of(v)?, 0),
        // "What instrument do you play?": a habit, said in the present
        ("do", [v, ..])
            if matches!(
                super::lexicon::verb(v),
                Some((_, super::lexicon::VerbForm::Base))
            ) =>
        {
            (v.clone(), 0)
        }
        ("are", [v, ..]) if v.ends_with("ing") => (format!("I'm {v}"), 0),
        ("have", [been, v, ..]) if been == "been" && v.ends_with("ing") => {
            (format!("I have been {v}"), 1)
        }
        _ => return None,
    };
    let verb = rest.get(verb_at)?;
    // (what one thought, felt or did is no thing; but the kind of thing
    // one likes is: "What music do you like?")
    let base = super::lexicon::verb(verb).map_or("", |(b, _)| b);
    let kind_liked =
        aux == "do" && you >= 3 && matches!(base, "like" | "love" | "enjoy" | "prefer");
    if !kind_liked
        && matches!(
            base,
            "think"
                | "feel"
                | "mean"
                | "say"
                | "do"
                | "like"
                | "love"
                | "want"
                | "need"
                | "go"
                | "happen"
        )
    {
        return None;
    }
    let said = if aux == "did" || aux == "do" {
        format!("I {said}")
    } else {
        said
    };
    // a preposition the verb takes stays ("sign with"); time words go
    let prep = rest
        .get(verb_at + 1)
        .filter(|p| {
            matches!(
                p.as_str(),
                "with" | "to" | "on" | "about" | "for" | "at" | "in" | "into" | "from"
            )
        })
        .map(|p| format!(" {p}"))
        .unwrap_or_default();
    Some(format!("{said}{prep} {thing}"))
}

/// Whether `before` ends with a title its full stop belongs to ("Dr",
/// "Mrs", "Prof").
fn titled(before: &str) -> bool {
    let last = before.rsplit(' ').next().unwrap_or(before);
    matches!(last, "Dr" | "Mr" | "Mrs" | "Ms" | "Prof" | "St")
}

/// A verb's third person singular ("work" -> "works", "teach" ->
/// "teaches", "study" -> "studies").
fn third_person(v: &str) -> String {
    if v == "have" {
        return "has".into();
    }
    if v.ends_with(['s', 'x', 'z', 'o']) || v.ends_with("sh") || v.ends_with("ch") {
        return format!("{v}es");
    }
    if let Some(stem) = v.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) {
            return format!("{stem}ies");
        }
    }
    format!("{v}s")
}

/// A thing said at the start of an answer, lowercased unless it is a
/// name ("Payments infrastructure" -> "payments infrastructure"; "Spotify"
/// stays).
fn lowered(thing: &str) -> String {
    let mut words = thing.split_whitespace();
    let Some(first) = words.next() else {
        return String::new();
    };
    let rest: Vec<&str> = words.collect();
    let lower_rest = !rest.is_empty() && rest.iter().all(|w| !w.starts_with(char::is_uppercase));
    let first = if lower_rest && !first[1..].contains(char::is_uppercase) {
        first.to_lowercase()
    } else {
        first.to_string()
    };
    std::iter::once(first.as_str())
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether word `i` of an answer is a verb: an auxiliary, a contraction,
/// a past, third-person or -ing form, or a base form with a pronoun after
/// it ("Love it!"); a base form before a noun is the noun's ("clean
/// rivers", "bike lanes").
fn finite(words: &[&str], i: usize) -> bool {
    use super::lexicon::{verb, VerbForm};
    let b = bare(words[i]);
    match verb(&b) {
        Some((_, VerbForm::Base)) => words.get(i + 1).is_some_and(|n| {
            matches!(
                bare(n).as_str(),
                "it" | "them" | "that" | "this" | "you" | "him" | "her" | "me" | "us"
            )
        }),
        Some(_) => true,
        None => is_verbish(words[i]),
    }
}

/// A verb, not a possessive ("dog's").
fn verb_not_owner(w: &str) -> bool {
    !bare(w).ends_with("'s") && is_verbish(w)
}

/// An answer that is a thing: up to six words, no verb, not opening with
/// a yes, a no, a hedge or a judgement ("Not sure yet", "Super good").
fn thing(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let first = lower.first()?;
    // "a golden retriever called Max": the name given, not a verb
    let naming = |i: usize| {
        i > 0
            && matches!(lower[i].as_str(), "called" | "named")
            && words
                .get(i + 1)
                .is_some_and(|n| n.starts_with(char::is_uppercase))
    };
    if words.len() > 6
        || (0..words.len()).any(|i| !naming(i) && finite(words, i))
        || matches!(
            first.as_str(),
            "yes"
                | "yeah"
                | "yep"
                | "no"
                | "nope"
                | "not"
                | "nothing"
                | "none"
                | "sure"
                | "definitely"
                | "totally"
                | "absolutely"
                | "maybe"
                | "probably"
                | "hmm"
                | "well"
                | "oh"
                | "wow"
                | "haha"
                | "lol"
                | "thanks"
                | "thank"
                | "good"
                | "great"
                | "awesome"
                | "cool"
                | "nice"
                | "super"
                | "so"
                | "that"
                | "this"
                | "it"
                | "everything"
                | "anything"
                | "lots"
                | "too"
                | "pretty"
                | "really"
                | "very"
                | "hard"
                | "tough"
                | "same"
                | "me"
                | "you"
                | "just"
                | "kinda"
                | "sort"
        )
        || (PREPOSITIONS.contains(&first.as_str()) && !approximate(words))
    {
        return None;
    }
    // lowercase unless a name ("A thriller" -> "a thriller")
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    // (a capital before a lowercase word opens a sentence, not a name:
    // "Clean rivers", but "Luna and Oliver")
    let lower_next = words.get(1).is_some_and(|n| {
        n.starts_with(|c: char| c.is_lowercase()) && !matches!(*n, "and" | "&" | "or")
    });
    if matches!(first.as_str(), "a" | "an" | "the" | "some" | "my" | "our")
        || lower_next
        || approximate(words)
    {
        out[0] = first.clone();
    }
    Some(out.join(" "))
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
fn approximate(words: &[&str]) -> bool {
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

const PREPOSITIONS: &[&str] = &[
    "besides", "except", "apart", "on", "in", "at", "for", "with", "from", "about", "after",
    "before", "during", "like", "by", "over", "under", "to", "into", "around", "through",
];

#[cfg(test)]
#[path = "short_answers_tests.rs"]
mod tests;
