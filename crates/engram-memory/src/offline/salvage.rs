//! Facts a clause holds besides, or beneath, what it mainly says. Works
//! on the clause as said (first person, before names replace pronouns) and
//! returns clauses in the same form, which then go through every check a
//! clause does:
//!
//! - a wrapper that says nothing itself: "The toughest thing is that we
//!   had to say goodbye to Max" states "we had to say goodbye to Max";
//! - an appositive: "Oscar, my guinea pig." states "Oscar is my guinea
//!   pig", and "a gift from my home country, Sweden" states "my home
//!   country is Sweden";
//! - a relative clause on a subject that points at a picture: "These
//!   figurines I bought yesterday remind me of home" states "I bought
//!   figurines yesterday";
//! - a time or reason clause beside a main clause that points elsewhere:
//!   "I painted this after I visited an LGBTQ center" states "I visited an
//!   LGBTQ center".
//!
//! It only cuts and reorders the speaker's own words: nothing here adds a
//! word that was not said but "is".

use super::clauses::{bare, is_verbish, subject_at};
use super::lexicon::{verb, VerbForm, AUXILIARIES};

/// Nouns of "the X is that S" whose S is asserted as true.
const FACTIVE_HEADS: &[&str] = &[
    "thing", "part", "problem", "news", "truth", "reason", "fact", "issue", "catch", "upside",
    "downside",
];

/// Words after "my" that make an exclamation or an address, not a thing
/// someone has ("oh my god, Anna").
const NOT_OWNED: &[&str] = &["god", "gosh", "goodness", "lord", "dear", "word", "bad"];

fn capital(w: &str) -> bool {
    w.trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .next()
        .is_some_and(char::is_uppercase)
}

fn lower_word(w: &str) -> bool {
    w.chars().any(char::is_alphabetic)
        && w.chars()
            .all(|c| c.is_lowercase() || c == '-' || c == '\'' || c == ',')
}

/// A name of one to three capitalised words at `words[i..]`: its length,
/// and whether a comma or the clause's end closes it.
fn name_at(words: &[&str], i: usize) -> Option<usize> {
    let mut n = 0;
    while n < 3 {
        let Some(w) = words.get(i + n) else { break };
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        if !capital(w.trim_start_matches(['\'', '"']))
            || core.is_empty()
            || core == "I"
            || !core.chars().all(char::is_alphabetic)
        {
            break;
        }
        n += 1;
        if w.ends_with([',', '.', '!', '?', ';']) {
            break;
        }
    }
    if n == 0 {
        return None;
    }
    // "Lord of the Rings": a name that runs on in lower case is a title
    // cut short
    let closed = words
        .get(i + n)
        .is_none_or(|_| words[i + n - 1].ends_with([',', '.', '!', '?', ';']))
        || words
            .get(i + n)
            .is_some_and(|w| matches!(bare(w).as_str(), "and" | "is" | "was"));
    closed.then_some(n)
}

/// The clause a wrapper stands for, or an appositive fragment as a
/// clause; `None` when it is neither.
pub(super) fn restated(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    // "The best part is that ...", "The thing is, ..."
    if lower.first().is_some_and(|w| w == "the") {
        let k = (2..words.len().saturating_sub(1))
            .find(|&k| matches!(lower[k].as_str(), "is" | "was"))?;
        if !lower[1..k]
            .iter()
            .any(|w| FACTIVE_HEADS.contains(&w.as_str()))
        {
            return None;
        }
        let from = if lower[k + 1] == "that" {
            k + 2
        } else if words[k].ends_with(',') {
            k + 1
        } else {
            return None;
        };
        return (subject_at(&words, from) > 0 && words.len() > from + 1)
            .then(|| words[from..].join(" "));
    }
    // "Oscar, my guinea pig."
    let n = name_at(&words, 0)?;
    if !words[n - 1].ends_with(',') || lower.get(n).is_none_or(|w| w != "my") {
        return None;
    }
    let rest = &words[n + 1..];
    if rest.is_empty()
        || rest.len() > 3
        || !rest
            .iter()
            .all(|w| lower_word(w.trim_end_matches(['.', '!'])))
    {
        return None;
    }
    if NOT_OWNED.contains(&bare(rest[0]).as_str()) {
        return None;
    }
    let name = words[..n].join(" ");
    let name = name.trim_end_matches(',');
    Some(format!("{name} is my {}", rest.join(" ")))
}

