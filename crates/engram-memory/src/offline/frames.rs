//! Facts said inside a frame that points elsewhere, hedges the form, or
//! makes the speaker an object: restated as the plain clause the frame
//! presupposes, which then goes through every check a clause does.
//!
//! - "That's why I love traveling" -> "I love traveling" (a "why", "when"
//!   or "how" clause is true whatever "that" was);
//! - "There's this ramen place near my office that I love" -> "I love a
//!   ramen place near my office";
//! - "For me, adoption is a way of giving back" -> "I think adoption is a
//!   way of giving back";
//! - "It reminds me of the film camera I had as a kid" -> "I had a film
//!   camera as a kid";
//! - "just found out I'm allergic to penicillin" -> "I'm allergic to
//!   penicillin" (what was found out holds);
//! - "they've asked me to step up as team lead" -> "I've been asked to
//!   step up as team lead" (whoever "they" were);
//! - "I'd practice basketball for hours", in a turn about when the speaker
//!   was younger -> "I used to practice basketball for hours" (a "would"
//!   of habit in the past, not of what may be).
//!
//! Works on the clause as said (first person); it never guesses what
//! "that" was, and gives nothing when the clause inside has no subject of
//! the speaker's own.

use super::clauses::{bare, is_verbish};
use super::lexicon::{verb, VerbForm};

/// Adverbs that may sit inside a frame or before a verb.
const SOFT: &[&str] = &[
    "also",
    "exactly",
    "partly",
    "just",
    "really",
    "actually",
    "probably",
    "always",
    "absolutely",
    "totally",
    "still",
    "often",
    "usually",
    "sometimes",
    "all",
];

/// First-person subjects a framed clause may open with.
const OWN: &[&str] = &[
    "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "my", "our",
];

/// What a turn says that puts a "would" in the past: habit, not maybe.
const PAST_FRAMES: &[&str] = &[
    "when i was",
    "when we were",
    "as a kid",
    "as kids",
    "as a child",
    "as a teenager",
    "growing up",
    "back then",
    "back in the day",
    "in high school",
    "in college",
    "in my childhood",
    "when i lived",
    "when we lived",
    "years ago",
];

/// Verbs a "would" of wish or manner goes with ("I'd love to", "I'd
/// say"): never a habit.
const NOT_HABITS: &[&str] = &[
    "love",
    "like",
    "prefer",
    "rather",
    "want",
    "be",
    "have",
    "say",
    "imagine",
    "guess",
    "think",
    "recommend",
    "suggest",
    "hate",
    "need",
    "do",
    "bet",
    "hope",
    "appreciate",
];

/// Verbs of liking or going that "There's a N (that) I ..." says of N.
const THERE_VERBS: &[&str] = &[
    "love",
    "like",
    "adore",
    "enjoy",
    "miss",
    "visit",
    "go",
    "use",
    "recommend",
];

/// The plain clause `clause` (as said) presupposes, when it is framed;
/// `turn` is the whole turn's text, for what puts a "would" in the past.
pub(super) fn unframed(clause: &str, turn: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    if words.len() < 3 {
        return None;
    }
    let framed = why_clause(&words, &lower)
        .or_else(|| we_named(clause))
        .or_else(|| no_thanks(&words, &lower))
        .or_else(|| there_is(&words, &lower))
        .or_else(|| for_me(&words, &lower))
        .or_else(|| found_out(&words, &lower))
        .or_else(|| asked_me(&words, &lower))
        .or_else(|| reminded_of(&words, &lower))
        .or_else(|| used_to(&words, &lower, turn));
    to_destination(framed.as_deref().unwrap_or(clause), turn).or(framed)
}

