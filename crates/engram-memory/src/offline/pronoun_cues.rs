//! What the words around a pronoun say about it (see `pronouns.rs`):
//! whether an "it" is an object whose antecedent is in the clause itself
//! or stands for a "when" clause after it, whether a noun is someone's,
//! whether a person was just brought in by "a", whether a clause opens
//! with the name a following "she" repeats, whether "his" can mean "my
//! sister". Readings of one clause only: no antecedents are kept here.

use super::clauses::bare;
use super::coref::parts as strip;
use super::lexicon::PERSON_NOUNS;

/// Whether the noun at `i` is someone's: after a possessive, or in a list
/// after one ("my friends, family and mentors").
pub(super) fn owned_at(words: &[&str], i: usize) -> bool {
    let owner = |w: &str| {
        let b = bare(w);
        matches!(b.as_str(), "my" | "our" | "your" | "his" | "her" | "their") || b.ends_with("'s")
    };
    for j in (i.saturating_sub(6)..i).rev() {
        if owner(words[j]) {
            return true;
        }
        // only list words between ("family and", "mentors,"), no verb,
        // article or preposition, which start another phrase
        let b = bare(words[j]);
        if super::clauses::is_verbish(&b)
            || words[j].ends_with(['.', '!', '?', ';'])
            || matches!(
                b.as_str(),
                "the"
                    | "a"
                    | "an"
                    | "some"
                    | "those"
                    | "these"
                    | "with"
                    | "to"
                    | "for"
                    | "of"
                    | "in"
                    | "at"
                    | "on"
                    | "about"
                    | "from"
                    | "by"
                    | "i"
                    | "we"
                    | "you"
                    | "they"
            )
        {
            return false;
        }
    }
    false
}

/// Whether `words` bring in one person by an indefinite article ("a
/// girl", "an old friend", "one woman"), whom a following "her" may mean.
pub(super) fn unnamed_person_before(words: &[&str]) -> bool {
    const ONE: &[&str] = &[
        "girl",
        "woman",
        "man",
        "boy",
        "guy",
        "lady",
        "kid",
        "child",
        "person",
        "teen",
        "teenager",
        "baby",
        "gentleman",
        "stranger",
    ];
    (0..words.len()).any(|j| {
        matches!(bare(words[j]).as_str(), "a" | "an" | "one")
            && words[j + 1..].iter().take(3).any(|n| {
                let b = bare(n);
                ONE.contains(&b.as_str())
                    || PERSON_NOUNS.iter().any(|(p, plural)| !plural && *p == b)
            })
    })
}

/// Whether the "it" at `i` stands for the "when" or "if" clause after it,
/// as the object of a verb of liking: "I love it when you bake", "I hate
/// it if the train is late".
pub(super) fn anticipatory_it(words: &[&str], i: usize) -> bool {
    let liking = i > 0
        && matches!(
            super::lexicon::verb(&bare(words[i - 1])),
            Some((
                "love" | "like" | "hate" | "enjoy" | "adore" | "appreciate" | "prefer" | "dislike",
                _
            ))
        );
    liking
        && !words[i].ends_with([',', '.', '!', '?', ';'])
        && words
            .get(i + 1)
            .is_some_and(|n| matches!(bare(n).as_str(), "when" | "if" | "whenever"))
}

/// Whether the "it" at `i`, after "as", "because" or "since", is the
/// thing its clause opened with: "The old lighthouse is special to me as
/// it reminds me of ...". The clause names it itself, so it stands alone.
pub(super) fn subject_it(words: &[&str], i: usize) -> bool {
    let after_because = i > 2
        && matches!(
            bare(words[i - 1]).as_str(),
            "as" | "because" | "since" | "cause" | "'cause" | "coz"
        );
    let opens_with_thing = words
        .first()
        .is_some_and(|w| matches!(bare(w).as_str(), "the" | "my" | "our" | "this"))
        && (2..=4.min(i)).any(|k| {
            words
                .get(k)
                .is_some_and(|w| matches!(bare(w).as_str(), "is" | "was" | "has" | "means"))
        })
        && thing_before(&words[..i]);
    after_because && opens_with_thing
}

