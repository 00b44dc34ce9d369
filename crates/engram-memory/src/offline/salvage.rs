//! Facts a clause holds besides, or beneath, what it mainly says. Works
//! on the clause as said (first person, before names replace pronouns) and
//! returns clauses in the same form, which then go through every check a
//! clause does:
//!
//! - a wrapper that says nothing itself: "The toughest thing is that we
//!   had to say goodbye to Max" states "we had to say goodbye to Max";
//! - an appositive: "Oscar, my guinea pig." states "Oscar is my guinea
//!   pig", and "a gift from my home country, Sweden" states "my home
//!   country is Sweden"; "my new manager Priya is great" (a judgement,
//!   no fact) still states "my new manager is Priya";
//! - a relative clause on a subject that points at a picture: "These
//!   figurines I bought yesterday remind me of home" states "I bought
//!   figurines yesterday";
//! - a time or reason clause beside a main clause that points elsewhere:
//!   "I painted this after I visited an LGBTQ center" states "I visited an
//!   LGBTQ center".
//!
//! It only cuts and reorders the speaker's own words: nothing here adds a
//! word that was not said but "is".

use super::clauses::{bare, capitalised, is_verbish, subject_at};
use super::lexicon::{verb, VerbForm, AUXILIARIES};

/// Nouns of "the X is that S" whose S is asserted as true.
const FACTIVE_HEADS: &[&str] = &[
    "thing", "part", "problem", "news", "truth", "reason", "fact", "issue", "catch", "upside",
    "downside",
];