/// "we're going for two weeks in October" in a turn that spoke of "a trip
/// to Japan": "we're going to Japan for two weeks in October". Only a
/// going with no place of its own, and one trip named in the turn.
fn to_destination(clause: &str, turn: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    // ("we fly out Friday": flying out is going too)
    let g = words.iter().enumerate().position(|(i, w)| {
        bare(w) == "going"
            || (bare(w) == "out"
                && i > 0
                && matches!(bare(words[i - 1]).as_str(), "fly" | "flying" | "flies"))
    })?;
    // a time after "going": "for two weeks", "in October", "next month"
    let after = |k: usize| words.get(g + k).map(|w| bare(w)).unwrap_or_default();
    let timed = super::dates::names_a_day(&after(1))
        || match after(1).as_str() {
            "for" => {
                let n = after(2);
                super::lexicon::number(&n).is_some()
                    || n.chars().next().is_some_and(|c| c.is_ascii_digit())
                    || (matches!(n.as_str(), "a" | "the")
                        && matches!(
                            after(3).as_str(),
                            "week" | "weekend" | "month" | "fortnight" | "few" | "couple"
                        ))
            }
            "in" | "on" => words
                .get(g + 2)
                .is_some_and(|w| w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())),
            "next" | "this" => matches!(
                after(2).as_str(),
                "week" | "weekend" | "month" | "year" | "summer" | "winter" | "spring" | "autumn"
            ),
            _ => false,
        };
    let placed = words
        .iter()
        .any(|w| matches!(bare(w).as_str(), "to" | "back" | "home" | "away"));
    if !timed || placed {
        return None;
    }
    let said: Vec<&str> = turn.split_whitespace().collect();
    let places: Vec<&str> = said
        .windows(3)
        .filter(|p| {
            // ("help me pack for Iceland")
            (matches!(
                bare(p[0]).as_str(),
                "trip" | "holiday" | "vacation" | "honeymoon"
            ) && matches!(bare(p[1]).as_str(), "to" | "in"))
                || (bare(p[0]) == "pack" && bare(p[1]) == "for")
        })
        .map(|p| p[2].trim_end_matches(|c: char| !c.is_alphanumeric()))
        .filter(|p| super::intro::is_name_word(p))
        .collect();
    let [place] = places.as_slice() else {
        return None;
    };
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out.insert(g + 1, format!("to {place}"));
    Some(out.join(" "))
}

/// A word that makes a verb phrase of a noun phrase ("is", "I've").
fn auxiliary(w: &str) -> bool {
    let b = bare(w);
    super::lexicon::AUXILIARIES.contains(&b.as_str()) || b.contains('\'') && !b.ends_with("'s")
}

/// "That's (also) why/when/how I ..." -> "I ...".
fn why_clause(words: &[&str], lower: &[String]) -> Option<String> {
    let mut i = match lower {
        [a, ..] if matches!(a.as_str(), "that's" | "thats" | "it's" | "this's") => 1,
        [a, b, ..]
            if matches!(a.as_str(), "that" | "this" | "it")
                && matches!(b.as_str(), "is" | "was") =>
        {
            2
        }
        _ => return None,
    };
    while lower.get(i).is_some_and(|w| SOFT.contains(&w.as_str())) {
        i += 1;
    }
    if !matches!(lower.get(i)?.as_str(), "why" | "when" | "how") {
        return None;
    }
    let rest = &words[i + 1..];
    let own = lower.get(i + 1).is_some_and(|w| OWN.contains(&w.as_str()));
    (own && rest.len() >= 2 && rest.iter().any(|w| is_verbish(w))).then(|| rest.join(" "))
}

/// "we're going for two weeks in October, me and my husband Kai" -> "my
/// husband Kai and I are going for two weeks in October": who "we" is,
/// said after the clause.
fn we_named(clause: &str) -> Option<String> {
    let (head, tail) = clause.rsplit_once(", ")?;
    let tail = tail.trim_end_matches(['.', '!']);
    let t: Vec<&str> = tail.split_whitespace().collect();
    let who = match t.as_slice() {
        [me, "and", "my", rel, name] if me.eq_ignore_ascii_case("me") => format!("my {rel} {name}"),
        ["my", rel, name, "and", me] if me.eq_ignore_ascii_case("me") || *me == "I" => {
            format!("my {rel} {name}")
        }
        _ => return None,
    };
    if !super::intro::is_name_word(
        t.iter()
            .find(|w| w.starts_with(char::is_uppercase) && **w != "I")?,
    ) {
        return None;
    }
    let hw: Vec<&str> = head.split_whitespace().collect();
    let (first, rest) = hw.split_first()?;
    let verb = match bare(first).as_str() {
        "we're" => "are",
        "we've" => "have",
        "we'll" => "will",
        "we'd" => "would",
        "we" => "",
        _ => return None,
    };
    let rest = rest.join(" ");
    Some(if verb.is_empty() {
        format!("{who} and I {rest}")
    } else {
        format!("{who} and I {verb} {rest}")
    })
}

/// "no mushrooms please, can't stand them" -> "I can't stand mushrooms";
/// "no onions please" -> "I don't want onions": what the speaker will not
/// have.
fn no_thanks(words: &[&str], lower: &[String]) -> Option<String> {
    if lower.first()? != "no" {
        return None;
    }
    let please = lower.iter().position(|w| w == "please")?;
    let np = &words[1..please];
    if np.is_empty() || np.len() > 3 || np.iter().any(|w| auxiliary(w) || w.ends_with(',')) {
        return None;
    }
    let np = np.join(" ");
    let tail: Vec<&str> = lower[please + 1..].iter().map(String::as_str).collect();
    let tail = tail.strip_prefix(&["i"]).unwrap_or(&tail);
    let said = match tail {
        [] => format!("I don't want {np}"),
        ["can't" | "cannot", "stand", "them" | "it"] => format!("I can't stand {np}"),
        ["hate" | "dislike", "them" | "it"] => format!("I hate {np}"),
        ["allergic"] | ["i'm", "allergic"] => format!("I'm allergic to {np}"),
        _ => return None,
    };
    Some(said)
}

