//! Verdicts said in a fact's shape: how something will turn out ("their
//! studio will be a huge success", "will rock the dance floor"), how
//! someone feels in an idiom ("is on fire", "is over the moon"), a place
//! or work judged as one of a kind ("a must-see city") and a doing judged
//! with nothing after the judgement ("Having friends who share John's
//! hobbies can be really fun"). They state no fact of their own;
//! [`super::shape`] drops them. Reads words only.

use super::clauses::bare;
use super::words::{Words, EVALUATIVE};

/// Idioms of how someone feels, said after "is" with nothing more: "is on
/// fire", "is over the moon" (with a reason after them, the reason is
/// the fact).
pub(super) fn feeling_idiom(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let rest = match words.first().map(String::as_str) {
        Some("is" | "was" | "am" | "'m" | "feels" | "felt") => &words[1..],
        _ => return false,
    };
    let rest: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "so" | "totally" | "just" | "really" | "absolutely"))
        .collect();
    matches!(
        rest.as_slice(),
        ["on", "fire"]
            | ["on", "cloud", "nine"]
            | ["over", "the", "moon"]
            | ["on", "top", "of", "the", "world"]
            | ["in", "seventh", "heaven"]
            | ["on", "a", "roll"]
    )
}

/// Verbs that say how well something will go, and nothing of what:
/// "will rock", "will crush it", "will nail it", "will smash it".
const HYPE: &[&str] = &["rock", "crush", "nail", "smash", "slay", "ace", "kill"];

/// A forecast of how something will turn out: "their studio will be a
/// huge success", "Gina's store is gonna be amazing". Encouragement, not a
/// fact, whoever it is about.
pub(super) fn forecast(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let future = |i: usize| {
        matches!(words[i].as_str(), "will" | "gonna" | "'ll")
            || (words[i] == "going" && words.get(i + 1).is_some_and(|t| t == "to"))
    };
    // "will rock the dance floor", "is gonna crush it": a verdict in a verb
    let hyped = |i: usize| {
        future(i)
            && words[i + 1..]
                .iter()
                .find(|w| !matches!(w.as_str(), "to" | "definitely" | "surely" | "totally"))
                .is_some_and(|w| HYPE.contains(&w.as_str()))
    };
    (0..words.len()).any(|i| {
        if hyped(i) {
            return true;
        }
        let mut after = words[i + 1..]
            .iter()
            .skip_while(|w| matches!(w.as_str(), "to" | "definitely" | "surely" | "totally"));
        // "will be (a huge) success", "is gonna be (so) amazing": what
        // comes after "be" is the verdict
        future(i)
            && after.next().is_some_and(|w| w == "be")
            && after
                .find(|w| {
                    !matches!(
                        w.as_str(),
                        "a" | "an" | "so" | "such" | "super" | "really" | "very" | "huge" | "big"
                    )
                })
                .is_some_and(|w| {
                    EVALUATIVE.contains(&w.as_str()) || matches!(w.as_str(), "success" | "hit")
                })
    })
}

/// Whether `words` (a fact) judges a doing and ends there: a gerund
/// opens it, a form of "be" follows, and the last word is the judgement
/// ("Watching the turtles eat is so fun."). With more after the
/// judgement it says what the doing is for ("Painting is great for
/// Caroline's self-expression"), which stays.
pub(super) fn judged_doing(words: &[&str]) -> bool {
    use super::lexicon::{verb, VerbForm};
    let opens = words
        .first()
        .is_some_and(|w| matches!(verb(&bare(w)), Some((_, VerbForm::Gerund))));
    let be = words
        .iter()
        .skip(1)
        .any(|w| matches!(bare(w).as_str(), "is" | "was" | "be"));
    let judged = words.last().is_some_and(|w| {
        let b = bare(w);
        EVALUATIVE.contains(&b.as_str()) || matches!(b.as_str(), "fun" | "priceless" | "invaluable")
    });
    opens && be && judged
}

/// Kinds a place or a work is called when it is judged ("a must-see
/// city", "a great read").
const JUDGED_KINDS: Words = Words(
    "city town place country spot destination book novel movie film show series song \
     album game read restaurant cafe trip writer author artist singer musician actor \
     actress director band player athlete",
);

/// Whether a copula's complement only judges its subject as one of a
/// kind: "(definitely) a lovely and lively city", "a must-see city", "the
/// best book ever". Of a named place or work that is an opinion nobody
/// holds in the memory; "Lisbon is Ben's favourite city" is a taste, and
/// "a city with old trams" says more.
pub(super) fn judged_kind(complement: &[&str]) -> bool {
    let words: Vec<String> = complement.iter().map(|w| bare(w)).collect();
    let mut rest = words.iter().skip_while(|w| {
        (w.ends_with("ly") && !EVALUATIVE.contains(&w.as_str()))
            || matches!(w.as_str(), "such" | "so" | "really" | "truly")
    });
    if !rest
        .next()
        .is_some_and(|w| matches!(w.as_str(), "a" | "an" | "the"))
    {
        return false;
    }
    let phrase: Vec<&String> = rest.collect();
    let Some(kind) = phrase
        .iter()
        .rposition(|w| JUDGED_KINDS.contains(&w.as_str()))
    else {
        return false;
    };
    let tail_ok = phrase[kind + 1..]
        .iter()
        .all(|w| matches!(w.as_str(), "ever" | "around" | "too"));
    let judged = phrase[..kind].iter().any(|w| {
        EVALUATIVE.contains(&w.as_str())
                || w.starts_with("must-")
                // ("such an inspiring writer": praise of one of a kind)
                || matches!(
                    w.as_str(),
                    "inspiring" | "inspirational" | "talented" | "captivating" | "gifted"
                )
    });
    let plain = complement
        .iter()
        .all(|w| !w.chars().any(|c| c.is_uppercase() || c.is_ascii_digit()) && !w.contains("'s"));
    tail_ok && judged && plain
}
