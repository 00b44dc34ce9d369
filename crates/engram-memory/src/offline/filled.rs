//! What a "what", "which" or "who" question's answer fills, said back as
//! the speaker's sentence ([`filled`]): "Which team did you sign with?" -
//! "The Harbor Hawks!" says "I signed with The Harbor Hawks"; "What does
//! your team work on?" - "Payments infrastructure" says "My team works on
//! payments infrastructure". And whether an answer's word is a verb of
//! its own ([`finite`]), which a fragment that fills a question has none
//! of. [`super::short_answers`] decides which question it is. Reads text
//! only.

use super::clauses::{bare, is_verbish};
use super::short_answers::{approximate, mine, PREPOSITIONS};
use super::surface::upper_first;

/// A "what" or "which" question whose answer is a thing, said back with
/// the thing in its place: "Which team did you sign with?" - "The Harbor
/// Hawks!" says "I signed with The Harbor Hawks"; "What's your dog's
/// name?" - "Biscuit!" says "My dog's name is Biscuit"; "What are you
/// reading?" - "A thriller by Tana French." says "I'm reading a thriller
/// by Tana French". The answer must be a thing (no verb, no yes, no or
/// judgement), and the question's verb one that takes one.
pub(super) fn filled(question: &str, words: &[&str]) -> Option<String> {
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
pub(super) fn finite(words: &[&str], i: usize) -> bool {
    use super::lexicon::{verb, VerbForm};
    let b = bare(words[i]);
    match verb(&b) {
        // ("I love action movies": a base after its subject is a verb)
        Some((_, VerbForm::Base)) => {
            i.checked_sub(1)
                .is_some_and(|p| matches!(bare(words[p]).as_str(), "i" | "we" | "you" | "they"))
                || words.get(i + 1).is_some_and(|n| {
                    matches!(
                        bare(n).as_str(),
                        "it" | "them" | "that" | "this" | "you" | "him" | "her" | "me" | "us"
                    )
                })
        }
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
pub(super) fn thing(words: &[&str]) -> Option<String> {
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
    // ("around 6000 euros for both of us": an amount may say for whom)
    let amount = words.iter().take(2).any(|w| {
        w.trim_start_matches(['$', '\u{20ac}', '\u{a3}'])
            .starts_with(|c: char| c.is_ascii_digit())
    });
    if words.len() > if amount { 10 } else { 6 }
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
