//! The speaker's own wedding said without "my": once a speaker is engaged
//! (said earlier in the conversation, or a fact of the space's document
//! before: "Kenji's girlfriend Aiko and Kenji just got engaged"), "the
//! wedding" is theirs, "we've set the date" sets the wedding's date and
//! "Venue is in Kyoto" places the wedding. Each is read as said with "my"
//! ("my wedding", "set the wedding date", "my wedding venue is"), so the
//! rest of the extractor names whose it is and dates it.
//!
//! Not when the turn speaks of someone else's wedding ("my sister's
//! wedding", "the wedding of ..."), nor after the engagement was called
//! off. Reads text only.

use crate::{Role, Turn};

/// Words that tell an engagement.
const ENGAGED: &[&str] = &[
    " got engaged",
    " are engaged",
    " is engaged",
    " am engaged",
    " we're engaged",
    " i'm engaged",
    " my fiance",
    " my fiancé",
    " my fiancee",
    " my fiancée",
    " proposed",
];

/// How a speaker tells of their own engagement ("Aiko and I just got
/// engaged", "we're engaged", "my fiancée"): the words before "got
/// engaged" must be the speaker ("my best friend Yusuf just got engaged"
/// is Yusuf's).
fn own_engagement(text: &str) -> bool {
    let t = format!(" {text}");
    let said = [
        "we're engaged",
        "i'm engaged",
        "we are engaged",
        "i am engaged",
        " my fiance",
        " my fiancé",
    ];
    if said.iter().any(|e| t.contains(e)) {
        return true;
    }
    let Some((before, _)) = t.split_once(" got engaged") else {
        return false;
    };
    matches!(
        before
            .split_whitespace()
            .rev()
            .find(|w| !matches!(*w, "just" | "finally" | "officially" | "have")),
        Some("i" | "we" | "i've" | "we've")
    )
}

/// Whether a remembered `fact` tells that `speaker` got engaged: the
/// speaker named as themself, not as someone's owner ("Mateo's best
/// friend Yusuf just got engaged" is Yusuf's).
fn fact_of_engagement(fact: &str, speaker: Option<&str>) -> bool {
    let lower = fact.to_lowercase();
    let named = speaker.is_none_or(|s| {
        let s = s.to_lowercase();
        lower
            .match_indices(&s)
            .any(|(at, _)| !lower[at + s.len()..].starts_with("'s"))
    });
    named && tells_engaged(&lower)
}

/// Words that tell it ended.
const ENDED: &[&str] = &[
    "called off",
    "broke off",
    "broke up",
    "split up",
    "cancelled the wedding",
    "canceled the wedding",
];

/// How the wedding is said without "my", and how it is read.
const OWN: &[(&str, &str)] = &[
    ("set the date", "set the wedding date"),
    ("the venue is", "my wedding venue is"),
    ("venue is", "my wedding venue is"),
    ("the wedding", "my wedding"),
];

/// Whether `text` (lower case) tells that someone is engaged, and not
/// that it ended.
fn tells_engaged(text: &str) -> bool {
    let t = format!(" {text}");
    ENGAGED.iter().any(|e| t.contains(e)) && !ENDED.iter().any(|e| t.contains(e))
}

/// `text` with each wording of [`OWN`] read as its own (matched without
/// regard to case, at word boundaries, the first letter's case kept);
/// `None` when none occurs.
fn owned(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    // (someone else's: "my sister's wedding", "the wedding of ...")
    if lower.contains("'s wedding") || lower.contains("wedding of") {
        return None;
    }
    let mut out = text.to_string();
    let mut any = false;
    for (said, read) in OWN {
        let mut from = 0;
        while let Some(at) = out.to_lowercase()[from..].find(said).map(|i| i + from) {
            let end = at + said.len();
            let before_ok = at == 0 || !out[..at].ends_with(|c: char| c.is_alphanumeric());
            let after_ok = !out[end..].starts_with(|c: char| c.is_alphanumeric());
            // ("my wedding venue is": read once; "set the wedding date" is
            // read as the wedding's date already)
            let head = out[..at].to_lowercase();
            let already = head.ends_with("wedding ") || head.ends_with("set ");
            if !(before_ok && after_ok) || already {
                from = end;
                continue;
            }
            let capital = out[at..].starts_with(char::is_uppercase);
            let mut with = read.to_string();
            if capital {
                with[..1].make_ascii_uppercase();
            }
            out.replace_range(at..end, &with);
            from = at + with.len();
            any = true;
        }
    }
    any.then_some(out)
}

