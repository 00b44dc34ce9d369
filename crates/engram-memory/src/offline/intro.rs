//! Names people give themselves ("I'm Maya", "my name is Tom Baker",
//! "call me Sam"), and names a space's description gives its person
//! ("Memories about Maya", "The user is Tom"). A name is one to three
//! capitalised words that are not common words, nationalities or states.

use super::clauses::bare;

/// Capitalised words after "I'm" that describe rather than name.
const NOT_NAMES: &[&str] = &[
    "a",
    "an",
    "the",
    "so",
    "very",
    "really",
    "just",
    "also",
    "here",
    "there",
    "back",
    "home",
    "fine",
    "good",
    "great",
    "ok",
    "okay",
    "well",
    "sorry",
    "sure",
    "glad",
    "happy",
    "sad",
    "tired",
    "busy",
    "free",
    "ready",
    "done",
    "new",
    "not",
    "still",
    "now",
    "always",
    "never",
    "in",
    "on",
    "at",
    "from",
    "with",
    "into",
    "excited",
    "thrilled",
    "gonna",
    "going",
    "trying",
    "working",
    "living",
    "feeling",
    "doing",
    "thinking",
    "looking",
    "currently",
    "actually",
    "finally",
    "english",
    "british",
    "american",
    "canadian",
    "french",
    "german",
    "spanish",
    "italian",
    "irish",
    "scottish",
    "welsh",
    "dutch",
    "swedish",
    "norwegian",
    "danish",
    "finnish",
    "polish",
    "portuguese",
    "brazilian",
    "mexican",
    "chinese",
    "japanese",
    "korean",
    "indian",
    "african",
    "australian",
    "european",
    "asian",
    "latino",
    "latina",
    "jewish",
    "muslim",
    "christian",
    "catholic",
    "buddhist",
    "hindu",
    "atheist",
    "vegan",
    "vegetarian",
    "user",
    "assistant",
    "human",
    "bot",
    "god",
    "i",
    "it",
    "this",
    "that",
    "no",
    "yes",
    "hi",
    "hey",
    "hello",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "memories",
    "notes",
    "space",
    "customer",
    "client",
    "patient",
    "student",
    "person",
    "people",
    // common nouns that open sentences ("Things have been tough for her")
    "things",
    "stuff",
    "life",
    "everything",
    "everyone",
    "everybody",
    "family",
    "friends",
    "work",
    "school",
    // function words that open sentences
    "he",
    "she",
    "we",
    "they",
    "you",
    "me",
    "him",
    "us",
    "them",
    "his",
    "her",
    "our",
    "their",
    "your",
    "my",
    "its",
    "there",
    "then",
    "when",
    "where",
    "what",
    "who",
    "why",
    "how",
    "which",
    "and",
    "but",
    "or",
    "so",
    "if",
    "as",
    "because",
    "since",
    "after",
    "before",
    "while",
    "though",
    "although",
    "maybe",
    "perhaps",
    "today",
    "tomorrow",
    "yesterday",
    "tonight",
    "last",
    "next",
    "every",
    "some",
    "any",
    "all",
    "both",
    "each",
    "many",
    "most",
    "one",
    "two",
    "three",
    "these",
    "those",
    "such",
    "another",
    "other",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "nobody",
    "nothing",
    "everything",
    "something",
    "anyone",
    "anything",
    "thanks",
    "thank",
    "please",
    "sure",
    "wow",
    "oh",
    "ah",
    "aw",
    "yeah",
    "yep",
    "nope",
    "lol",
    "haha",
    "omg",
    "of",
    "to",
    "by",
    "for",
    "about",
    "like",
    "over",
    "under",
    "during",
    "without",
];

pub fn is_name_word(w: &str) -> bool {
    let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'');
    let first = core.chars().next();
    first.is_some_and(char::is_uppercase)
        && core
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        && core.chars().count() >= 2
        && !NOT_NAMES.contains(&core.to_lowercase().as_str())
        // "I've", "I'm", "I'd", "I'll": the speaker, not a name
        && !core.starts_with("I'")
        // "Can't", "Won't", "Didn't", "Let's", "That'll": a contraction
        // opening a sentence, not a name ("Can't wait!" names no one)
        && !is_contraction(core)
}

/// Whether a word is a contraction of a verb ("can't", "let's", "that'll",
/// "we'd"): never a name, even capitalised. A possessive ("Maya's") or an
/// apostrophe inside a name ("O'Neil", "D'Angelo") is not one.
fn is_contraction(core: &str) -> bool {
    let lower = core.to_lowercase().replace('\u{2019}', "'");
    lower.ends_with("n't")
        || lower == "let's"
        || ["'ll", "'ve", "'re", "'d"]
            .iter()
            .any(|end| lower.ends_with(end) && lower.len() > end.len())
}

