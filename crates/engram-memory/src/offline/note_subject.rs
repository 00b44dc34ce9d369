//! Notes about one organisation or person, named by their title: "Call
//! notes, 14 Feb 2025 - Acme Corp", "Meeting with Acme Corp", "Acme Corp
//! call notes". What the lines after the title leave unsaid is said of
//! that subject: "They want SSO" is "Acme Corp wants SSO", "Budget is
//! around 50k" is "Acme Corp's budget is around 50k", "Decision expected
//! by end of Q2" is "Acme Corp's decision is expected by end of Q2", and
//! "Jane Doe (CTO)" is "Jane Doe is the CTO at Acme Corp". The title
//! itself says the writer met them: "I had a call with Acme Corp on 14
//! Feb 2025". Lines about the writer's own side ("We", "I", "Our") are
//! left as they are. Reads text only.

use super::clauses::bare;
use super::coref::third_person;
use super::lexicon::{verb, VerbForm};

/// Words of a title that say the note is of a meeting with someone.
const MEETINGS: &[&str] = &[
    "call",
    "meeting",
    "sync",
    "catch-up",
    "catchup",
    "demo",
    "visit",
    "check-in",
    "kickoff",
    "kick-off",
    "discovery",
    "notes",
];

/// Words after a bare noun that carry the line's verb with "is" left out
/// ("Decision expected by end of Q2").
const PARTICIPLES: &[&str] = &[
    "expected",
    "planned",
    "scheduled",
    "due",
    "set",
    "delayed",
    "approved",
    "confirmed",
    "pending",
    "blocked",
];

/// The organisation or person a note's title names as whom it is about,
/// with the sentence the title stands for ("I had a call with Acme Corp
/// on 14 Feb 2025"); `None` when the title is of no meeting or names no
/// one.
pub(super) fn subject_of(title: &str) -> Option<(String, String)> {
    let title = title.trim().trim_start_matches('#').trim();
    let lower = title.to_lowercase();
    let words_lower: Vec<String> = lower.split_whitespace().map(bare).collect();
    let kind = MEETINGS
        .iter()
        .find(|m| words_lower.iter().any(|w| w == *m))?;
    let parts = title_parts(title);
    let date = parts.iter().find(|p| is_date(p)).copied();
    let name = parts.iter().find_map(|p| {
        let p = match p.to_lowercase().find(" with ") {
            Some(at) => &p[at + 6..],
            None => p,
        };
        // ("Acme Corp call notes": the name before the words of meeting)
        let words: Vec<&str> = p
            .split_whitespace()
            .take_while(|w| !MEETINGS.contains(&bare(w).as_str()))
            .collect();
        is_name(&words).then(|| words.join(" "))
    })?;
    let had = match *kind {
        "notes" if words_lower.iter().any(|w| w == "meeting") => "meeting",
        "notes" => "call",
        "catchup" | "check-in" | "sync" => "catch-up",
        k => k,
    };
    let a = if had.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    let on = date.map(|d| format!(" on {d}")).unwrap_or_default();
    Some((name.clone(), format!("I had {a} {had} with {name}{on}.")))
}

/// Whether `part` of a title is a day ("14 Feb 2025", "May 2").
fn is_date(part: &str) -> bool {
    let words: Vec<&str> = part.split_whitespace().collect();
    words.len() <= 4
        && words
            .iter()
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        && words.iter().any(|w| {
            let w = bare(w);
            super::dates::names_a_day(&w)
                || super::dates::MONTHS
                    .iter()
                    .any(|m| w.len() >= 3 && m.to_lowercase().starts_with(&w))
        })
}

/// Whether `words` are a name: one to four capitalised words, none of
/// them a day, a number or a word of meeting.
fn is_name(words: &[&str]) -> bool {
    (1..=4).contains(&words.len())
        && words.iter().all(|w| {
            (w.starts_with(char::is_uppercase) || *w == "&")
                && !w.chars().any(|c| c.is_ascii_digit())
                && !super::dates::names_a_day(&bare(w))
        })
        && !matches!(
            bare(words[0]).as_str(),
            "weekly" | "daily" | "monthly" | "team" | "the" | "my" | "our" | "notes" | "call"
        )
}

