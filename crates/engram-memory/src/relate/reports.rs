//! Who someone reports to, or has as their tutor, therapist or coach:
//! "Nadia reports to Gareth now" after "Nadia's new manager is Rita" is a
//! new manager, however either is worded ("X reports to Y", "X's manager
//! is Y", "X's boss is Y", "Y is X's manager"); "Greta's new tutor is
//! Aiko" after "Greta's tutor Kenji is super patient" is a new tutor. One
//! has one of each at a time; a new name for the role is its next
//! version.

use super::slots::{lead_subject, normalise, same_subject};

/// Nouns for the one someone reports to.
const MANAGERS: &[&str] = &["manager", "boss", "supervisor", "line manager", "team lead"];

/// Nouns for the one who supervises someone's studies.
const ACADEMIC: &[&str] = &[
    "thesis supervisor",
    "phd supervisor",
    "dissertation supervisor",
    "thesis advisor",
    "phd advisor",
    "advisor",
];

/// Other people one has one of at a time, each a role of its own.
const ROLES: &[&str] = &[
    "tutor",
    "therapist",
    "coach",
    "trainer",
    "landlord",
    "landlady",
    "mentor",
    "teacher",
    "dentist",
    "vet",
    "accountant",
    "lawyer",
    "agent",
];

/// The role a noun names: a manager by any of its names, a supervisor of
/// studies by any of its, else itself ("supervisor" alone may be either).
fn role(noun: &str) -> &str {
    if noun == "supervisor" {
        "supervisor"
    } else if MANAGERS.contains(&noun) {
        "manager"
    } else if ACADEMIC.contains(&noun) {
        "academic supervisor"
    } else {
        noun
    }
}

/// Whether two roles are the same one: equal, or "supervisor" beside a
/// manager or a supervisor of studies.
fn same_role(a: &str, b: &str) -> bool {
    a == b
        || (a == "supervisor" && matches!(b, "manager" | "academic supervisor"))
        || (b == "supervisor" && matches!(a, "manager" | "academic supervisor"))
}

/// The name a phrase opens with, past a title ("dr. lin is" -> "lin").
fn first_name(s: &str) -> Option<String> {
    let mut words = s.split_whitespace().map(|w| w.trim_end_matches(','));
    let w = words.next()?;
    let w = if crate::offline::lexicon::is_title(w) {
        words.next()?
    } else {
        w
    };
    Some(w.to_string())
}

/// Whose role `fact` names, the role, and who holds it.
fn role_of(fact: &str) -> Option<(String, String, String)> {
    let t = normalise(fact);
    let t = t.trim_end_matches(" now").trim();
    let first = first_name;
    if let Some((who, to)) = t
        .split_once(" reports to ")
        .or_else(|| t.split_once(" report to "))
    {
        return Some((lead_subject(who), "manager".to_string(), first(to)?));
    }
    for m in ACADEMIC.iter().chain(MANAGERS).chain(ROLES) {
        // "nadia's new manager is rita"
        for lead in [format!("'s new {m} is "), format!("'s {m} is ")] {
            if let Some((who, name)) = t.split_once(lead.as_str()) {
                return Some((lead_subject(who), role(m).to_string(), first(name)?));
            }
        }
        // "rita is nadia's manager"
        let tail = format!("'s {m}");
        if let Some((name, whose)) = t
            .strip_suffix(tail.as_str())
            .and_then(|h| h.split_once(" is "))
        {
            return Some((lead_subject(whose), role(m).to_string(), first(name)?));
        }
    }
    // "Greta's tutor Kenji is super patient": the role, then its name
    let raw: Vec<&str> = fact.split_whitespace().collect();
    let at = raw.iter().position(|w| w.ends_with("'s"))?;
    let new = raw.get(at + 1).is_some_and(|w| *w == "new");
    let noun = raw.get(at + 1 + usize::from(new))?;
    let name = raw.get(at + 2 + usize::from(new))?;
    let noun = noun.to_lowercase();
    let named = name.starts_with(char::is_uppercase)
        && name.chars().skip(1).all(|c| c.is_lowercase())
        && !noun.ends_with(',');
    if !named
        || !(MANAGERS.contains(&noun.as_str())
            || ROLES.contains(&noun.as_str())
            || ACADEMIC.contains(&noun.as_str()))
    {
        return None;
    }
    let who = lead_subject(&normalise(&raw[..=at].join(" ")));
    let who = who.strip_suffix("'s").unwrap_or(&who).to_string();
    Some((who, role(&noun).to_string(), name.to_lowercase()))
}

