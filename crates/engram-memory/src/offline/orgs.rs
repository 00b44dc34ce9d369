//! Organisations brought in by name in apposition ("I've signed a new
//! client, the Tate, doing a poster series for them"): the "them" and
//! "their" later in the sentence are that organisation, as nothing else
//! there could be, and what the speaker goes on doing after it is a fact
//! of its own ("I'm doing a poster series for the Tate"); and a group
//! just joined is the "we" that is called something ("joined a band,
//! we're called The Late Commits": "my band is called ..."). The pronoun
//! module never guesses a thing, so this is said here, by the sentence's
//! shape alone. Reads text only.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};

/// Nouns for an organisation one deals with, which an appositive name may
/// follow ("a new client, the Tate,").
const ORG_NOUNS: &[&str] = &[
    "client",
    "customer",
    "company",
    "firm",
    "agency",
    "publisher",
    "employer",
    "sponsor",
    "supplier",
    "vendor",
    "band",
    "label",
    "startup",
    "charity",
    "gallery",
    "museum",
    "school",
    "studio",
];

/// `sentence` with the pronouns after an organisation named in apposition
/// said as its name, and a gerund going on after the name said as the
/// speaker's own sentence; `None` when the sentence is not of that shape.
pub(super) fn appositive_org(sentence: &str) -> Option<String> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    // "a new client," / "my biggest client,"
    let i = words
        .iter()
        .position(|w| w.ends_with(',') && ORG_NOUNS.contains(&bare(w).as_str()))?;
    let brought_in = words[i.saturating_sub(3)..i]
        .iter()
        .any(|w| matches!(bare(w).as_str(), "a" | "an" | "my" | "our"));
    // the name: "the Tate," / "Penguin Books,"
    let j = i + 1 + words[i + 1..].iter().position(|w| w.ends_with(','))?;
    let name_words = &words[i + 1..=j];
    let named = name_words
        .iter()
        .enumerate()
        .all(|(k, w)| (k == 0 && bare(w) == "the") || w.starts_with(char::is_uppercase))
        && name_words.iter().any(|w| w.starts_with(char::is_uppercase))
        && name_words.len() <= 4;
    let rest = &words[j + 1..];
    if !brought_in || !named || rest.is_empty() {
        return None;
    }
    let name = name_words.join(" ");
    let name = name.trim_end_matches(',');
    let mut pronoun = false;
    let rest: Vec<String> = rest
        .iter()
        .map(|w| {
            let core = w.trim_end_matches([',', '.', '!', '?']);
            let tail = &w[core.len()..];
            match core {
                "them" => {
                    pronoun = true;
                    format!("{name}{tail}")
                }
                "their" => {
                    pronoun = true;
                    format!("{name}'s{tail}")
                }
                _ => w.to_string(),
            }
        })
        .collect();
    if !pronoun {
        return None;
    }
    let head = words[..=j].join(" ");
    let head = head.trim_end_matches(',');
    // "..., doing a poster series for the Tate": what the speaker does
    // (past an opening "and", "also": "and I've signed ...")
    let opening = words
        .iter()
        .map(|w| bare(w))
        .find(|w| !matches!(w.as_str(), "and" | "also" | "so" | "plus" | "oh" | "just"));
    let speaker = match opening.as_deref() {
        Some("i" | "i've" | "i'd") => Some("I'm"),
        Some("we" | "we've" | "we'd") => Some("we're"),
        Some(w) if matches!(verb(w), Some((_, VerbForm::Past))) => Some("I'm"),
        _ => None,
    };
    let gerund = matches!(verb(&bare(&rest[0])), Some((_, VerbForm::Gerund)));
    Some(match speaker {
        Some(be) if gerund => format!("{head}. {be} {}", rest.join(" ")),
        _ => format!("{head}, {}", rest.join(" ")),
    })
}

/// `text` with each of its sentences of that shape rewritten (see
/// [`appositive_org`]); `None` when none is.
pub(super) fn in_text(text: &str) -> Option<String> {
    let mut changed = false;
    let out: String = text
        .split_inclusive(['.', '!', '?'])
        .map(|part| {
            let lead = &part[..part.len() - part.trim_start().len()];
            let body = part.trim_start();
            let end = body.trim_end_matches(['.', '!', '?']);
            match appositive_org(end) {
                Some(s) => {
                    changed = true;
                    format!("{lead}{s}{}", &body[end.len()..])
                }
                None => part.to_string(),
            }
        })
        .collect();
    changed.then_some(out)
}

/// Groups one joins or starts, which "we're called X" then names.
const GROUPS: &[&str] = &[
    "band",
    "team",
    "club",
    "choir",
    "group",
    "crew",
    "podcast",
    "startup",
    "collective",
    "quiz team",
];

/// "joined a band with some coworkers, we're called The Late Commits":
/// the "we" that is called something is the group just joined, "my band
/// is called The Late Commits". `None` unless `text` brings in a group
/// ("a band", "my team") before a "we're called".
pub(super) fn group_named(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let (at, said) = [
        "we're called ",
        "we are called ",
        "we're named ",
        "we call ourselves ",
    ]
    .iter()
    .find_map(|p| lower.find(p).map(|at| (at, p.len())))?;
    let before: Vec<String> = lower[..at].split_whitespace().map(bare).collect();
    let group = before.windows(2).rev().find_map(|p| {
        (matches!(p[0].as_str(), "a" | "an" | "my" | "our" | "new")
            && GROUPS.contains(&p[1].as_str()))
        .then(|| p[1].clone())
    })?;
    // the name: capitalised, as a name is written
    let name = &text[at + said..];
    if !name.starts_with(|c: char| c.is_uppercase() || c == '"' || c == '\'') {
        return None;
    }
    Some(format!("{}my {group} is called {name}", &text[..at]))
}

#[cfg(test)]
mod tests {
    use super::appositive_org;

    #[test]
    fn a_group_joined_is_what_we_are_called() {
        assert_eq!(
            super::group_named(
                "also joined a band with some coworkers, we're called The Late Commits"
            )
            .as_deref(),
            Some("also joined a band with some coworkers, my band is called The Late Commits")
        );
        assert_eq!(
            super::group_named("we're called the Smiths by everyone"),
            None
        );
        assert_eq!(
            super::group_named("I joined a gym, we're called in at 6"),
            None
        );
    }

    #[test]
    fn an_organisation_named_in_apposition_is_what_them_means() {
        for (said, want) in [
            (
                "I've signed a new client, the Tate, doing a poster series for them through summer",
                Some("I've signed a new client, the Tate. I'm doing a poster series for the Tate through summer"),
            ),
            (
                "we joined a new agency, Bright Talent, and their fees are 10%",
                Some("we joined a new agency, Bright Talent, and Bright Talent's fees are 10%"),
            ),
            // no pronoun: nothing to say
            ("I've signed a new client, the Tate, this week", None),
            // no name in apposition
            ("my client, who is lovely, pays them late", None),
        ] {
            assert_eq!(appositive_org(said).as_deref(), want, "{said}");
        }
        assert_eq!(
            super::in_text("Penguin paid. And I signed a new client, the Tate, painting for them!")
                .as_deref(),
            Some("Penguin paid. And I signed a new client, the Tate. I'm painting for the Tate!")
        );
    }
}
