//! The words pronoun resolution reads (see `pronouns.rs`): the pronouns
//! themselves, words that show "her" is an object, kinds of people, the
//! animals people keep, and the bodies that act as "they". Lists only: no
//! resolution happens here.

use super::clauses::bare;

/// Places and bodies that do things as "they" ("the shelter gave me a
/// medal"): the head noun of a body mention in `pronouns.rs`.
pub(super) const BODIES: &[&str] = &[
    "shelter",
    "school",
    "company",
    "hospital",
    "museum",
    "studio",
    "gym",
    "restaurant",
    "cafe",
    "café",
    "church",
    "center",
    "centre",
    "club",
    "festival",
    "store",
    "shop",
    "agency",
    "organization",
    "organisation",
    "charity",
    "library",
    "university",
    "college",
    "clinic",
    "bakery",
    "firm",
    "startup",
    "council",
    "league",
    "magazine",
    "publisher",
    "gallery",
    "theater",
    "theatre",
    "hotel",
    "airline",
    "bank",
    "nonprofit",
    "foundation",
    "academy",
    // trades hired as a firm: "the builder quoted £18k and they start in
    // April"
    "builder",
    "builders",
    "contractor",
    "contractors",
    "movers",
    "landlord",
    "letting",
];

/// Animals people keep: `(noun, plural)`.
pub(super) const ANIMALS: &[(&str, bool)] = &[
    ("dog", false),
    ("dogs", true),
    ("puppy", false),
    ("puppies", true),
    ("pup", false),
    ("pups", true),
    ("cat", false),
    ("cats", true),
    ("kitten", false),
    ("kittens", true),
    ("horse", false),
    ("horses", true),
    ("pony", false),
    ("rabbit", false),
    ("rabbits", true),
    ("bunny", false),
    ("hamster", false),
    ("hamsters", true),
    ("parrot", false),
    ("bird", false),
    ("birds", true),
    ("turtle", false),
    ("turtles", true),
    ("tortoise", false),
    ("snake", false),
    ("lizard", false),
    ("gecko", false),
    ("ferret", false),
    ("goldfish", false),
    ("fish", false),
    ("budgie", false),
    ("guinea", false),
    ("chickens", true),
    ("goat", false),
    ("goats", true),
];

pub(super) fn animal(noun: &str) -> Option<bool> {
    ANIMALS.iter().find(|(a, _)| *a == noun).map(|(_, p)| *p)
}

/// Whether a body is a trade one hires ("the builder", "the movers"),
/// which "they" means before any doing: "they start on April 14".
pub(super) fn hired(body: &str) -> bool {
    body.split_whitespace().last().is_some_and(|n| {
        matches!(
            super::clauses::bare(n).as_str(),
            "builder" | "builders" | "contractor" | "contractors" | "movers"
        )
    })
}

/// Whether `noun` names a body that acts as "they" ("shelter", "company").
pub(super) fn is_body(noun: &str) -> bool {
    BODIES.contains(&noun)
}

/// An animal's whole name: "guinea" before "pig" is a guinea pig.
pub(super) fn whole_animal(noun: &str, next: Option<&&str>) -> String {
    match next.map(|n| bare(n)) {
        Some(n) if noun == "guinea" && (n == "pig" || n == "pigs") => format!("guinea {n}"),
        _ => noun.to_string(),
    }
}

/// Words that are third-person pronouns.
pub(super) const THIRD: &[&str] = &[
    "he",
    "she",
    "him",
    "her",
    "his",
    "hers",
    "himself",
    "herself",
    "he's",
    "she's",
    "he'd",
    "she'd",
    "he'll",
    "she'll",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "they're",
    "they've",
    "they'd",
    "they'll",
    "it",
    "its",
    "itself",
    "it's",
    "it'd",
    "it'll",
];

/// Words after "her" that show it is an object, not a possessive ("I
/// called her yesterday", "I gave her a book").
pub(super) const NOT_NOUNS: &[&str] = &[
    "and",
    "or",
    "but",
    "to",
    "for",
    "with",
    "at",
    "in",
    "on",
    "a",
    "an",
    "the",
    "so",
    "too",
    "again",
    "back",
    "up",
    "out",
    "about",
    "yesterday",
    "today",
    "tomorrow",
    "tonight",
    "last",
    "next",
    "every",
    "this",
    "that",
    "later",
    "soon",
    "once",
    "twice",
    "now",
    "recently",
    "often",
    "when",
    "because",
    "since",
    "after",
    "before",
    "as",
    "if",
    "very",
    "really",
    "how",
    "what",
    "why",
    "from",
    "off",
    "over",
    "into",
    "some",
    "my",
    "your",
    "his",
    "our",
    "their",
    "all",
    "more",
    "last",
    "first",
    "one",
    "two",
    "down",
    "home",
    "there",
    "here",
    "by",
    "while",
];

/// People spoken of as a kind, not as anyone in particular: "their"
/// after one of these in the same clause means them ("helping people with
/// their sports", "teaching kids to believe in themselves"), and the
/// clause says as much without naming anyone.
pub(super) const GROUPS: &[&str] = &[
    "people",
    "kids",
    "children",
    "students",
    "dancers",
    "players",
    "athletes",
    "veterans",
    "folks",
    "customers",
    "clients",
    "patients",
    "fans",
    "others",
    "members",
    "volunteers",
    "families",
    "teens",
    "youngsters",
    "women",
    "men",
    "artists",
    "readers",
    "gamers",
    "writers",
];

/// Whether `sentence` opens with a plural common noun as its subject
/// ("Movers are pricey", "Kids can be tough"): people or things a "they"
/// after it may mean.
pub(super) fn plural_subject(sentence: &str) -> bool {
    let mut w = sentence.split_whitespace().map(bare);
    let (Some(first), Some(second)) = (w.next(), w.next()) else {
        return false;
    };
    first.len() > 3
        && first.ends_with('s')
        && !first.ends_with("ss")
        && !first.ends_with("us")
        && !first.ends_with("'s")
        && !matches!(
            first.as_str(),
            "this" | "has" | "was" | "does" | "yes" | "thanks" | "its"
        )
        && matches!(
            second.as_str(),
            "are" | "were" | "aren't" | "weren't" | "can" | "can't" | "have" | "always" | "never"
        )
}

/// Whether a subject that is a professional nobody named ("the vet", "my
/// GP") reports, with `verb`, what is then said ("The vet thinks Biscuit
/// has arthritis"): the fact is about whoever that names.
pub(super) fn reported_of(subject: &[&str], verb: Option<&&str>) -> bool {
    let professional = subject.last().is_some_and(|n| {
        matches!(
            bare(n).as_str(),
            "vet"
                | "doctor"
                | "gp"
                | "dentist"
                | "physio"
                | "nurse"
                | "consultant"
                | "specialist"
                | "surgeon"
                | "midwife"
                | "therapist"
        )
    });
    let reports = verb.is_some_and(|v| {
        matches!(
            bare(v).as_str(),
            "thinks" | "says" | "said" | "reckons" | "suspects" | "confirmed" | "believes"
        )
    });
    professional && subject.len() <= 2 && reports
}
