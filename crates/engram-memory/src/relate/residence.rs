//! Where someone lives, read from the shape of what they said rather than
//! from a list of whole wordings: a verb of living or moving ("live",
//! "move", "settle", "relocate", "be based"), then at most a few words of
//! what was moved into ("into a flat", "back", "over"), then "in" or "to"
//! and a place written with a capital ("moved into a flat in Leith",
//! "settled in London, living in Camden now", "we've relocated to
//! Dublin"). The phrase lists of [`super::slot_words`] come first; this
//! reads the wordings they do not list.
//!
//! A plan is no home: a verb after "to", a modal or "of" ("wants to move
//! to Oslo", "thinking of moving to Oslo") is left to the plan rules. Of
//! several places said, the last is where the subject lives now ("settled
//! in London, living in Camden now").

use super::slots::{lead_subject, normalise, subject};
use super::{name_at, unpunctuated as bare, NOT_YET};

/// Verbs of living somewhere or moving there, in their forms.
const RESIDE: &[&str] = &[
    "live",
    "lives",
    "living",
    "lived",
    "move",
    "moves",
    "moving",
    "moved",
    "relocate",
    "relocates",
    "relocating",
    "relocated",
    "settle",
    "settles",
    "settling",
    "settled",
    "reside",
    "resides",
    "residing",
    "resided",
    "based",
];

/// Words that may stand between the verb and "in"/"to": what was moved
/// into, and how ("moved back", "moved into a new flat", "moved over").
const BETWEEN: &[&str] = &[
    "into",
    "back",
    "over",
    "out",
    "away",
    "a",
    "an",
    "the",
    "new",
    "our",
    "their",
    "his",
    "her",
    "my",
    "own",
    "flat",
    "house",
    "apartment",
    "place",
    "home",
    "room",
    "studio",
    "little",
    "small",
    "bigger",
    "shared",
    "now",
    "just",
    "finally",
    "permanently",
    "officially",
    "here",
];

/// `(subject, place)` of where `fact` says its subject lives, normalised
/// as slot values are, when it says so in the shape the module describes.
pub(super) fn home(fact: &str) -> Option<(String, String)> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let mut found: Option<(usize, String)> = None;
    for (i, w) in words.iter().enumerate() {
        let verb = bare(w).to_lowercase();
        if !RESIDE.contains(&verb.as_str()) {
            continue;
        }
        let before = i.checked_sub(1).map(|p| bare(words[p]).to_lowercase());
        if before.as_deref().is_some_and(|b| NOT_YET.contains(&b)) {
            continue;
        }
        // "based" only as "is based in"
        if verb == "based"
            && !before.as_deref().is_some_and(|b| {
                matches!(
                    b,
                    "is" | "am" | "are" | "was" | "were" | "i'm" | "we're" | "they're"
                )
            })
        {
            continue;
        }
        if let Some(place) = place_after(&words[i + 1..]) {
            found = Some((i, place));
        }
    }
    let (at, place) = found?;
    // the subject precedes the first verb of the clause; a participle
    // after a comma ("settled in London, living in Camden") shares it
    let first = words
        .iter()
        .position(|w| RESIDE.contains(&bare(w).to_lowercase().as_str()))
        .unwrap_or(at);
    let who = if first < at && words[..at].iter().any(|w| w.ends_with(',')) {
        subject(&normalise(&words[..first].join(" ")))
    } else {
        subject(&normalise(&words[..at].join(" ")))
    };
    let who = if who.is_empty() {
        lead_subject(&normalise(fact))
    } else {
        who
    };
    (!who.is_empty() && who.split_whitespace().count() <= 5).then(|| (who, normalise(&place)))
}

/// The place after a verb of living: past the words of [`BETWEEN`], "in"
/// or "to" and a name, within the clause.
fn place_after(rest: &[&str]) -> Option<String> {
    for (j, w) in rest.iter().enumerate().take(7) {
        let b = bare(w).to_lowercase();
        if matches!(b.as_str(), "in" | "to") {
            return name_at(&rest[j + 1..]);
        }
        if !BETWEEN.contains(&b.as_str()) || w.ends_with([',', '.', '!', ';']) {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fact: &str, want: Option<(&str, &str)>) {
        let got = home(fact);
        assert_eq!(
            got.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            want,
            "{fact}"
        );
    }

    #[test]
    fn homes_said_in_many_shapes() {
        check(
            "Priya moved into a flat in Leith on their own.",
            Some(("priya", "leith")),
        );
        check(
            "Priya settled in London, living in Camden now.",
            Some(("priya", "camden")),
        );
        check(
            "Sam and Eva relocated to Dublin.",
            Some(("sam and eva", "dublin")),
        );
        check(
            "Ana's sister moved back to Porto.",
            Some(("ana's sister", "porto")),
        );
        check("Jonas is based in Munich.", Some(("jonas", "munich")));
        check(
            "Lena has been living in New York since May.",
            Some(("lena", "new york")),
        );
        check(
            "Tariq moved over to Toronto, Canada.",
            Some(("tariq", "toronto")),
        );
    }

    #[test]
    fn plans_feelings_and_things_moved_are_no_homes() {
        check("Priya wants to move to Oslo.", None);
        check("Priya is thinking of moving to Oslo.", None);
        check("Ken moved the meeting to Friday.", None);
        check("Jo was moved to tears by the film.", None);
        check("Ana lives in fear of spiders.", None);
        check("Ravi moved to June.", None);
        check("Priya lives with their partner Tom.", None);
    }
}