/// The texts of `turns` (as `texts` has them, when given) with the
/// engaged speaker's own wedding read as said with "my"; `None` when no
/// turn changes.
pub(super) fn own_wedding(
    turns: &[Turn],
    texts: Option<&[String]>,
    prior: &[String],
) -> Option<Vec<String>> {
    let text_of = |i: usize| texts.map_or(turns[i].text, |t| t[i].as_str());
    // (most conversations speak of no wedding: no copy of their text then)
    (0..turns.len()).find(|&i| {
        let t = text_of(i).to_lowercase();
        t.contains("wedding") || t.contains("venue") || t.contains("the date")
    })?;
    let speaker = turns.iter().find(|t| t.role == Role::User)?.speaker;
    // (prior facts come newest first: the newest of an engagement or its
    // end decides)
    let ended = |f: &String| ENDED.iter().any(|e| f.to_lowercase().contains(e));
    let mut engaged = prior
        .iter()
        .find(|f| fact_of_engagement(f, speaker) || ended(f))
        .is_some_and(|f| !ended(f));
    let mut out: Vec<String> = (0..turns.len()).map(|i| text_of(i).to_string()).collect();
    let mut any = false;
    for (i, t) in turns.iter().enumerate() {
        if t.role != Role::User || t.speaker != speaker {
            continue;
        }
        let lower = out[i].to_lowercase();
        if ENDED.iter().any(|e| lower.contains(e)) {
            engaged = false;
        }
        if engaged {
            if let Some(text) = owned(&out[i]) {
                out[i] = text;
                any = true;
            }
        }
        engaged |= own_engagement(&lower) && !ENDED.iter().any(|e| lower.contains(e));
    }
    any.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> Turn<'_> {
        Turn {
            role: Role::User,
            speaker: Some("Kenji"),
            listener: None,
            text,
            date: None,
            generic: false,
        }
    }

    #[test]
    fn an_engaged_speakers_wedding_is_their_own() {
        let prior = vec!["Kenji's girlfriend Aiko and Kenji just got engaged.".to_string()];
        let turns = [user(
            "we've set the date: 14 June next year. Venue is in Kyoto.",
        )];
        assert_eq!(
            own_wedding(&turns, None, &prior),
            Some(vec![
                "we've set the wedding date: 14 June next year. My wedding venue is in Kyoto."
                    .to_string()
            ])
        );
        let turns = [user("Also the wedding moved to September 2026.")];
        assert_eq!(
            own_wedding(&turns, None, &prior).unwrap()[0],
            "Also my wedding moved to September 2026."
        );
        // engaged earlier in the same conversation
        let turns = [
            user("Aiko and I got engaged last night!"),
            user("The wedding will be in Kyoto."),
        ];
        assert_eq!(
            own_wedding(&turns, None, &[]).unwrap()[1],
            "My wedding will be in Kyoto."
        );
    }

    #[test]
    fn someone_elses_wedding_or_an_ended_engagement_stays() {
        let prior = vec!["Kenji and Aiko got engaged.".to_string()];
        let turns = [user("My sister's wedding is in May, the venue is lovely.")];
        assert_eq!(own_wedding(&turns, None, &prior), None);
        // never engaged
        let turns = [user("The wedding was beautiful.")];
        assert_eq!(own_wedding(&turns, None, &[]), None);
        // called off since (the space's facts come newest first)
        let ended = vec![
            "Kenji and Aiko called off the engagement.".to_string(),
            "Kenji and Aiko got engaged.".to_string(),
        ];
        assert_eq!(own_wedding(&turns, None, &ended), None);
        // another person's engagement
        let other = vec!["Tom and Mia got engaged.".to_string()];
        assert_eq!(own_wedding(&turns, None, &other), None);
        let friend = vec!["Kenji's best friend Yusuf just got engaged to Hana.".to_string()];
        assert_eq!(own_wedding(&turns, None, &friend), None);
        let turns = [
            user("my best friend Yusuf just got engaged!"),
            user("The wedding is in May."),
        ];
        assert_eq!(own_wedding(&turns, None, &[]), None);
    }
}
