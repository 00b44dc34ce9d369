//! A health reading said without whose: "my dad had his check-up today
//! ... blood pressure was high" is his blood pressure; "had my bloods
//! done, cholesterol is a bit high" is the speaker's. A clause that opens
//! with a reading ("blood pressure", "cholesterol", "the scan") and says
//! how it was is of whom the speaker's last fact was about, when that was
//! the speaker or one of their people, else of the speaker. So is what a
//! clinician says "it" is ("physio says it's a slipped disc": the
//! speaker has one). Reads text only.

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

/// `clause` with its reading or its diagnosis made whose the talk was of
/// (see [`owned`] and [`diagnosis`]), given the facts `said` before it in
/// order; `None` when it has neither.
pub(super) fn said_of<'a>(
    clause: &str,
    speaker: &str,
    said: impl DoubleEndedIterator<Item = &'a str> + Clone,
) -> Option<String> {
    let owner = owner(said.clone().next_back(), speaker);
    owned(clause, &owner).or_else(|| diagnosis(clause, &owner, speaker, said))
}

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

/// Who tells what a complaint is.
const CLINICIANS: &[&str] = &[
    "physio",
    "physiotherapist",
    "doctor",
    "doc",
    "gp",
    "dentist",
    "specialist",
    "consultant",
    "surgeon",
    "nurse",
    "osteopath",
    "chiropractor",
    "dermatologist",
    "optician",
];

/// Conditions named without an article ("doctor says it's tendonitis").
const CONDITIONS: &[&str] = &[
    "flu",
    "covid",
    "shingles",
    "pneumonia",
    "asthma",
    "sciatica",
    "gout",
    "arthritis",
    "eczema",
    "psoriasis",
    "anaemia",
    "anemia",
];

/// `clause` said as what it reports of `owner`, when a clinician says what
/// "it" is ("physio says it's a slipped disc" -> "Rosa's physio says Rosa
/// has a slipped disc"): the complaint the talk was about is `owner`'s,
/// in the part of the body one of the three facts said `before` it
/// names. The clinician is `speaker`'s when the complaint is. `None` for
/// anything else, and for a judgement ("doctor says it's fine").
pub(super) fn diagnosis<'a>(
    clause: &str,
    owner: &str,
    speaker: &str,
    before: impl DoubleEndedIterator<Item = &'a str>,
) -> Option<String> {
    let w: Vec<&str> = clause.split_whitespace().collect();
    let lead = usize::from(
        w.first()
            .is_some_and(|d| matches!(bare(d).as_str(), "my" | "the")),
    );
    let who = bare(w.get(lead)?);
    if !CLINICIANS.contains(&who.as_str()) {
        return None;
    }
    let said = bare(w.get(lead + 1)?);
    if !matches!(
        said.as_str(),
        "says" | "said" | "thinks" | "thought" | "reckons" | "confirmed"
    ) {
        return None;
    }
    let (has, rest) = match bare(w.get(lead + 2)?).as_str() {
        "it's" => ("has", lead + 3),
        "it" if w.get(lead + 3).is_some_and(|b| bare(b) == "is") => ("has", lead + 4),
        "it" if w.get(lead + 3).is_some_and(|b| bare(b) == "was") => ("had", lead + 4),
        _ => return None,
    };
    let named = w.get(rest..)?;
    let hedge = usize::from(
        named
            .first()
            .is_some_and(|h| matches!(bare(h).as_str(), "just" | "probably" | "likely")),
    );
    let head = bare(named.get(hedge)?);
    // ("patellar tendinitis": the condition after a word that says where)
    let condition = matches!(head.as_str(), "a" | "an") && named.len() > hedge + 1
        || named.iter().skip(hedge).take(2).any(|c| {
            let c = bare(c);
            CONDITIONS.contains(&c.as_str()) || super::lexicon::condition_by_ending(&c)
        });
    if !condition {
        return None;
    }
    // (as written: "GP")
    let who = w[lead].trim_matches(|c: char| !c.is_alphanumeric());
    let by = if owner == speaker {
        format!("{speaker}'s {who}")
    } else {
        format!("the {who}")
    };
    // (in the part of the body the talk was of: "Rosa's back has been
    // hurting" - "... a slipped disc in Rosa's back")
    let named = named.join(" ");
    // (the part goes with the complaint, before what is said after it:
    // "a pulled muscle in Marta's back, no climbing for 3 weeks")
    let body = named
        .split_once(", ")
        .map_or(named.trim_end_matches(['.', '!']), |(c, _)| c);
    let part = before
        .rev()
        .take(3)
        .find_map(|fact| sore_part(fact, owner))
        .filter(|p| !body.contains(p.as_str()))
        .map(|p| format!(" in {owner}'s {p}"))
        .unwrap_or_default();
    Some(format!(
        "{by} {said} {owner} {has} {body}{part}{}",
        &named[body.len()..]
    ))
}

/// The part of the body `fact` says of `owner` ("Rosa's left knee is
/// sore" -> "left knee").
fn sore_part(fact: &str, owner: &str) -> Option<String> {
    let rest = fact.strip_prefix(&format!("{owner}'s "))?;
    let w: Vec<&str> = rest.split_whitespace().collect();
    let side = usize::from(w.first().is_some_and(|s| matches!(*s, "left" | "right")));
    let part = bare(w.get(side)?);
    super::lexicon::body_part(&part).then(|| w[..=side].join(" ").to_lowercase())
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
    use super::{diagnosis, owned, owner};

    #[test]
    fn a_clinician_says_what_the_complaint_is() {
        let check = |clause: &str, owner: &str, want: Option<&str>| {
            let got = diagnosis(clause, owner, "Rosa", std::iter::empty());
            assert_eq!(got.as_deref(), want, "{clause}");
        };
        check(
            "physio says it's a slipped disc",
            "Rosa",
            Some("Rosa's physio says Rosa has a slipped disc"),
        );
        check(
            "the doctor said it was just a sprain",
            "Rosa's dad",
            Some("the doctor said Rosa's dad had just a sprain"),
        );
        check(
            "GP thinks it's tendonitis.",
            "Rosa",
            Some("Rosa's GP thinks Rosa has tendonitis."),
        );
        check("doctor says it's fine", "Rosa", None);
        // (a word that says where, then the condition)
        check(
            "physio thinks it's patellar tendinitis, 6 weeks no running",
            "Omar",
            Some("the physio thinks Omar has patellar tendinitis, 6 weeks no running"),
        );
        check("doctor says it's nothing serious", "Rosa", None);
        // in the part of the body the talk was of
        assert_eq!(
            diagnosis(
                "physio says it's a slipped disc.",
                "Rosa",
                "Rosa",
                ["Rosa's back has been hurting.", "Rosa saw a physio."].into_iter()
            )
            .as_deref(),
            Some("Rosa's physio says Rosa has a slipped disc in Rosa's back.")
        );
        assert_eq!(
            diagnosis(
                "physio says it's a pulled muscle, no climbing for 3 weeks",
                "Rosa",
                "Rosa",
                ["Rosa's back has been hurting."].into_iter()
            )
            .as_deref(),
            Some("Rosa's physio says Rosa has a pulled muscle in Rosa's back, no climbing for 3 weeks")
        );
        check("my friend says it's a slipped disc", "Rosa", None);
        check("the doctor says I need rest", "Rosa", None);
    }

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
