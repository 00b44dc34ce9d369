//! The surface of what was said, made into the wording of a memory:
//! interjections and opening phrases dropped ([`super::openers`]), a name the sentence is
//! addressed to dropped, "called X" said as "named X", an age spelt out,
//! and the sentence tidied. A left-out subject is put back in
//! `subjects.rs`.

use super::clauses;
use super::lexicon::{verb, VerbForm};
pub(super) use super::openers::strip_openers;

/// Drop a name the sentence is addressed to ("Caroline, I think ..."
/// and "... for me, Caroline."): a vocative, not part of the fact. A
/// short form of a name counts too ("Mel, ...").
pub(super) fn strip_vocative<'a>(s: &'a str, people: &[&str]) -> &'a str {
    let mut s = s.trim();
    // "Lea, who speaks some Portuguese, is ...": the one spoken of
    let spoken_of = |rest: &str| {
        rest.split_whitespace()
            .next()
            .is_some_and(|w| matches!(w, "who" | "whose" | "which"))
    };
    let short = |name: &str| {
        name.len() >= 3
            && name.chars().next().is_some_and(char::is_uppercase)
            && name.chars().all(char::is_alphabetic)
            && people.iter().any(|p| p.starts_with(name))
    };
    if let Some((head, rest)) = s.split_once(", ") {
        if short(head) && !spoken_of(rest) {
            s = rest.trim_start();
        }
    }
    // "... so inspiring, Mel!"
    let end = s.trim_end_matches(['.', '!']);
    if let Some((head, name)) = end.rsplit_once(", ") {
        if short(name) {
            s = head.trim_end();
        }
    }
    for p in people {
        if let Some(rest) = s
            .strip_prefix(p)
            .and_then(|r| r.strip_prefix(','))
            .filter(|r| !spoken_of(r))
        {
            s = rest.trim_start();
        }
        let end = s.trim_end_matches(['.', '!']);
        if let Some(head) = end
            .strip_suffix(p)
            .and_then(|h| h.trim_end().strip_suffix(','))
        {
            s = head.trim_end();
        }
    }
    s
}

/// "a beagle called Rufus" says "named": one wording for names, so that a
/// question about a name finds it. So does "John's son's name is Kyle"
/// ("John's son is named Kyle").
pub(super) fn named(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    if let Some(i) = words
        .windows(3)
        .position(|w| w[1] == "name" && w[2] == "is" && w[0].ends_with("'s") && w[0].len() > 2)
    {
        // someone's someone: the owner was a possessive before it
        if i >= 1 && words[i - 1].ends_with("'s") {
            let mut out: Vec<String> = words[..i].iter().map(|w| w.to_string()).collect();
            out.push(words[i].trim_end_matches("'s").to_string());
            out.push("is named".to_string());
            out.extend(words[i + 3..].iter().map(|w| w.to_string()));
            return named(&out.join(" "));
        }
    }
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next_is_name = words
            .get(i + 1)
            .is_some_and(|n| n.chars().next().is_some_and(char::is_uppercase));
        let after_noun = i > 0
            && !matches!(
                words[i - 1].to_ascii_lowercase().as_str(),
                "i" | "is" | "was" | "be" | "been" | "am" | "are" | "were" | "'s"
            );
        if *w == "called" && next_is_name && after_noun {
            out.push("named");
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// "Family's super important to Melanie": a fact opening with a word and
/// "'s" before a degree word, an article or an evaluation says "is"
/// ("Family is super important to Melanie"), so its verb is seen; "Ben's
/// sister" is Ben's.
pub(super) fn copula_spelled(s: &str) -> String {
    let mut words: Vec<String> = s.split(' ').map(str::to_string).collect();
    let Some(head) = words
        .first()
        .and_then(|w| w.strip_suffix("'s").or(w.strip_suffix("\u{2019}s")))
        .map(str::to_string)
    else {
        return s.to_string();
    };
    let next = words.get(1).map(|w| clauses::bare(w)).unwrap_or_default();
    let copula = matches!(
        next.as_str(),
        "super"
            | "so"
            | "really"
            | "very"
            | "pretty"
            | "such"
            | "a"
            | "an"
            | "the"
            | "always"
            | "never"
            | "not"
            | "just"
            | "too"
            | "totally"
    ) || super::words::EVALUATIVE.contains(&next.as_str());
    // ("Joanna's hard work is paying off": a verb later on makes it whose)
    let finite_later = words.iter().skip(2).any(|w| {
        let b = clauses::bare(w);
        matches!(
            b.as_str(),
            "is" | "are" | "was" | "were" | "has" | "have" | "had"
        ) || matches!(verb(&b), Some((_, VerbForm::Third | VerbForm::Past)))
    });
    if !copula || finite_later || head.is_empty() || head.eq_ignore_ascii_case("let") {
        // "Nature's always been ...": "has"
        let been = words
            .iter()
            .skip(1)
            .map(|w| clauses::bare(w))
            .find(|b| !matches!(b.as_str(), "always" | "never" | "just" | "really" | "also"))
            .is_some_and(|b| b == "been");
        // "Art's allowed me to ...", "Running's helped me ...": a past
        // form with an object after it is "has" and its participle
        let after = words.get(2).map(|w| clauses::bare(w)).unwrap_or_default();
        let perfect = matches!(verb(&next), Some((_, VerbForm::Past)))
            && !matches!(next.as_str(), "was" | "were")
            && (matches!(
                after.as_str(),
                "me" | "us" | "him" | "her" | "them" | "my" | "our" | "a" | "an" | "the"
            ) || words
                .get(2)
                .is_some_and(|w| w.starts_with(char::is_uppercase)));
        if (been || perfect) && !head.is_empty() {
            words[0] = head;
            words.insert(1, "has".to_string());
            return words.join(" ");
        }
        return s.to_string();
    }
    words[0] = head;
    words.insert(1, "is".to_string());
    words.join(" ")
}

/// "a great story about reaching for your dreams": a "your" after a
/// doing ("reaching for", "following"), before what everyone has (dreams,
/// heart, mind), is anyone's, not the listener's, and reads "one's"; a
/// clause about the listener ("your story is ...", "you keep following
/// your heart") and "getting your studio noticed" keep it.
pub(super) fn generic_your(clause: &str) -> String {
    let words: Vec<&str> = clause.split(' ').collect();
    let about_listener = words.iter().take(3).any(|w| {
        matches!(
            clauses::bare(w).as_str(),
            "you" | "your" | "you're" | "you've" | "you'll"
        )
    });
    if about_listener {
        return clause.to_string();
    }
    let doing = |w: &str| matches!(verb(&clauses::bare(w)), Some((_, VerbForm::Gerund)));
    let out: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            // (of something everyone has: "your dreams", not "your studio")
            let everyones = words.get(i + 1).is_some_and(|n| {
                matches!(
                    clauses::bare(n).as_str(),
                    "dreams"
                        | "dream"
                        | "goals"
                        | "goal"
                        | "heart"
                        | "mind"
                        | "passion"
                        | "passions"
                        | "potential"
                        | "fears"
                        | "best"
                        | "life"
                        | "future"
                        | "feelings"
                        | "emotions"
                        | "happiness"
                        | "instincts"
                        | "gut"
                )
            });
            let generic = clauses::bare(w) == "your"
                && everyones
                && (i >= 1 && doing(words[i - 1]) || i >= 2 && doing(words[i - 2]));
            if generic {
                w.replacen("your", "one's", 1)
            } else {
                w.to_string()
            }
        })
        .collect();
    out.join(" ")
}

