//! How a newly stated fact relates to one already remembered: the same
//! fact again (merge), a new value of the same attribute of the same
//! subject (`updates`: "Ana lives in Paris" -> "Ana moved to Berlin"),
//! added detail (`extends`), or unrelated.
//!
//! Rules, not a model: an attribute ("slot") is recognised by its wording
//! (where someone lives, works, what their favourite colour is, ...), the
//! subject is what precedes it, the value what follows. Embedding cosine
//! guards every decision so that wording alone never joins unrelated facts.

/// What a new fact is to an old one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The same fact: merge (one more source).
    Same,
    /// A new value of the same attribute: the new fact supersedes the old.
    Updates,
    /// The old fact with more detail: both stay valid.
    Extends,
    Unrelated,
}

/// Cosine at or above which two facts with the same numbers and mostly the
/// same words are the same fact.
pub const SAME_COSINE: f32 = 0.9;
/// Cosine an update or extension must reach (same topic).
pub const TOPIC_COSINE: f32 = 0.3;
/// Cosine an extension must reach.
pub const EXTENDS_COSINE: f32 = 0.7;

/// Attribute wordings: (slot, phrases). The subject precedes the phrase and
/// the value follows it.
const SLOTS: &[(&str, &[&str])] = &[
    (
        "home",
        &[
            " lives in ",
            " live in ",
            " lived in ",
            " is living in ",
            " am living in ",
            " moved to ",
            " move to ",
            " relocated to ",
            " is based in ",
            " am based in ",
            " resides in ",
            " reside in ",
        ],
    ),
    (
        "employer",
        &[
            " works at ",
            " work at ",
            " works for ",
            " work for ",
            " started working at ",
            " started working for ",
            " is employed by ",
            " am employed by ",
            " joined the company ",
        ],
    ),
    (
        "occupation",
        &[
            " works as ",
            " work as ",
            " started working as ",
            " job is ",
            " became a ",
            " became an ",
        ],
    ),
    (
        "relationship",
        &[
            " is married to ",
            " am married to ",
            " got married to ",
            " is dating ",
            " am dating ",
            " is engaged to ",
            " am engaged to ",
            " relationship status is ",
        ],
    ),
    ("age", &[" years old"]),
    ("name", &[" name is "]),
    (
        "diet",
        &[" is vegetarian", " is vegan", " am vegetarian", " am vegan"],
    ),
    ("prefers", &[" prefers ", " prefer "]),
];

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
];

