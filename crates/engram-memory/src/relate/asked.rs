//! What a search question asks, read once ([`Asked`]), and which
//! memories answer its shape:
//! - how things are now ("what car does Jo drive?"), not how they were or
//!   ended ("what did Jo sell?", "does Ana still work there?"): memories
//!   of something over ("Jo sold their Civic") answer it worse;
//! - what X is about ("what is Ines's novel about?"): a memory that says
//!   what it is ("... novel is a mystery set in ...") answers it better
//!   than one that only names it;
//! - what someone is working on ("what is Priya working on?"): a memory
//!   of that person's work answers it better than others' work;
//! - when ("when does Jonas fly out?"): a memory that holds a day, a
//!   month or a year answers it better than one that holds no time;
//! - where ("where is Sam staying?"): a memory that names a place ("in
//!   Delft") better than one that names none; for where someone goes to
//!   school, one that names a place answers it, and one that names none
//!   ("swimming after school") answers worse;
//! - what someone does for work ("what does Dev do for work?"): a
//!   memory that names their occupation ("Dev is a nurse at St Mary's"),
//!   better than one that only says "work" ("Dev went back to work");
//! - what a thing's value is ("what is the renovation budget?"): a memory
//!   that says what the budget is or went up to, better than one that
//!   only shares another word ("renovating the kitchen");
//! - whom someone is with ("who is Sam dating?", "who's Ana's
//!   girlfriend?"): a memory that says whom they are with or broke up
//!   with, better than one that only shares "date";
//! - what someone enjoys ("what does Maeve's gran enjoy?"): a memory that
//!   says what they love, like or enjoy, better than one that only names
//!   them;
//! - what someone or something is called ("what is Carmen's baby
//!   called?"): a memory that gives a name ("... will be named Lucía");
//! - what someone dislikes ("what food does Femi hate?"): a memory that
//!   says what they hate or cannot stand;
//! - what medicine someone is on ("what meds is Biscuit on?"): a memory
//!   that says what they are on or take;
//! - where someone works ("where does Jo work?"): a memory that names
//!   the workplace ("Jo is still at Monzo");
//! - where someone lives or works, or what they do ("where does Mei
//!   live?"): a fact of theirs better than one of their people ("Mei's
//!   boyfriend Jonas lives in Munich").
//!
//! Reads words only.

/// Words that ask about the past, a change or an ending.
const NOT_NOW: &[&str] = &[
    "did",
    "was",
    "were",
    "used",
    "still",
    "anymore",
    "longer",
    "ever",
    "why",
    "before",
    "previous",
    "previously",
    "former",
    "formerly",
    "last",
    "first",
    "stop",
    "stopped",
    "quit",
    "sell",
    "sold",
    "leave",
    "left",
    "give",
    "gave",
    "end",
    "ended",
    "lose",
    "lost",
    "had",
    "change",
    "changed",
    "happen",
    "happened",
    "history",
    "again",
];

/// Whether `question` asks how things are now: it asks in the present
/// ("does", "is", "are") and says nothing of the past or of an ending.
fn asks_about_now(question: &str) -> bool {
    let words: Vec<String> = question
        .split_whitespace()
        .map(crate::offline::clauses::bare)
        .collect();
    let present = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "does" | "do" | "is" | "are" | "what's" | "where's" | "who's"
        )
    });
    present && !words.iter().any(|w| NOT_NOW.contains(&w.as_str()))
}

/// Wordings of doing a piece of work now.
const WORKING_ON: &[&str] = &[
    " is leading ",
    " is working on ",
    " is moving on to ",
    " moving on to ",
    " is building ",
    " is writing ",
    " is running ",
    " is in charge of ",
    " owns ",
    " will run ",
    " will lead ",
    " started working on ",
];

/// Whether `fact` is worded as work someone is doing ("Priya is now
/// moving on to the fraud detection project", "Tom owns the pricing
/// page"): it answers "what is Priya working on?" though it may not say
/// "work", unless the work is over ([`super::attributes_over`], which the
/// caller has to hand or asks).
pub fn states_work_on(fact: &str) -> bool {
    let t = format!(" {} ", super::slots::normalise(fact));
    WORKING_ON.iter().any(|p| t.contains(p))
}

/// Whose work a "what is X working on?" question asks about (its one
/// named person, lowercased).
fn work_of(question: &str) -> Option<String> {
    let q = question.to_lowercase();
    if !(q.contains(" working on") || q.contains(" work on")) {
        return None;
    }
    let named: Vec<String> = question
        .split_whitespace()
        .skip(1)
        .filter(|w| w.starts_with(char::is_uppercase))
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .trim_end_matches("'s")
                .to_lowercase()
        })
        .collect();
    match named.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// `question` in lower case, without its closing mark.