/// Facts inside the clause, beside what it mainly says; `listener`: who
/// is spoken to ("my friend, Anna" said to Anna is an address).
pub(super) fn inner(clause: &str, listener: Option<&str>) -> Vec<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let mut out = Vec::new();
    // "my home country, Sweden", "my sister, Anna, ..."
    for i in 0..words.len() {
        if !matches!(bare(words[i]).as_str(), "my" | "our") {
            continue;
        }
        let Some(j) =
            (i + 1..=(i + 3).min(words.len().saturating_sub(1))).find(|&j| words[j].ends_with(','))
        else {
            continue;
        };
        let np = &words[i + 1..=j];
        if !np.iter().all(|w| lower_word(w) && !is_verbish(w))
            || NOT_OWNED.contains(&bare(np[0]).as_str())
        {
            continue;
        }
        let Some(n) = name_at(&words, j + 1) else {
            continue;
        };
        let name = words[j + 1..j + 1 + n].join(" ");
        let name = name.trim_end_matches([',', '.', '!', '?', ';']);
        if listener.is_some_and(|l| l == name) {
            continue;
        }
        // "my sister, Anna and I": the name alone is who it is
        let np = np.join(" ");
        let np = np.trim_end_matches(',');
        out.push(format!("{} {np} is {name}", bare(words[i])));
    }
    if let Some(fact) = relative_on_pointer(&words) {
        out.push(fact);
    }
    // "I painted this after I visited ...": what "this" is was shown, the
    // time clause says something of its own
    if let Some(i) = subordinate_at(&words) {
        if matches!(
            bare(words[i - 1]).as_str(),
            "this" | "that" | "these" | "those" | "it" | "them" | "there" | "here"
        ) {
            out.push(words[i + 1..].join(" "));
        }
    }
    out
}

/// "These figurines I bought yesterday remind me ..." -> "I bought
/// figurines yesterday": the subject points at a picture, the relative
/// clause inside it says what the speaker did.
fn relative_on_pointer(words: &[&str]) -> Option<String> {
    let det = bare(words.first()?);
    let plural = match det.as_str() {
        "these" | "those" => true,
        "this" | "that" | "the" => false,
        _ => return None,
    };
    // one to three words of the noun phrase, then "I" or "we"
    let s = (2..=4).find(|&s| {
        words
            .get(s)
            .is_some_and(|w| matches!(bare(w).as_str(), "i" | "we"))
    })?;
    let np = &words[1..s];
    // ("book" and "paint" may be verbs, not after "this")
    if !np
        .iter()
        .all(|w| lower_word(w) && !AUXILIARIES.contains(&bare(w).as_str()) && !w.ends_with(','))
    {
        return None;
    }
    let v = bare(words.get(s + 1)?);
    // ("read", "put": a past the same as the base)
    let past = matches!(verb(&v), Some((_, VerbForm::Past)))
        || matches!(
            v.as_str(),
            "read" | "put" | "cut" | "set" | "hit" | "quit" | "shut"
        );
    if !past || matches!(v.as_str(), "was" | "were") {
        return None;
    }
    // the relative clause ends where the sentence's own verb starts
    // ("in May": a month, not a modal)
    let main =
        (s + 2..words.len().min(s + 8)).find(|&k| is_verbish(words[k]) && !capital(words[k]))?;
    if words[s + 1..main].iter().any(|w| {
        w.ends_with([',', '.', '!', '?'])
            || matches!(
                bare(w).as_str(),
                "and" | "or" | "but" | "how" | "what" | "why" | "which" | "who" | "i" | "we"
            )
    }) {
        return None;
    }
    let np = np.join(" ");
    let plural = plural || (np.ends_with('s') && !np.ends_with("ss"));
    let article = if plural {
        String::new()
    } else if np.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an ".to_string()
    } else {
        "a ".to_string()
    };
    let mut fact = vec![
        bare(words[s]).replace('i', "I"),
        v,
        format!("{article}{np}"),
    ];
    fact.extend(words[s + 2..main].iter().map(|w| w.to_string()));
    Some(fact.join(" "))
}

/// The time or reason clause of a clause whose main part points
/// elsewhere: "I painted this after I visited an LGBTQ center" -> "I
/// visited an LGBTQ center".
pub(super) fn subordinate(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    subordinate_at(&words).map(|i| words[i + 1..].join(" "))
}

