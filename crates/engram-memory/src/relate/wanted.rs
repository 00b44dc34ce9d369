//! A want fulfilled: "Mia got a cavapoo puppy named Biscuit" ends "Mia
//! really wants a dog"; "Ola bought a road bike" ends "Ola wants a new
//! bike". The same subject got, bought or adopted a thing of the kind
//! wanted (the same head noun, or a young one of the animal: a puppy is a
//! dog, a kitten a cat). Reads normalised text only.

use super::retraction::stem;
use super::slots::{lead_subject, normalise, same_subject};

/// Verbs of getting what was wanted, as a memory tells them.
const GOT: &[&str] = &["got", "bought", "adopted", "picked up", "found"];

/// Young animals and the kind they are of.
const YOUNG: &[(&str, &str)] = &[("puppy", "dog"), ("kitten", "cat"), ("foal", "horse")];

/// Words that end the naming of the thing.
const STOPS: &[&str] = &[
    "named", "called", "in", "at", "from", "for", "on", "last", "this", "with", "and",
];

/// The head noun of what follows "a"/"an" at the start of `rest`, as a
/// kind ("puppy" is "dog").
fn kind(rest: &str) -> Option<String> {
    let mut words = rest.split_whitespace();
    if !matches!(words.next()?, "a" | "an") {
        return None;
    }
    let head = words.take_while(|w| !STOPS.contains(w)).take(4).last()?;
    let head = head.trim_end_matches([',', '.', '!']);
    let head = YOUNG
        .iter()
        .find(|(young, _)| *young == head)
        .map_or(head, |(_, kind)| *kind);
    Some(stem(head))
}

/// Whether `new` tells that the subject got the kind of thing `old` says
/// they want.
pub(super) fn want_got(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let Some((who, wanted)) = o.split_once(" wants ").or_else(|| o.split_once(" want ")) else {
        return false;
    };
    let who = lead_subject(who.trim_end_matches(" really").trim_end_matches(" still"));
    let Some(wanted) = kind(wanted) else {
        return false;
    };
    GOT.iter().any(|g| {
        n.split_once(&format!(" {g} ")).is_some_and(|(by, rest)| {
            same_subject(&lead_subject(by), &who) && kind(rest).as_deref() == Some(&wanted)
        })
    })
}