/// "I'd never felt so loved" was read "would never felt": before a past
/// participle the "'d" is "had" ("John had never felt so loved"). A past
/// spelled like its base ("I'd read") stays "would".
pub(super) fn had_before_participle(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        if *w == "would" {
            let mut j = i + 1;
            while words
                .get(j)
                .is_some_and(|a| matches!(*a, "never" | "already" | "just" | "ever" | "not"))
            {
                j += 1;
            }
            let participle = words
                .get(j)
                .is_some_and(|v| matches!(verb(&clauses::bare(v)), Some((_, VerbForm::Past))));
            if participle {
                out.push("had");
                continue;
            }
        }
        out.push(w);
    }
    out.join(" ")
}

/// A sentence as a memory: capitalised, ending with a full stop, without
/// a chat tag at its end (", btw", " lol").
pub(super) fn tidy(s: &str) -> String {
    let mut s = s
        .trim()
        .trim_end_matches(['!', '.', ',', ';', ':', ' ', '-']);
    for tag in [
        " btw",
        " lol",
        " haha",
        " tbh",
        " though",
        " take a look",
        " have a look",
        " check it out",
    ] {
        if let Some(head) = s.strip_suffix(tag).filter(|h| h.ends_with(',')) {
            s = head.trim_end_matches([',', ' ']);
        }
    }
    // laughter ends a chat line, never a fact ("... the question haha"),
    // and a closing "though" contrasts with what was said before ("btw"
    // and "fyi" only flag it: "expires in March 2026 btw"; "anyway" sets it
    // against what was said before: "lease ends in June anyway")
    for tag in [
        " haha", " hahaha", " lol", " lmao", " though", " btw", " fyi", " tbh", " anyway",
        " anyways",
    ] {
        if let Some(head) = s.strip_suffix(tag) {
            s = head.trim_end_matches([',', ' ', '!', '.']);
        }
    }
    if s.is_empty() {
        return String::new();
    }
    // "went up to 1550 which sucks": how the speaker feels about it
    let mut s = s.to_string();
    if let Some(at) = s.rfind(" which ") {
        let rest: Vec<String> = s[at + 7..]
            .split_whitespace()
            .map(super::clauses::bare)
            .collect();
        let rest: Vec<&str> = rest
            .iter()
            .map(String::as_str)
            .filter(|w| {
                !matches!(
                    *w,
                    "is" | "was" | "so" | "really" | "kinda" | "pretty" | "totally"
                )
            })
            .collect();
        if matches!(
            rest.as_slice(),
            ["sucks"
                | "rocks"
                | "stinks"
                | "hurts"
                | "great"
                | "awesome"
                | "annoying"
                | "nice"
                | "cool"
                | "amazing"
                | "sad"
                | "frustrating"
                | "exciting"
                | "fun"
                | "lame"
                | "wild"
                | "crazy"
                | "insane"]
        ) {
            s.truncate(at);
            let trimmed = s.trim_end_matches([',', ' ']).len();
            s.truncate(trimmed);
        }
    }
    // "lives in Porto not Lisbon", "is called Sol & Sal, not Sol Yoga": a
    // correction; what holds is the name before "not"
    if let Some(kept) = without_corrected(&s) {
        s = kept;
    }
    // ("went ok btw, got a B+": a tag inside goes too)
    for tag in [" btw,", " tbh,", " lol,", " haha,", " fyi,"] {
        s = s.replace(tag, ",");
    }
    let s = without_seeming(&s).unwrap_or(s);
    format!("{}.", upper_first(&without_also(&s)))
}

