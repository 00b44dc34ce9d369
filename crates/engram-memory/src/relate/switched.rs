//! A switch between kinds of one thing: "Milan is back on day shifts"
//! ends "Milan switched to the night shift at the hospital"; "Ana
//! switched to almond milk" ends "Ana switched to oat milk". One has one
//! kind of such a thing at a time: the same subject, the same thing (the
//! head noun), another kind of it (the words before it), told with a
//! wording of switching or of being on it ("works nights" is on the
//! night shift). Also how a switch someone
//! else made is said of the one switched ("Dr. Okafor switched Greta from
//! metformin to Ozempic", "took Priya off propranolol and started Priya on
//! topiramate"), for the retractions.

use super::retraction::stem;
use super::slots::{lead_subject, normalise, same_subject};

/// Wordings a switch is told with (the new fact).
const SWITCHED: &[&str] = &[
    " switched to ",
    " has switched to ",
    " have switched to ",
    " changed to ",
    " is back on ",
    " am back on ",
    " went back to ",
    " is now on ",
    " moved to the ",
    " moved to ",
];

/// Wordings of being on a kind of thing (the old fact), besides a switch.
const ON: &[&str] = &[" is on ", " am on ", " works "];

/// Words that do not say which kind.
const DETERMINERS: &[&str] = &["the", "a", "an", "my", "his", "her", "their", "our", "its"];

/// Words that end the naming of the thing.
const STOPS: &[&str] = &[
    "at", "in", "since", "because", "for", "so", "which", "and", "from", "last", "this", "on",
    "now", "again", "instead", "with", "after", "before", "until", "as",
];

/// The subject, and the kind and the thing a fact is on ("milan", ["day"],
/// "shift"), after one of `wordings`.
fn kind_of(fact: &str, wordings: &[&str]) -> Option<(String, Vec<String>, String)> {
    let t = format!(" {} ", normalise(fact));
    let (i, p) = wordings.iter().find_map(|p| t.find(p).map(|i| (i, *p)))?;
    let who = lead_subject(t[..i].trim());
    let words: Vec<&str> = t[i + p.len()..]
        .split_whitespace()
        .skip_while(|w| DETERMINERS.contains(w))
        .take_while(|w| !STOPS.contains(w))
        .take(4)
        .collect();
    // ("works nights": the night shift)
    let shift = match words.as_slice() {
        [part] if matches!(*part, "nights" | "days" | "evenings" | "lates" | "earlies") => {
            Some(stem(part))
        }
        _ => None,
    };
    if let Some(part) = shift {
        return (!who.is_empty()).then(|| (who, vec![stem(&part)], "shift".to_string()));
    }
    let (head, kind) = words.split_last()?;
    let kind: Vec<String> = kind.iter().map(|w| stem(w)).collect();
    (!who.is_empty() && !kind.is_empty()).then(|| (who, kind, stem(head)))
}

/// Whether `new` switches to another kind of the thing `old` is on.
pub(super) fn switches(new: &str, old: &str) -> bool {
    // ("works days now": on a shift, however it came)
    let on_shift = kind_of(new, ON).filter(|(_, _, head)| head == "shift");
    let Some((who, kind, head)) = kind_of(new, SWITCHED).or(on_shift) else {
        return false;
    };
    let Some((was_who, was_kind, was_head)) = kind_of(old, SWITCHED).or_else(|| kind_of(old, ON))
    else {
        return false;
    };
    head == was_head && kind != was_kind && same_subject(&who, &was_who)
}

/// "Dr. Okafor switched Greta from metformin to Ozempic" said of the one
/// switched ("greta switched from metformin to ozempic"), and "Greta's
/// doctor put Greta on Ozempic instead of metformin" as "greta is on
/// ozempic instead of metformin": what ends is the one switched's, not the
/// doer's. Other text as it is.
pub(super) fn switched_object(t: &str) -> String {
    // "dr. haddad took priya off propranolol and started priya on
    // topiramate": "priya switched from propranolol to topiramate"
    if let Some((_, after)) = t.split_once(" took ") {
        if let Some((object, rest)) = after.split_once(" off ") {
            let started = rest
                .split_once(" and started ")
                .or_else(|| rest.split_once(" and put "));
            if let Some((old, new)) = started {
                let new = new
                    .strip_prefix(object)
                    .and_then(|n| n.trim_start().strip_prefix("on "));
                let n = object.split_whitespace().count();
                if let (Some(new), 1..=3) = (new, n) {
                    return format!(" {object} switched from {} to {new}", old.trim());
                }
            }
        }
    }
    for (verb, from, said) in [
        (" switched ", " from ", " switched from "),
        (" moved ", " from ", " moved from "),
        (" changed ", " from ", " changed from "),
        (" put ", " on ", " is on "),
    ] {
        let Some(i) = t.find(verb) else {
            continue;
        };
        let after = &t[i + verb.len()..];
        let Some(j) = after.find(from) else {
            continue;
        };
        let object = after[..j].trim();
        let rest = &after[j + from.len()..];
        let one_of = |w: &str| matches!(w, "the" | "a" | "an" | "it" | "them" | "back" | "over");
        let n = object.split_whitespace().count();
        // "from A to B", or "on B instead of A"
        let replaced = if from == " from " {
            rest.contains(" to ")
        } else {
            rest.contains(" instead of ")
        };
        if (1..=3).contains(&n) && !object.split_whitespace().any(one_of) && replaced {
            return format!(" {object}{said}{rest}");
        }
    }
    t.to_string()
}

