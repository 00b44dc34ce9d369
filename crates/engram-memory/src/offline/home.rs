//! The speaker's home and the work done on it. "the kitchen is delayed"
//! and "kitchen is done" said by a speaker are about their own kitchen
//! ("my kitchen is delayed"); "we're redoing the kitchen" makes "the
//! kitchen" a piece of work, whose budget, cost and demolition `projects`
//! then says ("my budget for the kitchen is 25k"). Only a room or part of
//! a home that opens the clause is the speaker's: "a party in the kitchen"
//! stays as said. And where a speaker lives, which "moving here" means
//! ([`here_as_home`]). Reads text only.

use super::clauses::bare;

/// Rooms and parts of a home (singular, lower case).
pub(super) const ROOMS: &[&str] = &[
    "kitchen",
    "bathroom",
    "garden",
    "loft",
    "attic",
    "basement",
    "cellar",
    "bedroom",
    "roof",
    "porch",
    "deck",
    "patio",
    "garage",
    "driveway",
    "hallway",
    "conservatory",
    "backyard",
    "shed",
    "nursery",
    "house",
    "flat",
    "apartment",
];

/// Verbs of work done on a home ("redoing the kitchen", "we renovated
/// the bathroom").
const RENOVATING: &[&str] = &[
    "redo",
    "redoing",
    "redid",
    "renovate",
    "renovating",
    "renovated",
    "remodel",
    "remodeling",
    "remodelling",
    "remodeled",
    "remodelled",
    "redecorate",
    "redecorating",
    "redecorated",
    "refit",
    "refitting",
    "refitted",
    "rebuild",
    "rebuilding",
    "rebuilt",
    "repaint",
    "repainting",
    "repainted",
    "gut",
    "gutting",
    "gutted",
];

/// Words that may follow the room of a work done on it ("redoing the
/// kitchen this spring").
const AFTER_THE_WORK: &[&str] = &[
    "this",
    "next",
    "in",
    "with",
    "and",
    "at",
    "for",
    "because",
    "so",
    "but",
    "now",
    "finally",
    "after",
    "before",
    "from",
    "since",
    "on",
    "which",
    "again",
    "soon",
    "over",
    "during",
    "while",
    "ourselves",
    "myself",
    "lol",
    "haha",
];

/// "the kitchen" when the words from `i` say work done on a room
/// ("redoing the kitchen", "doing up our bathroom", "fixing up the
/// loft").
pub(super) fn home_work(words: &[&str], i: usize) -> Option<String> {
    let verb = bare(words[i]);
    let particle = matches!(verb.as_str(), "doing" | "fixing" | "did" | "fixed")
        && words.get(i + 1).is_some_and(|w| bare(w) == "up");
    if !RENOVATING.contains(&verb.as_str()) && !particle {
        return None;
    }
    let at = i + 1 + usize::from(particle);
    let (det, room) = (words.get(at)?, words.get(at + 1)?);
    // ("redoing the kitchen playlist": the room names another thing)
    let ends = room.ends_with([',', '.', '!', '?', ';', ':'])
        || words
            .get(at + 2)
            .is_none_or(|n| AFTER_THE_WORK.contains(&bare(n).as_str()));
    let room = bare(room);
    (matches!(bare(det).as_str(), "the" | "our" | "my") && ROOMS.contains(&room.as_str()) && ends)
        .then(|| format!("the {room}"))
}

/// A clause that opens with a room of the home ("the kitchen is delayed",
/// "kitchen is DONE"), said with "my": the speaker's own.
pub(super) fn own_room(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let the = words.first().is_some_and(|w| bare(w) == "the");
    let at = usize::from(the);
    let (room, next) = (words.get(at)?, words.get(at + 1)?);
    let written = room.chars().skip(usize::from(!the)).all(char::is_lowercase);
    if !ROOMS.contains(&bare(room).as_str())
        || !written
        || words[..=at]
            .iter()
            .any(|w| w.ends_with([',', '.', '!', '?']))
    {
        return None;
    }
    // a verb right after it ("is", "got", "looks"): the room is the subject
    let verb = matches!(
        bare(next).as_str(),
        "is" | "was" | "got" | "looks" | "looked" | "needs" | "needed" | "has" | "had" | "will"
    ) || super::lexicon::verb(&bare(next))
        .is_some_and(|(_, f)| f == super::lexicon::VerbForm::Past)
        // ("flooded", "leaked": a regular past)
        || (bare(next).ends_with("ed") && bare(next).len() > 4);
    if !verb {
        return None;
    }
    Some(format!(
        "{} {} {}",
        super::owners::my_as(words[0]),
        bare(room),
        words[at + 1..].join(" ")
    ))
}

/// Where a speaker says they live now ("I live in Glasgow now", "we just
/// moved to Leith", "I'm based in Cape Town"): the place's capitalised
/// words (up to three).
pub(super) fn home_said(words: &[&str]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let at = lower
        .iter()
        .position(|w| matches!(w.as_str(), "i" | "we" | "i've" | "we've" | "i'm" | "we're"))?;
    let mut i = at + 1;
    while lower.get(i).is_some_and(|w| {
        matches!(
            w.as_str(),
            "just" | "now" | "finally" | "recently" | "actually" | "have" | "am" | "are"
        )
    }) {
        i += 1;
    }
    let prep = match lower.get(i)?.as_str() {
        "live" | "living" | "based" | "settled" => "in",
        "moved" | "relocated" => "to",
        _ => return None,
    };
    if lower.get(i + 1)? != prep || words[i].ends_with([',', '.', '!', '?']) {
        return None;
    }
    let place: Vec<&str> = words[i + 2..]
        .iter()
        .take(3)
        .take_while(|w| w.starts_with(char::is_uppercase))
        .copied()
        .collect();
    // (the place ends at its punctuation: "Glasgow, near ...")
    let place = super::surface::to_first_stop(&place);
    (!place.is_empty()).then_some(place)
}