/// "There's (this) a little ramen place near my office (that) I love" ->
/// "I love a little ramen place near my office".
fn there_is(words: &[&str], lower: &[String]) -> Option<String> {
    let i = match lower {
        [a, ..] if matches!(a.as_str(), "there's" | "theres") => 1,
        [a, b, ..] if a == "there" && matches!(b.as_str(), "is" | "was") => 2,
        _ => return None,
    };
    if !matches!(lower.get(i)?.as_str(), "a" | "an" | "this" | "one") {
        return None;
    }
    // the speaker, after the noun phrase (and a "that" or "which")
    let me = (i + 2..lower.len()).find(|&j| lower[j] == "i")?;
    let np_end = if matches!(lower[me - 1].as_str(), "that" | "which" | "who") {
        me - 1
    } else {
        me
    };
    let np = &words[i + 1..np_end];
    if np.is_empty()
        || np.len() > 8
        || np
            .iter()
            .any(|w| w.ends_with([',', ';', ':']) || auxiliary(w))
        || matches!(
            bare(np[0]).as_str(),
            "something" | "nothing" | "lot" | "thing" | "way"
        )
    {
        return None;
    }
    let mut k = me + 1;
    while lower.get(k).is_some_and(|w| SOFT.contains(&w.as_str())) {
        k += 1;
    }
    let (base, form) = verb(lower.get(k)?)?;
    if form != VerbForm::Base || !THERE_VERBS.contains(&base) {
        return None;
    }
    // "... that I really like: "Turn on the light" ...": what the colon
    // opens is a clause of its own
    let said_verb = words[k].trim_end_matches([':', ',', ';']);
    let closed = words[k] != said_verb;
    let np = np.join(" ");
    let article = super::salvage::article_for(&np, false);
    let mut out = vec!["I".to_string()];
    out.extend(words[me + 1..k].iter().map(|w| w.to_string()));
    out.push(said_verb.to_string());
    if base == "go" {
        // "a bakery I go to every week": "go to a bakery every week"
        if lower.get(k + 1).is_some_and(|w| w == "to") {
            out.push("to".to_string());
            k += 1;
        } else {
            return None;
        }
    }
    out.push(format!("{article}{np}"));
    if !closed {
        out.extend(words[k + 1..].iter().map(|w| w.to_string()));
    }
    Some(out.join(" "))
}

/// "For me, adoption is a way of giving back" -> "I think adoption is a
/// way of giving back": the speaker's view of something named.
fn for_me(words: &[&str], lower: &[String]) -> Option<String> {
    if !matches!(lower, [a, b, ..] if matches!(a.as_str(), "for" | "to") && b == "me")
        || !words[1].ends_with(',')
    {
        return None;
    }
    let rest = &words[2..];
    let first = bare(rest.first()?);
    if matches!(
        first.as_str(),
        "it" | "it's" | "that" | "that's" | "this" | "there" | "there's" | "i" | "i'm" | "you"
    ) {
        return None;
    }
    // a subject of a few words, then "is" or "are"
    let v = rest.iter().position(|w| is_verbish(w))?;
    if !(1..=5).contains(&v)
        || !matches!(bare(rest[v]).as_str(), "is" | "are")
        || rest.len() < v + 2
    {
        return None;
    }
    Some(format!(
        "I think {}",
        super::notes::lowered(&rest.join(" "))
    ))
}

/// "just found out I'm allergic to penicillin" -> "I'm allergic to
/// penicillin"; "turns out my landlord is selling" -> "my landlord is
/// selling". What was found out holds; the finding is no fact of its own.
/// Only a clause with a first-person subject of its own after the frame.
fn found_out(words: &[&str], lower: &[String]) -> Option<String> {
    let lead = lower
        .iter()
        .take_while(|w| {
            matches!(
                w.as_str(),
                "i" | "i've" | "just" | "recently" | "finally" | "only" | "so"
            )
        })
        .count();
    let frame = match lower.get(lead..lead + 2)? {
        [a, b] if matches!(a.as_str(), "found" | "find" | "turns" | "turned") && b == "out" => 2,
        [a, _] if matches!(a.as_str(), "learned" | "learnt" | "discovered") => 1,
        _ => return None,
    };
    let mut at = lead + frame;
    if lower.get(at).is_some_and(|w| w == "that") {
        at += 1;
    }
    // ("I found out about it", "found out the hard way": no clause)
    (OWN.contains(&lower.get(at)?.as_str()) && words.len() > at + 2).then(|| words[at..].join(" "))
}

