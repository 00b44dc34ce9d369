//! A health reading said without whose: "my dad had his check-up today
//! ... blood pressure was high" is his blood pressure; "had my bloods
//! done, cholesterol is a bit high" is the speaker's. A clause that opens
//! with a reading ("blood pressure", "cholesterol", "the scan") and says
//! how it was is of whom the speaker's last fact was about, when that was
//! the speaker or one of their people, else of the speaker. Reads text
//! only.

use super::clauses::bare;

/// Readings a check-up gives, as they open a clause.
const READINGS: &[&str] = &[
    "blood pressure",
    "cholesterol",
    "blood sugar",
    "heart rate",
    "iron levels",
    "iron",
    "vitamin d",
    "thyroid levels",
    "bloods",
    "blood work",
    "bloodwork",
    "blood test",
    "test results",
    "results",
    "scan",
    "x-ray",
    "mri",
    "biopsy",
];

/// Verbs that say how a reading was.
const HOW: &[&str] = &[
    "is", "was", "were", "are", "came", "come", "looked", "looks", "showed",
];

/// `clause` with its reading made `owner`'s ("Rosa's dad's blood
/// pressure was high"), when it opens with one; `None` otherwise.
pub(super) fn owned(clause: &str, owner: &str) -> Option<String> {
    let lower = clause.to_lowercase();
    let rest = lower.strip_prefix("the ").unwrap_or(&lower);
    let skipped = lower.len() - rest.len();
    let reading = READINGS.iter().find(|r| {
        rest.starts_with(*r)
            && rest[r.len()..]
                .split_whitespace()
                .next()
                .is_some_and(|v| HOW.contains(&bare(v).as_str()))
    })?;
    let said = &clause[skipped..skipped + reading.len()];
    let after = &clause[skipped + reading.len()..];
    Some(format!("{owner}'s {}{after}", said.to_lowercase()))
}

/// Whose a reading is: one of the speaker's people when the speaker's
/// last fact opens with them ("Rosa's dad had his check-up"), else the
/// speaker.
pub(super) fn owner(last_fact: Option<&str>, speaker: &str) -> String {
    let theirs = last_fact
        .and_then(|f| f.strip_prefix(&format!("{speaker}'s ")))
        .and_then(|rest| rest.split_whitespace().next())
        .map(bare)
        .filter(|noun| {
            super::lexicon::PERSON_NOUNS
                .iter()
                .any(|(p, plural)| p == noun && !plural)
        });
    match theirs {
        Some(noun) => format!("{speaker}'s {noun}"),
        None => speaker.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{owned, owner};

    #[test]
    fn a_reading_is_of_whom_the_talk_was() {
        let dad = owner(Some("Rosa's dad had his check-up."), "Rosa");
        assert_eq!(
            owned("blood pressure was high", &dad).as_deref(),
            Some("Rosa's dad's blood pressure was high")
        );
        let own = owner(Some("Sam had a scan."), "Rosa");
        assert_eq!(
            owned("The scan came back clear", &own).as_deref(),
            Some("Rosa's scan came back clear")
        );
        assert_eq!(
            owned("cholesterol is a bit high", "Rosa").as_deref(),
            Some("Rosa's cholesterol is a bit high")
        );
        // not a reading, or not how it was
        assert_eq!(owned("the results of the vote", "Rosa"), None);
        assert_eq!(owned("scanning the documents was slow", "Rosa"), None);
        assert_eq!(owned("my blood pressure was high", "Rosa"), None);
    }
}
