//! Word lists the offline extractor reads sentences with: common English
//! verbs in their forms (to find clause boundaries, elided subjects and
//! imperatives) and occupations (to recognise a job in "Ana is a nurse").
//! General English, nothing fitted to any data set.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Common verbs: `(base, past)`; the third person and `-ing` forms are
/// derived. A past of `""` means the regular `-ed` form.
const VERBS_TEXT: &str = include_str!("../../data/verbs.txt");

/// The verbs of `data/verbs.txt`: `(base, past)`, past `""` when regular.
fn verbs() -> &'static [(&'static str, &'static str)] {
    static VERBS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    VERBS.get_or_init(|| {
        VERBS_TEXT
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.split_once(' ').unwrap_or((l, "")))
            .collect()
    })
}

/// Past participles that differ from the past.
const PARTICIPLES: &[&str] = &[
    "arisen",
    "awoken",
    "become",
    "been",
    "begun",
    "bitten",
    "broken",
    "chosen",
    "done",
    "drawn",
    "driven",
    "eaten",
    "fallen",
    "flown",
    "forbidden",
    "forgotten",
    "given",
    "gone",
    "grown",
    "known",
    "mistaken",
    "outgrown",
    "ridden",
    "run",
    "seen",
    "shrunk",
    "spoken",
    "sung",
    "swum",
    "taken",
    "torn",
    "undergone",
    "undertaken",
    "withdrawn",
    "worn",
    "written",
];

/// `base + -ed`, with the usual spelling changes.
/// The past of a listed verb's base ("organize" -> "organized", "take"
/// -> "took").
pub fn past_of(base: &str) -> Option<String> {
    let (b, past) = verbs().iter().find(|(b, _)| *b == base)?;
    Some(if past.is_empty() {
        regular_past(b)
    } else {
        past.to_string()
    })
}

fn regular_past(base: &str) -> String {
    let b = base.as_bytes();
    let n = b.len();
    if base.ends_with('e') {
        format!("{base}d")
    } else if base.ends_with('y') && n > 1 && !b"aeiou".contains(&b[n - 2]) {
        format!("{}ied", &base[..n - 1])
    } else if n >= 3 && DOUBLED.contains(&base) {
        format!("{base}{}ed", &base[n - 1..])
    } else {
        format!("{base}ed")
    }
}

/// Verbs that double their last consonant before -ed and -ing.
const DOUBLED: &[&str] = &[
    "plan", "stop", "shop", "blog", "drop", "jog", "hug", "wrap", "grab", "admit", "submit",
    "occur", "skip", "shut", "put", "babysit", "dig", "regret", "vlog", "forget", "chat", "nap",
    "snap", "grin", "nod", "rub", "hit", "set", "bet", "slip", "chop", "clap", "beg", "drag",
    "shrug", "refer", "split", "cut",
];

/// `base + -ing`, with the usual spelling changes.
fn gerund(base: &str) -> String {
    let n = base.len();
    if base.ends_with("ie") {
        format!("{}ying", &base[..n - 2])
    } else if base.ends_with('e') && !base.ends_with("ee") && base != "be" {
        format!("{}ing", &base[..n - 1])
    } else if DOUBLED.contains(&base) || matches!(base, "run" | "swim" | "sit" | "win" | "get") {
        format!("{base}{}ing", &base[n - 1..])
    } else {
        format!("{base}ing")
    }
}

/// `base + -s`, with the usual spelling changes.
fn third(base: &str) -> String {
    match base {
        "be" => return "is".into(),
        "have" => return "has".into(),
        "do" => return "does".into(),
        "go" => return "goes".into(),
        _ => {}
    }
    let b = base.as_bytes();
    let n = b.len();
    if base.ends_with('y') && n > 1 && !b"aeiou".contains(&b[n - 2]) {
        format!("{}ies", &base[..n - 1])
    } else if ["s", "sh", "ch", "x", "z"]
        .iter()
        .any(|e| base.ends_with(e))
    {
        format!("{base}es")
    } else {
        format!("{base}s")
    }
}

/// The form a word has as a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerbForm {
    Base,
    Third,
    Past,
    Gerund,
}

/// Nouns far more often than verbs ("a quote") whose past is a verb only
/// ("the builder quoted £18k").
const NOUNS_WITH_A_PAST: &[&str] = &["quote"];

