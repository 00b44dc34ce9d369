//! The predicate of a finished fact, read for [`super::shape::problem`]:
//! where its main verb is past the auxiliaries, what follows that verb,
//! whether "can" states a skill, and the predicates that say nothing in
//! particular. Reads words only; the verdicts are `shape.rs`'s.

use super::clauses::{bare, is_verbish};
use super::lexicon::verb;
use super::words::{EMPTY_VERBS, EVALUATIVE, VAGUE};

/// Where the main verb of `pred` is: auxiliaries before another verb are
/// skipped ("will just need the recipe": an adverb may stand between).
pub(super) fn main_verb_at(pred: &[&str]) -> usize {
    let mut i = 0;
    while pred.get(i).is_some_and(|w| {
        matches!(
            bare(w).as_str(),
            "would"
                | "could"
                | "will"
                | "can"
                | "might"
                | "should"
                | "must"
                | "has"
                | "have"
                | "had"
                | "did"
                | "does"
                | "do"
                | "been"
                | "doesn't"
                | "don't"
                | "didn't"
                | "hasn't"
                | "haven't"
        )
    }) {
        let adverb = pred.get(i + 1).is_some_and(|w| {
            let b = bare(w);
            !is_verbish(w)
                && (matches!(b.as_str(), "just" | "really" | "still" | "also" | "even")
                    || (b.len() > 4 && b.ends_with("ly")))
        });
        let skip = 1 + usize::from(adverb);
        if !pred.get(i + skip).is_some_and(|w| is_verbish(w)) {
            break;
        }
        i += skip;
    }
    i
}

/// Whether "can" at the start of `pred` states a skill ("Ana can play the
/// violin") rather than a possibility ("Gina can reach more people").
pub(super) fn can_is_a_skill(pred: &[&str]) -> bool {
    pred.get(1)
        .and_then(|w| verb(&bare(w)))
        .is_some_and(|(base, _)| {
            matches!(
                base,
                "play"
                    | "speak"
                    | "cook"
                    | "swim"
                    | "drive"
                    | "dance"
                    | "sing"
                    | "paint"
                    | "read"
                    | "write"
                    | "run"
                    | "ride"
                    | "draw"
                    | "bake"
                    | "knit"
                    | "ski"
                    | "surf"
                    | "climb"
                    | "fly"
            )
        })
}

/// What follows the main verb at `i`, up to a free relative ("proud of
/// what she did" says nothing of what), without the verb of an
/// infinitive.
pub(super) fn complement<'a>(pred: &[&'a str], i: usize) -> Vec<&'a str> {
    let mut complement: Vec<&str> = Vec::new();
    let mut after_to = false;
    for w in pred.iter().skip(i + 1) {
        let b = bare(w);
        if matches!(b.as_str(), "what" | "how" | "whatever" | "wherever") {
            break;
        }
        // ("cycles to work", "walks to school": a place, not an infinitive)
        if after_to && is_verbish(w) && !matches!(b.as_str(), "work" | "school" | "class") {
            after_to = false;
            continue;
        }
        after_to = b == "to";
        complement.push(w);
    }
    complement
}

/// For a predicate with no content of its own: whether it says nothing.
/// An event needs no object ("Ana graduated"), a stance does; an object or
/// a manner that says nothing either ("John read a book", "Jon worked
/// hard") says nothing.
pub(super) fn says_nothing(pred: &[&str], i: usize, complement: &[&str]) -> bool {
    let main = pred.get(i).map(|w| bare(w)).unwrap_or_default();
    let event = match verb(&main) {
        Some((base, _)) => !EMPTY_VERBS.contains(&base),
        None => false,
    };
    // (a particle alone is part of the verb: "broke up", "moved out")
    let particle = matches!(
        complement.iter().map(|w| bare(w)).collect::<Vec<_>>().as_slice(),
        [p] if matches!(p.as_str(), "up" | "out" | "off" | "away" | "back" | "down")
    );
    // ("time with family" is said in particular; "eats everything" too)
    let vague_object = !particle
        && !super::vague::eats_all(&pred[i..])
        && complement.iter().enumerate().any(|(k, w)| {
            let b = bare(w);
            let with_whom = matches!(b.as_str(), "time" | "moments")
                && complement.get(k + 1).is_some_and(|n| bare(n) == "with");
            VAGUE.contains(&b.as_str()) && !with_whom
        });
    !event || vague_object
}

