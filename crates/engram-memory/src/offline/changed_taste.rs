//! A taste or habit that changed, said in two clauses with "it" in the
//! second: "I used to love sushi but now I can't stand it" says that the
//! speaker can't stand sushi now. The "it" of the second clause is the
//! object of the first, when the first is the speaker's taste or habit
//! ("I used to love X", "I always drank X", "I never liked X") and its
//! object is a short plain noun phrase. Reads text only; anything else is
//! left for the other readings (an "it" no rule resolves is not a memory).
//! A switch after it says what it was from: "I used to drink a lot of
//! coffee but I've switched to matcha" -> "I've switched from coffee to
//! matcha".

use super::clauses::bare;
use super::lexicon::verb;

/// Verbs of taste and habit whose object a later "it" may stand for.
const TASTES: &[&str] = &[
    "love", "like", "enjoy", "adore", "hate", "dislike", "prefer", "drink", "eat", "play", "watch",
    "read", "collect", "wear", "drive", "ride",
];

/// Words that may come between "I" and the verb of taste.
const BETWEEN: &[&str] = &[
    "used",
    "to",
    "really",
    "always",
    "never",
    "once",
    "totally",
    "absolutely",
    "didn't",
    "don't",
    "did",
    "do",
    "not",
    "would",
];

/// Words that may close the first clause after its object.
const TRAILING: &[&str] = &[
    "a", "lot", "so", "much", "before", "growing", "up", "as", "kid",
];

/// `clause` ("I now can't stand it.") with its "it" read as the object of
/// `before` ("I used to love sushi"), or `None`.
pub(super) fn resolved(clause: &str, before: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let bares: Vec<String> = words.iter().map(|w| bare(w)).collect();
    // "I used to drink a lot of coffee but I've switched to matcha": from
    // what was had before
    let to = bares.iter().position(|w| w == "to");
    let switched = to.is_some_and(|t| {
        t >= 2
            && matches!(bares[0].as_str(), "i" | "i've")
            && matches!(bares[t - 1].as_str(), "switched" | "changed")
            && bares[1..t - 1]
                .iter()
                .all(|w| matches!(w.as_str(), "now" | "just" | "since" | "have" | "finally"))
    });
    if let (true, Some(t)) = (switched, to) {
        let object = taste_object(before)?;
        let mut out: Vec<String> = words[..t].iter().map(|w| w.to_string()).collect();
        out.push(format!("from {object}"));
        out.extend(words[t..].iter().map(|w| w.to_string()));
        return Some(out.join(" "));
    }
    // one "it", the clause's last word but for "anymore", "now", "these
    // days", "at all"
    let at = bares.iter().position(|w| w == "it")?;
    if bares.iter().filter(|w| *w == "it").count() != 1 || at == 0 {
        return None;
    }
    let after_ok = bares[at + 1..].iter().all(|w| {
        matches!(
            w.as_str(),
            "anymore" | "now" | "at" | "all" | "either" | "these" | "days"
        )
    });
    // said by the speaker, of the verb right before "it"
    let own = bares.first().is_some_and(|w| w == "i");
    if !after_ok || !own || verb(&bares[at - 1]).is_none() {
        return None;
    }
    let object = taste_object(before)?;
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let tail: String = words[at]
        .chars()
        .skip_while(|c| c.is_alphanumeric())
        .collect();
    out[at] = format!("{object}{tail}");
    Some(out.join(" "))
}

/// The object of "I [used to] love sushi": a short plain noun phrase.
fn taste_object(before: &str) -> Option<String> {
    let words: Vec<String> = before
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', '.', '!']).to_string())
        .collect();
    let bares: Vec<String> = words.iter().map(|w| bare(w)).collect();
    if bares.first().map(String::as_str) != Some("i") {
        return None;
    }
    let mut i = 1;
    while bares.get(i).is_some_and(|w| BETWEEN.contains(&w.as_str())) {
        i += 1;
    }
    let v = bares.get(i)?;
    let (base, _) = verb(v)?;
    if !TASTES.contains(&base) {
        return None;
    }
    let mut end = bares.len();
    while end > i + 1 && TRAILING.contains(&bares[end - 1].as_str()) {
        end -= 1;
    }
    // ("drink a lot of coffee": the coffee)
    let mut from = i + 1;
    for lead in [
        &["a", "lot", "of"][..],
        &["lots", "of"],
        &["loads", "of"],
        &["so", "much"],
    ] {
        if bares
            .get(from..from + lead.len())
            .is_some_and(|w| w == lead)
        {
            from += lead.len();
        }
    }
    let object = &bares[from..end];
    let plain = !object.is_empty()
        && object.len() <= 3
        && object.iter().all(|w| {
            w.chars().all(|c| c.is_alphabetic() || c == '-')
                && !super::pronoun_words::THIRD.contains(&w.as_str())
                && !matches!(
                    w.as_str(),
                    "that" | "this" | "me" | "you" | "us" | "my" | "your" | "to" | "with"
                )
        });
    plain.then(|| words[from..end].join(" "))
}

#[cfg(test)]
mod tests {
    use super::resolved;

    #[test]
    fn the_it_of_a_changed_taste_is_what_was_liked() {
        for (clause, before, want) in [
            (
                "I now can't stand it.",
                "I used to love sushi",
                Some("I now can't stand sushi."),
            ),
            (
                "I hate it these days.",
                "I always loved horror movies",
                Some("I hate horror movies these days."),
            ),
            (
                "I hate it.",
                "I always loved horror movies",
                Some("I hate horror movies."),
            ),
            (
                "I love it now.",
                "I never liked jazz",
                Some("I love jazz now."),
            ),
            ("I can't stand it.", "I went to Paris", None),
            (
                "I sold it.",
                "I used to drive a Civic",
                Some("I sold a Civic."),
            ),
            ("I now can't stand it.", "I used to love it", None),
            (
                "I've switched to matcha",
                "I used to drink a lot of coffee",
                Some("I've switched from coffee to matcha"),
            ),
            ("I've switched to matcha", "I went to Paris", None),
            ("It is great.", "I used to love sushi", None),
        ] {
            assert_eq!(
                resolved(clause, before).as_deref(),
                want,
                "{clause} after {before}"
            );
        }
    }
}
