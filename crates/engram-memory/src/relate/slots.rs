//! Attributes ("slots") a fact states: where someone lives, who employs
//! them, their occupation, relationship, diet, age, a favourite, a
//! preference, when an event is. Each is recognised by its wordings; the
//! subject precedes the wording and the value follows it.

use super::slot_words::SLOTS;
use crate::offline::lexicon::{is_occupation, verb, AUXILIARIES};

/// Words that qualify a statement without changing its subject.
const ADVERBS: &[&str] = &[
    "now",
    "currently",
    "recently",
    "just",
    "also",
    "still",
    "finally",
    "actually",
    "then",
    "nowadays",
    "officially",
    "already",
];

/// Openings that say when, before the subject ("These days Carla lives
/// in Denver").
const LEADING_TIME: &[&str] = &[
    "these days ",
    "nowadays ",
    "now ",
    "currently ",
    "at the moment ",
    "since then ",
    "lately ",
    "recently ",
    "so ",
    "and ",
];

pub(super) fn normalise(s: &str) -> String {
    let lower = s.to_lowercase().replace('\u{2019}', "'");
    // ("check-up" is one word, not "check" and "up")
    let lower = lower
        .replace("check-up", "checkup")
        .replace("follow-up", "followup");
    let cleaned: String = lower
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The subject words before an attribute's wording: adverbs, auxiliaries
/// and leading time phrases dropped ("these days carla has" -> "carla").
pub(super) fn subject(raw: &str) -> String {
    let mut s = raw.trim().to_string();
    loop {
        let before = s.clone();
        for lead in LEADING_TIME {
            if let Some(rest) = s.strip_prefix(lead) {
                s = rest.to_string();
            }
        }
        if s == before {
            break;
        }
    }
    let mut words: Vec<&str> = s
        .split_whitespace()
        .filter(|w| !ADVERBS.contains(w))
        .collect();
    while words.last().is_some_and(|w| {
        AUXILIARIES.contains(w) || matches!(*w, "has" | "have" | "had" | "been" | "being")
    }) {
        words.pop();
    }
    let s = words.join(" ");
    let s = s.trim_end_matches("'s").trim_end_matches('\'');
    // ("one of henrik's goals": an aim of Henrik's, said of Henrik)
    let s = s
        .strip_prefix("one of ")
        .and_then(|r| {
            [
                "'s goals",
                "'s plans",
                "'s dreams",
                "'s aims",
                "'s resolutions",
            ]
            .iter()
            .find_map(|g| r.strip_suffix(g))
        })
        .unwrap_or(s);
    match s {
        "my" | "me" | "i" | "i'm" | "i've" => "i".to_string(),
        other => other.to_string(),
    }
}

/// The words before the first verb: who a sentence is about ("rosa's
/// sister's wedding was moved ..." -> "rosa's sister's wedding").
pub(super) fn lead_subject(t: &str) -> String {
    let words: Vec<&str> = t.split_whitespace().collect();
    let end = words
        .iter()
        .position(|w| {
            AUXILIARIES.contains(w) || matches!(*w, "has" | "have" | "had") || verb(w).is_some()
        })
        .unwrap_or(words.len());
    subject(&words[..end].join(" "))
}

/// Whether two subjects name the same one: equal, one the other's last
/// words ("these days carla" / "carla"), a first name and the full name
/// ("henrik" / "henrik dahl"), or a part of "x and y" ("sam and eva broke
/// up" is about eva).
pub(super) fn same_subject(a: &str, b: &str) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let parts = |s: &str| -> Vec<String> {
        s.split(" and ")
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty() && p != "others")
            .collect()
    };
    // ("henrik" / "henrik dahl": a first name and the full name)
    let first_name = |long: &str, short: &str| {
        !short.contains(' ')
            && !matches!(
                short,
                "the" | "my" | "our" | "his" | "her" | "their" | "a" | "an" | "one" | "i" | "we"
            )
            && long
                .strip_prefix(short)
                .and_then(|r| r.strip_prefix(' '))
                .is_some_and(|last| !last.contains(' ') && !last.contains('\''))
    };
    let ends = |long: &str, short: &str| {
        long == short || long.ends_with(&format!(" {short}")) || first_name(long, short)
    };
    parts(a)
        .iter()
        .any(|x| parts(b).iter().any(|y| ends(x, y) || ends(y, x)))
}

