//! Candidate memories whose shape already says they are facts, so the
//! fact/not-a-fact [`judge`](crate::judge) need not weigh them: a taste
//! stated outright about a named or concrete thing ("Lena really enjoys
//! dramas and emotionally-driven films", "Tim just loves watching
//! LeBron", "John has always liked Under Armour", "Tim is hooked on Harry
//! Potter"), an aim said as one ("Lena's goal is to run a sub-4
//! marathon"), something to be done by a date ("Zoe has to be out by
//! the end of May") and a part of the body that hurts ("Rosa's back has
//! been hurting").
//!
//! The judge reads a sentence's embedding, and the words of warmth these
//! carry ("really", "love", "dream") pull it toward the chatter it was
//! shown, so it dropped them. A taste for what is in view ("Melanie loves
//! the plate", "loves the colors in the pic"), for what the listener does
//! ("loves seeing your dedication") or with a remark tacked on after a
//! comma is no such shape, and is still judged. Pure text: no IO, no
//! model.

use crate::judge::common;
use crate::offline::{is_name_word, lexicon};

/// Verbs of taste, in the forms a memory states them.
const TASTES: &[&str] = &[
    "like",
    "likes",
    "liked",
    "love",
    "loves",
    "loved",
    "enjoy",
    "enjoys",
    "enjoyed",
    "admire",
    "admires",
    "admired",
    "prefer",
    "prefers",
    "preferred",
    "adore",
    "adores",
    "enjoying",
];

/// Adverbs that may stand between the subject and the verb of taste.
const DEGREE: &[&str] = &[
    "really",
    "just",
    "truly",
    "absolutely",
    "also",
    "still",
    "always",
    "totally",
    "genuinely",
    "honestly",
    "especially",
    "particularly",
    "has",
    "have",
    "had",
    "has always",
    "is",
    "was",
];

/// Words that open an object pointing at something in view, at the
/// listener, or at nothing in particular.
const POINTING: &[&str] = &[
    "the",
    "that",
    "this",
    "these",
    "those",
    "it",
    "its",
    "what",
    "how",
    "when",
    "where",
    "why",
    "who",
    "you",
    "your",
    "me",
    "him",
    "her",
    "them",
    "us",
    "everything",
    "something",
    "anything",
    "a",
    "an",
    "so",
    "such",
    "seeing",
    "hearing",
    "knowing",
    "getting",
    "having",
    "he",
    "she",
    "they",
    "we",
    "i",
    "my",
    "his",
    "our",
    "their",
    "one",
];

/// Words in an object that make it a thing shown or said to the listener.
const SHOWN: &[&str] = &[
    "pic", "pics", "photo", "photos", "picture", "pictures", "you", "your", "yours",
];

/// Nouns of aim: "X's goal is to ...".
const AIMS: &[&str] = &["goal", "aim", "ambition", "dream"];

/// Whether `text` is, by its shape, a fact the judge need not weigh.
pub fn is_plain_fact(text: &str) -> bool {
    let text = text.trim().trim_end_matches('.');
    if text.contains([',', ';', '!', '?', ':', '"']) || text.contains(" - ") {
        return false;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    // ("... wants to see Nara too": "too" adds nothing to the shape)
    let words = match words.split_last() {
        Some((last, rest)) if matches!(*last, "too" | "as well") => rest.to_vec(),
        _ => words,
    };
    taste(&words)
        || aim(&words)
        || makes_happy(&words)
        || wants(&words)
        || deadline(&words)
        || complaint(&words)
}

/// "<Name>'s [left] <part of the body> has been hurting / is sore".
fn complaint(words: &[&str]) -> bool {
    let Some(owner) = words.first().and_then(|w| w.strip_suffix("'s")) else {
        return false;
    };
    let side = usize::from(words.get(1).is_some_and(|w| matches!(*w, "left" | "right")));
    let part = words
        .get(1 + side)
        .is_some_and(|p| lexicon::body_part(&p.to_lowercase()));
    let rest: Vec<&str> = words.iter().skip(2 + side).copied().collect();
    let hurts = match rest.as_slice() {
        ["has", "been", state, ..] | ["is" | "was" | "keeps", state, ..] => matches!(
            *state,
            "hurting" | "aching" | "sore" | "swollen" | "painful" | "throbbing" | "stiff"
        ),
        _ => false,
    };
    is_name_word(owner) && !common(owner) && part && hurts
}

/// "<Name> has to be out by the end of May": something someone must do
/// by a date (a month, a day or a year after "by").
fn deadline(words: &[&str]) -> bool {
    let Some((s, _)) = verb_at(words) else {
        return false;
    };
    // ("has to", "still needs to", "must")
    let Some(i) = words
        .iter()
        .skip(s)
        .take(3)
        .position(|w| matches!(*w, "has" | "have" | "needs" | "must"))
        .map(|p| s + p)
    else {
        return false;
    };
    let must = words[i] == "must" || words.get(i + 1) == Some(&"to");
    let by = words.iter().skip(i + 1).position(|w| *w == "by");
    let dated = by.is_some_and(|b| {
        words[i + 1 + b + 1..].iter().any(|w| {
            crate::offline::dates::MONTHS
                .iter()
                .any(|m| m.eq_ignore_ascii_case(w))
                || w.chars().all(|c| c.is_ascii_digit()) && w.len() == 4
        })
    });
    must && dated
}

/// "<Name> [really] wants to see Nara": a want of a named thing or place,
/// said outright.
fn wants(words: &[&str]) -> bool {
    let Some((_, i)) = verb_at(words) else {
        return false;
    };
    let want = words.get(i).is_some_and(|w| *w == "wants");
    // (to see or do a thing, not "to give John the heads up")
    let base = words.get(i + 2).is_some_and(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "see" | "visit" | "try" | "learn" | "climb" | "watch" | "read" | "play" | "hike"
        )
    });
    want && words.get(i + 1) == Some(&"to")
        && base
        && words
            .get(i + 3..)
            .is_some_and(|o| o.first().is_some_and(|f| is_name_word(f) && !common(f)))
}

