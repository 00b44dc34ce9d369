//! Work finished: "Priya finished the migration" ends "Priya is leading
//! the billing migration at Finlo": what was under way is done, and a
//! profile that still says she is leading it would be wrong. Only work
//! told as going on ("is leading", "has been writing") of the same
//! subject, naming every telling word of what was finished, is ended; and
//! only work pointed at as a known one ("the migration", "my thesis", not
//! "a painting", which may be another). Work told done by its state
//! ("Priya's kitchen is done") ends it too, and a work's state is the next
//! version of its state before ("Priya's kitchen is delayed").

use super::retraction::stem;
use super::slots::{lead_subject, normalise, same_subject};
use crate::offline::lexicon::{verb, VerbForm};

/// Wordings of having finished something.
const FINISHED: &[&str] = &[
    " finished ",
    " has finished ",
    " have finished ",
    " completed ",
    " has completed ",
    " have completed ",
    " wrapped up ",
    " handed in ",
    " submitted ",
];

/// Determiners that point at a known piece of work.
const DEFINITE: &[&str] = &["the", "my", "his", "her", "their", "our", "its", "that"];

/// Words of what was finished that say nothing of which it is.
const GENERIC: &[&str] = &["work", "part", "first", "last", "whole", "entire", "final"];

/// Words that end the naming of what was finished.
const STOPS: &[&str] = &[
    "on",
    "in",
    "at",
    "last",
    "this",
    "yesterday",
    "today",
    "because",
    "after",
    "before",
    "and",
    "so",
    "with",
    "for",
    "early",
    "ahead",
    "by",
    "two",
    "three",
    "a",
    "an",
];

/// States a piece of work is in, and whether each says it is done.
const STATES: &[(&str, bool)] = &[
    ("done", true),
    ("finished", true),
    ("complete", true),
    ("completed", true),
    ("ready", true),
    ("delayed", false),
    ("late", false),
    ("behind", false),
    ("on hold", false),
    ("on track", false),
    ("back on track", false),
    ("underway", false),
];

/// A fact that says what state someone's work is in ("priya's kitchen is
/// done", "the launch is delayed"): (whose, the stems of the work, the
/// state, whether it is done).
fn work_state(fact: &str) -> Option<(String, Vec<String>, &'static str, bool)> {
    let t = normalise(fact);
    let words: Vec<&str> = t.split_whitespace().collect();
    let be = words.iter().position(|w| matches!(*w, "is" | "was"))?;
    let rest = words[be + 1..]
        .iter()
        .skip_while(|w| matches!(**w, "now" | "finally" | "officially" | "all" | "fully"))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let rest = rest.trim_end_matches(['.', '!']);
    let (state, done) = STATES
        .iter()
        .find(|(s, _)| rest == *s || rest.strip_prefix(s).is_some_and(|r| r.starts_with(' ')))?;
    // whose work: "priya's kitchen", "the launch"
    let subject = &words[..be];
    let (owner, thing) = match subject {
        [o, thing @ ..] if o.ends_with("'s") && !thing.is_empty() => {
            (o.trim_end_matches("'s").to_string(), thing)
        }
        ["the", thing @ ..] if !thing.is_empty() => (String::new(), thing),
        _ => return None,
    };
    // ("the thing we planned is done": a clause, not a name)
    let clause = thing
        .iter()
        .any(|w| verb(w).is_some_and(|(_, f)| matches!(f, VerbForm::Past | VerbForm::Gerund)));
    if thing.len() > 3 || clause {
        return None;
    }
    let stems = thing.iter().map(|w| stem(w)).collect();
    Some((owner, stems, state, *done))
}

/// Whether `new` says a new state of the work whose state `old` says
/// ("Priya's kitchen is done" after "Priya's kitchen is delayed").
pub(super) fn new_state(new: &str, old: &str) -> bool {
    match (work_state(new), work_state(old)) {
        (Some((o1, w1, s1, _)), Some((o2, w2, s2, _))) => {
            (o1 == o2 || o1.is_empty()) && w1 == w2 && s1 != s2
        }
        _ => false,
    }
}

/// Whether `fact` tells someone's work done by its state ("Priya's
/// kitchen is done"): it ends the work and every state it was in.
pub(super) fn told_done(fact: &str) -> bool {
    work_state(fact).is_some_and(|(owner, _, _, done)| done && !owner.is_empty())
}