/// Every form of every listed verb, built once.
fn table() -> &'static HashMap<String, (&'static str, VerbForm)> {
    static TABLE: OnceLock<HashMap<String, (&'static str, VerbForm)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        // later inserts never replace earlier ones: a base wins over a
        // past spelled the same ("read", "quit")
        let mut put = |w: String, v: (&'static str, VerbForm)| {
            t.entry(w).or_insert(v);
        };
        for (base, _) in verbs() {
            put(base.to_string(), (*base, VerbForm::Base));
        }
        for (base, past) in verbs() {
            let past_form = if past.is_empty() {
                regular_past(base)
            } else {
                past.to_string()
            };
            put(past_form, (*base, VerbForm::Past));
            put(third(base), (*base, VerbForm::Third));
            put(gerund(base), (*base, VerbForm::Gerund));
            // "cancelled", "travelling": a final l doubled, as British
            // spelling has it, besides "canceled", "traveling"
            let b = base.as_bytes();
            let vowel = |c: u8| b"aeiou".contains(&c);
            if past.is_empty()
                && b.len() >= 5
                && base.ends_with('l')
                && vowel(b[b.len() - 2])
                && !vowel(b[b.len() - 3])
            {
                put(format!("{base}led"), (*base, VerbForm::Past));
                put(format!("{base}ling"), (*base, VerbForm::Gerund));
            }
        }
        // "booked", "ordered", "reserved": the verbs of arranging are left
        // out of the list as bases ("a book", "in order"), but their past
        // is a verb only
        for a in ARRANGING.iter().chain(NOUNS_WITH_A_PAST) {
            let past = if a.ends_with('e') {
                format!("{a}d")
            } else {
                format!("{a}ed")
            };
            put(past, (*a, VerbForm::Past));
        }
        for p in PARTICIPLES {
            let base = participle_of(p);
            if let Some((b, _)) = verbs().iter().find(|(b, _)| *b == base) {
                put(p.to_string(), (*b, VerbForm::Past));
            }
        }
        t
    })
}

/// What a (lowercase) word is as a common verb, if it is one: its base
/// and form. A word that is both a base and a past form ("read", "quit")
/// reads as the base.
pub fn verb(word: &str) -> Option<(&'static str, VerbForm)> {
    table().get(word).copied()
}

/// The base a participle belongs to.
fn participle_of(p: &str) -> &'static str {
    match p {
        "arisen" => "arise",
        "awoken" => "awake",
        "become" => "become",
        "been" => "be",
        "begun" => "begin",
        "bitten" => "bite",
        "broken" => "break",
        "chosen" => "choose",
        "done" => "do",
        "drawn" => "draw",
        "driven" => "drive",
        "eaten" => "eat",
        "fallen" => "fall",
        "flown" => "fly",
        "forbidden" => "forbid",
        "forgotten" => "forget",
        "given" => "give",
        "gone" => "go",
        "grown" => "grow",
        "known" => "know",
        "mistaken" => "mistake",
        "outgrown" => "outgrow",
        "ridden" => "ride",
        "run" => "run",
        "seen" => "see",
        "shrunk" => "shrink",
        "spoken" => "speak",
        "sung" => "sing",
        "swum" => "swim",
        "taken" => "take",
        "torn" => "tear",
        "undergone" => "undergo",
        "undertaken" => "undertake",
        "withdrawn" => "withdraw",
        "worn" => "wear",
        "written" => "write",
        _ => "",
    }
}

/// A number written in digits or as a common word ("three", "twenty").
pub fn number(w: &str) -> Option<i64> {
    Some(match w {
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        "twenty" => 20,
        "thirty" => 30,
        "forty" => 40,
        "fifty" => 50,
        _ => return w.parse().ok(),
    })
}

// events one has, and the words that tell of them
#[path = "lexicon_events.rs"]
mod events;
pub use events::*;

/// Titles said before a name ("Dr. Lin", "Ms Park", "Prof Adeyemi"),
/// lower case, without their full stop.
const TITLES: &[&str] = &["dr", "prof", "mr", "mrs", "ms", "miss", "mx"];

/// Whether `word` is a title said before a name, in any case and with or
/// without its full stop ("Dr.", "Ms", "prof").
pub fn is_title(word: &str) -> bool {
    TITLES.contains(&word.trim_end_matches('.').to_lowercase().as_str())
}

/// Parts of the body (a side, "left" or "right", is said of them; a hurt
/// one is an injury: "sprained paw").
pub const BODY_PARTS: &[&str] = &[
    "knee", "leg", "arm", "hand", "foot", "eye", "ear", "shoulder", "hip", "ankle", "wrist",
    "elbow", "side", "lung", "kidney", "thumb", "calf", "heel", "paw", "toe", "finger", "neck",
    "tail", "wing",
];