fn normalise(s: &str) -> String {
    let lower = s.to_lowercase().replace('\u{2019}', "'");
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

fn subject(raw: &str) -> String {
    let words: Vec<&str> = raw
        .split_whitespace()
        .filter(|w| !ADVERBS.contains(w))
        .collect();
    let s = words.join(" ");
    let s = s.trim_end_matches("'s").trim_end_matches('\'');
    match s {
        "my" | "me" | "i" | "i'm" | "i've" => "i".to_string(),
        other => other.to_string(),
    }
}

fn value(raw: &str) -> String {
    raw.split_whitespace()
        .filter(|w| !ADVERBS.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fact's attribute: `(slot, subject, value)`, when its wording names
/// one.
pub fn slot(fact: &str) -> Option<(String, String, String)> {
    let t = format!(" {} ", normalise(fact));
    // "favourite X is Y": the slot names X
    for fav in [" favourite ", " favorite "] {
        if let Some(i) = t.find(fav) {
            let rest = &t[i + fav.len()..];
            let (thing, val) = rest
                .split_once(" is ")
                .or_else(|| rest.split_once(" are "))?;
            return Some((
                format!("favourite {}", thing.trim()),
                subject(&t[..i]),
                value(val),
            ));
        }
    }
    for (name, phrases) in SLOTS {
        for p in *phrases {
            if let Some(i) = t.find(p) {
                let subj = subject(&t[..i]);
                if subj.is_empty() || subj.split_whitespace().count() > 4 {
                    continue;
                }
                let val = match *name {
                    // the value is the number, or the diet word itself
                    "age" => t[..i].split_whitespace().last().unwrap_or("").to_string(),
                    "diet" => p.split_whitespace().last().unwrap_or("").to_string(),
                    _ => value(&t[i + p.len()..]),
                };
                let subj = if *name == "age" {
                    // "Ana is 31 years old": the subject precedes "is N"
                    subject(
                        t[..i]
                            .rsplit_once(" is ")
                            .or_else(|| t[..i].rsplit_once(" am "))
                            .map_or(&t[..i], |(s, _)| s),
                    )
                } else if *name == "diet" {
                    subject(&t[..i])
                } else {
                    subj
                };
                return Some((name.to_string(), subj, val));
            }
        }
    }
    None
}

const STOP: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "am", "to", "of", "in", "on", "at", "and", "or",
    "for", "with", "has", "have", "had", "be", "been", "it", "that", "this", "their", "his", "her",
    "my", "i", "he", "she", "they", "we", "you",
];

fn content_words(s: &str) -> std::collections::BTreeSet<String> {
    normalise(s)
        .split_whitespace()
        .filter(|w| !STOP.contains(w))
        .map(str::to_string)
        .collect()
}

fn numbers(s: &str) -> Vec<String> {
    normalise(s)
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// How `new` relates to `old`, given the cosine of their embeddings.
pub fn relate(new: &str, old: &str, cosine: f32) -> Relation {
    if normalise(new) == normalise(old) {
        return Relation::Same;
    }
    if let (Some((s1, who1, v1)), Some((s2, who2, v2))) = (slot(new), slot(old)) {
        if s1 == s2 && who1 == who2 && cosine >= TOPIC_COSINE {
            return if v1 == v2 {
                Relation::Same
            } else {
                Relation::Updates
            };
        }
    }
    let (a, b) = (content_words(new), content_words(old));
    if a.is_empty() || b.is_empty() {
        return Relation::Unrelated;
    }
    let shared = a.intersection(&b).count();
    let jaccard = shared as f32 / a.union(&b).count() as f32;
    if cosine >= SAME_COSINE && numbers(new) == numbers(old) && jaccard >= 0.6 {
        return Relation::Same;
    }
    if cosine >= EXTENDS_COSINE && shared == b.len() && a.len() > b.len() {
        return Relation::Extends;
    }
    Relation::Unrelated
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(new: &str, old: &str, cosine: f32, want: Relation) {
        assert_eq!(relate(new, old, cosine), want, "{new:?} vs {old:?}");
    }

    #[test]
    fn relations() {
        use Relation::*;
        check("Ana lives in Paris.", "ana lives in paris", 0.2, Same);
        check("Ana moved to Berlin.", "Ana lives in Paris.", 0.6, Updates);
        check("I now live in Berlin", "I live in Paris", 0.7, Updates);
        check(
            "Ana moved to Berlin.",
            "Ben lives in Paris.",
            0.6,
            Unrelated,
        );
        check("Ana works at Stripe.", "Ana works at Google.", 0.8, Updates);
        check(
            "Ana works as a nurse.",
            "Ana works at Google.",
            0.6,
            Unrelated,
        );
        check(
            "My favourite colour is green.",
            "My favourite colour is blue.",
            0.8,
            Updates,
        );
        check(
            "My favourite colour is blue.",
            "My favourite food is pizza.",
            0.6,
            Unrelated,
        );
        check(
            "Ana is 32 years old.",
            "Ana is 31 years old.",
            0.95,
            Updates,
        );
        check(
            "Ana went to a support group on 7 May 2023.",
            "Ana went to a support group on 20 May 2023.",
            0.97,
            Unrelated,
        );
        check("Ana has a dog named Rex.", "Ana has a dog.", 0.8, Extends);
        check(
            "Ana loves hiking in the Alps.",
            "Ana loves hiking.",
            0.3,
            Unrelated,
        );
        check(
            "Ana really likes green tea.",
            "Ana likes green tea.",
            0.95,
            Same,
        );
        check("Ana prefers tea.", "Ana prefers coffee.", 0.7, Updates);
    }

    #[test]
    fn slots() {
        let s = |t: &str| slot(t).map(|(a, b, c)| format!("{a}|{b}|{c}"));
        assert_eq!(
            s("Caroline lives in Sweden").as_deref(),
            Some("home|caroline|sweden")
        );
        assert_eq!(
            s("My favorite book is Dune").as_deref(),
            Some("favourite book|i|dune")
        );
        assert_eq!(s("Jon is 40 years old").as_deref(), Some("age|jon|40"));
        assert_eq!(s("Caroline went hiking"), None);
    }
}