/// Where a named subject ends and, past adverbs of degree, the verb
/// starts: `(subject length, verb index)`; `None` with no one named first.
fn verb_at(words: &[&str]) -> Option<(usize, usize)> {
    let s = subject_len(words);
    if s == 0 {
        return None;
    }
    let mut i = s;
    while i < words.len() && DEGREE.contains(&words[i].to_lowercase().as_str()) {
        i += 1;
    }
    Some((s, i))
}

/// The number of leading words that name someone ("Lena", "Anne Marie").
fn subject_len(words: &[&str]) -> usize {
    words
        .iter()
        .take_while(|w| is_name_word(w) && !common(w))
        .count()
}

/// "<Name> [really|just|has always ...] loves/enjoys/likes <concrete object>".
fn taste(words: &[&str]) -> bool {
    let Some((s, i)) = verb_at(words) else {
        return false;
    };
    let Some(verb) = words.get(i) else {
        return false;
    };
    let verb = verb.to_lowercase();
    // "is enjoying" but not "enjoying" alone; "is all about dramas"
    let be = words[s..i].iter().any(|w| matches!(*w, "is" | "was"));
    if verb == "all" && be && words.get(i + 1) == Some(&"about") {
        return concrete(&words[i + 2..]);
    }
    // "is totally hooked on Harry Potter", "is obsessed with Wordle"
    let on = words
        .get(i + 1)
        .is_some_and(|p| matches!(*p, "on" | "with"));
    if matches!(verb.as_str(), "hooked" | "obsessed") && be && on {
        return concrete(&words[i + 2..]);
    }
    if !TASTES.contains(&verb.as_str()) || (verb == "enjoying") != be {
        return false;
    }
    concrete(&words[i + 1..])
}

/// "Dancing makes Jon so happy": a doing or a thing (a gerund or a bare
/// noun) that makes someone named happy.
fn makes_happy(words: &[&str]) -> bool {
    let Some(m) = words
        .iter()
        .position(|w| matches!(*w, "makes" | "make"))
        .filter(|m| (1..=3).contains(m))
    else {
        return false;
    };
    let head = words[0].to_lowercase();
    let thing = match lexicon::verb(&head) {
        Some((_, lexicon::VerbForm::Gerund)) => true,
        Some(_) => false,
        None => !POINTING.contains(&head.as_str()),
    };
    let rest = &words[m + 1..];
    let s = subject_len(rest);
    let tail: Vec<String> = rest[s..].iter().map(|w| w.to_lowercase()).collect();
    let tail: Vec<&str> = tail.iter().map(String::as_str).collect();
    thing
        && s > 0
        && matches!(
            tail.as_slice(),
            ["happy"] | ["so", "happy"] | ["really", "happy"]
        )
}