/// Where a time or reason clause with its own subject and verb starts.
fn subordinate_at(words: &[&str]) -> Option<usize> {
    let i = (2..words.len()).find(|&i| {
        matches!(
            bare(words[i]).as_str(),
            "after" | "before" | "when" | "while" | "because"
        ) && !words[i - 1].ends_with(',')
    })?;
    let tail = &words[i + 1..];
    let s = subject_at(tail, 0);
    if s == 0 || tail.len() < s + 2 {
        return None;
    }
    // something that happened: a past verb ("after I visited"), not a
    // habit ("when I look after myself") nor a state ("when I was young");
    // "was" only for where someone was or what they were doing
    let v = bare(tail[s]);
    let next = tail.get(s + 1).map(|w| bare(w)).unwrap_or_default();
    let happened = match v.as_str() {
        "was" | "were" => {
            matches!(next.as_str(), "in" | "at" | "on")
                || matches!(verb(&next), Some((_, VerbForm::Gerund)))
        }
        "had" => true,
        _ => matches!(verb(&v), Some((_, VerbForm::Past))),
    };
    happened.then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrappers_and_appositive_fragments_restate() {
        for (clause, expected) in [
            (
                "The toughest thing to deal with is that we had to say goodbye to Max.",
                Some("we had to say goodbye to Max."),
            ),
            (
                "The best part was that my sister came too",
                Some("my sister came too"),
            ),
            (
                "The thing is, I never learned to swim.",
                Some("I never learned to swim."),
            ),
            // a plan is not asserted as done
            ("The plan is that we move in June", None),
            ("Oscar, my guinea pig.", Some("Oscar is my guinea pig.")),
            (
                "Matt Patterson, my old teacher",
                Some("Matt Patterson is my old teacher"),
            ),
            ("Oh my god, Anna", None),
            ("Lisbon, my favourite city in the whole world", None),
        ] {
            assert_eq!(restated(clause).as_deref(), expected, "{clause}");
        }
    }

    #[test]
    fn appositives_and_relative_clauses_inside() {
        for (clause, expected) in [
            (
                "This necklace is a gift from my grandma in my home country, Sweden.",
                vec!["my home country is Sweden"],
            ),
            (
                "I went hiking with my brother, Tom, last week",
                vec!["my brother is Tom"],
            ),
            ("Thanks so much, my friend, Anna!", vec![]),
            ("My favorite, Lord of the Rings, is on tonight", vec![]),
            (
                "I joined my group, 'Connected LGBTQ Activists'.",
                vec!["my group is 'Connected LGBTQ Activists'"],
            ),
            (
                "I shared the struggles I had and how much I've grown",
                vec![],
            ),
            (
                "These figurines I bought yesterday remind me of family love.",
                vec!["I bought figurines yesterday"],
            ),
            (
                "This book I read last year reminds me to pursue my dreams",
                vec!["I read a book last year"],
            ),
            (
                "The old bike we fixed up in May is still going",
                vec!["we fixed an old bike up in May"],
            ),
            // no verb of its own after: not a relative clause
            ("That dress I wore", vec![]),
            (
                "I painted this after I visited an LGBTQ center.",
                vec!["I visited an LGBTQ center."],
            ),
            ("I painted a lake after I visited Como.", vec![]),
            ("The kids I teach love it", vec![]),
        ] {
            assert_eq!(inner(clause, Some("Anna")), expected, "{clause}");
        }
    }

    /// Through the whole extractor: each salvaged clause is checked, named
    /// and dated like any other.
    #[test]
    fn salvaged_facts_become_memories() {
        for (said, want) in [
            (
                "Ines: This bracelet is special - a gift from my aunt in my home town, Porto.",
                "Ines's home town is Porto.",
            ),
            (
                "Ines: Yes I do- Biscuit, my hamster. He's been great.",
                "Biscuit is Ines's hamster.",
            ),
            (
                "Ines: Our three-year-old is so cute, her name is Lua!",
                "Ines's three-year-old is named Lua.",
            ),
            (
                "Ines: The hardest part was that we had to say goodbye to Rex. He was with us for 12 years.",
                "Ines had to say goodbye to Rex.|Rex was with Ines for 12 years.",
            ),
            (
                "Ines: These mugs I bought yesterday make me smile.",
                "Ines bought mugs on 7 May 2023.",
            ),
            (
                "Ines: I drew this after I visited the botanical garden.",
                "Ines visited the botanical garden.",
            ),
            (
                "Ines: Things have been busy; last week I ran my first half marathon.",
                "In the week of 1 May 2023 Ines ran their first half marathon.",
            ),
            // nothing that happened (a habit, a state); no title cut short
            ("Ines: I love this when I look after myself.", ""),
            ("Ines: I painted it when I was young.", ""),
            (
                "Ines: My favorite, Lord of the Rings, is on tonight.",
                "Ines's favorite, Lord of the Rings, is on 8 May 2023.",
            ),
        ] {
            let got = super::super::tests::chat(&[said, "Tom: Nice!"]);
            let want: Vec<&str> = want.split('|').filter(|w| !w.is_empty()).collect();
            assert_eq!(got, want, "{said}");
        }
    }

    #[test]
    fn subordinate_clauses_stand_alone() {
        for (clause, expected) in [
            (
                "I painted this after I visited an LGBTQ center.",
                Some("I visited an LGBTQ center."),
            ),
            (
                "I bought it when we were in Rome last May",
                Some("we were in Rome last May"),
            ),
            // nothing said of its own
            ("I love it because it's so calming", None),
            ("I made it, after all", None),
            ("I made it before", None),
            // a habit or a state is not something that happened
            ("I feel great when I look after myself", None),
            ("I loved it when I was young", None),
            (
                "I remember it when I was playing with the kids",
                Some("I was playing with the kids"),
            ),
        ] {
            assert_eq!(subordinate(clause).as_deref(), expected, "{clause}");
        }
    }
}