/// The name at the start of `words` (one to three name words, stopping at
/// punctuation), and how many words it took.
fn name_at(words: &[&str]) -> Option<(String, usize)> {
    let mut parts: Vec<&str> = Vec::new();
    for w in words.iter().take(3) {
        if !is_name_word(w) {
            break;
        }
        let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'');
        parts.push(core);
        if w.ends_with([',', '.', '!', ';', ':', '?']) {
            break;
        }
    }
    (!parts.is_empty()).then(|| (parts.join(" "), parts.len()))
}

/// The name a clause introduces its speaker by, and the words after it
/// ("I'm Maya from Lisbon" -> `("Maya", "from Lisbon")`).
pub fn introduced(clause: &str) -> Option<(String, String)> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let at = |i: usize| lower.get(i).map(String::as_str).unwrap_or("");
    let skip = match (at(0), at(1), at(2)) {
        ("i'm", _, _) | ("im", _, _) => 1,
        ("i", "am", _) => 2,
        ("name's", _, _) => 1,
        ("my", "name's", _) => 2,
        ("my", "name", "is") => 3,
        ("call", "me", _) => 2,
        ("you", "can", "call") if at(3) == "me" => 4,
        ("people", "call", "me") => 3,
        ("this", "is", _) => 2,
        _ => {
            // "Maya here"
            if at(1) == "here" && words.len() == 2 && is_name_word(words[0]) {
                let (name, _) = name_at(&words[..1])?;
                return Some((name, String::new()));
            }
            return None;
        }
    };
    let (name, n) = name_at(&words[skip..])?;
    let rest = words[skip + n..].join(" ");
    let rest_lower = rest.to_lowercase();
    // "I'm Maya" ends there, or goes on with where from or an aside
    let aside = rest_lower.trim_matches(['.', '!', ',', ' ']);
    let ok = aside.is_empty()
        || matches!(aside, "by the way" | "btw" | "here" | "fyi")
        || rest_lower.starts_with("from ")
        || rest_lower.starts_with("and ")
        || rest.starts_with(',')
        || words[skip + n - 1].ends_with([',', '.', '!']);
    let rest = match aside {
        "by the way" | "btw" | "here" | "fyi" => "",
        _ => rest.trim_matches(['.', '!', ',', ' ']),
    };
    ok.then(|| (name, rest.to_string()))
}

/// What the words after a self-introduction's name say of the speaker,
/// as a clause of their own, when they describe them: "a nurse from
/// Leeds" ("I'm a nurse from Leeds"), an age ("34"), a year of study
/// ("second year at McGill": "I'm in my second year at McGill"). Anything
/// else ("nice to meet you", "how are you") is `None`.
pub(super) fn described(rest: &str) -> Vec<String> {
    // "41, divorced, two kids (Mia 12 and Sol 9)": each part said of them,
    // when every part says something (a part in brackets stays whole)
    let parts = super::note_values::comma_parts(rest);
    let said: Vec<Option<String>> = parts.iter().map(|p| described_part(p.trim())).collect();
    if parts.len() > 1 && said.iter().all(Option::is_some) {
        return said.into_iter().flatten().collect();
    }
    described_part(rest.trim()).into_iter().collect()
}

/// States a person may be in, said bare after their name ("I'm Rex, 41,
/// divorced").
const STATES: &[&str] = &[
    "divorced",
    "married",
    "single",
    "separated",
    "widowed",
    "retired",
    "engaged",
    "vegan",
    "vegetarian",
    "pregnant",
];