fn bare_question(question: &str) -> String {
    question
        .trim()
        .trim_end_matches(['?', '.', '!'])
        .to_lowercase()
}

/// How a question about what something is opens.
const WHAT_IS: &[&str] = &["what is ", "what's ", "what was "];

/// What follows the first of `openings` that `q` opens with.
fn after<'a>(q: &'a str, openings: &[&[&str]]) -> Option<&'a str> {
    openings
        .iter()
        .flat_map(|o| o.iter())
        .find_map(|p| q.strip_prefix(p))
}

/// The thing a "what is ... about?" question asks about, as its last
/// word ("novel" of "what is Ines's novel about?").
fn asked_about(question: &str) -> Option<String> {
    let q = bare_question(question);
    let rest = after(&q, &[WHAT_IS, &["what are ", "what were "]])?;
    let thing = rest.strip_suffix(" about")?;
    let last = thing.split_whitespace().last()?;
    (thing.split_whitespace().count() <= 5).then(|| last.to_string())
}

/// Whether `memory` describes `thing`: the thing, then "is a", "is
/// about", "was a" ... ("Ines's first novel is a mystery set in ...").
fn describes(thing: &str, memory: &str) -> bool {
    said_then(
        thing,
        memory,
        &[
            "is a ",
            "is an ",
            "is about ",
            "was a ",
            "was an ",
            "was about ",
            "are about ",
        ],
    )
}

/// Whether `memory` (in lower case) holds `thing` followed by one of
/// `wordings`.
fn said_then(thing: &str, memory: &str, wordings: &[&str]) -> bool {
    let m = format!(" {} ", memory.to_lowercase());
    // ("the user's budget for the kitchen is 25k": whose work's, between)
    let which = m
        .split_once(&format!(" {thing} for "))
        .is_some_and(|(_, after)| {
            let words: Vec<&str> = after.split_whitespace().take(5).collect();
            (1..words.len()).any(|k| {
                let rest = words[k..].join(" ") + " ";
                wordings.iter().any(|c| rest.starts_with(c))
            })
        });
    which
        || wordings
            .iter()
            .any(|c| m.contains(&format!(" {thing} {c}")))
}

/// Whether `question` opens with the wh-word `wh` ("when", "when's"),
/// or with "what" or "which" and one of `kinds` ("what time", "which
/// city").
fn asks(question: &str, wh: &str, kinds: &[&str]) -> bool {
    let words: Vec<String> = question
        .split_whitespace()
        .take(2)
        .map(crate::offline::clauses::bare)
        .collect();
    match words.as_slice() {
        [w, ..] if *w == wh || w.strip_suffix("'s") == Some(wh) => true,
        [w, t, ..] if w == "what" || w == "which" => kinds.contains(&t.as_str()),
        _ => false,
    }
}

// when and where a question asks, and whether a memory holds a time or a
// place to answer it with
#[path = "asked_when.rs"]
mod when;

#[path = "asked_going_on.rs"]
mod going;

#[path = "asked_ailment.rs"]
mod ailment;
#[path = "asked_dislike.rs"]
mod dislike;
#[path = "asked_taste.rs"]
mod taste;
#[path = "asked_workplace.rs"]
mod workplace;
use going::{going_on, says_going_on};
use when::{
    asks_done, asks_school, asks_when, asks_where, holds_a_place, holds_a_time, object_asked,
    states_object, tells_done,
};

/// The thing whose value a question asks ("budget" of "what is the
/// renovation budget?", "rent" of "how much is Maya's rent?"): the last
/// word of a short noun phrase after "what is" or "how much is".
fn value_asked(question: &str) -> Option<String> {
    let q = bare_question(question);
    let rest = after(&q, &[WHAT_IS, &["how much is ", "how much was "]])?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    // ("Lena's budget for the trip": the budget, whatever it is for)
    let words = match words.iter().position(|w| *w == "for").filter(|&f| f >= 2) {
        Some(f) => words[..f].to_vec(),
        None => words,
    };
    let opens = words
        .first()
        .is_some_and(|w| matches!(*w, "the" | "my" | "his" | "her" | "their") || w.ends_with("'s"));
    let last = *words.last()?;
    let noun = !matches!(
        last,
        "about" | "for" | "like" | "doing" | "called" | "named"
    ) && !last.ends_with("ing")
        && last.chars().all(|c| c.is_ascii_lowercase());
    (opens && (2..=5).contains(&words.len()) && noun).then(|| last.to_string())
}

