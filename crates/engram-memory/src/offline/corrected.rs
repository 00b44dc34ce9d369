//! A speaker correcting what they just said: "I'm flying to Lisbon on the
//! 14th" then "sorry, I meant Porto, not Lisbon". The earlier turn is read
//! as corrected ("I'm flying to Porto on the 14th") and the correction
//! itself states nothing more, so the wrong word is never remembered.
//!
//! A day said again after a lead ("actually sorry, it's Tuesday the
//! 11th") replaces the day the speaker said before ("Monday the 10th").
//!
//! Only within one conversation, only a correction that names both the
//! new word and the one it replaces (one to three words each), and only
//! when the replaced one was said, as a whole word, in an earlier turn of
//! the same speaker. Reads text only.

use crate::Turn;

/// Openings a correction may have before "I meant".
const LEADS: &[&str] = &[
    "sorry",
    "oops",
    "actually",
    "correction",
    "wait",
    "no",
    "ah",
    "my bad",
    "sorry,",
];

/// The texts of `turns` with every correction applied to the turns before
/// it and the correcting sentence taken out; `None` when no turn corrects
/// another.
pub(super) fn corrected(turns: &[Turn]) -> Option<Vec<String>> {
    // (most conversations correct nothing: no copy of their text then)
    turns
        .iter()
        .find(|t| correction(t.text).is_some() || day_correction(t.text).is_some())?;
    let mut texts: Vec<String> = turns.iter().map(|t| t.text.to_string()).collect();
    let mut any = false;
    for (ti, t) in turns.iter().enumerate() {
        let found = correction(t.text).or_else(|| {
            // "actually sorry, it's Tuesday the 11th": the day said before
            let (start, end, new) = day_correction(t.text)?;
            let old = (0..ti)
                .rev()
                .filter(|&k| turns[k].speaker == t.speaker)
                .find_map(|k| day_said(&texts[k]))?;
            Some((start, end, new, old))
        });
        let Some((start, end, new, old)) = found else {
            continue;
        };
        let earlier = (0..ti)
            .rev()
            .find(|&k| turns[k].speaker == t.speaker && find_word(&texts[k], &old).is_some());
        let Some(k) = earlier else { continue };
        texts[k] = replace_word(&texts[k], &old, &new);
        let rest = format!(
            "{} {}",
            t.text[..start].trim_end(),
            t.text[end..].trim_start()
        );
        texts[ti] = rest.trim().to_string();
        any = true;
    }
    any.then_some(texts)
}

/// The correction in `text`: where its sentence starts and ends, the new
/// word and the one it replaces. "sorry, I meant Porto, not Lisbon" ->
/// (0, 31, "Porto", "Lisbon").
fn correction(text: &str) -> Option<(usize, usize, String, String)> {
    let lower = text.to_lowercase();
    let at = lower.find("i meant ")?;
    // what comes before "I meant" is a lead ("sorry, ") or a sentence end
    let before = lower[..at].trim().trim_end_matches([',', '-', ':']).trim();
    let start = if before.is_empty() || LEADS.contains(&before) {
        0
    } else if before.ends_with(['.', '!', '?']) {
        at
    } else {
        return None;
    };
    let after = &text[at + "i meant ".len()..];
    let end_rel = after.find(['.', '!', '?', ';']).unwrap_or(after.len());
    let body = &after[..end_rel];
    let (new, old) = body.split_once(" not ")?;
    let new = new.trim().trim_end_matches(',').trim();
    let old = old.trim().trim_end_matches(',').trim();
    let short = |s: &str| (1..=3).contains(&s.split_whitespace().count());
    if !short(new) || !short(old) || new.eq_ignore_ascii_case(old) {
        return None;
    }
    let mut end = at + "i meant ".len() + end_rel;
    // the sentence's own end mark goes with it
    if text[end..].starts_with(['.', '!', '?', ';']) {
        end += 1;
    }
    Some((start, end, new.to_string(), old.to_string()))
}

/// A day said again as a correction: "actually sorry, it's Tuesday the
/// 11th, I got mixed up" -> (start, end, "Tuesday the 11th"); the whole
/// sentence goes, with an admission of the slip after it.
fn day_correction(text: &str) -> Option<(usize, usize, String)> {
    let lower = text.to_lowercase().replace('\u{2019}', "'");
    let at = lower.find("it's ").or_else(|| lower.find("it is "))?;
    let lead = lower[..at].trim().trim_end_matches([',', '-', ':']).trim();
    let leads = lead
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .all(|w| LEADS.contains(&w) || matches!(w, "oh" | "ah" | "oops"));
    if lead.is_empty() || !leads {
        return None;
    }
    let from = at
        + if lower[at..].starts_with("it's ") {
            5
        } else {
            6
        };
    let new = day_said(&text[from..])?;
    if !text[from..].starts_with(&new) {
        return None;
    }
    // (an admission of the slip after it goes too: "I got mixed up")
    let mut end = text.len();
    if let Some(stop) = text[from..].find(['.', '!', '?']) {
        end = from + stop + 1;
    }
    Some((0, end, new))
}

