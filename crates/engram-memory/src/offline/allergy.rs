//! An allergy said without what to, as the reason for the clause before:
//! "I can't eat shellfish, I'm allergic" -> "I'm allergic to shellfish".
//! Alone, "I'm allergic" would become the bare "Sam is allergic."; the
//! thing it is about is the one the clause before kept the speaker from.
//! A diagnosis said without what of, after the illness was named: "my dad
//! has Alzheimer's, he was diagnosed in March" -> "he was diagnosed with
//! Alzheimer's in March".
//! Reads the two clauses' words only; anything else is left as it is.

use super::clauses::bare;
use super::lexicon::verb;

/// Adjectives that want "to" and a thing.
const WANTING_TO: &[&str] = &["allergic", "intolerant", "sensitive"];

/// Words between "I'm" and the adjective that change nothing.
const DEGREE: &[&str] = &[
    "so",
    "very",
    "really",
    "super",
    "severely",
    "seriously",
    "deathly",
    "highly",
    "also",
    "extremely",
    "quite",
];

/// Verbs of taking something in or going near it.
const KEPT_FROM: &[&str] = &[
    "eat", "have", "drink", "touch", "take", "use", "avoid", "tolerate", "digest", "handle",
];

/// Words that end the thing kept from.
const ENDS: &[&str] = &[
    "anymore", "either", "at", "because", "since", "so", "and", "but", "or", "now", "too",
    "lately", "really", "though",
];

/// Whether the words after "I'm" or "Mo is" are an adjective that wants
/// a thing, alone but for a degree ("so allergic"), and no thing said.
fn wanting_alone(rest: &[String]) -> bool {
    let rest: Vec<&String> = rest
        .iter()
        .skip_while(|x| DEGREE.contains(&x.as_str()))
        .collect();
    rest.len() == 1 && WANTING_TO.contains(&rest[0].as_str())
}

/// `clause` ("I'm allergic") completed with what the clause `before` kept
/// the speaker from ("I'm allergic to shellfish"); `None` when `clause`
/// already says what to, or `before` names no such thing.
pub(super) fn completed(clause: &str, before: &str) -> Option<String> {
    let w: Vec<String> = clause.split_whitespace().map(bare).collect();
    let rest = match w.first()?.as_str() {
        "i'm" | "im" => &w[1..],
        "i" if w.get(1).is_some_and(|b| b == "am") => &w[2..],
        _ => return None,
    };
    if !wanting_alone(rest) {
        return None;
    }
    let thing = kept_from(before)?;
    let body = clause.trim_end_matches(|c: char| !c.is_alphanumeric());
    Some(format!("{body} to {thing}"))
}

/// `clause` ("Mo is allergic", "I'm allergic") completed with the animal
/// the clause `before` thinks of having ("I'm thinking about getting a
/// cat"): "Mo is allergic to cats". `None` when `clause` says what to or
/// `before` names no animal had or got.
pub(super) fn to_animal(clause: &str, before: &str) -> Option<String> {
    let w: Vec<String> = clause.split_whitespace().map(bare).collect();
    let rest = match w.as_slice() {
        [i_am, rest @ ..] if i_am == "i'm" => rest,
        [_, is, rest @ ..] if matches!(is.as_str(), "is" | "am" | "'s") => rest,
        _ => return None,
    };
    if !wanting_alone(rest) {
        return None;
    }
    let b: Vec<String> = before.split_whitespace().map(bare).collect();
    let having =
        |x: &str| verb(x).is_some_and(|(base, _)| matches!(base, "get" | "have" | "adopt" | "buy"));
    let animal = b.windows(3).find_map(|p| {
        let one = having(&p[0]) && matches!(p[1].as_str(), "a" | "an");
        (one && super::pronoun_words::animal(&p[2]) == Some(false)).then(|| p[2].clone())
    })?;
    let body = clause.trim_end_matches(|c: char| !c.is_alphanumeric());
    let plural = match animal.strip_suffix('y') {
        Some(stem) => format!("{stem}ies"),
        None => format!("{animal}s"),
    };
    Some(format!("{body} to {plural}"))
}

