//! What an "it" or "they" opening a clause carries on (see
//! `pronouns.rs`): the thing the clause before was about ("Flowers bring
//! joy. They were part of my wedding decor", "Contemporary dance is so
//! expressive - it really speaks to me"), read from the words of one
//! clause at a time. Persons, pointers, commands and someone's things are
//! never such a subject, and an "it" before "is", "feels" or "was" points
//! at the situation, not the thing. No antecedents are kept here.

use super::clauses::bare;
use super::coref::parts as strip;
use super::lexicon::PERSON_NOUNS;
use super::words::Words;

/// Words that open a clause but are never a thing spoken of.
const NOT_THINGS: Words = Words(
    "i you we he she it they this that these those there here what which who everyone \
     everything nothing something anything all some one both each such so thanks \
     thank yes yeah no wow oh well and but or if when while after before since \
     because as though although things stuff time today yesterday tomorrow now then \
     life people someone nobody sounds looks seems feels means really just great glad \
     sure definitely never sometimes moments name energy a an of gotta must not last \
     with for totally nice crazy pic photo picture also cool awesome best hey hi \
     sorry congratulations congrats over maybe its lemme tons lots mine take much \
     good hard strong simple brave impressive even almost already always",
);

/// The thing a clause opens with as its subject, and whether it is
/// plural: "Flowers bring joy" -> ("Flowers", true), "Contemporary dance
/// is so expressive" -> ("Contemporary dance", false), "Dancing makes me
/// happy" -> ("Dancing", false). None when the subject is a person, a
/// pronoun, a pointer, someone's, a command's verb ("Keep going") or a
/// phrase longer than three words.
pub(super) fn thing_subject(words: &[&str], names: &[String]) -> Option<(String, bool)> {
    use super::clauses::is_verbish;
    use super::lexicon::{verb, VerbForm, AUXILIARIES};
    let aux = |j: usize| {
        words
            .get(j)
            .is_some_and(|w| AUXILIARIES.contains(&bare(w).as_str()))
    };
    // ("Feeling supported": a participle after a doing is part of it)
    let finite = |j: usize| {
        aux(j)
            || words
                .get(j)
                .is_some_and(|w| verb(&bare(w)).is_some_and(|(_, f)| f == VerbForm::Third))
    };
    let first = bare(words.first()?);
    if first.contains('\'')
        || NOT_THINGS.contains(&first.as_str())
        || first.ends_with("ly")
        || matches!(
            first.as_str(),
            "my" | "your" | "our" | "his" | "her" | "their"
        )
        || names.iter().any(|n| bare(n) == first)
    {
        return None;
    }
    let from = usize::from(first == "the");
    let mut v = None;
    for j in from..words.len().min(from + 4) {
        let w = words[j];
        let b = bare(w);
        if b.contains(['\'', '.']) || b.is_empty() || b.chars().any(|c| c.is_ascii_digit()) {
            return None;
        }
        // ("Nature truly helps": an adverb before the verb ends it)
        let adverb =
            b.len() > 4 && b.ends_with("ly") && words.get(j + 1).is_some_and(|n| is_verbish(n));
        if j > from && (aux(j) || adverb || (is_verbish(w) && !aux(j + 1))) {
            v = Some(j);
            break;
        }
        // a word that can be a verb is a noun only before the verb
        // ("Contemporary dance is"), a doing only before a finite verb
        // ("Dancing makes"); else it is a command ("Keep going")
        let gerund = verb(&b).is_some_and(|(_, f)| f == VerbForm::Gerund);
        if is_verbish(w) && !aux(j + 1) && !(j == from && gerund && finite(j + 1)) {
            return None;
        }
        if w.ends_with([',', '.', '!', '?', ';', ':']) || NOT_THINGS.contains(&b.as_str()) {
            return None;
        }
        // a capital past the first word is a name ("Harry Potter")
        if j > 0 && super::clauses::capitalised(w) {
            return None;
        }
    }
    let v = v?;
    let subject = &words[..v];
    let head = bare(subject.last()?);
    if PERSON_NOUNS.iter().any(|(p, _)| *p == head)
        || super::pronoun_words::GROUPS.contains(&head.as_str())
        || super::pronoun_words::animal(&head).is_some()
        || head.len() < 3
        || subject.len() == from
    {
        return None;
    }
    let plural = head.ends_with('s') && !head.ends_with("ss") && !head.ends_with("us");
    let text: Vec<&str> = subject.iter().map(|w| strip(w).1).collect();
    Some((text.join(" "), plural))
}