/// The first weekday said with its date in `text` ("Monday the 10th",
/// "Tuesday 11th").
fn day_said(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (0..words.len()).find_map(|i| {
        let day = words[i].trim_end_matches([',', '.', '!']);
        if day.len() < 6 || super::dates::weekday(&day.to_lowercase()).is_none() {
            return None;
        }
        let the = words.get(i + 1).is_some_and(|w| *w == "the");
        let n = words.get(i + 1 + usize::from(the))?;
        let n = n.trim_end_matches([',', '.', '!']);
        let ordinal = n.len() >= 3
            && n[..n.len() - 2].chars().all(|c| c.is_ascii_digit())
            && matches!(&n[n.len() - 2..], "st" | "nd" | "rd" | "th");
        ordinal.then(|| {
            words[i..=i + 1 + usize::from(the)]
                .join(" ")
                .trim_end_matches([',', '.', '!'])
                .to_string()
        })
    })
}

/// Where `word` (one to three words) occurs in `text` as whole words, in
/// any case.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    let w = word.to_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(&w) {
        let at = from + i;
        let end = at + w.len();
        let before_ok = lower[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = lower[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok && text.is_char_boundary(at) && text.is_char_boundary(end) {
            return Some(at);
        }
        from = end;
    }
    None
}

/// `text` with each whole-word `old` replaced by `new`.
pub(super) fn replace_word(text: &str, old: &str, new: &str) -> String {
    let mut out = text.to_string();
    while let Some(at) = find_word(&out, old) {
        out.replace_range(at..at + old.len(), new);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Role;

    fn turn<'a>(speaker: &'a str, text: &'a str) -> Turn<'a> {
        Turn {
            role: if speaker == "assistant" {
                Role::Assistant
            } else {
                Role::User
            },
            speaker: Some(speaker),
            listener: None,
            text,
            date: None,
            generic: false,
        }
    }

    fn check(turns: &[(&str, &str)], expect: Option<&[&str]>) {
        let turns: Vec<Turn> = turns.iter().map(|(s, t)| turn(s, t)).collect();
        let got = corrected(&turns);
        let want = expect.map(|e| e.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(got, want, "{turns:?}");
    }

    #[test]
    fn a_correction_rewrites_what_it_corrects() {
        check(
            &[
                ("Rui", "I'm flying to Lisbon on the 14th"),
                ("assistant", "Enjoy Lisbon!"),
                ("Rui", "sorry, I meant Porto, not Lisbon"),
            ],
            Some(&["I'm flying to Porto on the 14th", "Enjoy Lisbon!", ""]),
        );
        check(
            &[
                ("Ana", "my sister is called Bea"),
                (
                    "Ana",
                    "Thanks! I meant Beatriz not Bea. She lives in Braga.",
                ),
            ],
            Some(&["my sister is called Beatriz", "Thanks! She lives in Braga."]),
        );
        // nothing to correct, or someone else's words
        check(&[("Rui", "sorry, I meant Porto, not Lisbon")], None);
        check(
            &[
                ("Ana", "we went to Lisbon"),
                ("Rui", "I meant Porto, not Lisbon"),
            ],
            None,
        );
        check(&[("Rui", "I meant what I said")], None);
        // a day said again
        check(
            &[
                ("Dev", "the dentist appointment is on Monday the 10th"),
                ("assistant", "Noted!"),
                (
                    "Dev",
                    "actually sorry, it's Tuesday the 11th, I got mixed up",
                ),
            ],
            Some(&[
                "the dentist appointment is on Tuesday the 11th",
                "Noted!",
                "",
            ]),
        );
        check(
            &[
                ("Dev", "the party is on Friday the 3rd"),
                ("Dev", "it's Saturday the 4th, actually"),
            ],
            None,
        );
        // "Lisbonite" is not "Lisbon"
        check(
            &[
                ("Rui", "my friend is a Lisbonite"),
                ("Rui", "I meant Porto, not Lisbon"),
            ],
            None,
        );
    }
}