/// Whether the clause is a complaint of the body ("Rosa's back has been
/// hurting"): a part of the body that hurts, with `pred[i]` its verb.
pub(super) fn aches(subject: &[&str], pred: &[&str], i: usize) -> bool {
    subject
        .last()
        .is_some_and(|w| super::lexicon::body_part(&bare(w)))
        && pred
            .get(i)
            .and_then(|w| verb(&bare(w)))
            .is_some_and(|(b, _)| {
                matches!(b, "hurt" | "ache" | "swell" | "itch" | "throb" | "bleed")
            })
}

/// "Jonas's girlfriend is Mia": after a copula, who a relative is, by
/// name, is the content, however well the name is known.
pub(super) fn names_relative(subject: &[&str], complement: &[&str]) -> bool {
    subject.last().is_some_and(|w| {
        let noun = bare(w);
        super::lexicon::PERSON_NOUNS
            .iter()
            .any(|(n, plural)| *n == noun && !plural)
    }) && complement
        .first()
        .is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase))
}

/// "Femi's surgery is done", "Priya's kitchen is delayed": after a copula,
/// the state of someone's event or work is the content.
pub(super) fn state_of_theirs(subject: &[&str], complement: &[&str]) -> bool {
    let said: Vec<String> = complement
        .iter()
        .map(|w| bare(w))
        .filter(|w| !matches!(w.as_str(), "now" | "finally" | "all" | "officially"))
        .collect();
    subject.first().is_some_and(|w| bare(w).ends_with("'s"))
        && matches!(
            said.as_slice(),
            [s] if super::lexicon::TOLD_DONE.contains(&s.as_str())
                || matches!(s.as_str(), "delayed" | "cancelled" | "canceled" | "postponed")
        )
}

/// "Tim is figuring out ideas", "John was stumped about something": the
/// fact ends where what it is about would be said (also with a
/// comparative after it: "part of something bigger").
pub(super) fn vague_end(rest: &[&str]) -> bool {
    // ("social media stuff": stuff of a kind named is no vague end)
    let of_a_kind = |at: usize| {
        at > 0 && {
            let before = bare(rest[at - 1]);
            !super::words::FUNCTION.contains(&before.as_str())
                && !EVALUATIVE.contains(&before.as_str())
                && !before.ends_with("ly")
                && !rest[at - 1].ends_with(',')
                && !matches!(
                    before.as_str(),
                    "other"
                        | "new"
                        | "different"
                        | "random"
                        | "cool"
                        | "fun"
                        | "lots"
                        | "many"
                        | "few"
                        | "more"
                        | "various"
                        | "such"
                        | "interesting"
                        | "important"
                        | "similar"
                        | "same"
                        | "creative"
                        | "little"
                        | "big"
                        | "small"
                        | "exciting"
                        | "hard"
                        | "tough"
                        | "crazy"
                        | "weird"
                        | "sorta"
                        | "kinda"
                        | "those"
                        | "these"
                        | "all"
                        | "dream"
                )
        }
    };
    let vague_end = |w: &&str| {
        matches!(
            bare(w).as_str(),
            "something" | "anything" | "stuff" | "things" | "ideas"
        )
    };
    let last = rest.len().saturating_sub(1);
    let kind_end = rest
        .last()
        .is_some_and(|w| matches!(bare(w).as_str(), "stuff" | "things"))
        && of_a_kind(last);
    let comparative = rest.last().is_some_and(|w| {
        matches!(
            bare(w).as_str(),
            "bigger" | "better" | "greater" | "more" | "else" | "new" | "special"
        )
    });
    // "Tim is totally hooked": on what
    let hooked = rest
        .last()
        .is_some_and(|w| matches!(bare(w).as_str(), "hooked" | "obsessed" | "addicted"));
    hooked
        || rest.len() > 2
            && ((rest.last().is_some_and(vague_end) && !kind_end)
                || (comparative && rest.len() > 3 && vague_end(&rest[rest.len() - 2])))
}