/// Who finished, and the telling stems of what they finished.
fn finished(fact: &str) -> Option<(String, Vec<String>)> {
    // ("priya's kitchen is done": told by its state)
    if let Some((owner, stems, _, true)) = work_state(fact) {
        return (!owner.is_empty()).then_some((owner, stems));
    }
    let t = format!(" {} ", normalise(fact));
    let (i, p) = FINISHED.iter().find_map(|p| t.find(p).map(|i| (i, *p)))?;
    let who = lead_subject(t[..i].trim());
    let mut rest = t[i + p.len()..].split_whitespace();
    // ("finished reading the book": the book)
    let mut first = rest.next()?;
    if verb(first).is_some_and(|(_, f)| f == VerbForm::Gerund) {
        first = rest.next()?;
    }
    if !(DEFINITE.contains(&first) || first.ends_with("'s")) {
        return None;
    }
    let stems: Vec<String> = rest
        .take_while(|w| !STOPS.contains(w))
        .take(4)
        .filter(|w| !GENERIC.contains(w))
        .map(stem)
        .collect();
    (!who.is_empty() && !stems.is_empty()).then_some((who, stems))
}

/// Where the verb of work told as going on stands ("is leading the
/// billing migration": "leading"), in lower-case words.
fn ongoing_verb<S: AsRef<str>>(words: &[S]) -> Option<usize> {
    words.iter().enumerate().position(|(i, w)| {
        verb(w.as_ref()).is_some_and(|(_, f)| f == VerbForm::Gerund)
            && words[..i]
                .iter()
                .rev()
                .take(3)
                .any(|b| matches!(b.as_ref(), "is" | "are" | "am" | "been" | "was" | "were"))
    })
}

/// The words after the verb of work told as going on ("is leading the
/// billing migration at finlo": "the billing migration at finlo").
fn under_way(old: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = old.split_whitespace().collect();
    // ("started physio for my knee": begun, so under way)
    let i = ongoing_verb(&words).or_else(|| {
        words
            .iter()
            .position(|w| matches!(*w, "started" | "began" | "begun"))
            .filter(|&i| words.get(i + 1).is_some_and(|n| !matches!(*n, "to" | "at")))
    })?;
    Some(words[i + 1..].to_vec())
}

/// Where a name that starts at `from` ends: at a word of `stops`, after a
/// word closing a clause, or at the end.
fn name_end(words: &[&str], bare: &[String], from: usize, stops: &[&str]) -> usize {
    let mut end = from;
    while end < words.len() && !stops.contains(&bare[end].as_str()) {
        let closes = words[end].ends_with(['.', ',', '!', ';']);
        end += 1;
        if closes {
            break;
        }
    }
    end
}

/// Whether `new` tells as finished the work `old` has going on.
pub(super) fn finishes(new: &str, old: &str) -> bool {
    let Some((who, stems)) = finished(new) else {
        return false;
    };
    let old_n = normalise(old);
    if finished(&old_n).is_some() {
        return false;
    }
    let Some(work) = under_way(&old_n) else {
        return false;
    };
    let work: Vec<String> = work.iter().map(|w| stem(w)).collect();
    stems.iter().all(|s| work.contains(s)) && same_subject(&who, &lead_subject(&old_n))
}

/// Words after which the naming of a piece of work under way stops
/// ("the kitchen renovation with her dad": the kitchen renovation).
const ENDS_NAMING: &[&str] = &[
    "since", "this", "until", "because", "with", "for", "when", "while", "after", "before", "last",
    "next", "every", "and", "but", "so", "now", "right", "these", "all",
];

fn bare(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
        .replace('\u{2019}', "'")
}