/// Whether the "it" at `i` is an object ("printed it", "proud of it")
/// with its antecedent earlier in the same clause.
pub(super) fn object_it(words: &[&str], i: usize) -> bool {
    use super::clauses::is_verbish;
    if i == 0 {
        return false;
    }
    let before = bare(words[i - 1]);
    // a verb before it: known, past ("printed it"), or after "to" ("to
    // handle it"); not a preposition ("research for it" leans elsewhere)
    let verb_before = is_verbish(words[i - 1].trim_end_matches(','))
        || (before.ends_with("ed") && before.len() > 4)
        || (i >= 2 && bare(words[i - 2]) == "to");
    let object = verb_before
        && !matches!(
            before.as_str(),
            "make" | "made" | "making" | "makes" | "is" | "was"
        );
    let verb_after = words.get(i + 1).is_some_and(|n| is_verbish(n));
    // "a cake with berries on it", "a mug with my name on it": what the
    // "with" phrase is on is the thing before it
    // (only what is spread on it, no article: "a notepad with a dog on
    // it" may be a picture's)
    let on_it = before == "on"
        && i >= 3
        && bare(words[i - 3]) == "with"
        && !matches!(
            bare(words[i - 2]).as_str(),
            "a" | "an" | "the" | "my" | "some"
        )
        && thing_before(&words[..i - 3]);
    (object || on_it) && !verb_after && thing_before(&words[..i])
}

/// Whether `words` name one thing that a following "it" can mean: a
/// determiner ("a", "the", "my" ...) and up to three words, the last a
/// singular noun that is not a stretch of time or a vague word ("a
/// while", "the other day", "a lot"). Later "it"s then have their
/// antecedent inside the fact.
pub(super) fn thing_before(words: &[&str]) -> bool {
    use super::clauses::is_verbish;
    use super::words::{CALENDAR, FUNCTION, VAGUE};
    (0..words.len()).any(|j| {
        if !matches!(
            bare(words[j]).as_str(),
            "a" | "an" | "the" | "my" | "our" | "his" | "their"
        ) || words[j].ends_with([',', '.', ';'])
        {
            return false;
        }
        // the phrase: words up to a verb, a function word or punctuation
        let mut head: Option<String> = None;
        for (k, w) in words.iter().skip(j + 1).take(3).enumerate() {
            let b = bare(w);
            // "my grandfather's map": the owner is not the thing
            if b.ends_with("'s") && !w.ends_with([',', '.']) {
                continue;
            }
            // ("a schedule", "the test": right after a determiner a verb's
            // form is a noun)
            let verb =
                is_verbish(w) && (k > 0 || super::lexicon::AUXILIARIES.contains(&b.as_str()));
            if b.is_empty() || b.contains('\'') || verb || FUNCTION.contains(&b.as_str()) {
                break;
            }
            head = Some(b);
            if w.ends_with([',', '.', ';', '!', '?']) {
                break;
            }
        }
        head.is_some_and(|h| {
            h.chars().all(|c| c.is_alphabetic() || c == '-')
                && (!h.ends_with('s') || h.ends_with("ss"))
                && !VAGUE.contains(&h.as_str())
                && !CALENDAR.contains(&h.as_str())
                && !matches!(
                    h.as_str(),
                    "week"
                        | "month"
                        | "year"
                        | "day"
                        | "while"
                        | "couple"
                        | "second"
                        | "minute"
                        | "hour"
                        | "family"
                        | "team"
                        | "relief"
                        | "shame"
                        | "pity"
                )
                && !PERSON_NOUNS.iter().any(|(p, _)| *p == h)
        })
    })
}

/// Whether `words` (ending in a comma) name someone a following "she" or
/// "he" repeats: a name ("Emma Watson, she's ...") or a possessive and a
/// noun ("My sister, she lives ..."); not a time ("Yesterday, she ...").
pub(super) fn topic(words: &[&str]) -> bool {
    // months and openers that may stand before a comma too (weekdays
    // and interjections are never names: `is_name_word` refuses them)
    const NOT_TOPICS: &[&str] = &[
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "anyway",
        "honestly",
    ];
    let cores: Vec<&str> = words.iter().map(|w| strip(w).1).collect();
    let name = cores.iter().all(|c| {
        super::intro::is_name_word(c)
            && !super::entities::common_opener(c)
            && !NOT_TOPICS.contains(&c.to_lowercase().as_str())
    });
    let owned = cores.len() >= 2
        && matches!(
            cores[0].to_lowercase().as_str(),
            "my" | "our" | "his" | "her" | "their"
        );
    name || owned
}

/// Relatives who are women, and who are men: "his" never means "my sister".
const WOMEN: &[&str] = &[
    "mother",
    "mom",
    "mum",
    "sister",
    "daughter",
    "wife",
    "girlfriend",
    "fiancee",
    "grandma",
    "gran",
    "granny",
    "nan",
    "nana",
    "grandmother",
    "aunt",
    "niece",
];
const MEN: &[&str] = &[
    "father",
    "dad",
    "brother",
    "son",
    "husband",
    "boyfriend",
    "fiance",
    "grandpa",
    "grandad",
    "granddad",
    "grandfather",
    "uncle",
    "nephew",
];

