//! What is tacked onto a statement after a comma and is not part of it:
//! a request of the listener ("I'm vegan, so no dairy please", "...,
//! remind me to renew it") or a comment on what was just said ("...,
//! which is sad because I love them") or an idea mused on ("...,
//! thinking Lisbon"). [`super::clauses::split`] drops it
//! before cutting the sentence into clauses, so the statement is
//! remembered without it. Reads text only.

use super::clauses::{bare, is_verbish, SUBJECTS, SUBORDINATORS};
use super::lexicon::{verb, VerbForm, AUXILIARIES};

/// Remarks said after a comma that comment on the statement and state
/// nothing (as words: lower case, no punctuation).
const REMARKS: &[&str] = &[
    "time flies",
    "how time flies",
    "crazy right",
    "crazy",
    "go figure",
    "who knew",
    "can you believe it",
    "believe it or not",
    "lol",
    "haha",
    "hahaha",
    "ha",
    "yay",
    "ugh",
    "sadly",
    "unfortunately",
    "finally",
    "at last",
    "not bad",
    "not too bad",
    "not bad at all",
    "so far so good",
    "pretty good",
    "so proud",
    "fingers crossed",
    "wish me luck",
];

/// Offers to the listener that close a statement ("..., if you need
/// it"), with or without a comma.
const OFFERS: &[&str] = &[
    " if you need it",
    " if you need them",
    " in case you need it",
    " in case you need them",
    " if you ever need it",
    " if that helps",
    " just in case",
    " for your records",
    " just so you know",
    " so you know",
    " just fyi",
    " fyi",
    " for the record",
    " for your information",
];

/// Closing phrases that lean on what the talk is about and add no fact
/// ("staying with my in-laws during the worst of it"): the statement
/// stands without them.
const LEANING: &[&str] = &[
    " during the worst of it",
    " through the worst of it",
    " for the worst of it",
    " during all of it",
    " through all of it",
    // ("we're moving to Stockholm in October for it": the move stands
    // without what it is for, said just before)
    " for it",
    " because of it",
    " because of that",
    " for that reason",
];

/// How remarks that say how the speaker came to know open ("I'm allergic
/// to penicillin, found out the hard way last year").
const REMARK_OPENERS: &[&str] = &[
    "found out the hard way",
    "learned the hard way",
    "learnt the hard way",
    "long story short",
    "don't ask",
];