/// Words after "my" that make an exclamation or an address, not a thing
/// someone has ("oh my god, Anna").
const NOT_OWNED: &[&str] = &["god", "gosh", "goodness", "lord", "dear", "word", "bad"];

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
        if !capitalised(w.trim_start_matches(['\'', '"']))
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
/// "Here's my cork board" -> "I have a cork board"; "Here's one of my
/// trophies from a dance contest, ..." -> "I have trophies from a dance
/// contest": what one shows as one's own, one has. Only a noun phrase (no
/// verb) after "my", up to a comma.
fn shown_as_mine(words: &[&str], lower: &[String]) -> Option<String> {
    let at = match lower {
        [h, ..] if h == "here's" || h == "heres" => 1,
        [h, is, ..] if h == "here" && is == "is" => 2,
        _ => return None,
    };
    let (one_of, my) = match &lower[at..] {
        [one, of, my, ..] if one == "one" && of == "of" && my == "my" => (true, at + 3),
        [my, ..] if my == "my" => (false, at + 1),
        _ => return None,
    };
    let end = words[my..]
        .iter()
        .position(|w| w.ends_with([',', '.', '!', ';']))
        .map_or(words.len(), |k| my + k + 1);
    let phrase: Vec<&str> = words[my..end]
        .iter()
        .map(|w| w.trim_end_matches([',', '.', '!', ';']))
        .collect();
    // (a finite verb makes it a clause: "Here's my mom, she ...")
    let finite = |w: &&str| {
        let b = bare(w);
        super::lexicon::AUXILIARIES.contains(&b.as_str())
            || matches!(
                super::lexicon::verb(&b),
                Some((
                    _,
                    super::lexicon::VerbForm::Past | super::lexicon::VerbForm::Third
                ))
            )
    };
    // ("my new flavor", "my latest": one word of a kind says too little)
    let said = phrase
        .iter()
        .filter(|w| {
            !matches!(
                bare(w).as_str(),
                "new"
                    | "latest"
                    | "little"
                    | "first"
                    | "favorite"
                    | "favourite"
                    | "own"
                    | "old"
                    | "big"
                    | "recent"
                    | "last"
                    | "best"
                    | "fave"
            )
        })
        .count();
    if phrase.is_empty() || phrase.len() > 7 || said < 2 || phrase.iter().any(finite) {
        return None;
    }
    let head = bare(phrase[0]);
    // ("Here's my take", "Here's my point": the talk, not a thing)
    if matches!(
        head.as_str(),
        "take"
            | "point"
            | "idea"
            | "advice"
            | "tip"
            | "number"
            | "two"
            | "pic"
            | "photo"
            | "picture"
    ) {
        return None;
    }
    let article = if one_of {
        ""
    } else if head.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an "
    } else {
        "a "
    };
    Some(format!("I have {article}{}", phrase.join(" ")))
}

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
    // "Especially after I failed the test recently" (the rest was split off)
    if let Some((part, true)) = fronted(&words) {
        return Some(part);
    }
    if let Some(had) = shown_as_mine(&words, &lower) {
        return Some(had);
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
        // "my prized possession, a basketball signed by my favorite player"
        if words
            .get(j + 1)
            .is_some_and(|w| matches!(bare(w).as_str(), "a" | "an"))
        {
            let end = (j + 1..words.len().min(j + 10))
                .find(|&k| words[k].ends_with([',', '.', '!', '?', ';']))
                .unwrap_or(words.len() - 1);
            if end + 1 - (j + 1) >= 2 && end < j + 10 {
                let what = words[j + 1..=end].join(" ");
                let np = np.join(" ");
                out.push(format!(
                    "{} {} is {}",
                    bare(words[i]),
                    np.trim_end_matches(','),
                    what.trim_end_matches([',', '.', '!', '?', ';'])
                ));
            }
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
    if let Some(fact) = named_then_judged(&words) {
        out.push(fact);
    }
    if let Some(fact) = relative_on_pointer(&words) {
        out.push(fact);
    }
    if let Some(fact) = doing_that_was(&words) {
        out.push(fact);
    }
    // "I painted this after I visited ...": what "this" is was shown, the
    // time clause says something of its own; so when the rest only says
    // how the speaker felt
    if let Some(i) = subordinate_at(&words) {
        if matches!(
            bare(words[i - 1]).as_str(),
            "this" | "that" | "these" | "those" | "it" | "them" | "there" | "here"
        ) || feeling_first(&words[..i])
        {
            out.push(words[i + 1..].join(" "));
        }
    }
    // "Especially after I failed the test, I've been stressed"
    if let Some((part, false)) = fronted(&words) {
        out.push(part);
    }
    out
}

/// "my new manager Priya is great" -> "my new manager is Priya": who
/// someone of the speaker's is, when all the clause says of them is a
/// judgement (which is no fact, and would take the name with it).
fn named_then_judged(words: &[&str]) -> Option<String> {
    if !matches!(bare(words.first()?).as_str(), "my" | "our") {
        return None;
    }
    let role_end = (1..words.len().min(4)).find(|&j| {
        let b = bare(words[j]);
        super::lexicon::PERSON_NOUNS.iter().any(|(p, _)| *p == b)
            || super::named::ALSO_NAMED.contains(&b.as_str())
    })?;
    if !words[1..=role_end].iter().all(|w| lower_word(w)) {
        return None;
    }
    let n = name_at(words, role_end + 1)?;
    let rest: Vec<String> = words[role_end + 1 + n..].iter().map(|w| bare(w)).collect();
    let judged = matches!(rest.first().map(String::as_str), Some("is" | "was"))
        && rest[1..].iter().all(|w| {
            super::words::EVALUATIVE.contains(&w.as_str())
                || matches!(w.as_str(), "so" | "really" | "super" | "very")
        })
        && rest.len() >= 2;
    let name = words[role_end + 1..role_end + 1 + n].join(" ");
    judged.then(|| {
        format!(
            "{} {} is {}",
            bare(words[0]),
            words[1..=role_end].join(" "),
            name.trim_end_matches([',', '.', '!', '?', ';'])
        )
    })
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
    let main = (s + 2..words.len().min(s + 8))
        .find(|&k| is_verbish(words[k]) && !capitalised(words[k]))?;
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
    let article = article_for(&np, plural);
    let mut fact = vec![
        bare(words[s]).replace('i', "I"),
        v,
        format!("{article}{np}"),
    ];
    fact.extend(words[s + 2..main].iter().map(|w| w.to_string()));
    Some(fact.join(" "))
}

/// The indefinite article a noun phrase takes once "my" or "these" is
/// gone: none for a plural ("figurines"), else "a" or "an".
pub(super) fn article_for(np: &str, plural: bool) -> &'static str {
    if plural || (np.ends_with('s') && !np.ends_with("ss")) {
        ""
    } else if np.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an "
    } else {
        "a "
    }
}