/// `new`, which finishes the work `old` has under way, said with the name
/// `old` gives that work: "Priya finished the migration on 2 May 2025."
/// after "Priya is leading the billing migration at Finlo." is "Priya
/// finished the billing migration at Finlo on 2 May 2025.", so that the
/// current fact still says what and where.
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    if !finishes(new, old) {
        return None;
    }
    let nw: Vec<&str> = new.split_whitespace().collect();
    let nb: Vec<String> = nw.iter().map(|w| bare(w)).collect();
    // where the finished work is named in `new`: after the verb (and a
    // gerund), its determiner, up to a stop or the sentence's end
    let verb_at = FINISHED.iter().find_map(|p| {
        let p: Vec<&str> = p.split_whitespace().collect();
        (0..nb.len())
            .find(|&i| nb[i..].starts_with(&p.iter().map(|w| w.to_string()).collect::<Vec<_>>()))
            .map(|i| i + p.len())
    })?;
    let mut det = verb_at;
    if nb
        .get(det)
        .is_some_and(|w| verb(w).is_some_and(|(_, f)| f == VerbForm::Gerund))
    {
        det += 1;
    }
    let end = name_end(&nw, &nb, det + 1, STOPS);
    // the name `old` gives it: after the gerund and its determiner
    let ow: Vec<&str> = old.split_whitespace().collect();
    let ob: Vec<String> = ow.iter().map(|w| bare(w)).collect();
    let g = ongoing_verb(&ob)?;
    let od = (g + 1..ob.len())
        .find(|&i| DEFINITE.contains(&ob[i].as_str()) || ["a", "an"].contains(&ob[i].as_str()))?;
    let oend = name_end(&ow, &ob, od + 1, ENDS_NAMING);
    if oend - od <= end - det {
        return None;
    }
    let trim = |w: &str| w.trim_end_matches(['.', ',', '!', ';']).to_string();
    let mut named: Vec<String> = ow[od + 1..oend].iter().map(|w| trim(w)).collect();
    // the punctuation that closed the name in `new` closes it still
    let closing: String = nw[end - 1]
        .chars()
        .rev()
        .take_while(|c| matches!(c, '.' | ',' | '!' | ';'))
        .collect();
    if let Some(last) = named.last_mut() {
        last.push_str(&closing);
    }
    let mut out: Vec<String> = nw[..=det].iter().map(|w| w.to_string()).collect();
    out.extend(named);
    out.extend(nw[end..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{described, finishes, new_state};

    #[test]
    fn a_work_in_a_new_state() {
        for (new, old, next) in [
            (
                "Priya's kitchen is DONE.",
                "Priya's kitchen is delayed.",
                true,
            ),
            (
                "The launch is back on track.",
                "The launch is delayed.",
                true,
            ),
            (
                "Priya's kitchen is delayed.",
                "Priya's kitchen is delayed again.",
                false,
            ),
            (
                "Priya's bathroom is done.",
                "Priya's kitchen is delayed.",
                false,
            ),
            (
                "Tom's kitchen is done.",
                "Priya's kitchen is delayed.",
                false,
            ),
        ] {
            assert_eq!(new_state(new, old), next, "{new} | {old}");
        }
    }

    #[test]
    fn finished_work_keeps_its_name() {
        for (new, old, said) in [
            (
                "Priya finished the migration on 2 May 2025.",
                "Priya is leading the billing migration at Finlo.",
                Some("Priya finished the billing migration at Finlo on 2 May 2025."),
            ),
            (
                "Ines has finished her novel.",
                "Ines has been writing a novel about her grandmother since 2022.",
                Some("Ines has finished her novel about her grandmother."),
            ),
            (
                "Sara wrapped up the kitchen renovation in June.",
                "Sara is doing the kitchen renovation with her dad.",
                None,
            ),
        ] {
            assert_eq!(described(new, old).as_deref(), said, "{new} | {old}");
        }
    }

    #[test]
    fn finished_work_ends_the_work_under_way() {
        for (new, old, ends) in [
            (
                "Priya finished the migration on 2 May 2025.",
                "Priya is leading the billing migration at Finlo.",
                true,
            ),
            (
                "Ines has finished her novel.",
                "Ines has been writing a novel about her grandmother.",
                true,
            ),
            (
                "Tom finished reading the book.",
                "Tom is reading a book about whales.",
                true,
            ),
            (
                "Sara wrapped up the kitchen renovation in June.",
                "Sara is doing the kitchen renovation with her dad.",
                true,
            ),
            (
                "Priya's kitchen is DONE.",
                "Priya is finally redoing the kitchen.",
                true,
            ),
            (
                "Priya's kitchen is delayed.",
                "Priya is finally redoing the kitchen.",
                false,
            ),
            // someone else's work
            (
                "Aisha finished the migration.",
                "Priya is leading the billing migration.",
                false,
            ),
            // another piece of work
            (
                "Priya finished the fraud project.",
                "Priya is leading the billing migration.",
                false,
            ),
            // not pointed at as a known one
            (
                "Mia finished a painting.",
                "Mia is painting a mural of the sea.",
                false,
            ),
            // not under way: a plan, or a fact
            (
                "Leo finished the thesis.",
                "Leo wants to write a thesis on coral reefs.",
                false,
            ),
            (
                "Leo finished the marathon.",
                "Leo ran the marathon in 2023.",
                false,
            ),
        ] {
            assert_eq!(finishes(new, old), ends, "{new} | {old}");
        }
    }
}