/// `sentence` without a request or a comment tacked on after a comma:
/// "I'm vegan, so no dairy please" says "I'm vegan"; "I'm gluten-free, so
/// please keep that in mind" says "I'm gluten-free". A request is a part after ", so"
/// (or ", and", or the comma alone) that opens with "please", a request
/// of the listener ("remind me", "let me know") or, after "so", an
/// imperative ("so keep it short"), or holds "please" before any subject
/// of its own; or a comment on what was just said ("which is sad",
/// "which sucks"). The part before must be a main clause (a verb in it,
/// no "if" or "when" before it).
pub(super) fn without_aside(sentence: &str) -> &str {
    // "My email is ana@example.com if you need it": an offer to the
    // listener tacked on without a comma
    let body = sentence.trim_end_matches(['.', '!']);
    let lower = body.to_lowercase();
    if let Some(tail) = OFFERS.iter().chain(LEANING).find(|t| lower.ends_with(*t)) {
        let head = body[..body.len() - tail.len()].trim_end_matches([',', ' ']);
        if head.split_whitespace().any(is_verbish) {
            return head;
        }
    }
    // "I'm vegetarian so book veggie meals": a request after "so", with no
    // comma before it
    if let Some(at) = sentence.find(" so ") {
        let head = &sentence[..at];
        let after: Vec<&str> = sentence[at + 4..].split_whitespace().collect();
        let next = after.first().map(|w| bare(w));
        // ("we were so close to winning": a degree, not a request)
        let then = after.get(1).map(|w| bare(w));
        let degree = next.as_deref().is_some_and(|n| {
            matches!(
                n,
                "close"
                    | "clean"
                    | "open"
                    | "free"
                    | "clear"
                    | "dry"
                    | "empty"
                    | "mean"
                    | "fit"
                    | "slow"
                    | "warm"
                    | "cool"
                    | "calm"
                    | "like"
                    | "love"
                    | "much"
                    | "well"
            )
        }) || then.as_deref().is_none_or(|t| {
            matches!(
                t,
                "to" | "that"
                    | "of"
                    | "about"
                    | "with"
                    | "and"
                    | "but"
                    | "for"
                    | "at"
                    | "in"
                    | "on"
            )
        }) || after
            .first()
            .is_some_and(|w| w.ends_with([',', '.', '!', '?']));
        // ("book", "order": asked of an assistant, nouns the verb list
        // leaves out)
        let imperative = !degree
            && next.as_deref().is_some_and(|n| {
                (matches!(verb(n), Some((_, VerbForm::Base))) && !AUXILIARIES.contains(&n))
                    || super::lexicon::ARRANGING.contains(&n)
            })
            // ("so no lunch meetings please": what not to do, asked)
            || (next.as_deref() == Some("no") && after.iter().any(|w| bare(w) == "please"));
        // (only of the speaker's own: "Rome wasn't built in a day so keep
        // pushing on" is advice, whole)
        let own = head.split_whitespace().any(|w| {
            matches!(
                bare(w).as_str(),
                "i" | "i'm" | "i've" | "i'll" | "im" | "my" | "we" | "we're" | "our"
            )
        });
        if imperative && own && !head.ends_with(',') && head.split_whitespace().any(is_verbish) {
            return head;
        }
    }
    let mut from = 0;
    while let Some(at) = sentence[from..].find(", ").map(|i| from + i) {
        from = at + 2;
        let head = &sentence[..at];
        let tail: Vec<String> = sentence[at + 2..].split_whitespace().map(bare).collect();
        let (conj, rest) = match tail.first().map(String::as_str) {
            Some("so" | "and") => (tail[0].as_str(), &tail[1..]),
            _ => ("", &tail[..]),
        };
        let Some(first) = rest.first() else {
            continue;
        };
        let imperative = conj == "so"
            && matches!(verb(first), Some((_, VerbForm::Base)))
            && !AUXILIARIES.contains(&first.as_str());
        // "..., remind me to renew it", "..., let me know": asked of the
        // listener
        let next = rest.get(1).map(String::as_str);
        let asked_of_listener =
            matches!(first.as_str(), "remind" | "tell" | "suggest" | "recommend")
                || (matches!(first.as_str(), "let" | "help" | "send" | "show" | "give")
                    && matches!(next, Some("me" | "us")))
                || (first == "don't" && next == Some("forget"));
        // "..., which is sad because I love them", "..., which sucks": a
        // comment on what was just said, not a fact of its own
        let comment = conj.is_empty()
            && first == "which"
            && match next {
                Some("makes" | "made" | "sucks" | "stinks" | "hurts") => true,
                Some("is" | "was" | "'s") => rest.iter().skip(2).take(3).any(|w| {
                    super::words::EVALUATIVE.contains(&w.as_str())
                        || matches!(
                            w.as_str(),
                            "shame"
                                | "pity"
                                | "annoying"
                                | "funny"
                                | "weird"
                                | "relief"
                                | "bummer"
                                | "blessing"
                                | "drag"
                                | "pain"
                        )
                }),
                _ => false,
            };
        // "I'm 42 now, time flies", "..., crazy right?": a stock remark
        // that is the whole rest of the sentence, or opens it ("...,
        // found out the hard way last year")
        // ("..., such an inspiration", "..., what a game": an exclamation
        // in a few words with no verb)
        let exclaimed = matches!(first.as_str(), "such" | "what")
            && matches!(next, Some("a" | "an"))
            && rest.len() <= 5
            && !rest[2..].iter().any(|w| verb(w).is_some());
        // ("..., feeling great so far", "..., really nervous": a mood
        // tacked on)
        let feeling = |n: &str| {
            super::words::EVALUATIVE.contains(&n)
                || matches!(
                    n,
                    "good"
                        | "better"
                        | "fine"
                        | "okay"
                        | "ok"
                        | "nervous"
                        | "anxious"
                        | "stressed"
                        | "scared"
                        | "excited"
                        | "terrified"
                        | "nervy"
                        | "worried"
                )
        };
        let moody = |r: &[String]| {
            r.len() <= 3
                && r.last().is_some_and(|l| feeling(l))
                && r[..r.len() - 1].iter().all(|w| {
                    matches!(
                        w.as_str(),
                        "really" | "so" | "very" | "bit" | "a" | "pretty" | "super" | "kinda"
                    )
                })
        };
        // ("..., way less jittery", "..., so much better for my sleep": a
        // comparison with before, tacked on)
        let degree = |w: &String| matches!(w.as_str(), "way" | "much" | "far" | "so" | "a" | "lot");
        let compared = rest.len() <= 6
            && rest.iter().take_while(|w| degree(w)).count() >= 1
            && rest.iter().find(|w| !degree(w)).is_some_and(|w| {
                matches!(
                    w.as_str(),
                    "less" | "more" | "better" | "worse" | "happier" | "calmer" | "cheaper"
                )
            });
        let mood = compared
            || (first == "feeling" && rest.len() <= 5 && next.is_some_and(feeling))
            || moody(rest);
        // ("..., so nervous": "so" of degree, not of consequence)
        // ("..., so nice to have him close": a judgement of it)
        // ("..., so not bad": a remark after it)
        let so_moody = conj == "so"
            && (moody(&tail)
                || compared
                || REMARKS.contains(&rest.join(" ").as_str())
                || (feeling(first)
                    && matches!(next, None | Some("to" | "that" | "having" | "being"))));
        let remark = so_moody
            || conj.is_empty() && {
                let said = rest.join(" ");
                exclaimed
                    || mood
                    || REMARKS.contains(&said.as_str())
                    || REMARK_OPENERS
                        .iter()
                        .any(|o| said == *o || said.starts_with(&format!("{o} ")))
            };
        let subject = rest.iter().position(|w| SUBJECTS.contains(&w.as_str()));
        let please = rest
            .iter()
            .position(|w| matches!(w.as_str(), "please" | "pls"));
        let asks = first == "please"
            || imperative
            || asked_of_listener
            || comment
            || remark
            || please.is_some_and(|p| subject.is_none_or(|s| p < s));
        // ("If you know anyone, let me know": the part before is the
        // request's condition, not a statement)
        let subordinate = head
            .split_whitespace()
            .next()
            .is_some_and(|w| SUBORDINATORS.contains(&bare(w).as_str()));
        if asks && !subordinate && head.split_whitespace().any(is_verbish) {
            return head;
        }
        // "I need to plan the hen party, thinking Lisbon": an idea mused
        // on, in a few words with no verb, is no fact of the plan's
        let musing = conj.is_empty()
            && matches!(first.as_str(), "thinking" | "considering")
            && rest.len() <= 4
            && !rest[1..].iter().any(|w| verb(w).is_some());
        if musing && !subordinate && head.split_whitespace().any(|w| verb(&bare(w)).is_some()) {
            return head;
        }
    }
    sentence
}