/// The thing "I can't eat shellfish", "I stay away from peanuts" or "I
/// don't drink milk anymore" keeps the speaker from.
fn kept_from(before: &str) -> Option<String> {
    let raw: Vec<&str> = before.split_whitespace().collect();
    let w: Vec<String> = raw.iter().map(|x| bare(x)).collect();
    let i = w.iter().position(|x| x == "i")?;
    // the verb within a few words of "I" ("I really can't eat")
    let (v, after) = (i + 1..(i + 5).min(w.len())).find_map(|k| {
        let stay = matches!(w[k].as_str(), "stay" | "keep")
            && w.get(k + 1).is_some_and(|x| x == "away")
            && w.get(k + 2).is_some_and(|x| x == "from");
        if stay {
            return Some((k, k + 3));
        }
        let near = matches!(w[k].as_str(), "be" | "go")
            && w.get(k + 1).is_some_and(|x| x == "around" || x == "near");
        if near {
            return Some((k, k + 2));
        }
        let (base, _) = verb(&w[k])?;
        KEPT_FROM.contains(&base).then_some((k, k + 1))
    })?;
    // a negation or "avoid" makes it kept from ("I eat shellfish" is not)
    let negated = w[i + 1..v].iter().any(|x| {
        matches!(
            x.as_str(),
            "can't" | "cannot" | "don't" | "won't" | "never" | "couldn't" | "not" | "shouldn't"
        )
    });
    let avoiding = matches!(w[v].as_str(), "avoid" | "avoids" | "stay" | "keep");
    if !negated && !avoiding {
        return None;
    }
    let mut thing: Vec<&str> = Vec::new();
    for (k, word) in raw.iter().enumerate().skip(after) {
        let b = &w[k];
        if ENDS.contains(&b.as_str()) || thing.len() == 4 {
            break;
        }
        // "any shellfish": the thing itself
        if thing.is_empty() && matches!(b.as_str(), "any" | "much" | "some") {
            continue;
        }
        // a pointer says nothing of what it is
        if thing.is_empty()
            && matches!(
                b.as_str(),
                "it" | "them" | "that" | "this" | "those" | "these" | "the"
            )
        {
            return None;
        }
        let core = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        thing.push(core);
        if core.len() < word.len() {
            break; // a comma or a full stop ends it
        }
    }
    (!thing.is_empty()).then(|| thing.join(" "))
}

/// `resolved` (a clause whose "it" was read as who it is about) with the
/// illness "it" was said to be had by them: "the vet thinks it's
/// arthritis" said of a dog that limps is "the vet thinks Biscuit has
/// arthritis", not "... Biscuit is arthritis". `None` when `clause` says
/// no "it's" of an illness.
pub(super) fn illness_it(clause: &str, resolved: &str) -> Option<String> {
    let lower: Vec<String> = clause.split_whitespace().map(bare).collect();
    let said = lower
        .windows(2)
        .any(|p| p[0] == "it's" && ILLNESSES.contains(&p[1].as_str()))
        || lower
            .windows(3)
            .any(|p| p[0] == "it" && p[1] == "is" && ILLNESSES.contains(&p[2].as_str()));
    if !said {
        return None;
    }
    let words: Vec<&str> = resolved.split_whitespace().collect();
    let at = words
        .windows(2)
        .position(|p| bare(p[0]) == "is" && ILLNESSES.contains(&bare(p[1]).as_str()))?;
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[at] = "has".to_string();
    Some(out.join(" "))
}

/// Words that name an illness (the head of what someone "has").
const ILLNESSES: &[&str] = &[
    "diabetes",
    "cancer",
    "asthma",
    "adhd",
    "autism",
    "depression",
    "anxiety",
    "arthritis",
    "dementia",
    "epilepsy",
    "lupus",
    "ms",
    "copd",
    "hypertension",
    "celiac",
    "coeliac",
    "endometriosis",
    "pcos",
    "fibromyalgia",
    "migraines",
    "leukemia",
    "leukaemia",
    "lymphoma",
    "tumor",
    "tumour",
    "disease",
    "syndrome",
    "disorder",
];