/// `clause` with "here" after a verb of coming or living said as the
/// speaker's `home`: "Luis is moving here in April" -> "Luis is moving to
/// Glasgow in April"; "my mum lives here too" -> "... lives in Glasgow
/// too". "here in Leith" says where itself.
pub(super) fn here_as_home(clause: &str, home: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let i = words.iter().position(|w| bare(w) == "here")?;
    let prep = match bare(words.get(i.checked_sub(1)?)?).as_str() {
        "move" | "moves" | "moving" | "moved" | "come" | "comes" | "coming" | "came"
        | "relocate" | "relocating" | "relocated" => "to",
        "live" | "lives" | "living" | "lived" | "based" | "settled" => "in",
        _ => return None,
    };
    // ("here in Leith" says where; "here in April" when)
    let placed = |n: &&str| super::said_alone::named_not_dated(n);
    if words
        .get(i + 1)
        .is_some_and(|n| matches!(bare(n).as_str(), "in" | "to" | "at" | "from"))
        && words.get(i + 2).is_some_and(placed)
    {
        return None;
    }
    let tail = &words[i][words[i]
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(words[i].len())..];
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[i] = format!("{prep} {home}{tail}");
    Some(out.join(" "))
}

/// `clause` without a "here" that says where the speaker is but not
/// which place, after a verb ("I started volunteering here a year ago"
/// -> "I started volunteering a year ago"); "here in Leith" and a "here"
/// that is all the clause says of where ("I'm here") stay.
pub(super) fn here_left_out(clause: &str) -> Option<String> {
    use super::lexicon::{verb, VerbForm};
    let words: Vec<&str> = clause.split_whitespace().collect();
    let i = words.iter().position(|w| bare(w) == "here")?;
    let after_verb = i > 0
        && !words[i - 1].ends_with([',', '.', '!', '?'])
        && matches!(
            verb(&bare(words[i - 1])),
            Some((base, VerbForm::Gerund | VerbForm::Past | VerbForm::Base | VerbForm::Third))
                if !matches!(base, "be" | "have" | "get" | "come" | "love" | "like")
        );
    let named_after = words
        .get(i + 1)
        .is_some_and(|n| matches!(bare(n).as_str(), "in" | "at" | "to"))
        && words
            .get(i + 2)
            .is_some_and(|n| n.starts_with(char::is_uppercase));
    // (a "here" that ends the clause is all it says: "we moved here!")
    if !after_verb || named_after || i + 1 == words.len() || words[i].ends_with([',', '.', '!']) {
        return None;
    }
    let mut out: Vec<&str> = words.clone();
    out.remove(i);
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn here_is_where_the_speaker_lives() {
        for (said, want) in [
            ("I live in Glasgow now.", Some("Glasgow")),
            ("I just moved to Glasgow from Madrid", Some("Glasgow")),
            ("we're based in Cape Town, near the sea", Some("Cape Town")),
            ("I've moved to New York City!", Some("New York City")),
            ("I live in a flat", None),
            ("my sister lives in Leeds", None),
            ("I moved to the countryside", None),
        ] {
            let words: Vec<&str> = said.split_whitespace().collect();
            assert_eq!(home_said(&words).as_deref(), want, "{said}");
        }
        for (clause, want) in [
            (
                "Luis is moving here in April!",
                Some("Luis is moving to Glasgow in April!"),
            ),
            ("my mum lives here too", Some("my mum lives in Glasgow too")),
            ("he's coming here!", Some("he's coming to Glasgow!")),
            ("he lives here in Leith", None),
            ("the food here is great", None),
            ("here is the thing", None),
        ] {
            assert_eq!(here_as_home(clause, "Glasgow").as_deref(), want, "{clause}");
        }
        // no home said: a "here" after a verb says no place
        for (clause, want) in [
            (
                "I started volunteering here about a year ago",
                Some("I started volunteering about a year ago"),
            ),
            ("we moved here!", None),
            ("I'm here", None),
            ("I love it here", None),
            ("I work here in Leith", None),
            ("come here", None),
        ] {
            assert_eq!(here_left_out(clause).as_deref(), want, "{clause}");
        }
    }

    #[test]
    fn a_room_opening_the_clause_is_the_speakers() {
        for (clause, want) in [
            ("the kitchen is delayed", Some("my kitchen is delayed")),
            ("kitchen is DONE.", Some("my kitchen is DONE.")),
            (
                "The bathroom flooded last night.",
                Some("My bathroom flooded last night."),
            ),
            ("the garden looks amazing", Some("my garden looks amazing")),
            // not the subject, or someone's already
            ("the kitchen of the old house is tiny", None),
            ("a party in the kitchen", None),
            ("Kitchen Nightmares is on tonight", None),
            ("the kitchen, the hall and the loft", None),
        ] {
            assert_eq!(own_room(clause).as_deref(), want, "{clause}");
        }
    }

    #[test]
    fn work_on_a_room_is_a_piece_of_work() {
        for (said, want) in [
            ("we're finally redoing the kitchen!", Some("the kitchen")),
            ("we're doing up our bathroom", Some("the bathroom")),
            ("I renovated my loft", Some("the loft")),
            ("redoing the kitchen playlist", None),
            ("redoing the kitchen this spring", Some("the kitchen")),
            ("we're cleaning the kitchen", None),
            ("I'm doing up the tree", None),
        ] {
            let words: Vec<&str> = said.split_whitespace().collect();
            let got = (0..words.len()).find_map(|i| home_work(&words, i));
            assert_eq!(got.as_deref(), want, "{said}");
        }
    }
}