fn value(raw: &str) -> String {
    raw.split_whitespace()
        .filter(|w| !ADVERBS.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a text holds a date or time ("17 june", "monday", "2024").
fn has_date(t: &str) -> bool {
    t.split_whitespace().any(|w| {
        w.chars().any(|c| c.is_ascii_digit())
            || crate::offline::dates::MONTHS
                .iter()
                .any(|m| m.eq_ignore_ascii_case(w))
            || matches!(
                w,
                "monday"
                    | "tuesday"
                    | "wednesday"
                    | "thursday"
                    | "friday"
                    | "saturday"
                    | "sunday"
                    | "tomorrow"
                    | "today"
                    | "tonight"
                    | "spring"
                    | "summer"
                    | "autumn"
                    | "fall"
                    | "winter"
            )
    })
}

/// The occupation a normalised fact states with its subject, when it
/// states one: "is a nurse", "works as a software engineer", "was promoted
/// to senior engineer", "retired", "quit nursing" / "quit their job".
fn occupation_slot(t: &str) -> Option<(String, String)> {
    let words: Vec<&str> = t.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let subj = || subject(&words[..i].join(" "));
        if matches!(*w, "retired" | "retires") && i > 0 {
            return Some((subj(), "retired".into()));
        }
        if matches!(*w, "quit" | "quits" | "left" | "leaves") && i > 0 {
            let obj: Vec<&str> = words[i + 1..]
                .iter()
                .copied()
                .filter(|x| !matches!(*x, "their" | "her" | "his" | "my" | "the" | "a"))
                .take(2)
                .collect();
            let first = obj.first().copied().unwrap_or("");
            let job = matches!(first, "job" | "position" | "career" | "work") || job_word(first);
            if job {
                return Some((subj(), "none".into()));
            }
        }
        if *w == "promoted" && words.get(i + 1) == Some(&"to") {
            let phrase = noun_phrase(&words[i + 2..]);
            // "was promoted", "got promoted", "has just been promoted"
            let mut end = i;
            while end > 0 && matches!(words[end - 1], "got" | "get" | "gets" | "been") {
                end -= 1;
            }
            if !phrase.is_empty() {
                return Some((subject(&words[..end].join(" ")), phrase));
            }
        }
    }
    // "is/works as/became a(n) ... <occupation>": after a job cue ("works
    // as a", "job as a", "became a") any noun is the occupation; after a
    // plain "is a" it must read as one ("is a big fan" is not a job)
    let (cue, strong) = words.iter().enumerate().find_map(|(i, w)| {
        let article = matches!(words.get(i + 1), Some(&"a" | &"an"));
        match *w {
            "as" | "became" | "become" | "becomes" if article => Some((i, true)),
            "is" | "am" if article => Some((i, false)),
            _ => None,
        }
    })?;
    let phrase = noun_phrase(&words[cue + 2..]);
    let head = phrase.split_whitespace().last()?;
    if !(is_occupation(head) || strong && !matches!(head, "fan" | "member" | "volunteer")) {
        return None;
    }
    // the subject is what precedes the verb ("hana works as", "nina got a job as")
    Some((lead_subject(&words[..cue].join(" ")), phrase))
}

/// Who quit a named employer ("Leo quit Google", "Ana left Acme"): the
/// name is capitalised where it was said.
fn left_employer(fact: &str) -> Option<String> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    // "handed in their notice", "gave notice": leaving, the employer unsaid
    let notice = words.iter().position(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "handed" | "hands" | "gave" | "gives" | "put" | "puts"
        )
    });
    let notice = notice.filter(|&i| {
        i > 0
            && words[i + 1..]
                .iter()
                .take(3)
                .any(|w| w.to_lowercase().trim_end_matches(['.', '!']) == "notice")
    });
    if let Some(i) = notice {
        return Some(subject(&normalise(&words[..i].join(" "))));
    }
    let i = words.iter().position(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "quit" | "quits" | "left" | "leaves" | "resigned"
        )
    })?;
    let mut j = i + 1;
    if words.get(j).is_some_and(|w| w.eq_ignore_ascii_case("from")) {
        j += 1;
    }
    let next = words.get(j)?;
    let named = next.chars().next().is_some_and(char::is_uppercase);
    (named && i > 0).then(|| subject(&normalise(&words[..i].join(" "))))
}