/// One part of what follows an introduction, said of the speaker.
fn described_part(rest: &str) -> Option<String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let at = |i: usize| lower.get(i).map(String::as_str).unwrap_or("");
    let ordinal = |w: &str| {
        matches!(
            w,
            "first" | "second" | "third" | "fourth" | "fifth" | "final" | "last"
        )
    };
    match at(0) {
        // ("a bit tired", "a little lost": how they feel, no description)
        "a" | "an" if !matches!(at(1), "bit" | "little" | "lot") && words.len() >= 2 => {
            Some(format!("I'm {rest}"))
        }
        w if ordinal(w) && matches!(at(1), "year" | "years") => Some(format!("I'm in my {rest}")),
        w if w.strip_suffix("-year").is_some_and(ordinal) => Some(format!("I'm a {rest}")),
        // an age, said alone or with "years old"
        w if w.parse::<u32>().is_ok_and(|n| (1..=120).contains(&n))
            && (words.len() == 1 || matches!(at(1), "years" | "yo" | "y/o")) =>
        {
            Some(format!("I'm {rest}"))
        }
        // ("divorced", "retired"): a state they are in
        w if STATES.contains(&w) && words.len() == 1 => Some(format!("I'm {rest}")),
        // ("two kids (Mia 12 and Sol 9)"): children they have
        w if crate::offline::lexicon::number(w).is_some_and(|n| (1..=12).contains(&n))
            && matches!(
                at(1),
                "kids"
                    | "children"
                    | "sons"
                    | "daughters"
                    | "boys"
                    | "girls"
                    | "kid"
                    | "child"
                    | "son"
                    | "daughter"
            ) =>
        {
            Some(format!("I have {rest}"))
        }
        // ("from Leeds")
        "from" if words.len() >= 2 => Some(format!("I'm {rest}")),
        // ("backend engineer at Deliveroo"): what they do, its article left
        // out
        _ if occupation_bare(&lower) => {
            let article = if at(0).starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            Some(format!("I'm {article} {rest}"))
        }
        _ => None,
    }
}

/// Whether words open with an occupation said without its article: up
/// to three words ending in one ("backend engineer", "nurse"), then
/// nothing or where ("at Deliveroo", "in Leeds"), and no verb.
fn occupation_bare(lower: &[String]) -> bool {
    let end = lower
        .iter()
        .position(|w| matches!(w.as_str(), "at" | "in" | "for" | "from" | "with"))
        .unwrap_or(lower.len());
    (1..=3).contains(&end)
        && crate::offline::lexicon::is_occupation(&lower[end - 1])
        && !lower
            .iter()
            .any(|w| crate::offline::lexicon::verb(w).is_some_and(|(b, _)| b != "work"))
}

/// The person a space's description names, if it names one plainly
/// ("Memories about Maya", "The user is Tom Baker", "Maya, a nurse in
/// Leeds").
pub fn from_context(context: &str) -> Option<String> {
    let words: Vec<&str> = context.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    for i in 0..words.len() {
        let cue = |k: usize, s: &str| lower.get(i + k).is_some_and(|w| w == s);
        let subject = ["user", "user's", "person", "name"]
            .iter()
            .any(|s| cue(0, s));
        let after = if subject && cue(1, "is") {
            Some(i + 2)
        } else if cue(0, "named") || cue(0, "called") || cue(0, "about") {
            Some(i + 1)
        } else {
            None
        };
        if let Some(j) = after {
            if let Some((name, _)) = name_at(&words[j..]) {
                return Some(name);
            }
        }
    }
    // "Maya, a 34-year-old nurse" / "Maya is a nurse"
    let (name, n) = name_at(&words)?;
    let next = lower.get(n).map(String::as_str).unwrap_or("");
    let lead_comma = words[n - 1].ends_with(',');
    (lead_comma || next == "is").then_some(name)
}

/// How a self-introduction is remembered: "Sam is the user's name."
pub(super) const NAME_FACT: &str = " is the user's name.";

/// Whether `memory` only says what the user is called (a self-introduction
/// remembered), which answers a question about a name and nothing else:
/// search ranks it below the facts about the named person when the
/// question asks something else ("what does Sam do for a living?").
pub fn says_a_name(memory: &str) -> bool {
    memory
        .strip_suffix(NAME_FACT)
        .is_some_and(|name| !name.is_empty() && !name.contains('.'))
}

/// Whether a question asks for a name ("what's her name?", "who is the
/// user?", "what should I call you?").
pub fn asks_for_a_name(question: &str) -> bool {
    // "what is the name of Tom's dog?", "what's her cat's name?": the name
    // of a thing or an animal, not of a person
    let words: Vec<&str> = question.split_whitespace().collect();
    let common = |w: &str| {
        let b = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        let b = b.strip_suffix("'s").unwrap_or(b);
        b.chars().next().is_some_and(char::is_lowercase)
            && !matches!(
                b,
                "user" | "person" | "guy" | "girl" | "man" | "woman" | "friend"
            )
    };
    for (i, w) in words.iter().enumerate() {
        let b = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if b != "name" {
            continue;
        }
        let of_thing = words.get(i + 1).is_some_and(|n| *n == "of")
            && words[i + 2..].last().is_some_and(|last| common(last));
        let things_name = i > 0 && words[i - 1].ends_with("'s") && common(words[i - 1]);
        if of_thing || things_name {
            return false;
        }
    }
    question.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "name" | "names" | "named" | "called" | "call" | "who" | "whom" | "introduce"
        )
    })
}

#[cfg(test)]
#[path = "intro_tests.rs"]
mod tests;
