//! An allergy said without what to, as the reason for the clause before:
//! "I can't eat shellfish, I'm allergic" -> "I'm allergic to shellfish".
//! Alone, "I'm allergic" would become the bare "Sam is allergic."; the
//! thing it is about is the one the clause before kept the speaker from.
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
    let rest: Vec<&String> = rest
        .iter()
        .skip_while(|x| DEGREE.contains(&x.as_str()))
        .collect();
    if rest.len() != 1 || !WANTING_TO.contains(&rest[0].as_str()) {
        return None;
    }
    let thing = kept_from(before)?;
    let body = clause.trim_end_matches(|c: char| !c.is_alphanumeric());
    Some(format!("{body} to {thing}"))
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

#[cfg(test)]
mod tests {
    use super::completed;

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