/// Whether `memory` says what `thing` is or became ("the user's budget
/// went up to 28k", "Maya's rent is 1450").
fn states_value(thing: &str, memory: &str) -> bool {
    said_then(
        thing,
        memory,
        &[
            "is ",
            "was ",
            "went ",
            "has gone ",
            "rose ",
            "dropped ",
            "is now ",
        ],
    )
}

/// Whether `memory` holds a time clocked ("in 1:56:40", "52:30"): what
/// "what was X's time?" asks of a race.
fn clocked(memory: &str) -> bool {
    memory.split_whitespace().any(|w| {
        let w = w.trim_end_matches(['.', ',', '!', ')']);
        let parts: Vec<&str> = w.split(':').collect();
        parts.len() >= 2
            && parts[1..]
                .iter()
                .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_digit()))
            && !parts[0].is_empty()
            && parts[0].chars().all(|c| c.is_ascii_digit())
    })
}

/// Whether `question` asks what someone or something is called: "what is
/// X called?", "what's X's name?", "what are they naming X?".
fn asks_called(question: &str) -> bool {
    let q = bare_question(question);
    let words: Vec<&str> = q.split_whitespace().collect();
    matches!(
        words.as_slice(),
        ["what" | "what's", .., "called" | "named"]
            | ["what" | "what's", .., "name"]
            | ["what", "are" | "is", _, "naming" | "calling", ..]
    ) || matches!(
        // "what band is Dev in?": a group one is in goes by a name
        words.as_slice(),
        [
            "what" | "which",
            "band" | "choir" | "club" | "podcast" | "crew",
            "is" | "are",
            ..
        ]
    )
}

/// Whether `memory` gives someone's or something's name ("Carmen's baby
/// will be named Lucía", "Tariq's dog is called Max").
fn gives_a_name(memory: &str) -> bool {
    let m = format!(" {} ", memory.to_lowercase());
    [" named ", " called ", " name is ", " name's "]
        .iter()
        .any(|p| m.contains(p))
}