/// A job word, or a field named after one ("nursing", "teaching").
fn job_word(w: &str) -> bool {
    if is_occupation(w) {
        return true;
    }
    let Some(stem) = w.strip_suffix("ing") else {
        return false;
    };
    [
        format!("{stem}e"),
        format!("{stem}er"),
        format!("{stem}or"),
        stem.to_string(),
    ]
    .iter()
    .any(|x| is_occupation(x))
}

/// A noun phrase up to a preposition or conjunction, at most four words.
fn noun_phrase(words: &[&str]) -> String {
    words
        .iter()
        .take_while(|y| {
            !matches!(
                **y,
                "at" | "in"
                    | "for"
                    | "with"
                    | "and"
                    | "but"
                    | "from"
                    | "on"
                    | "who"
                    | "since"
                    | "after"
                    | "because"
                    | "so"
                    | "to"
                    | "of"
                    | "last"
                    | "this"
                    | "next"
            )
        })
        .take(4)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fact's first attribute: `(slot, subject, value)`, when its wording
/// names one.
pub fn slot(fact: &str) -> Option<(String, String, String)> {
    slots(fact).into_iter().next()
}

/// Every attribute a fact states ("works at Google as a designer": the
/// employer and the occupation).
pub fn slots(fact: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    if let Some(s) = first_slot(fact) {
        out.push(s);
    }
    let t = format!(" {} ", normalise(fact));
    if let Some((who, what)) = occupation_slot(t.trim()) {
        if !who.is_empty() && !out.iter().any(|(s, _, _)| s == "occupation") {
            // "works as a nurse at the city hospital": the workplace is the
            // employer
            let at = [" at ", " for "]
                .iter()
                .filter_map(|p| {
                    t.find(&format!(" {what}{p}"))
                        .map(|i| i + what.len() + 1 + p.len())
                })
                .min();
            let employer = at
                .filter(|_| !out.iter().any(|(s, _, _)| s == "employer"))
                .map(|i| ("employer".to_string(), who.clone(), value(&t[i..])));
            out.push(("occupation".into(), who, what));
            out.extend(employer);
        }
    }
    // a job taken up, in a wording no list holds ("is starting a postdoc
    // at the Crick")
    if let Some((who, org, occupation)) = super::employment::employer(fact) {
        if !out.iter().any(|(s, _, _)| s == "employer") {
            out.push(("employer".into(), who.clone(), org));
        }
        if let Some(o) = occupation.filter(|_| !out.iter().any(|(s, _, _)| s == "occupation")) {
            out.push(("occupation".into(), who, o));
        }
    }
    out
}

fn first_slot(fact: &str) -> Option<(String, String, String)> {
    let t = format!(" {} ", normalise(fact));
    // "favourite X is Y": the slot names X
    for fav in [" favourite ", " favorite "] {
        if let Some(i) = t.find(fav) {
            let rest = &t[i + fav.len()..];
            if let Some((thing, val)) = rest.split_once(" is ").or_else(|| rest.split_once(" are "))
            {
                return Some((
                    format!("favourite {}", thing.trim()),
                    subject(&t[..i]),
                    value(val),
                ));
            }
        }
    }
    if let Some(who) = left_employer(fact) {
        return Some(("employer".into(), who, "none".into()));
    }
    // "moved out of halls": the old home ends, and the new one is where
    // they moved into, if said
    for p in [" moved out of ", " moved away from "] {
        let Some(i) = t.find(p) else { continue };
        let who = subject(&t[..i]);
        if who.is_empty() || who.split_whitespace().count() > 5 {
            continue;
        }
        let after = &t[i + p.len()..];
        let home = [" into ", " to "]
            .iter()
            .find_map(|q| after.split_once(q).map(|(_, to)| value(to)))
            .unwrap_or_else(|| "none".into());
        return Some(("home".into(), who, home));
    }
    for (name, phrases) in SLOTS {
        for p in *phrases {
            let Some(i) = t.find(p) else {
                continue;
            };
            let after = &t[i + p.len()..];
            if *name == "when" && !has_date(after) {
                continue;
            }
            let subj = subject(&t[..i]);
            if subj.is_empty() || subj.split_whitespace().count() > 5 {
                continue;
            }
            let val = match *name {
                // the value is the number, or the diet word itself
                // ("turned five": 5, as "5 years old" says it)
                "age" if p.trim() == "turned" => {
                    // ("when John turned ten, dad signed him up": a time
                    // said, not an age)
                    let time = t[..i].split_whitespace().any(|w| {
                        matches!(w, "when" | "since" | "after" | "before" | "until" | "by")
                    });
                    if time {
                        continue;
                    }
                    let n = after.split_whitespace().next().unwrap_or("");
                    match crate::offline::lexicon::number(n) {
                        Some(n) => n.to_string(),
                        None => continue,
                    }
                }
                "age" => {
                    let n = t[..i].split_whitespace().last().unwrap_or("");
                    crate::offline::lexicon::number(n).map_or(n.to_string(), |n| n.to_string())
                }
                // ("is a vegetarian" is "is vegetarian")
                "diet" => p
                    .split_whitespace()
                    .skip(1)
                    .filter(|w| !matches!(*w, "a" | "an" | "fully" | "full" | "completely" | "now"))
                    .collect::<Vec<_>>()
                    .join(" "),
                // "moved from lisbon to oslo": the new home is after "to"
                "home" if p.trim() == "moved from" => match after.split_once(" to ") {
                    Some((_, to)) => value(to),
                    None => continue,
                },
                // a relationship's value is its state and who with
                "relationship" => format!("{} {}", p.trim(), value(after)),
                // "prefers working late" and "prefers tea" are two slots
                "prefers" => value(after),
                _ => value(after),
            };
            let name = match *name {
                "prefers" => match after.split_whitespace().next() {
                    Some(g) if g.ends_with("ing") => format!("prefers {g}"),
                    _ => "prefers".to_string(),
                },
                "age" if p.trim() != "turned" => {
                    // "Ana is 31 years old": the subject precedes "is N"
                    let before = &t[..i];
                    let who = before
                        .rsplit_once(" is ")
                        .or_else(|| before.rsplit_once(" am "))
                        .map_or(before, |(s, _)| s);
                    return Some(("age".into(), subject(who), val));
                }
                other => other.to_string(),
            };
            return Some((name, subj, val));
        }
    }
    // where someone lives, in a wording no list above holds
    if let Some((who, place)) = super::residence::home(fact) {
        return Some(("home".into(), who, place));
    }
    taste_slot(&t)
}

/// Wordings of a taste and what they say of it now: liked, disliked, or
/// liked once and no more.
const TASTES: &[(&str, &str)] = &[
    (" used to love ", "once"),
    (" used to like ", "once"),
    (" used to enjoy ", "once"),
    (" no longer likes ", "once"),
    (" no longer enjoys ", "once"),
    (" loves ", "likes"),
    (" love ", "likes"),
    (" likes ", "likes"),
    (" like ", "likes"),
    (" enjoys ", "likes"),
    (" adores ", "likes"),
    (" hates ", "dislikes"),
    (" hate ", "dislikes"),
    (" dislikes ", "dislikes"),
    (" detests ", "dislikes"),
    (" can't stand ", "dislikes"),
    (" cannot stand ", "dislikes"),
];

/// A taste ("loves sushi", "can't stand sushi", "used to love sushi"): the
/// slot names the thing (a plain noun phrase, so "loves hiking in the
/// Alps" is not "loves hiking"), the value says how it is liked now.
fn taste_slot(t: &str) -> Option<(String, String, String)> {
    let (i, p, how) = TASTES
        .iter()
        .filter_map(|(p, how)| t.find(p).map(|i| (i, *p, *how)))
        .min_by_key(|(i, p, _)| (*i, std::cmp::Reverse(p.len())))?;
    let subj = subject(&t[..i]);
    if subj.is_empty() || subj.split_whitespace().count() > 3 {
        return None;
    }
    let rest: Vec<&str> = t[i + p.len()..]
        .split_whitespace()
        .filter(|w| !ADVERBS.contains(w) && !matches!(*w, "these" | "days" | "anymore"))
        .collect();
    // the whole rest is the thing: "sushi", "horror movies" (a taste
    // with more said of it is another fact)
    let thing = noun_phrase(&rest);
    if thing.is_empty() || thing.split_whitespace().count() != rest.len() {
        return None;
    }
    Some((format!("taste {thing}"), subj, how.to_string()))
}
