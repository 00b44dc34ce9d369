//! Notes written as lists and labelled lines, said as the sentences they
//! stand for, before facts are read from them. A profile note
//!
//! ```text
//! Name: Ruth Okafor
//! ## Family
//! - Partner: Sam (we got married in 2021)
//! - Dog: Biscuit, a beagle
//! ## Preferences
//! - Coffee: oat flat white
//! - Allergic to penicillin
//! ## Goals for 2025
//! - Run a half marathon in the fall
//! ```
//!
//! is "My name is Ruth Okafor. My partner is Sam. Sam and I got married in
//! 2021. My dog is named Biscuit. Biscuit is a beagle. My coffee preference
//! is oat flat white. I'm allergic to penicillin. One of my goals is to run
//! a half marathon in the fall." Only text laid out as a note (a heading, a
//! bullet, or two labelled lines) is rewritten, and a label is read only
//! where it names someone close, a personal detail, or an item under a
//! heading about the writer ("Update: we booked it!" in a chat is left as
//! it is, and so are "Date:" and "Agenda:" of meeting notes). Reads text
//! only.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm, PERSON_NOUNS};
use super::named::{ALSO_NAMED, ANIMALS};

/// Labels of the writer's own details, said "My <label> is <value>".
const DETAILS: &[&str] = &[
    "email",
    "phone",
    "birthday",
    "job",
    "occupation",
    "role",
    "title",
    "company",
    "employer",
    "city",
    "hometown",
    "home",
    "diet",
    "pronouns",
    "nationality",
    "languages",
    "address",
    "budget",
    "blood type",
    "blood group",
    "gp",
    "emergency contact",
    "insurance",
    "insurer",
    "hotel",
    "flights",
    "flight",
    "accommodation",
];

/// Adjectives that open a bullet said of the writer ("Allergic to
/// penicillin": "I'm allergic to penicillin").
pub(super) const SAID_OF_ME: &[&str] = &[
    "allergic",
    "vegetarian",
    "vegan",
    "pescatarian",
    "married",
    "single",
    "divorced",
    "engaged",
    "fluent",
    "afraid",
    "scared",
    "lactose",
    "gluten-free",
    "left-handed",
    "right-handed",
    "diabetic",
    "pregnant",
    "retired",
    "colorblind",
    "colourblind",
    "intolerant",
];

/// What a section heading says its items are.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Section {
    /// A heading that says nothing of its items, or none.
    Plain,
    /// "Preferences", "Likes": "My coffee preference is ...".
    Preferences,
    /// "Favourites": "My favourite book is ...".
    Favourites,
    /// "Goals", "Resolutions": "One of my goals is to ...".
    Goals,
    /// "Plans", "To do", "Bucket list": "I plan to ...", "I want to ...".
    Plans(&'static str),
    /// "About me", "Profile", "Family": labels are the writer's.
    Personal,
    /// "Action items", "Next steps": "Priya: send the plan" is what Priya
    /// will do.
    Actions,
    /// "Reading list", "Books": "Finished: Piranesi" is a book read.
    Reading,
}

fn section_of(heading: &str) -> Section {
    let h = heading.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| h.contains(w));
    if has(&["favourite", "favorite"]) {
        Section::Favourites
    } else if has(&["preference", "likes", "taste"]) {
        Section::Preferences
    } else if has(&["goal", "resolution"]) {
        Section::Goals
    } else if has(&["reading", "books", "book list"]) {
        Section::Reading
    } else if has(&["action", "next step", "task", "assignment"]) {
        Section::Actions
    } else if has(&["plan"]) {
        Section::Plans("I plan to")
    } else if has(&["to do", "todo", "to-do"]) {
        Section::Plans("I need to")
    } else if has(&["wish", "bucket"]) {
        Section::Plans("I want to")
    } else if has(&[
        "about me", "profile", "personal", "family", "health", "medical",
    ]) || h.trim() == "me"
    {
        Section::Personal
    } else {
        Section::Plain
    }
}