/// An object that names a thing or a doing of one's own: a gerund
/// ("watching LeBron"), a name ("Under Armour"), a bare noun ("dramas and
/// films", "spicy food"), or "to" and a doing ("to hike on weekends").
fn concrete(object: &[&str]) -> bool {
    let Some(first) = object.first() else {
        return false;
    };
    let lower: Vec<String> = object.iter().map(|w| w.to_lowercase()).collect();
    if lower.iter().any(|w| SHOWN.contains(&w.as_str())) {
        return false;
    }
    let head = lower[0].as_str();
    // "their new job": the subject's own
    if head == "their" {
        return object.len() >= 2 && concrete(&object[1..]);
    }
    if POINTING.contains(&head) {
        return false;
    }
    if head == "to" {
        return object.len() >= 4
            && lexicon::verb(&lower[1]).is_some_and(|(_, f)| f == lexicon::VerbForm::Base);
    }
    if is_name_word(first) && !common(first) {
        return true;
    }
    match lexicon::verb(head) {
        Some((_, lexicon::VerbForm::Gerund)) => object.len() >= 2,
        // "Tim loves brings ...": a verb where the object should be
        Some(_) => false,
        None => head.chars().all(|c| c.is_alphabetic() || c == '-'),
    }
}

/// "<Name>'s goal [in 2025] is to <do something>".
fn aim(words: &[&str]) -> bool {
    let Some(owner) = words.first() else {
        return false;
    };
    let Some(name) = owner
        .strip_suffix("'s")
        .or_else(|| owner.strip_suffix("\u{2019}s"))
    else {
        return false;
    };
    if !is_name_word(name) || common(name) {
        return false;
    }
    if !words
        .get(1)
        .is_some_and(|w| AIMS.contains(&w.to_lowercase().as_str()))
    {
        return false;
    }
    let Some(is) = words.iter().position(|w| *w == "is") else {
        return false;
    };
    words.get(is + 1) == Some(&"to")
        && words
            .get(is + 2)
            .and_then(|w| lexicon::verb(&w.to_lowercase()))
            .is_some_and(|(_, f)| f == lexicon::VerbForm::Base)
        && words.len() >= is + 4
}

#[cfg(test)]
mod tests {
    use super::is_plain_fact;

    fn check(text: &str, expect: bool) {
        assert_eq!(is_plain_fact(text), expect, "{text}");
    }

    #[test]
    fn a_part_of_the_body_that_hurts_is_a_plain_fact() {
        check("Rosa's back has been hurting.", true);
        check("Rosa's left knee is sore after the hike.", true);
        check("Rosa's back is great.", false);
        check("The back has been hurting.", false);
    }

    #[test]
    fn tastes_for_concrete_things_are_plain_facts() {
        check(
            "Lena really enjoys dramas and emotionally-driven films.",
            true,
        );
        check("Kai really wants to see Nara too.", true);
        check("Kai wants to see it.", false);
        check("Tim just loves watching LeBron.", true);
        check("Lena just loves watching Serena Williams play.", true);
        check("John has always liked Under Armour.", true);
        check("Tim will always love reading.", false);
        check("Gina loves being around friends.", true);
        check("Maria loves spending time with her church friends.", true);
        check("Nate likes to play video games after work.", true);
        check("Ada prefers green tea.", true);
        check("Anne Marie loves jazz.", true);
        check("Joanna is all about dramas and romcoms.", true);
        check(
            "Tim is totally hooked on Harry Potter and Game of Thrones.",
            true,
        );
        check("Tim is hooked on it.", false);
        check("Zoe has to be out by the end of May.", true);
        check("Wes has to be out by June.", true);
        check("Wes has to be out by then.", false);
        check("John is really enjoying their new job.", true);
        check("John enjoying their new job.", false);
        check("Melanie loves their kids.", true);
        check("Dancing makes Jon so happy.", true);
        check("Pottery makes Melanie happy.", true);
        check("It makes Jon so happy.", false);
        check("Seeing Gina makes Jon happy.", true);
        check("Winning makes Tim keep going.", false);
    }

    #[test]
    fn tastes_for_what_is_shown_or_said_are_judged() {
        check("Melanie loves the plate.", false);
        check(
            "Caroline loves the colors and the chilled-out sunset vibe.",
            false,
        );
        check(
            "Melanie loves seeing Caroline's dedication to helping others.",
            false,
        );
        check("John seriously admires what Maria does.", false);
        check("Nate loves to help, so just shoot Nate a question.", false);
        check("Joanna loves it.", false);
        check("Tim loves brings so much joy.", false);
        check("Dave loves that idea.", false);
        check("Ines loves the details in the picture.", false);
        check("Ravi loves your photos of Lisbon.", false);
        check("I love it.", false);
        check("Pets make Nate so much happier.", false);
        check("Melanie loves their support.", false);
        check("'Embracing Identity' is all about finding comfort.", false);
    }

    #[test]
    fn aims_said_outright_are_plain_facts() {
        check("Lena's goal in 2025 is to run a sub-4 marathon.", true);
        check("John's goal is to improve their shooting percentage.", true);
        check("John's goal is to win.", false);
        check("John's dream is amazing.", false);
        check("Keep going, your goal is to finish.", false);
    }
}
