//! Who someone reports to: "Nadia reports to Gareth now" after "Nadia's
//! new manager is Rita" is a new manager, however either is worded ("X
//! reports to Y", "X's manager is Y", "X's boss is Y", "Y is X's
//! manager").

use super::slots::{lead_subject, normalise, same_subject};

/// Nouns for the one someone reports to.
const MANAGERS: &[&str] = &["manager", "boss", "supervisor", "line manager", "team lead"];

/// Whose manager `fact` names, and who it is.
fn manager_of(fact: &str) -> Option<(String, String)> {
    let t = normalise(fact);
    let t = t.trim_end_matches(" now").trim();
    let first = |s: &str| s.split_whitespace().next().map(str::to_string);
    if let Some((who, to)) = t
        .split_once(" reports to ")
        .or_else(|| t.split_once(" report to "))
    {
        return Some((lead_subject(who), first(to)?));
    }
    for m in MANAGERS {
        // "nadia's new manager is rita"
        for lead in [format!("'s new {m} is "), format!("'s {m} is ")] {
            if let Some((who, name)) = t.split_once(lead.as_str()) {
                return Some((lead_subject(who), first(name)?));
            }
        }
        // "rita is nadia's manager"
        let tail = format!("'s {m}");
        if let Some((name, whose)) = t
            .strip_suffix(tail.as_str())
            .and_then(|h| h.split_once(" is "))
        {
            return Some((lead_subject(whose), first(name)?));
        }
    }
    None
}

/// Whether `fact` says whom someone reports to ("Nadia reports to
/// Gareth", "Nadia's boss is Rita").
pub fn names_manager(fact: &str) -> bool {
    manager_of(fact).is_some_and(|(who, _)| !who.is_empty())
}

/// Whether `new` names someone else as whom the subject of `old` reports
/// to.
pub(super) fn new_manager(new: &str, old: &str) -> bool {
    match (manager_of(new), manager_of(old)) {
        (Some((who, m)), Some((was, m_old))) => {
            !who.is_empty() && same_subject(&who, &was) && m != m_old
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::new_manager;

    #[test]
    fn a_new_manager_however_worded() {
        assert!(new_manager(
            "Nadia reports to Gareth now.",
            "Nadia's new manager is Rita."
        ));
        assert!(new_manager(
            "Gareth is Nadia's manager.",
            "Nadia reports to Rita."
        ));
        assert!(new_manager(
            "Nadia's boss is Gareth.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_manager(
            "Nadia reports to Rita.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_manager(
            "Tom reports to Gareth.",
            "Nadia's manager is Rita."
        ));
        assert!(!new_manager(
            "Nadia reports to Gareth.",
            "Rita left the company."
        ));
    }
}