/// A line's bullet stripped ("- ", "* ", "• ", "1. "), if it has one.
fn unbulleted(line: &str) -> Option<&str> {
    let t = line.trim_start();
    for b in ["- ", "* ", "+ ", "\u{2022} "] {
        if let Some(rest) = t.strip_prefix(b) {
            return Some(rest.trim());
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") ")) {
        return Some(t[digits + 2..].trim());
    }
    None
}

/// A labelled line ("Partner: Sam"): its label (one to three words) and
/// value.
fn labelled(line: &str) -> Option<(&str, &str)> {
    let (label, value) = line.split_once(": ")?;
    let words = label.split_whitespace().count();
    let value = value.trim();
    ((1..=3).contains(&words)
        && !value.is_empty()
        && label
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '-'))
    .then_some((label.trim(), value))
}

/// Whether `text` is laid out as a note: a heading or a bullet, or two
/// labelled lines.
fn is_note(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // ("Name: Ruth Okafor. I'm ..." opening a text says who wrote it)
    let named = lines
        .first()
        .and_then(|l| labelled(l))
        .is_some_and(|(l, v)| {
            matches!(l.to_lowercase().as_str(), "name" | "full name")
                && super::is_person_name(v.split(". ").next().unwrap_or(v).trim_end_matches('.'))
        });
    named
        || lines
            .iter()
            .any(|l| l.trim_start().starts_with('#') || unbulleted(l).is_some())
        || lines.iter().filter(|l| labelled(l).is_some()).count() >= 2
}

/// Where the first sentence of `item` ends: its first ". " that does not
/// close a title ("Dr. Amir Shah").
fn sentence_end(item: &str) -> Option<usize> {
    item.match_indices(". ").map(|(at, _)| at).find(|&at| {
        let word = item[..at].rsplit(' ').next().unwrap_or("");
        !matches!(word, "Dr" | "Mr" | "Mrs" | "Ms" | "Prof" | "St" | "Mt")
    })
}