/// "they've asked me to step up as team lead" -> "I've been asked to step
/// up as team lead": an unnamed "they" (work, a school) asking or offering
/// the speaker something, said of the speaker. Whoever "they" were, the
/// speaker was asked.
fn asked_me(words: &[&str], lower: &[String]) -> Option<String> {
    let at = match lower.first()?.as_str() {
        "they've" | "they" => 1 + usize::from(lower.get(1)? == "have"),
        _ => return None,
    };
    let verb = lower.get(at)?;
    let past = match verb.as_str() {
        "asked" if lower.get(at + 2).is_some_and(|w| w == "to") => "asked",
        "offered" | "promoted" | "invited" => verb.as_str(),
        _ => return None,
    };
    if lower.get(at + 1)? != "me" || words.len() < at + 4 {
        return None;
    }
    Some(format!("I've been {past} {}", words[at + 2..].join(" ")))
}

/// Nouns of "reminds me of the time I ..." that only set a time.
const TIMES: &[&str] = &[
    "time", "times", "day", "days", "moment", "moments", "night", "summer",
];

/// "It reminds me of the film camera I had as a kid" -> "I had a film
/// camera as a kid"; "... of the time I broke my arm" -> "I broke my arm".
fn reminded_of(words: &[&str], lower: &[String]) -> Option<String> {
    let r = lower
        .iter()
        .position(|w| matches!(w.as_str(), "reminds" | "reminded" | "remind"))?;
    if lower.get(r + 1)? != "me" || lower.get(r + 2)? != "of" {
        return None;
    }
    let d = r + 3;
    if !matches!(lower.get(d)?.as_str(), "the" | "a" | "that" | "this") {
        return None;
    }
    let me = (d + 2..lower.len().min(d + 7)).find(|&j| matches!(lower[j].as_str(), "i" | "we"))?;
    let np_end = if matches!(lower[me - 1].as_str(), "that" | "which" | "when") {
        me - 1
    } else {
        me
    };
    let np = &words[d + 1..np_end];
    if np.is_empty() || np.iter().any(|w| auxiliary(w) || w.ends_with(',')) {
        return None;
    }
    let v = words.get(me + 1)?;
    if !matches!(verb(&bare(v)), Some((_, VerbForm::Past))) && bare(v) != "had" {
        return None;
    }
    let rest = &words[me + 2..];
    let mut out = vec![words[me].to_string(), v.to_string()];
    if !TIMES.contains(&bare(np[np.len() - 1]).as_str()) || np.len() > 1 {
        if TIMES.contains(&bare(np[np.len() - 1]).as_str()) {
            return None;
        }
        let np = np.join(" ");
        out.push(format!("{}{np}", super::salvage::article_for(&np, false)));
    }
    out.extend(rest.iter().map(|w| w.to_string()));
    (out.len() >= 3).then(|| out.join(" "))
}

/// "I'd practice basketball outside for hours", in a turn about when the
/// speaker was younger -> "I used to practice basketball outside for
/// hours".
fn used_to(words: &[&str], lower: &[String], turn: &str) -> Option<String> {
    let (subject, mut k) = match lower {
        [a, ..] if matches!(a.as_str(), "i'd" | "we'd") => (&a[..a.len() - 2], 1),
        [a, b, ..] if matches!(a.as_str(), "i" | "we") && b == "would" => (a.as_str(), 2),
        _ => return None,
    };
    let turn = turn.to_lowercase().replace('\u{2019}', "'");
    if !PAST_FRAMES.iter().any(|f| turn.contains(f)) {
        return None;
    }
    let adverbs = k;
    while lower.get(k).is_some_and(|w| SOFT.contains(&w.as_str())) {
        k += 1;
    }
    let (base, form) = verb(lower.get(k)?)?;
    if form != VerbForm::Base || NOT_HABITS.contains(&base) {
        return None;
    }
    // "I'd go for the blue one": a choice
    if base == "go"
        && lower
            .get(k + 1)
            .is_some_and(|w| matches!(w.as_str(), "for" | "with"))
    {
        return None;
    }
    let subject = if subject == "i" { "I" } else { "we" };
    let mut out = vec![subject.to_string(), "used to".to_string()];
    out.extend(words[adverbs..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

#[cfg(test)]
#[path = "frames_tests.rs"]
mod tests;