/// A normalised fact that says someone put someone on a thing ("priya's
/// gp put priya on propranolol") as the one put on it ("priya is on
/// propranolol").
pub(super) fn put_on(t: &str) -> Option<String> {
    let (_, after) = t.split_once(" put ")?;
    let (object, rest) = after.split_once(" on ")?;
    let n = object.split_whitespace().count();
    ((1..=3).contains(&n) && !matches!(object, "it" | "them" | "the" | "a"))
        .then(|| format!("{object} is on {rest}"))
}

/// Whether `new` got something "to replace" a thing `old` (of the same
/// subject) speaks of: "Marta got a Tesla Model 3 to replace the Golf"
/// after "Marta sold the Golf" (or "Marta drives a 2015 VW Golf"). The
/// thing replaced is named by its last word.
pub(super) fn replaces(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let Some(at) = n.find(" to replace ") else {
        return false;
    };
    let replaced: Vec<&str> = n[at + 12..].split_whitespace().collect();
    let Some(head) = replaced.last() else {
        return false;
    };
    replaced.len() <= 5
        && o.split_whitespace().any(|w| w == *head)
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// Whether `new` gives the same subject a diet after `old` said they eat
/// anything: "Sara went vegan" after "Sara eats pretty much everything".
/// (Eating everything is no diet a search for one should find, so it is
/// no slot of its own.)
pub(super) fn diet_taken_up(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let eats_all = [
        " eats everything",
        " eats pretty much everything",
        " eats anything",
        " eats pretty much anything",
    ]
    .iter()
    .any(|p| format!(" {o}").contains(p));
    eats_all
        && super::slots(new).iter().any(|(s, _, _)| s == "diet")
        && same_subject(&lead_subject(&n), &lead_subject(&o))
}

/// Verbs of using or having a thing, in the present: what a thing got to
/// replace another takes over ("Marta drives a 2015 VW Golf").
const USING: &[&str] = &[
    "drives", "rides", "uses", "has", "owns", "plays", "wears", "carries", "cycles",
];

/// The old fact told of the new thing, when it says the subject uses or
/// has the thing replaced: "Marta got a Tesla Model 3 to replace the Golf"
/// after "Marta drives a 2015 VW Golf" -> "Marta drives a Tesla Model 3".
pub(super) fn replaced_described(new: &str, old: &str) -> Option<String> {
    if !replaces(new, old) {
        return None;
    }
    let words: Vec<&str> = new.split_whitespace().collect();
    let got = words
        .iter()
        .position(|w| matches!(w.to_lowercase().as_str(), "got" | "bought" | "get" | "buy"))?;
    let to = words.iter().position(|w| *w == "to")?;
    let thing = words.get(got + 1..to)?.join(" ");
    let head = words
        .last()?
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    let old_words: Vec<&str> = old.split_whitespace().collect();
    let v = old_words
        .iter()
        .position(|w| USING.contains(&w.to_lowercase().as_str()))?;
    let end = old_words.iter().position(|w| {
        w.trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
            == head
    })?;
    if thing.is_empty() || end <= v {
        return None;
    }
    let stop: String = old_words[end]
        .chars()
        .rev()
        .take_while(|c| !c.is_alphanumeric())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let mut out: Vec<String> = old_words[..=v].iter().map(|w| w.to_string()).collect();
    out.push(format!("{thing}{stop}"));
    out.extend(old_words[end + 1..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{replaced_described, replaces, switches};

    #[test]
    fn a_thing_got_to_replace_another() {
        let new = "Marta got a Tesla Model 3 to replace the Golf.";
        assert!(replaces(new, "Marta sold the Golf."));
        assert!(replaces(new, "Marta drives a 2015 VW Golf."));
        assert!(!replaces(new, "Jonas sold the Golf."));
        assert!(!replaces(new, "Marta sold the Polo."));
        assert!(!replaces(
            "Marta got a Tesla Model 3.",
            "Marta sold the Golf."
        ));
        assert_eq!(
            replaced_described(
                new,
                "Marta drives a 2015 VW Golf, it's been super reliable."
            )
            .as_deref(),
            Some("Marta drives a Tesla Model 3, it's been super reliable.")
        );
        assert_eq!(
            replaced_described(new, "Marta drives a 2015 VW Golf.").as_deref(),
            Some("Marta drives a Tesla Model 3.")
        );
        assert_eq!(replaced_described(new, "Marta sold the Golf."), None);
    }

    #[test]
    fn another_kind_of_the_same_thing() {
        for (new, old, ends) in [
            (
                "Milan is back on day shifts since March.",
                "Milan switched to the night shift at the hospital.",
                true,
            ),
            (
                "Ana switched to almond milk.",
                "Ana switched to oat milk.",
                true,
            ),
            (
                "Ben switched to the platform team.",
                "Ben is on the data team.",
                true,
            ),
            // the same kind, another thing, someone else, or no kind said
            (
                "Ana switched to oat milk.",
                "Ana switched to oat milk.",
                false,
            ),
            (
                "Ana switched to oat milk.",
                "Ana switched to the night shift.",
                false,
            ),
            (
                "Ana switched to almond milk.",
                "Ben switched to oat milk.",
                false,
            ),
            (
                "Kofi is back on the bike.",
                "Kofi switched to the road bike.",
                false,
            ),
        ] {
            assert_eq!(switches(new, old), ends, "{new} | {old}");
        }
    }
}