/// `s` as a sentence: a capital first letter and a full stop.
pub(super) fn sentence(s: &str) -> String {
    let s = s.trim().trim_end_matches([',', ';']);
    let mut c = s.chars();
    let Some(first) = c.next() else {
        return String::new();
    };
    let mut out: String = first.to_uppercase().chain(c).collect();
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// `s` with its first letter lowercase, unless it starts a name.
pub(super) fn lowered(s: &str) -> String {
    let first = s.split_whitespace().next().unwrap_or("");
    if super::is_name_word(first) && verb(&bare(first)).is_none() {
        return s.to_string();
    }
    lower_first(s)
}

/// `s` with its first letter lowercase.
pub(super) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

/// "Sam (we got married in 2021)", "Ife, born March 2022", "Biscuit, a
/// beagle": the name, and what is said of them as sentences.
fn named_with(value: &str) -> (String, Vec<String>) {
    let (head, aside) = match value.split_once('(') {
        Some((h, rest)) => (h.trim(), Some(rest.trim_end_matches(')').trim())),
        None => (value, None),
    };
    let (name, more) = match head.split_once(", ") {
        Some((n, m)) => (n.trim().to_string(), Some(m.trim())),
        None => (head.trim().trim_end_matches('.').to_string(), None),
    };
    let mut said = Vec::new();
    for part in [more, aside].into_iter().flatten() {
        let words: Vec<&str> = part.split_whitespace().collect();
        let Some(first) = words.first().map(|w| bare(w)) else {
            continue;
        };
        let rest = words[1..].join(" ");
        let s = match first.as_str() {
            // "born March 2022": when
            "born" => {
                let on = words
                    .get(1)
                    .is_some_and(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
                    && words.len() > 2;
                let prep = if on
                    || words
                        .get(1)
                        .is_some_and(|w| bare(w) == "on" || bare(w) == "in")
                {
                    ""
                } else {
                    "in "
                };
                let prep = if on { "on " } else { prep };
                format!("{name} was born {prep}{rest}")
            }
            // "we got married in 2021": the two of them
            "we" => format!("{name} and I {rest}"),
            // "married 2019", "together since 2015": the writer and them
            "married" | "engaged" if words.len() == 2 && super::lead::is_year(words[1]) => {
                let with = if first == "married" {
                    "married"
                } else {
                    "got engaged to"
                };
                format!("I {with} {name} in {}", words[1])
            }
            "together" => format!("{name} and I have been together {rest}"),
            // "Luc, who is a chef"
            "who" if words.get(1).is_some_and(|w| super::clauses::is_verbish(w)) => {
                format!("{name} {rest}")
            }
            "a" | "an" | "the" => format!("{name} is {part}"),
            _ if first.chars().all(|c| c.is_ascii_digit()) && words.len() == 1 => {
                format!("{name} is {first}")
            }
            _ if verb(&first).is_some() => format!("{name} {part}"),
            _ => continue,
        };
        said.push(sentence(&s));
    }
    (name, said)
}

/// A labelled line said as sentences, or `None` when its label is not one
/// this reads.
fn label_said(label: &str, value: &str, section: Section) -> Option<Vec<String>> {
    let key = label.to_lowercase();
    // "Family: wife Ingrid, two kids (...)", "Work: engineer at Equinor"
    if let Some(said) = super::note_values::several(&key, value.trim_end_matches('.')) {
        return Some(said.iter().map(|s| sentence(s)).collect());
    }
    let last = key.split_whitespace().last().unwrap_or("");
    let close = PERSON_NOUNS.iter().any(|(n, _)| *n == last) || ALSO_NAMED.contains(&last);
    if close || ANIMALS.contains(&last) {
        let (name, mut said) = named_with(value);
        if name.is_empty() {
            return None;
        }
        let is = if ANIMALS.contains(&last) {
            "is named"
        } else {
            "is"
        };
        said.insert(0, sentence(&format!("My {key} {is} {name}")));
        return Some(said);
    }
    let value = value.trim_end_matches('.');
    // "Next step: send a security questionnaire to Raj": the writer's task
    if let Some(task) = super::note_labels::own_task(&key, value) {
        return Some(vec![task]);
    }
    // "Finished: Project Hail Mary (loved it)" under "Reading list"
    if section == Section::Reading {
        return super::note_labels::reading(&key, value);
    }
    // "Priya: send the migration plan" under "Action items"
    if section == Section::Actions {
        return super::note_labels::assigned(label, value).map(|said| vec![said]);
    }
    // "Tokyo: April 3-8, staying at ...", "Must do: teamLab, ...": a trip
    if let Some(said) = super::itinerary::stop_said(label, value)
        .or_else(|| super::itinerary::wants_said(label, value))
    {
        return Some(vec![sentence(&said)]);
    }
    // "Lives in: Montreal", "Works as: UX designer at Shopify", "Hates:
    // cilantro": the writer does what the label says
    if let Some(said) = super::note_labels::done_by_me(label, value) {
        return Some(vec![sentence(&said)]);
    }
    // "Priya: finishing the redesign", "Action: Ade to book the venue"
    if matches!(section, Section::Plain | Section::Actions) {
        if let Some(said) = super::note_labels::about_someone(label, value) {
            return Some(vec![said]);
        }
    }
    // "Next sync: 26 March", "Deadline: Friday": when the thing is
    let first = value
        .split_whitespace()
        .next()
        .map(bare)
        .unwrap_or_default();
    let dated = first.starts_with(|c: char| c.is_ascii_digit())
        && value.split_whitespace().nth(1).is_some_and(|m| {
            super::dates::MONTHS
                .iter()
                .any(|n| n.eq_ignore_ascii_case(bare(m).as_str()))
        })
        || super::dates::names_a_day(&first);
    // ("Date: May 3" is the note's own date)
    let of_time = matches!(key.as_str(), "date" | "dates" | "time" | "when" | "day");
    if dated
        && !of_time
        && matches!(section, Section::Plain | Section::Actions)
        && key.split(' ').count() <= 3
    {
        return Some(vec![sentence(&format!("The {key} is on {value}"))]);
    }
    let said = match key.as_str() {
        "name" | "full name" => format!("My name is {value}"),
        "age" => format!("I'm {value}"),
        "allergies" | "allergy" | "allergic to" => format!("I'm allergic to {value}"),
        "lives in" | "location" | "based in" if section == Section::Personal => {
            format!("I live in {value}")
        }
        k if DETAILS.contains(&k) => {
            let is = if k.ends_with('s') { "are" } else { "is" };
            // ("GP": an initialism keeps its capitals)
            let k = if label.chars().all(|c| c.is_uppercase()) {
                label
            } else {
                k
            };
            format!("My {k} {is} {value}")
        }
        k => match section {
            Section::Favourites => format!("My favourite {k} is {value}"),
            // (not "I prefer ...": one preference does not replace another)
            Section::Preferences => format!("My {k} preference is {}", lowered(value)),
            Section::Personal => format!("My {k} is {value}"),
            Section::Goals
            | Section::Plans(_)
            | Section::Plain
            | Section::Actions
            | Section::Reading => return None,
        },
    };
    Some(vec![sentence(&said)])
}

/// Words of a one-word item that is an appointment ("Dentist on March
/// 14th": "My dentist appointment is on March 14th").
const APPOINTMENTS: &[&str] = &[
    "dentist",
    "doctor",
    "gp",
    "physio",
    "haircut",
    "vet",
    "optician",
    "therapist",
    "checkup",
    "check-up",
];

/// An item with no verb that says when something is ("Noor's recital on
/// April 2nd", "Dentist on March 14th") said with "is".
fn dated_item(item: &str) -> Option<String> {
    let (head, when) = item.split_once(" on ")?;
    let first_when = when.split_whitespace().next().map(bare)?;
    let dated = first_when
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit())
        || super::dates::names_a_day(&first_when)
        || first_when == "the";
    // ("Noor's" is whose, not "Noor is")
    let verb_in = head
        .split_whitespace()
        .any(|w| super::clauses::is_verbish(w) && !w.ends_with("'s"));
    if !dated || verb_in {
        return None;
    }
    let words: Vec<&str> = head.split_whitespace().collect();
    let thing = match words.as_slice() {
        [one] if APPOINTMENTS.contains(&bare(one).as_str()) => {
            format!("My {} appointment", bare(one))
        }
        [one] => format!("The {}", bare(one)),
        _ => head.to_string(),
    };
    Some(format!("{thing} is on {when}"))
}

/// A bullet with no label said as sentences.
fn item_said(item: &str, section: Section) -> Vec<String> {
    // "renew passport (expires June)": when, said of the thing
    if let Some((item, when)) = super::note_values::dated_aside(item) {
        let mut out = item_said(&item, section);
        out.push(sentence(&when));
        return out;
    }
    let first = item.split_whitespace().next().map(bare).unwrap_or_default();
    // ("book MOT for the Golf": a verb the lexicon takes for a noun)
    let form = verb(&first).map(|(_, f)| f).or_else(|| {
        super::lexicon::ARRANGING
            .contains(&first.as_str())
            .then_some(VerbForm::Base)
    });
    if form == Some(VerbForm::Base) {
        let lead = match section {
            // ("Goals" says what the question will ask: "what are her goals?")
            Section::Goals => Some("One of my goals is to"),
            Section::Plans(lead) => Some(lead),
            _ => None,
        };
        if let Some(lead) = lead {
            return vec![sentence(&format!("{lead} {}", lower_first(item)))];
        }
    }
    // "Hates phone calls, prefers email": each part the writer's (not a
    // label no rule reads: "Owns: Priya" is whose task)
    if form == Some(VerbForm::Third) && labelled(item).is_none() {
        return item
            .split(", ")
            .map(|part| {
                let mut words = part.split_whitespace();
                let v = words.next().unwrap_or("");
                let base = verb(&bare(v))
                    .filter(|(_, f)| *f == VerbForm::Third)
                    .map(|(b, _)| b);
                match base {
                    Some(b) => sentence(&format!("I {b} {}", words.collect::<Vec<_>>().join(" "))),
                    None => sentence(part),
                }
            })
            .collect();
    }
    if SAID_OF_ME.contains(&first.as_str()) {
        return vec![sentence(&format!("I'm {}", lower_first(item)))];
    }
    // "- Piranesi" under "Reading list"
    if section == Section::Reading && form.is_none() && labelled(item).is_none() {
        return vec![sentence(&format!(
            "{} is on my reading list",
            item.trim_end_matches('.')
        ))];
    }
    if let Some(said) = dated_item(item) {
        return vec![sentence(&said)];
    }
    vec![sentence(item)]
}

/// `text` said as sentences when it is laid out as a note (see the
/// module docs); `None` when it is not.
pub(super) fn as_prose(text: &str) -> Option<String> {
    if !is_note(text) {
        return None;
    }
    let mut section = Section::Plain;
    let mut out: Vec<String> = Vec::new();
    // "Call notes, 14 Feb - Acme Corp": whom the lines are about
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    let about = lines
        .peek()
        .and_then(|title| super::note_subject::subject_of(title));
    let names = super::note_subject::names_in(text);
    let mut owner: Option<String> = None;
    if let Some((_, met)) = &about {
        lines.next();
        out.push(met.clone());
    }
    while let Some(line) = lines.next() {
        // "Reading list 2025", "To do this week:" over bullets: a heading
        // without its "#"
        let bare_heading = unbulleted(line).is_none()
            && labelled(line).is_none()
            && line.split_whitespace().count() <= 5
            && !line.ends_with(['.', '!', '?'])
            && lines.peek().is_some_and(|n| unbulleted(n).is_some());
        if bare_heading {
            section = section_of(line.trim_end_matches(':'));
            owner = None;
            continue;
        }
        if let Some(h) = line.strip_prefix('#') {
            section = section_of(h.trim_start_matches('#'));
            // "# Medical history - Zoe Clarke": whose the details are
            owner = match section {
                Section::Personal => super::note_subject::owner_of(h),
                _ => None,
            };
            continue;
        }
        let line_start = out.len();
        let item = unbulleted(line).unwrap_or(line);
        // "Name: Ruth Okafor. I'm a designer ...": the label's value ends
        // with its sentence
        let (item, after) = match labelled(item) {
            Some(_) => match sentence_end(item) {
                Some(at) => (&item[..=at], Some(item[at + 2..].trim())),
                None => (item, None),
            },
            None => (item, None),
        };
        let of_subject = about
            .as_ref()
            .and_then(|(subject, _)| super::note_subject::said_of(item, subject, &names));
        match labelled(item).and_then(|(l, v)| label_said(l, v, section)) {
            Some(said) => out.extend(said),
            None if of_subject.is_some() => {
                out.extend(of_subject.into_iter().flatten().map(|s| sentence(&s)))
            }
            None if unbulleted(line).is_some() => out.extend(item_said(item, section)),
            // ("Trip plan - Lisbon, 3-7 June": where the writer is going)
            None => match super::itinerary::trip_title(item) {
                Some(going) => out.push(sentence(&going)),
                None => out.push(sentence(item)),
            },
        }
        if let Some(a) = after.filter(|a| !a.is_empty()) {
            out.push(sentence(a));
        }
        if let Some(o) = &owner {
            for said in &mut out[line_start..] {
                *said = super::note_subject::as_owner(said, o);
            }
        }
    }
    Some(out.join("\n"))
}

#[cfg(test)]
#[path = "notes_tests.rs"]
mod tests;