/// What someone named just said they love, when it is things: "Rosa
/// loves non-fiction books about personal development" ->
/// ("non-fiction books about personal development", true), for a "They"
/// opening the next clause ("They help me know myself better"). Only a
/// plural object of a verb of taste, a few words with no verb, pointer or
/// possessive.
pub(super) fn liked_things(words: &[&str], names: &[String]) -> Option<(String, bool)> {
    let first = strip(words.first()?).1;
    if !names.iter().any(|n| n == first) {
        return None;
    }
    let mut v = 1;
    while words.get(v).is_some_and(|w| {
        matches!(
            bare(w).as_str(),
            "really" | "just" | "also" | "absolutely" | "totally"
        )
    }) {
        v += 1;
    }
    let taste = matches!(
        bare(words.get(v)?).as_str(),
        "love"
            | "loves"
            | "like"
            | "likes"
            | "enjoy"
            | "enjoys"
            | "adore"
            | "adores"
            | "read"
            | "reads"
            | "collect"
            | "collects"
    );
    let object = &words[v + 1..];
    if !taste || object.is_empty() || object.len() > 8 {
        return None;
    }
    let lead = bare(object[0]);
    if NOT_THINGS.contains(&lead.as_str())
        || matches!(
            lead.as_str(),
            "my" | "your" | "our" | "his" | "her" | "their" | "the"
        )
        || object
            .iter()
            .any(|w| super::clauses::is_verbish(w) || w.contains('\''))
    {
        return None;
    }
    // the head noun: the last word before a preposition, or the last
    let head = object
        .iter()
        .position(|w| super::short_answers::PREPOSITIONS.contains(&bare(w).as_str()))
        .unwrap_or(object.len());
    let noun = bare(object[head.checked_sub(1)?]);
    let plural = noun.len() > 3 && noun.ends_with('s') && !noun.ends_with("ss");
    let text: Vec<&str> = object.iter().map(|w| strip(w).1).collect();
    plural.then(|| (text.join(" "), true))
}

/// Whether the pronoun opening a clause (`words[0]`) carries on the
/// subject of the sentence before, by what follows it: "it really speaks
/// to me", "they were part of my wedding decor"; never "it's", "it feels
/// like", "it was great" (which point at the situation, not the thing).
pub(super) fn carries_subject(words: &[&str], plural: bool) -> bool {
    let next = words[1..].iter().map(|w| bare(w)).find(|w| {
        !matches!(
            w.as_str(),
            "really" | "always" | "just" | "also" | "truly" | "all"
        )
    });
    let Some(next) = next else {
        return false;
    };
    // ("it connects us": people in general, not the speaker)
    if words
        .iter()
        .skip(1)
        .take(3)
        .any(|w| matches!(bare(w).as_str(), "us" | "you"))
    {
        return false;
    }
    if plural {
        return !matches!(next.as_str(), "say" | "said" | "says");
    }
    let situation = matches!(
        next.as_str(),
        "is" | "was"
            | "feels"
            | "felt"
            | "seems"
            | "seemed"
            | "looks"
            | "looked"
            | "sounds"
            | "sounded"
            | "takes"
            | "took"
            | "gets"
            | "got"
            | "turns"
            | "turned"
            | "would"
            | "will"
            | "can"
            | "could"
            | "might"
            | "must"
            | "has"
            | "had"
            | "did"
            | "does"
            | "doesn't"
            | "didn't"
            | "wasn't"
            | "isn't"
    );
    !situation
        && super::lexicon::verb(&next).is_some_and(|(_, f)| {
            matches!(
                f,
                super::lexicon::VerbForm::Third | super::lexicon::VerbForm::Past
            )
        })
}
