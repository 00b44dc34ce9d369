//! Chat typed without capitals or apostrophes ("im moving to berlin next
//! month, i cant wait") spelled as the rest of the extractor reads it:
//! "I'm", "I", "can't", and month and weekday names capitalised ("in
//! june" → "in June"). Only words that cannot mean anything else are
//! changed: "ill", "id", "its", "were" and "well" stay as they are, and so
//! do "may" and "march" unless a word of time comes before them. Chat
//! verbs the lexicon lacks ("upped") are said as it knows them
//! ("increased"). Reads text only.

use super::clauses::bare;

/// Faces typed with punctuation, which end what was said before them.
const EMOTICONS: &[&str] = &[
    ":)", ":-)", ":(", ":-(", ":D", ":-D", ";)", ";-)", ":P", ":p", ":/", "<3", "xD", "XD", ":')",
];

/// `text` with each emoticon ("official now :) 3 months today") taken out
/// and its place a sentence's end: "official now. 3 months today";
/// `None` when it has none.
pub(super) fn emoticons_as_stops(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if !words.iter().any(|w| EMOTICONS.contains(w)) {
        return None;
    }
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        if !EMOTICONS.contains(&w) {
            out.push(w.to_string());
            continue;
        }
        if let Some(last) = out.last_mut() {
            if !last.ends_with(['.', '!', '?', ',', ';', ':']) {
                last.push('.');
            }
        }
    }
    Some(out.join(" "))
}

/// Contractions typed without their apostrophe, that are no other word.
const CONTRACTIONS: &[(&str, &str)] = &[
    ("im", "I'm"),
    ("ive", "I've"),
    ("dont", "don't"),
    ("cant", "can't"),
    ("wont", "won't"),
    ("didnt", "didn't"),
    ("doesnt", "doesn't"),
    ("isnt", "isn't"),
    ("wasnt", "wasn't"),
    ("arent", "aren't"),
    ("werent", "weren't"),
    ("havent", "haven't"),
    ("hasnt", "hasn't"),
    ("hadnt", "hadn't"),
    ("couldnt", "couldn't"),
    ("shouldnt", "shouldn't"),
    ("wouldnt", "wouldn't"),
    ("youre", "you're"),
    ("theyre", "they're"),
    ("thats", "that's"),
    ("whats", "what's"),
    ("theres", "there's"),
    ("shes", "she's"),
    ("hes", "he's"),
    ("theyve", "they've"),
    ("youve", "you've"),
    ("weve", "we've"),
    ("itll", "it'll"),
    ("thatll", "that'll"),
];

/// Words of time before which "may" and "march" are months.
const BEFORE_A_MONTH: &[&str] = &[
    "in", "next", "last", "this", "since", "until", "by", "early", "late", "mid", "of", "from",
];

/// Whether `w` (lower case) is a month or weekday name that is no other
/// word ("june", "friday"; not "may", "march").
fn calendar(w: &str) -> bool {
    let month = super::dates::MONTHS
        .iter()
        .any(|m| m.to_lowercase() == w && !matches!(w, "may" | "march"));
    // (whole names: "sat" and "wed" are words)
    let weekday = w.ends_with("day") && w.parse::<chrono::Weekday>().is_ok();
    month || weekday
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The speakers of `turns` who type without capitals and apostrophes in
/// one of their messages at least.
pub(super) fn casual_speakers<'a>(turns: &[crate::Turn<'a>]) -> Vec<Option<&'a str>> {
    turns
        .iter()
        .filter(|t| t.role == crate::Role::User && is_casual(t.text))
        .map(|t| t.speaker)
        .collect()
}

/// Whether `text` was typed without capitals and apostrophes: a lowercase
/// "i" or "im" stands alone in it.
pub(super) fn is_casual(text: &str) -> bool {
    text.split(' ').any(|w| {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        core == "i" || core == "im"
    })
}

/// Verbs of chat said as the lexicon knows them: (as typed, as read).
const SLANG_VERBS: &[(&str, &str)] = &[
    ("upped", "increased"),
    ("bumped up", "increased"),
    ("dropped down", "decreased"),
];

/// `text` with a chat verb ("the doctor upped my sertraline to 100mg")
/// said as the lexicon knows it ("increased"); `None` when it has none.
pub(super) fn plain_verbs(text: &str) -> Option<String> {
    let out = SLANG_VERBS
        .iter()
        .fold(text.to_string(), |t, (said, read)| {
            super::corrected::replace_word(&t, said, read)
        });
    (out != text).then_some(out)
}

/// `text` spelled as typed with capitals and apostrophes, when it was
/// typed without them ([`is_casual`], or `casual`: its speaker types so
/// elsewhere in the conversation); `None` when it was not, or nothing
/// changed.
pub(super) fn spelled(text: &str, casual: bool) -> Option<String> {
    let words: Vec<&str> = text.split(' ').collect();
    if !(casual || is_casual(text)) {
        return None;
    }
    let mut changed = false;
    let out: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let start = w.len() - w.trim_start_matches(|c: char| !c.is_alphanumeric()).len();
            let end = w.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
            if start >= end {
                return w.to_string();
            }
            let (lead, core, tail) = (&w[..start], &w[start..end], &w[end..]);
            let before = i.checked_sub(1).map(|j| bare(words[j]));
            let said = if core == "i" {
                Some("I".to_string())
            } else if let Some((_, c)) = CONTRACTIONS.iter().find(|(t, _)| *t == core) {
                Some(c.to_string())
            } else if calendar(core)
                || (matches!(core, "may" | "march")
                    && before.is_some_and(|b| BEFORE_A_MONTH.contains(&b.as_str())))
            {
                Some(capitalised(core))
            } else {
                None
            };
            match said {
                Some(s) => {
                    changed = true;
                    format!("{lead}{s}{tail}")
                }
                None => w.to_string(),
            }
        })
        .collect();
    changed.then(|| out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{plain_verbs, spelled};

    #[test]
    fn chat_verbs_are_said_as_known() {
        assert_eq!(
            plain_verbs("doctor upped my sertraline to 100mg").as_deref(),
            Some("doctor increased my sertraline to 100mg")
        );
        assert_eq!(plain_verbs("the cupped hands"), None);
    }

    #[test]
    fn chat_typed_without_capitals_or_apostrophes() {
        for (typed, want) in [
            (
                "im moving to berlin next month for a new job, i cant wait",
                Some("I'm moving to berlin next month for a new job, I can't wait"),
            ),
            (
                "my sister is gonna visit in june and i might go home in may",
                Some("my sister is gonna visit in June and I might go home in May"),
            ),
            (
                "i see the dentist on friday, not today",
                Some("I see the dentist on Friday, not today"),
            ),
            // words that may be meant as they are
            (
                "i may be ill, well its fine",
                Some("I may be ill, well its fine"),
            ),
            // typed with capitals: left alone
            ("I'm moving in june.", None),
        ] {
            assert_eq!(spelled(typed, false).as_deref(), want, "{typed}");
        }
        // a speaker who types so elsewhere
        assert_eq!(
            spelled("my sister is visiting in june", true).as_deref(),
            Some("my sister is visiting in June")
        );
        assert_eq!(
            spelled("my teacher is called Nadia, shes amazing", true).as_deref(),
            Some("my teacher is called Nadia, she's amazing")
        );
    }
}