/// Whether `question` asks whom someone is with: "who is Sam dating /
/// seeing / married to / going out with?", "who is Ana's girlfriend?",
/// "is Sam single?".
fn asks_partner(question: &str) -> bool {
    let q = bare_question(question);
    let Some(rest) = after(&q, &[&["who is ", "who's ", "is ", "who was "]]) else {
        return false;
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let with = |w: &[&str]| {
        matches!(
            w,
            [_, "dating"]
                | [_, "seeing"]
                | [_, "married", "to"]
                | [_, "engaged", "to"]
                | [_, "going", "out", "with"]
                | [_, "in", "a", "relationship", "with"]
                | [_, "single"]
        )
    };
    let partner = |w: &[&str]| {
        matches!(
            w,
            [o, "girlfriend" | "boyfriend" | "partner" | "wife" | "husband" | "fiance" | "fiancee"]
                if o.ends_with("'s")
        )
    };
    with(&words) || partner(&words)
}

/// A search question, read once for what its shape asks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Asked {
    /// It asks how things are now.
    now: bool,
    /// The thing a "what is X about?" asks about.
    about: Option<String>,
    /// Whose work a "what is X working on?" asks about.
    work_of: Option<String>,
    /// It asks when.
    when: bool,
    /// It asks where.
    place: bool,
    /// It asks where someone goes to school.
    school: bool,
    /// The thing whose value it asks.
    value: Option<String>,
    /// It asks what someone does for work.
    job: bool,
    /// The role a "who is X's tutor?" asks who holds.
    role: Option<String>,
    /// It asks whom someone is with.
    partner: bool,
    /// It asks what someone enjoys.
    taste: bool,
    /// It asks what someone or something is called.
    called: bool,
    /// The one person it asks about by name alone, and what of theirs.
    person: Option<(String, &'static str)>,
    /// The one person it asks a doing of ("what car does Marta drive?").
    doing: Option<(String, &'static str)>,
    /// What a progressive question asks is going on ("what is Ana
    /// reading?": "reading").
    going_on: Option<String>,
    /// It asks what medicine someone is on.
    medication: bool,
    /// It asks what is wrong with someone.
    ailment: bool,
    /// It asks what someone did.
    done: bool,
    /// The verb whose object it asks ("what does Sam teach?").
    object: Option<&'static str>,
    /// It asks what someone dislikes.
    dislike: bool,
    /// It asks where someone works.
    workplace: bool,
    /// It asks which book, show or make (the question's words, to tell
    /// a name).
    title: Option<Vec<String>>,
}

impl Asked {
    pub fn of(question: &str) -> Self {
        // (read once: the attribute and the doing asked of one person)
        let person = super::whose::asked_person(question);
        Asked {
            now: asks_about_now(question),
            about: asked_about(question),
            work_of: work_of(question),
            when: asks_when(question),
            place: asks_where(question),
            school: asks_school(question),
            value: value_asked(question),
            job: workplace::asks_job(question),
            role: super::reports::role_asked(question),
            partner: asks_partner(question),
            taste: taste::asks_taste(question),
            called: asks_called(question),
            person: person.clone().zip(super::whose::asked_slot(question)),
            doing: person.zip(super::whose::asked_doing(question)),
            going_on: going_on(question),
            medication: super::doses::asks_medication(question),
            ailment: ailment::asks_ailment(question),
            done: asks_done(question),
            object: object_asked(question),
            dislike: dislike::asks_dislike(question),
            workplace: workplace::asks_workplace(question),
            title: going::asks_title(question).then(|| going::said_words(question)),
        }
    }

    /// Whether `memory` is a fact of someone of the person the question
    /// asks about ("Mei's boyfriend Jonas lives in Munich" for "where
    /// does Mei live?"; "Marta's partner Jonas wants an electric car" for
    /// "what car does Marta drive?"), not of that person.
    pub fn of_their_people(&self, memory: &str) -> bool {
        self.person
            .as_ref()
            .is_some_and(|(p, slot)| super::whose::of_their_people(memory, p, slot))
            || self
                .doing
                .as_ref()
                .is_some_and(|(p, doing)| super::whose::not_their_doing(memory, p, doing))
    }

    /// For a question that asks when, whether `memory` holds a time to
    /// answer it with; `None` for other questions.
    pub fn timed(&self, memory: &str) -> Option<bool> {
        self.when.then(|| holds_a_time(memory))
    }

    /// Whether the question asks where and `memory` names a place to
    /// answer it with.
    pub fn placed(&self, memory: &str) -> bool {
        self.place && holds_a_place(memory)
    }

    /// Whether the question asks where someone goes to school or works
    /// and `memory` names no place ("Leo has swimming after school", "Ike
    /// has been teaching for 8 years"), so cannot answer it.
    pub fn unplaced_school(&self, memory: &str) -> bool {
        // ("a gym near work" is a place, not where one works)
        (self.school && !holds_a_place(memory))
            || (self.workplace
                && !workplace::names_workplace(memory)
                && (!holds_a_place(memory) || workplace::says_work_near(memory)))
    }

    /// Whether `memory` answers what the question's shape asks: it says
    /// what the thing asked about is, or what the one asked about is
    /// working on.
    pub fn answered_by(&self, memory: &str) -> bool {
        self.about.as_deref().is_some_and(|t| describes(t, memory))
            || self
                .value
                .as_deref()
                .is_some_and(|t| states_value(t, memory) || (t == "time" && clocked(memory)))
            || (self.job && workplace::names_occupation(memory))
            || (self.taste && taste::states_taste(memory))
            || (self.called && gives_a_name(memory))
            || self
                .going_on
                .as_deref()
                .is_some_and(|g| says_going_on(memory, g))
            || (self.school && holds_a_place(memory))
            || (self.medication && super::doses::says_taking(memory))
            || (self.ailment && ailment::names_ailment(memory))
            || (self.done && tells_done(memory))
            || self.object.is_some_and(|v| states_object(memory, v))
            || (self.dislike && dislike::states_dislike(memory))
            || (self.workplace && workplace::names_workplace(memory))
            || (self.partner
                && super::slots(memory)
                    .iter()
                    .any(|(slot, _, _)| slot == "relationship"))
            || self
                .role
                .as_deref()
                .is_some_and(|r| super::reports::names_holder(memory, r))
            || self.work_of.as_deref().is_some_and(|who| {
                states_work_on(memory)
                    && !super::attributes_over(memory)
                    && super::slots::same_subject(
                        &super::slots::lead_subject(&super::slots::normalise(memory)),
                        who,
                    )
            })
    }

    /// Whether the question asks what someone does for a living and
    /// `memory` names no occupation ("what does Kenji do?": not
    /// "Kenji's girlfriend is Aiko").
    pub fn no_job(&self, memory: &str) -> bool {
        self.job && !workplace::names_occupation(memory)
    }

    /// Whether the question asks which work and `memory` names a title.
    pub fn titled(&self, memory: &str) -> bool {
        (self.title.as_deref()).is_some_and(|said| going::names_title(memory, said))
    }

    /// Whether `memory` tells of something over, for a question about now.
    pub fn outdated(&self, memory: &str) -> bool {
        self.now && super::over_now(memory)
    }
}

#[cfg(test)]
#[path = "asked_tests.rs"]
mod tests;