/// Whether `fact` says whom someone reports to ("Nadia reports to
/// Gareth", "Nadia's boss is Rita").
pub fn names_manager(fact: &str) -> bool {
    role_of(fact).is_some_and(|(who, r, _)| !who.is_empty() && same_role(&r, "manager"))
}

/// The role a question asks who holds: "who is Greta's tutor?" ->
/// "tutor", "who's Nadia's boss?" -> "manager".
pub(super) fn role_asked(question: &str) -> Option<String> {
    let q = normalise(question);
    let q = q.trim_end_matches(['?', '.', ' ']);
    let rest = q
        .strip_prefix("who is ")
        .or_else(|| q.strip_prefix("who's "))?;
    let (_, noun) = rest.rsplit_once("'s ")?;
    let noun = noun
        .trim()
        .trim_start_matches("new ")
        .trim_start_matches("current ");
    (MANAGERS.contains(&noun) || ROLES.contains(&noun) || ACADEMIC.contains(&noun))
        .then(|| role(noun).to_string())
}

/// Whether `memory` names who holds `role` for someone.
pub(super) fn names_holder(memory: &str, role: &str) -> bool {
    role_of(memory).is_some_and(|(who, r, _)| !who.is_empty() && same_role(&r, role))
}

/// Whether `new` names someone else in the role the subject of `old` has
/// someone in (a manager, a tutor, ...).
pub(super) fn new_holder(new: &str, old: &str) -> bool {
    match (role_of(new), role_of(old)) {
        (Some((who, r, m)), Some((was, r_old, m_old))) => {
            !who.is_empty() && same_role(&r, &r_old) && same_subject(&who, &was) && m != m_old
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::new_holder;

    #[test]
    fn a_new_holder_however_worded() {
        assert!(new_holder(
            "Nadia reports to Gareth now.",
            "Nadia's new manager is Rita."
        ));
        assert!(new_holder(
            "Gareth is Nadia's manager.",
            "Nadia reports to Rita."
        ));
        assert!(new_holder(
            "Nadia's boss is Gareth.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_holder(
            "Nadia reports to Rita.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_holder(
            "Tom reports to Gareth.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_holder(
            "Nadia reports to Gareth.",
            "Rita left the company."
        ));
        // a tutor, a therapist: one at a time, each a role of its own
        assert!(new_holder(
            "Greta's new tutor is Aiko, Thursdays now.",
            "Greta's tutor Kenji is super patient."
        ));
        assert!(!new_holder(
            "Greta's new tutor is Aiko.",
            "Greta's therapist Kenji is super patient."
        ));
        assert!(!new_holder(
            "Greta's new tutor is Aiko.",
            "Greta's tutor Aiko is super patient."
        ));
        // a supervisor of studies, named past a title
        assert!(new_holder(
            "Dr. Lin is Tariq's supervisor now.",
            "Tariq's thesis supervisor is Prof. Adeyemi."
        ));
        assert!(!new_holder(
            "Tariq's manager is Rita.",
            "Tariq's thesis supervisor is Prof. Adeyemi."
        ));
        assert!(!new_holder(
            "Prof. Adeyemi is Tariq's supervisor now.",
            "Tariq's thesis supervisor is Prof. Adeyemi."
        ));
    }
}