/// `s` without a closing "not <Name>" that corrects the name before it
/// ("... in Porto not Lisbon"): both names capitalised, the second one to
/// three words that end the sentence.
fn without_corrected(s: &str) -> Option<String> {
    let at = s.rfind(" not ")?;
    let (head, tail) = (&s[..at], &s[at + 5..]);
    let tail_words: Vec<&str> = tail.split_whitespace().collect();
    let named = |w: &str| w.starts_with(|c: char| c.is_uppercase());
    let head = head.trim_end_matches(',');
    // (a name corrected, "is called A, not B", is read as such by
    // relate::renamed, which renames the old name everywhere)
    let lower = head.to_lowercase();
    if [" called ", " named ", " name is ", "it's "]
        .iter()
        .any(|p| lower.contains(p))
    {
        return None;
    }
    let last = head.split_whitespace().last()?;
    let ok = (1..=3).contains(&tail_words.len())
        && tail_words.iter().all(|w| named(w) || *w == "&")
        && named(last)
        && !tail.contains(',');
    ok.then(|| head.to_string())
}

/// "Nate's turtles look like Nate's turtles really enjoy fruit" as
/// "Nate's turtles really enjoy fruit": a subject said to look like it
/// does something, said again after "like", is what it is seen doing.
fn without_seeming(s: &str) -> Option<String> {
    for v in [" looks like ", " look like ", " seems like ", " seem like "] {
        let Some(at) = s.find(v) else { continue };
        let subject = &s[..at];
        let rest = &s[at + v.len()..];
        if let Some(said) = rest.strip_prefix(subject).and_then(|r| r.strip_prefix(' ')) {
            return Some(format!("{subject} {said}"));
        }
    }
    None
}

/// "Luis also plays the cello" as "Luis plays the cello": "also" points
/// at something said before, which a memory read alone does not have.
/// Only right after a one- or two-word subject, before its verb.
fn without_also(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    let at = (1..=2).find(|&i| {
        words.get(i).is_some_and(|w| *w == "also")
            && words.get(i + 1).is_some_and(|v| clauses::is_verbish(v))
            && (words[0].starts_with(char::is_uppercase) || words[0].ends_with("'s"))
            && (i == 1 || words[0].ends_with("'s") || words[1].starts_with(char::is_uppercase))
    });
    match at {
        Some(i) => {
            let mut kept = words.clone();
            kept.remove(i);
            kept.join(" ")
        }
        None => s.to_string(),
    }
}

/// `s` with its first letter in upper case ("the plate" -> "The plate").
pub(super) fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub(super) fn has_number(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_digit())
}

/// The text without bracketed attachments ("[image: ...]"): they describe
/// what was shown, not what was said.
pub(super) fn without_attachments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        match rest[i..].find(']') {
            Some(j) => rest = &rest[i + j + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text with its first letter in lower case unless it opens a name
/// ("The Santa Clause" keeps its capital only when quoted or a name).
pub(super) fn lowered_unless_named(s: &str) -> String {
    let first = s.split_whitespace().next().unwrap_or("");
    let article = matches!(first, "The" | "A" | "An" | "This" | "That");
    if article {
        lowered(s)
    } else {
        s.to_string()
    }
}

/// The text with its first letter in lower case.
pub(super) fn lowered(s: &str) -> String {
    let mut c = s.chars();
    let f = c
        .next()
        .map(|f| f.to_lowercase().to_string())
        .unwrap_or_default();
    format!("{f}{}", c.as_str())
}

/// The words up to the first that ends a phrase with its punctuation
/// ("Glasgow, near the river" -> "Glasgow"), joined, that punctuation
/// left out.
pub(super) fn to_first_stop(words: &[&str]) -> String {
    let end = words
        .iter()
        .position(|w| w.ends_with([',', '.', '!', '?', ';']))
        .map_or(words.len(), |e| e + 1);
    let said = words[..end].join(" ");
    said.trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

#[cfg(test)]
#[path = "surface_tests.rs"]
mod tests;
