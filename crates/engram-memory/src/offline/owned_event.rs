//! An event of one's own told with "the" or no determiner ("the final
//! went ok", "interview went well", "physio's done"): said with "my", so
//! the fact says whose it is. For [`super::owners`]; reads text only.

use super::clauses::bare;
use super::owners::my_as;

/// A clause that opens with "the" and such an event told of ("the final
/// went ok", "The interview was brutal"), said with "my": whose it is.
/// In chat the "the" may be left out ("interview went well"), and a date
/// is such an event ("first date is friday", "date went really well").
pub(super) fn own_event(clause: &str) -> Option<String> {
    // ("physio's done": the event, then "is")
    if let Some(first) = clause.split_whitespace().next() {
        let stem = first.trim_end_matches("'s").trim_end_matches("\u{2019}s");
        if stem.len() < first.len() && super::lexicon::is_personal_event(&bare(stem)) {
            return own_event(&format!("{stem} is{}", &clause[first.len()..]));
        }
    }
    let words: Vec<&str> = clause.split_whitespace().collect();
    let the = words
        .first()
        .filter(|w| bare(w) == "the" && !w.ends_with([',', '.']));
    let rest = &words[usize::from(the.is_some())..];
    let dated = |i: usize| {
        the.is_none()
            && bare(rest[i]) == "date"
            && (i == 0 || matches!(bare(rest[0]).as_str(), "first" | "second" | "third"))
    };
    // ("the chem final": one word may say which; "first full draft": two)
    let at = (0..rest.len().min(3))
        .find(|&i| super::lexicon::is_personal_event(&bare(rest[i])) || dated(i))
        .filter(|&at| {
            at < 2
                || rest[..at]
                    .iter()
                    .all(|w| super::lexicon::verb(&bare(w)).is_none())
        })?;
    // ("draft deadline": the event is the last of them)
    let at = if rest
        .get(at + 1)
        .is_some_and(|w| super::lexicon::is_event(&bare(w)))
    {
        at + 1
    } else {
        at
    };
    // (bare, the clause's first word is lower case but for its capital,
    // and no one's: "my interview" says whose already)
    let bare_ok = the.is_some()
        || (rest[0]
            .chars()
            .skip(1)
            .all(|c| c.is_lowercase() || c == '-')
            && !matches!(
                bare(rest[0]).as_str(),
                "my" | "our" | "your" | "his" | "her" | "their" | "a" | "an" | "this" | "that"
            ));
    if !bare_ok {
        return None;
    }
    let said = rest[..=at].iter().all(|w| {
        !w.ends_with([',', '.', '!', '?'])
            && bare(w).chars().all(|c| c.is_ascii_lowercase() || c == '-')
    });
    let told = rest.get(at + 1).is_some_and(|v| {
        matches!(
            bare(v).as_str(),
            "went"
                | "was"
                | "is"
                | "got"
                | "ended"
                | "felt"
                | "lasted"
                | "took"
                | "moved"
                | "slipped"
        )
    });
    let opening = the.copied().unwrap_or(rest[0]);
    (said && told).then(|| format!("{} {}", my_as(opening), lowered(rest, the.is_none())))
}

/// `words` joined, the first in lower case when it lost its place at the
/// front to "my" (`front`).
fn lowered(words: &[&str], front: bool) -> String {
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if let Some(first) = out.first_mut().filter(|_| front) {
        *first = first.to_lowercase();
    }
    out.join(" ")
}