/// `clause` ("he was diagnosed in March") said with the illness the clause
/// `before` has ("he was diagnosed with Alzheimer's in March"); `None`
/// when it says what with, or `before` has no illness.
pub(super) fn diagnosed(clause: &str, before: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let at = words.iter().position(|w| bare(w) == "diagnosed")?;
    let passive = at > 0
        && matches!(
            bare(words[at - 1]).as_str(),
            "was" | "were" | "got" | "been"
        );
    if !passive
        || words
            .iter()
            .any(|w| matches!(bare(w).as_str(), "with" | "as"))
    {
        return None;
    }
    let raw: Vec<&str> = before.split_whitespace().collect();
    // ("I've got type 1 diabetes": "got" after "'ve")
    let has = raw.iter().enumerate().position(|(k, w)| {
        matches!(bare(w).as_str(), "has" | "have" | "had")
            || (bare(w) == "got" && k > 0 && bare(raw[k - 1]).ends_with("'ve"))
    })?;
    // the illness: the words after "has", up to the end of the clause
    let mut thing: Vec<&str> = Vec::new();
    for w in &raw[has + 1..] {
        thing.push(w.trim_end_matches([',', '.', '!', ';']));
        if w.ends_with([',', '.', '!', ';']) || thing.len() == 4 {
            break;
        }
    }
    let illness = thing
        .iter()
        .any(|w| super::entities::condition(w) || ILLNESSES.contains(&bare(w).as_str()));
    if !illness {
        return None;
    }
    let mut out: Vec<String> = words[..=at].iter().map(|w| w.to_string()).collect();
    out.push(format!("with {}", thing.join(" ")));
    out.extend(words[at + 1..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{completed, diagnosed};

    #[test]
    fn a_diagnosis_takes_its_illness_from_the_clause_before() {
        let d = |clause: &str, before: &str| diagnosed(clause, before);
        assert_eq!(
            d(
                "he was diagnosed in March",
                "My dad Harold has early-stage Alzheimer's,"
            )
            .as_deref(),
            Some("he was diagnosed with early-stage Alzheimer's in March")
        );
        assert_eq!(
            d("I was diagnosed last year.", "I have type 2 diabetes,").as_deref(),
            Some("I was diagnosed with type 2 diabetes last year.")
        );
        // said already, or nothing of an illness had
        assert_eq!(d("I was diagnosed with it in May", "I have asthma"), None);
        assert_eq!(d("I was diagnosed last year", "I have two kids"), None);
    }

    fn check(clause: &str, before: &str, expect: Option<&str>) {
        assert_eq!(
            completed(clause, before).as_deref(),
            expect,
            "{before} / {clause}"
        );
    }

    #[test]
    fn an_allergy_takes_its_thing_from_the_clause_before() {
        check(
            "I'm allergic.",
            "I can't eat shellfish,",
            Some("I'm allergic to shellfish"),
        );
        check(
            "I'm severely allergic",
            "I stay away from peanuts",
            Some("I'm severely allergic to peanuts"),
        );
        check(
            "I am intolerant",
            "I don't drink milk anymore",
            Some("I am intolerant to milk"),
        );
        check(
            "I'm allergic",
            "I avoid any cats",
            Some("I'm allergic to cats"),
        );
    }

    #[test]
    fn an_allergy_to_the_animal_one_thinks_of_getting() {
        let check = |clause: &str, before: &str, want: Option<&str>| {
            assert_eq!(
                super::to_animal(clause, before).as_deref(),
                want,
                "{clause}"
            );
        };
        check(
            "Mo is allergic",
            "I'm thinking about getting a cat",
            Some("Mo is allergic to cats"),
        );
        check(
            "I'm so allergic!",
            "we wanted to adopt a puppy",
            Some("I'm so allergic to puppies"),
        );
        check("Mo is allergic", "I saw a cat today", None);
        check("Mo is allergic to dust", "I'm getting a cat", None);
    }

    #[test]
    fn otherwise_nothing_changes() {
        // already says what to
        check("I'm allergic to cats", "I can't have cats", None);
        // the clause before eats it, so it is no allergy's thing
        check("I'm allergic", "I eat shellfish", None);
        // a pointer, not a thing
        check("I'm allergic", "I can't eat it", None);
        // not the speaker's allergy
        check("She's allergic", "I can't eat shellfish", None);
        // not an allergy
        check("I'm tired", "I can't eat shellfish", None);
    }
}