/// The person a heading of personal details names as whose they are
/// ("Medical history - Zoe Clarke", "Zoe Clarke: health record"); `None`
/// when it names no one.
pub(super) fn owner_of(heading: &str) -> Option<String> {
    title_parts(heading.trim().trim_start_matches('#'))
        .into_iter()
        .find(|p| p.split_whitespace().count() >= 2 && super::is_person_name(p))
        .map(str::to_string)
}

/// A title's parts, at dashes, colons, commas and parentheses ("Call
/// notes, 14 Feb 2025 - Acme Corp": "Call notes", "14 Feb 2025", "Acme
/// Corp").
fn title_parts(title: &str) -> Vec<&str> {
    title
        .split([',', ':', '\u{2013}', '\u{2014}', '(', ')'])
        .flat_map(|p| p.split(" - "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A first-person sentence of a note said of `owner`, whose details they
/// are: "My blood type is O negative" -> "Zoe Clarke's blood type is O
/// negative", "I'm allergic to latex" -> "Zoe Clarke is allergic to
/// latex", "I take levothyroxine" -> "Zoe Clarke takes levothyroxine".
pub(super) fn as_owner(sentence: &str, owner: &str) -> String {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let Some(first) = words.first() else {
        return sentence.to_string();
    };
    let rest = words[1..].join(" ");
    match *first {
        "My" => format!("{owner}'s {rest}"),
        "I'm" => format!("{owner} is {rest}"),
        "I" => match words.get(1) {
            Some(v) => format!(
                "{owner} {} {}",
                third_person(&bare(v)),
                words[2..].join(" ")
            ),
            None => sentence.to_string(),
        },
        _ => sentence.replace("One of my ", &format!("One of {owner}'s ")),
    }
}

/// The words of `note` written with a capital inside a line, which are
/// names ("Jane" in "Spoke with Jane Doe"), so that a line opening with
/// one is not read as opening with a bare noun.
pub(super) fn names_in(note: &str) -> Vec<String> {
    let mut out: Vec<String> = note
        .lines()
        .map(|l| l.trim_start_matches(['-', '*', '+', '\u{2022}', '#', ' ']))
        .flat_map(|l| l.split(". "))
        .flat_map(|l| {
            l.split_whitespace()
                .skip(1)
                .filter(|w| super::intro::is_name_word(w))
                .map(bare)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A line of a note about `subject` with what it leaves unsaid said of
/// it, and the roles it gives people ("Jane Doe (CTO)") as sentences of
/// their own; `None` when the line says nothing of the subject. `names`
/// are the note's names ([`names_in`]).
pub(super) fn said_of(line: &str, subject: &str, names: &[String]) -> Option<Vec<String>> {
    let (line, roles) = roles_in(line, subject);
    let parts: Vec<String> = line
        .split(", ")
        .map(|p| part_said_of(p, subject, names))
        .collect();
    let said = parts.join(", ");
    if said == line && roles.is_empty() {
        return None;
    }
    Some(std::iter::once(said).chain(roles).collect())
}

/// One comma-separated part of a line said of `subject`.
fn part_said_of(part: &str, subject: &str, names: &[String]) -> String {
    let words: Vec<&str> = part.split_whitespace().collect();
    let Some(first) = words.first() else {
        return part.to_string();
    };
    let rest = &words[1..];
    match bare(first).as_str() {
        // "They want SSO", "they're moving to Okta", "Their team is 40"
        "they" if !rest.is_empty() => {
            let v = third_person(&bare(rest[0]));
            return format!("{subject} {v} {}", rest[1..].join(" "));
        }
        "they're" => return format!("{subject} is {}", rest.join(" ")),
        "they've" => return format!("{subject} has {}", rest.join(" ")),
        "they'll" => return format!("{subject} will {}", rest.join(" ")),
        "their" if !rest.is_empty() => return format!("{subject}'s {}", rest.join(" ")),
        _ => {}
    }
    // "Budget is around 50k", "Current vendor is Zendesk", "contract ends
    // in August", "Decision expected by end of Q2": a bare noun of theirs
    let v = (1..words.len().min(3)).find(|&i| {
        let b = bare(words[i]);
        matches!(b.as_str(), "is" | "are" | "was" | "were")
            || PARTICIPLES.contains(&b.as_str())
            || matches!(
                b.as_str(),
                "ends" | "starts" | "expires" | "renews" | "runs" | "begins"
            )
    });
    let Some(v) = v else {
        return part.to_string();
    };
    let noun = &words[..v];
    let plain = noun.iter().enumerate().all(|(i, w)| {
        let b = bare(w);
        let case_ok = if i == 0 {
            w.chars().skip(1).all(|c| c.is_lowercase() || c == '-')
        } else {
            w.chars().all(|c| c.is_lowercase() || c == '-')
        };
        case_ok
            && !matches!(
                b.as_str(),
                "we" | "i"
                    | "it"
                    | "this"
                    | "that"
                    | "there"
                    | "the"
                    | "a"
                    | "an"
                    | "our"
                    | "my"
                    | "he"
                    | "she"
                    | "everyone"
                    | "nobody"
                    | "someone"
            )
            && verb(&b).is_none_or(|(_, f)| f == VerbForm::Base)
            && !names.contains(&b)
    });
    if !plain {
        return part.to_string();
    }
    let thing = super::notes::lower_first(&noun.join(" "));
    let is = if PARTICIPLES.contains(&bare(words[v]).as_str()) {
        if thing.ends_with('s') && !thing.ends_with("ss") {
            "are "
        } else {
            "is "
        }
    } else {
        ""
    };
    format!("{subject}'s {thing} {is}{}", words[v..].join(" "))
}

/// `line` with each "Name (role)" said as the name alone, and what the
/// roles say ("Jane Doe is the CTO at Acme Corp").
fn roles_in(line: &str, subject: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut said = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find(" (") {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        let before = &rest[..open];
        let role = rest[open + 2..close].trim();
        let name: Vec<&str> = before
            .split_whitespace()
            .rev()
            .take_while(|w| super::intro::is_name_word(w) && !w.ends_with(','))
            .collect();
        let role_words: Vec<&str> = role.split_whitespace().collect();
        let is_role = !name.is_empty()
            && name.len() <= 3
            && (1..=5).contains(&role_words.len())
            && !role_words.iter().any(|w| super::clauses::is_verbish(w));
        out.push_str(before);
        if is_role {
            let name: Vec<&str> = name.into_iter().rev().collect();
            let the = if matches!(bare(role_words[0]).as_str(), "a" | "an" | "the") {
                ""
            } else {
                "the "
            };
            said.push(format!("{} is {the}{role} at {subject}.", name.join(" ")));
        } else {
            out.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    (out, said)
}

#[cfg(test)]
mod tests {
    use super::{names_in, said_of, subject_of};

    #[test]
    fn a_title_names_whom_the_note_is_about() {
        for (title, want) in [
            (
                "Call notes, 14 Feb 2025 - Acme Corp",
                Some(("Acme Corp", "I had a call with Acme Corp on 14 Feb 2025.")),
            ),
            (
                "# Meeting with Globex (March 3)",
                Some(("Globex", "I had a meeting with Globex on March 3.")),
            ),
            (
                "Initech call notes",
                Some(("Initech", "I had a call with Initech.")),
            ),
            ("# Weekly sync, 2 May", None),
            ("Call notes", None),
            ("Shopping list", None),
        ] {
            let got = subject_of(title);
            let got = got.as_ref().map(|(s, t)| (s.as_str(), t.as_str()));
            assert_eq!(got, want, "{title}");
        }
    }

    #[test]
    fn lines_say_what_they_leave_out_of_the_subject() {
        for (line, want) in [
            (
                "They want SSO with Okta before rollout",
                vec!["Acme Corp wants SSO with Okta before rollout"],
            ),
            (
                "Budget is around 50k for the first year",
                vec!["Acme Corp's budget is around 50k for the first year"],
            ),
            (
                "Decision expected by end of Q2",
                vec!["Acme Corp's decision is expected by end of Q2"],
            ),
            (
                "Current vendor is Zendesk, contract ends in August",
                vec!["Acme Corp's current vendor is Zendesk, Acme Corp's contract ends in August"],
            ),
            (
                "Spoke with Jane Doe (CTO) and Raj Patel (Head of IT).",
                vec![
                    "Spoke with Jane Doe and Raj Patel.",
                    "Jane Doe is the CTO at Acme Corp.",
                    "Raj Patel is the Head of IT at Acme Corp.",
                ],
            ),
            ("We need to send pricing", vec![]),
            ("Great call overall", vec![]),
            ("Jane is happy with the demo", vec![]),
        ] {
            let names = names_in("Spoke with Jane Doe.\n- Jane is happy\n- Budget is 5k");
            let got = said_of(line, "Acme Corp", &names).unwrap_or_default();
            assert_eq!(got, want, "{line}");
        }
    }
}