/// Parts of the body that ache, beyond [`BODY_PARTS`] (words with other
/// senses, like "back", kept out of that list): said after "my" they are
/// the speaker's ("my back has been hurting").
pub const ACHING_PARTS: &[&str] = &[
    "back",
    "head",
    "stomach",
    "tummy",
    "chest",
    "throat",
    "tooth",
    "teeth",
    "jaw",
    "feet",
    "knees",
    "hips",
    "shoulders",
    "legs",
    "eyes",
    "joints",
];

/// Whether `w` (bare) ends as the name of a condition does
/// ("tendonitis", "scoliosis", "fibromyalgia").
pub fn condition_by_ending(w: &str) -> bool {
    ["itis", "osis", "algia"].iter().any(|e| w.ends_with(e))
}

/// Whether `w` (bare) names a part of the body.
pub fn body_part(w: &str) -> bool {
    BODY_PARTS.contains(&w) || ACHING_PARTS.contains(&w)
}

/// Auxiliaries and modals that may open a clause after its subject.
pub const AUXILIARIES: &[&str] = &[
    "am",
    "is",
    "are",
    "was",
    "were",
    "have",
    "has",
    "had",
    "do",
    "does",
    "did",
    "will",
    "would",
    "can",
    "could",
    "should",
    "shall",
    "may",
    "might",
    "must",
    "don't",
    "doesn't",
    "didn't",
    "won't",
    "can't",
    "couldn't",
    "haven't",
    "hasn't",
    "wasn't",
    "isn't",
    "aren't",
    "used",
    "gonna",
    "wanna",
    "weren't",
    "wouldn't",
    "shouldn't",
    "hadn't",
];

/// Occupations, by the head noun of "a(n) ... <noun>" ("a marine
/// biologist", "a software engineer").
const OCCUPATIONS: &str = include_str!("../../data/occupations.txt");

/// Whether a (lowercase) noun names an occupation.
pub fn is_occupation(noun: &str) -> bool {
    static SET: OnceLock<std::collections::HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        OCCUPATIONS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    })
    .contains(noun)
}

/// Nouns for people related to someone ("my sister"): who a pronoun may
/// point back to. `(noun, plural)`.
pub const PERSON_NOUNS: &[(&str, bool)] = &[
    ("mother", false),
    ("mom", false),
    ("mum", false),
    ("father", false),
    ("dad", false),
    ("sister", false),
    ("brother", false),
    ("son", false),
    ("daughter", false),
    ("wife", false),
    ("husband", false),
    ("partner", false),
    ("boyfriend", false),
    ("girlfriend", false),
    ("fiance", false),
    ("fiancee", false),
    ("friend", false),
    ("boss", false),
    ("manager", false),
    ("supervisor", false),
    ("colleague", false),
    ("coworker", false),
    ("neighbor", false),
    ("neighbour", false),
    ("landlord", false),
    ("landlady", false),
    ("grandma", false),
    ("gran", false),
    ("granny", false),
    ("nan", false),
    ("nana", false),
    ("grandmother", false),
    ("grandad", false),
    ("granddad", false),
    ("grandpa", false),
    ("grandfather", false),
    ("aunt", false),
    ("uncle", false),
    ("cousin", false),
    ("niece", false),
    ("nephew", false),
    ("roommate", false),
    ("flatmate", false),
    ("housemate", false),
    ("mentor", false),
    ("therapist", false),
    ("teacher", false),
    ("doctor", false),
    ("kids", true),
    ("twins", true),
    ("sons", true),
    ("daughters", true),
    ("children", true),
    ("parents", true),
    ("friends", true),
    ("sisters", true),
    ("brothers", true),
    ("siblings", true),
    ("grandparents", true),
    ("family", true),
    ("fam", true),
    ("team", true),
    ("crew", true),
    ("colleagues", true),
    ("coworkers", true),
    ("neighbors", true),
    ("neighbours", true),
    ("students", true),
    ("cousins", true),
];

/// What someone aims at, said with no "my" in chat ("next goal is a full
/// marathon", "main priority is the move").
pub(crate) const OWN_AIMS: &[&str] = &[
    "goal", "goals", "plan", "dream", "target", "priority", "aim",
];

/// A best of one's own, before the thing measured ("longest run so far
/// is 16k", "best time was 52:30").
pub(super) const OWN_BESTS: &[&str] = &[
    "longest", "fastest", "best", "furthest", "farthest", "heaviest",
];

/// Symptoms that come and go, which one speaks of with no "my"
/// ("migraines are down to once a month") and counts by how often.
pub(crate) const SYMPTOMS: &[&str] = &[
    "migraines",
    "headaches",
    "symptoms",
    "seizures",
    "nosebleeds",
    "cramps",
    "nightmares",
    "flare-ups",
];

#[cfg(test)]
#[path = "lexicon_tests.rs"]
mod tests;
