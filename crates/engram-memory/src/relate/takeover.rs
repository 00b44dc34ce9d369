//! Work taken over: "Aisha took over the database work" ends "Mark is
//! helping with the database part", whoever did it before. Only a fact
//! of someone else that names every telling word of what was taken over
//! ("database"; "work", "part" and the like tell nothing) is ended.

use super::retraction::stem;
use super::slots::{lead_subject, normalise, same_subject};

/// Wordings of taking something over from whoever had it.
const TOOK_OVER: &[&str] = &[
    " took over ",
    " has taken over ",
    " is taking over ",
    " will take over ",
    " takes over ",
];

/// Words of what was taken over that say nothing of which it is.
const GENERIC: &[&str] = &[
    "the", "a", "an", "his", "her", "their", "my", "our", "its", "work", "part", "stuff", "thing",
    "things", "job", "side", "bit", "role", "duty", "duties", "task", "tasks", "as",
];

/// Who took over, and the telling stems of what.
fn taken_over(fact: &str) -> Option<(String, Vec<String>)> {
    let t = format!(" {} ", normalise(fact));
    let (i, p) = TOOK_OVER.iter().find_map(|p| t.find(p).map(|i| (i, *p)))?;
    let who = lead_subject(t[..i].trim());
    let stems: Vec<String> = t[i + p.len()..]
        .split_whitespace()
        .take_while(|w| !matches!(*w, "from" | "because" | "since" | "when" | "after" | "so"))
        .take(4)
        .filter(|w| !GENERIC.contains(w))
        .map(stem)
        .collect();
    (!who.is_empty() && !stems.is_empty()).then_some((who, stems))
}

/// Whether `new` takes over what `old` says someone else does.
pub(super) fn takes_over(new: &str, old: &str) -> bool {
    let Some((who, stems)) = taken_over(new) else {
        return false;
    };
    if taken_over(old).is_some() {
        return false;
    }
    let old_n = normalise(old);
    let old_stems: Vec<String> = old_n.split_whitespace().map(stem).collect();
    let holder = lead_subject(&old_n);
    stems.iter().all(|s| old_stems.contains(s))
        && !holder.is_empty()
        && !same_subject(&who, &holder)
}
