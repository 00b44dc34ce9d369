//! What stays of a fact that lists several when an ending takes one of
//! them away: "Priya lives with their partner Tom and their cat Miso"
//! ended by "Tom and Priya split up" leaves "Priya lives with their cat
//! Miso"; "Tariq has a dog called Max and a cat called Luna" ended by
//! "Max passed away" leaves "Tariq has a cat called Luna".
//!
//! Only a list of two noun phrases joined by "and" (each opened by a
//! determiner or a possessive, or a name), in which exactly one names
//! someone the ending names; a clause after "and" ("Tom cooks and Priya
//! cleans") is no such list.

use super::unpunctuated as bare;
use crate::offline::lexicon::verb;

/// Words that open a noun phrase of a list.
const OPENERS: &[&str] = &[
    "their", "his", "her", "my", "our", "a", "an", "the", "two", "three",
];

/// Names written in `new` (capitalised words past its first).
fn names(new: &str) -> Vec<String> {
    new.split_whitespace()
        .enumerate()
        .map(|(i, w)| (i, bare(w)))
        .filter(|(i, w)| {
            w.starts_with(char::is_uppercase) && (*i > 0 || !w.ends_with("'s")) && *w != "I"
        })
        .map(|(_, w)| w.trim_end_matches("'s").to_string())
        .collect()
}

/// `old` without the one of its two listed noun phrases that names
/// someone `new` names, as a sentence; `None` when `old` lists no such
/// pair or both or neither name them.
pub(super) fn rest_of_list(new: &str, old: &str) -> Option<String> {
    let ended = names(new);
    let words: Vec<&str> = old.split_whitespace().collect();
    let k = words.iter().position(|w| *w == "and")?;
    // the phrase after "and": to the end of the clause, with no verb
    let right_end = (k + 1..words.len())
        .find(|&j| words[j].ends_with([',', ';', '.', '!']))
        .map_or(words.len(), |j| j + 1);
    let right = &words[k + 1..right_end];
    let opens = |w: &str| OPENERS.contains(&bare(w).to_lowercase().as_str());
    if right.is_empty()
        || !(opens(right[0]) || right[0].starts_with(char::is_uppercase))
        || right.iter().any(|w| {
            let w = bare(w).to_lowercase();
            // ("a cat called Luna": a name given, not a verb of the clause)
            !matches!(w.as_str(), "called" | "named") && verb(&w).is_some()
        })
    {
        return None;
    }
    // the phrase before it opens at its determiner or possessive
    let left_start = (k.saturating_sub(4)..k).find(|&j| opens(words[j]))?;
    let left = &words[left_start..k];
    let holds = |part: &[&str]| {
        part.iter()
            .any(|w| ended.iter().any(|n| bare(w).trim_end_matches("'s") == n))
    };
    let (in_left, in_right) = (holds(left), holds(right));
    let kept: Vec<&str> = match (in_left, in_right) {
        (true, false) => words[..left_start]
            .iter()
            .chain(right)
            .chain(&words[right_end..])
            .copied()
            .collect(),
        (false, true) => {
            let mut w: Vec<&str> = words[..k].to_vec();
            w.extend(&words[right_end..]);
            w
        }
        _ => return None,
    };
    let mut out = kept.join(" ");
    let out_end = out.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    out.truncate(out_end);
    out.push('.');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::rest_of_list;

    fn check(new: &str, old: &str, want: Option<&str>) {
        assert_eq!(rest_of_list(new, old).as_deref(), want, "{new} | {old}");
    }

    #[test]
    fn an_ending_takes_its_one_out_of_a_list() {
        check(
            "Tom and Priya split up in February 2025.",
            "Priya lives with their partner Tom and their cat Miso.",
            Some("Priya lives with their cat Miso."),
        );
        check(
            "Max passed away.",
            "Tariq has a dog called Max and a cat called Luna.",
            Some("Tariq has a cat called Luna."),
        );
        check(
            "Priya broke up with Tom.",
            "Priya lives with their cat Miso and their partner Tom.",
            Some("Priya lives with their cat Miso."),
        );
    }

    #[test]
    fn clauses_and_lists_naming_both_or_neither_stay() {
        // a clause after "and"
        check(
            "Tom and Priya split up.",
            "Priya cooks on weekdays and Tom cooks on weekends.",
            None,
        );
        // the ending names neither
        check(
            "Max passed away.",
            "Priya lives with their partner Tom and their cat Miso.",
            None,
        );
        // no list
        check("Tom and Priya split up.", "Priya's partner is Tom.", None);
    }
}
