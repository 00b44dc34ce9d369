//! Events one has (a trip, an exam, a standup), the words that tell one
//! done or moved, and whether a clause moves one: the part of
//! [`super`] (the lexicon) that memory formation reads events by.

/// Events one has on a day, which a postponement moves and a date names
/// ("the wedding", "my chem final"), singular.
pub const EVENTS: &[&str] = &[
    "trip",
    "wedding",
    "party",
    "meeting",
    "concert",
    "appointment",
    "flight",
    "visit",
    "vacation",
    "holiday",
    "interview",
    "surgery",
    "exam",
    "move",
    "ceremony",
    "reunion",
    "launch",
    "race",
    "marathon",
    "graduation",
    "conference",
    "dinner",
    "deadline",
    "release",
    "demo",
    "presentation",
    "delivery",
    "kickoff",
    "recital",
    "premiere",
    "tournament",
    "hearing",
    "checkup",
    "followup",
    "scan",
    "lesson",
    "class",
    "session",
    "match",
    "game",
    "gig",
    "show",
    "test",
    "audition",
    "final",
    "midterm",
    "quiz",
    "defence",
    "defense",
    "viva",
    "standup",
    "stand-up",
    "retro",
];

/// Events of which one has a single one in view at a time, and that only
/// the one who has them speaks of as "the" event: an exam, an interview, a
/// check-up ("the final went ok" is the speaker's final, the one told of
/// before). A trip or a party may be anyone's, or any.
pub const PERSONAL_EVENTS: &[&str] = &[
    "exam",
    "final",
    "midterm",
    "quiz",
    "test",
    "interview",
    "audition",
    "surgery",
    "operation",
    "checkup",
    "scan",
    "appointment",
    "presentation",
    "defence",
    "defense",
    "viva",
    "thesis",
    "dissertation",
    "draft",
    "standup",
    "stand-up",
    // a course of treatment ("physio's done")
    "physio",
    "physiotherapy",
    "rehab",
    "chemo",
    "radiotherapy",
];

/// Whether `word` names an event one has ([`EVENTS`]), singular or
/// plural, in any case ("Finals", "check-up").
pub fn is_event(word: &str) -> bool {
    event_in(word, EVENTS)
}

/// Whether `word` names an event only its owner speaks of as "the" one
/// ([`PERSONAL_EVENTS`]), singular or plural.
pub fn is_personal_event(word: &str) -> bool {
    event_in(word, PERSONAL_EVENTS)
}

/// Words that tell an event or a piece of work done, after "is" ("Femi's
/// surgery is done", "the kitchen is finished").
pub const TOLD_DONE: &[&str] = &["done", "over", "finished", "complete", "completed"];

/// Verbs of asking for something arranged that the verb list leaves out,
/// as they are nouns far more often ("book the venue", "so order veggie
/// meals"): read as verbs only where a request or a task is expected.
pub const ARRANGING: &[&str] = &["book", "order", "reserve", "note"];

/// Verbs that move an event to another time ("got moved to", "pushed
/// our trip back to", "launch slipped to").
pub const MOVE_VERBS: &[&str] = &[
    "moved",
    "pushed",
    "postponed",
    "rescheduled",
    "delayed",
    "slipped",
    "slid",
];

/// Whether `clause` tells that an event was moved to another time: "the"
/// and the event ("the wedding", "the dentist appointment"), then "got
/// moved to", "was postponed until" and the like. Such a clause is about
/// the event, whoever's it is ("the wedding got moved to September"); so
/// is one at a new place ("the hen party is now in Barcelona").
pub fn moves_an_event(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    let w: Vec<&str> = lower.split_whitespace().collect();
    let Some(v) = w
        .iter()
        .position(|x| matches!(*x, "got" | "was" | "has" | "is" | "slipped" | "slid"))
    else {
        return false;
    };
    if v == 0 {
        return false;
    }
    let moved = w.get(v + 1..).unwrap_or_default();
    let moved = match moved {
        ["been", rest @ ..] => rest,
        rest => rest,
    };
    // "the hen party is now in Barcelona": a place of its own now
    let said: Vec<&str> = clause.split_whitespace().collect();
    let new_place = w[v] == "is"
        && matches!(moved, ["now", "in" | "at", ..])
        && said
            .get(v + 3)
            .is_some_and(|p| p.starts_with(char::is_uppercase));
    let event = is_event(w[v - 1].trim_matches(|c: char| !c.is_alphanumeric() && c != '-'));
    // ("launch slipped to June 2": the event bare, in note-like chat)
    if v == 1 && matches!(w[1], "slipped" | "slid") {
        return event && matches!(w.get(2).copied(), Some("to" | "until" | "back"));
    }
    (2..=3).contains(&v)
        && w[0] == "the"
        && event
        && (new_place
            || matches!(
                moved,
                [verb, "to" | "until" | "till" | "back" | "for", ..] if MOVE_VERBS.contains(verb)
            ))
}

fn event_in(word: &str, events: &[&str]) -> bool {
    let w = word.to_lowercase().replace("check-up", "checkup");
    let one = w.strip_suffix('s').unwrap_or(&w);
    events.contains(&one)
}