/// Whether `pronoun` (lowercase) can mean `mention` ("Ana's sister",
/// "Ben"): not "he" for a sister or "she" for a brother. Names and other
/// nouns say nothing of it.
pub(super) fn agrees(pronoun: &str, mention: &str) -> bool {
    let noun = mention.rsplit(' ').next().unwrap_or(mention);
    match pronoun {
        "he" | "him" | "his" | "himself" | "he's" => !WOMEN.contains(&noun),
        "she" | "her" | "hers" | "herself" | "she's" => !MEN.contains(&noun),
        _ => true,
    }
}

/// Whether `text` says who someone's doctor, boss or friend is by name
/// ("Dad's neurologist is Dr. Patel", "Her new boss is Karen"): a
/// newcomer named in relation to someone, not someone the talk turns to.
pub(super) fn names_someones(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(k) = words
        .iter()
        .take(6)
        .position(|w| matches!(bare(w).as_str(), "is" | "was"))
    else {
        return false;
    };
    let owned = k >= 2
        && words[..k - 1].iter().any(|w| {
            w.ends_with("'s") || matches!(bare(w).as_str(), "his" | "her" | "my" | "their")
        })
        && words[k - 1].chars().all(|c| c.is_lowercase());
    let mut rest = words[k + 1..].iter();
    let title = |w: &str| {
        matches!(
            w.trim_end_matches('.'),
            "Dr" | "Mr" | "Mrs" | "Ms" | "Prof" | "Doctor"
        )
    };
    let named = match rest.next() {
        Some(t) if title(t) => rest.next().is_some_and(|n| super::intro::is_name_word(n)),
        Some(n) => super::intro::is_name_word(n),
        None => false,
    };
    owned && named
}

/// The name `text` gives `who` ("Maria's pup's name is Shadow", "Maria's
/// pup is named Shadow"), if it gives one.
pub(super) fn named_as(text: &str, who: &str) -> Option<String> {
    for naming in ["'s name is ", " is named ", " is called "] {
        let Some((before, after)) = text.split_once(naming) else {
            continue;
        };
        let name = after.split_whitespace().next()?;
        let name = name.trim_end_matches(['.', '!', ',', '?']);
        if before.trim_start_matches(|c: char| !c.is_alphanumeric()) == who
            && name.starts_with(char::is_uppercase)
        {
            return Some(name.to_string());
        }
    }
    None
}

/// Whether "her" between `before` and `next` is the object of a verb
/// that lets or makes someone act, with the act after it ("helping her
/// find a flat", "watched her play", "let her go"): then it is who acts,
/// not whose.
pub(super) fn lets_act(before: &str, next: &str) -> bool {
    let base = |w: &str| super::lexicon::verb(w).map(|(b, _)| b);
    matches!(base(before), Some("help" | "let" | "make" | "watch"))
        && base(next).is_some_and(|b| b == next)
}

/// Whether the pronoun at `i` (`lower`) is an object ("moved in with
/// her", "called him"), not a possessive ("her crosswords").
pub(super) fn object_at(words: &[&str], i: usize, lower: &str) -> bool {
    match lower {
        "him" | "them" => true,
        "her" => {
            let (_, _, trail) = strip(words[i]);
            !trail.is_empty()
                || words.get(i + 1).is_none_or(|n| {
                    matches!(
                        bare(n).as_str(),
                        "for"
                            | "to"
                            | "with"
                            | "at"
                            | "in"
                            | "on"
                            | "about"
                            | "from"
                            | "now"
                            | "again"
                            | "today"
                            | "yesterday"
                            | "tomorrow"
                            | "and"
                            | "but"
                            | "so"
                            | "because"
                            | "when"
                            | "while"
                            | "back"
                            | "up"
                            | "out"
                            | "off"
                            | "over"
                            | "too"
                            | "as"
                            | "like"
                            | "since"
                            | "until"
                            | "after"
                            | "before"
                            | "every"
                            | "once"
                            | "twice"
                    )
                })
        }
        _ => false,
    }
}

/// Whether the "it" at `i` is the idiom of arriving: "made it home",
/// "make it back safely", "made it to the final", "made it in time" (not
/// "made it in pottery class", where it is a thing made).
pub(super) fn arrived(words: &[&str], i: usize) -> bool {
    let made = i.checked_sub(1).is_some_and(|p| {
        matches!(
            bare(words[p]).as_str(),
            "make" | "made" | "makes" | "making"
        )
    });
    let next = words.get(i + 1).map(|w| bare(w));
    let then = words.get(i + 2).map(|w| bare(w));
    made && match next.as_deref() {
        Some("home" | "back" | "there" | "out" | "to") => true,
        Some("in" | "on") => then.as_deref() == Some("time"),
        _ => false,
    }
}
