//! What an "it" stands for when it is a doing or a favourite's name, for
//! [`super::topic`]: the doing a clause opened with ("Painting is great
//! ..., I find it relaxing"), the doing under way the speaker told of
//! ("I've been learning the guitar" - "been doing it for 2 years"), a
//! favourite named ("my favourite film is Spirited Away, I've seen it 10
//! times"), and a doing said again in the form of the "do" that stood
//! for it ("I do it every evening": "play the piano"). Reads words only.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};
use super::topic::{sentences, words};

/// The doing `before` opens with as its subject ("Painting is great",
/// "Playing the piano helps me"), in lower case: a gerund and up to three
/// words, then "is", "was" or "helps".
pub(super) fn doing_subject(before: &str) -> Option<String> {
    let w = words(before);
    let first = w.first()?;
    if !first.starts_with(char::is_uppercase)
        || !matches!(verb(&bare(first)), Some((_, VerbForm::Gerund)))
    {
        return None;
    }
    let end = (1..w.len().min(5)).find(|&k| {
        matches!(
            bare(w[k]).as_str(),
            "is" | "was" | "has" | "helps" | "helped" | "keeps" | "makes"
        )
    })?;
    if w[..end].iter().any(|x| x.ends_with([',', '.'])) {
        return None;
    }
    Some(w[..end].join(" ").to_lowercase())
}

/// The name `before` gives as someone's favourite ("my favourite film is
/// Spirited Away", "Dune is my favourite book"): its capitalised words.
pub(super) fn favourite_named(before: &str) -> Option<String> {
    let w = words(before);
    let fav = w
        .iter()
        .position(|x| matches!(bare(x).as_str(), "favourite" | "favorite" | "fave"))?;
    let is_at = w.iter().position(|x| bare(x) == "is")?;
    let name: &[&str] = if is_at > fav {
        // "... favourite film is Spirited Away"
        let n = w[is_at + 1..]
            .iter()
            .take_while(|x| x.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()))
            .count();
        &w[is_at + 1..is_at + 1 + n]
    } else {
        // "Dune is my favourite book"
        &w[..is_at]
    };
    let capital = name
        .iter()
        .all(|x| x.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()));
    if name.is_empty()
        || name.len() > 6
        || !capital
        || name[..name.len() - 1].iter().any(|x| x.ends_with(','))
    {
        return None;
    }
    Some(name.join(" ").trim_end_matches([',', '.', '!']).to_string())
}

/// A doing (`thing`, a gerund phrase: "playing the piano") in the form
/// of `done` ("do", "does", "did", "doing"): "play the piano", "plays the
/// piano", ...; `None` when `thing` is no doing or `done` no "do".
pub(super) fn done_again(done: &str, thing: &str) -> Option<String> {
    let (gerund, rest) = thing.split_once(' ').unwrap_or((thing, ""));
    let Some((base, VerbForm::Gerund)) = verb(gerund) else {
        return None;
    };
    let form = match done {
        "doing" => gerund.to_string(),
        "do" => base.to_string(),
        "does" => super::coref::third_person(base),
        "did" => super::lexicon::past_of(base)?,
        _ => return None,
    };
    Some(if rest.is_empty() {
        form
    } else {
        format!("{form} {rest}")
    })
}

/// The one doing under way that `before` tells of ("I've been learning
/// the guitar", "I'm training for a marathon", "I started learning
/// Spanish"): the gerund and up to four words after it, to a stop.
pub(super) fn activity(before: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for s in sentences(before) {
        let w = words(s);
        for i in 1..w.len() {
            let lead = bare(w[i - 1]);
            let gerund = matches!(verb(&bare(w[i])), Some((_, VerbForm::Gerund)));
            if !gerund
                || !matches!(
                    lead.as_str(),
                    "been" | "i'm" | "im" | "am" | "started" | "began"
                )
                || w[i - 1].ends_with(',')
            {
                continue;
            }
            let mut phrase = vec![w[i].trim_end_matches([',', '.', '!'])];
            for x in w[i + 1..].iter().take(4) {
                let b = bare(x);
                let time = matches!(b.as_str(), "since" | "every" | "now" | "lately" | "when");
                if super::things::ends_phrase(&b) || b.is_empty() || time {
                    break;
                }
                phrase.push(x.trim_end_matches([',', '.', '!']));
                if x.ends_with([',', '.', '!']) {
                    break;
                }
            }
            // two doings: which one is not said
            if found.is_some() {
                return None;
            }
            found = Some(phrase.join(" "));
        }
    }
    found
}