/// "Organizing a camp in my hometown last summer was awesome" -> "I
/// organized a camp in my hometown last summer": a doing of the speaker's
/// (their own possessive in it) judged in the past tense happened. Not
/// for being, having, getting or perceiving ("Seeing my kids so happy was
/// the best" says how it felt, not a deed).
fn doing_that_was(words: &[&str]) -> Option<String> {
    let (base, form) = verb(&bare(words.first()?))?;
    if form != VerbForm::Gerund
        || matches!(
            base,
            "be" | "have" | "get" | "feel" | "see" | "know" | "hear" | "watch" | "look"
        )
    {
        return None;
    }
    let k = words
        .iter()
        .position(|w| matches!(bare(w).as_str(), "was" | "were"))?;
    let phrase = &words[1..k];
    let own = phrase
        .iter()
        .any(|w| matches!(bare(w).as_str(), "my" | "our" | "myself"));
    let finite = phrase.iter().any(|w| {
        AUXILIARIES.contains(&bare(w).as_str())
            || matches!(verb(&bare(w)), Some((_, VerbForm::Past | VerbForm::Third)))
    });
    if phrase.len() < 2 || !own || finite || phrase.iter().any(|w| w.ends_with(',')) {
        return None;
    }
    // "marrying my partner and promising ...": each doing in the past
    let mut said = vec!["I".to_string(), super::lexicon::past_of(base)?];
    for (j, w) in phrase.iter().enumerate() {
        let after_and = j > 0 && bare(phrase[j - 1]) == "and";
        match verb(&bare(w)) {
            Some((b, VerbForm::Gerund)) if after_and => said.push(super::lexicon::past_of(b)?),
            // a doing the lexicon lacks: no past to give it
            None if after_and && bare(w).ends_with("ing") => return None,
            _ => said.push(w.to_string()),
        }
    }
    Some(said.join(" "))
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
    // "... has paid off now that I'm an assistant manager": a state newly
    // reached is news, whatever the verb
    let now_that =
        (2..words.len()).find(|&i| bare(words[i - 1]) == "now" && bare(words[i]) == "that");
    if let Some(i) = now_that {
        let rest = &words[i + 1..];
        let s = subject_at(rest, 0);
        if s > 0
            && rest.len() > s + 1
            && (s > 1 || super::clauses::is_verbish(rest[s]) || rest[0].contains('\''))
        {
            return Some(i);
        }
    }
    let i = (2..words.len()).find(|&i| {
        matches!(
            bare(words[i]).as_str(),
            "after" | "before" | "when" | "while" | "because"
        ) && !words[i - 1].ends_with(',')
    })?;
    happened(&words[i + 1..]).then_some(i)
}

/// Whether `clause` opens with its subject and says something that
/// happened: a past verb ("I visited"), not a habit ("I look after
/// myself") nor a state ("I was young"); "was" only for where someone was
/// or what they were doing.
fn happened(clause: &[&str]) -> bool {
    let s = subject_at(clause, 0);
    if s == 0 || clause.len() < s + 2 {
        return false;
    }
    let v = bare(clause[s]);
    let next = clause.get(s + 1).map(|w| bare(w)).unwrap_or_default();
    match v.as_str() {
        "was" | "were" => {
            matches!(next.as_str(), "in" | "at" | "on")
                || matches!(verb(&next), Some((_, VerbForm::Gerund)))
        }
        "had" => true,
        // ("when I turned ten": an age reached says when, not what
        // happened)
        "turned" if super::lexicon::number(&next).is_some() => false,
        _ => matches!(verb(&v), Some((_, VerbForm::Past))),
    }
}

/// A time clause put first: "(Especially) after I failed the test
/// recently, I've been ..." -> ("I failed the test recently", whether the
/// clause is nothing else).
fn fronted(words: &[&str]) -> Option<(String, bool)> {
    let lead = usize::from(matches!(
        bare(words.first()?).as_str(),
        "especially" | "just" | "right" | "even" | "ever" | "back"
    ));
    if !matches!(
        bare(words.get(lead)?).as_str(),
        "after" | "when" | "before" | "since"
    ) {
        return None;
    }
    let body = &words[lead + 1..];
    if !happened(body) {
        return None;
    }
    let end = body
        .iter()
        .position(|w| w.ends_with(','))
        .map_or(body.len(), |c| c + 1);
    let text = body[..end].join(" ");
    Some((text.trim_end_matches(',').to_string(), end == body.len()))
}

/// Whether the words before a time clause only say how the speaker felt
/// or was ("Was super nervous last week when I shared my book"): the time
/// clause is then what happened.
fn feeling_first(head: &[&str]) -> bool {
    let lower: Vec<String> = head.iter().map(|w| bare(w)).collect();
    let from = usize::from(matches!(
        lower.first().map(String::as_str),
        Some("i" | "we")
    ));
    head.len() <= 6
        && lower.get(from).is_some_and(|w| {
            matches!(
                w.as_str(),
                "was" | "were" | "felt" | "feel" | "am" | "i'm" | "we're" | "got" | "get"
            )
        })
}

#[cfg(test)]
#[path = "salvage_tests.rs"]
mod tests;
