//! Answers that list things for a question of what one uses or enjoys:
//! tools each named for their job ("vitest for unit tests, playwright for
//! e2e" after "Any testing setup?"), and things loved or hobbies, with a
//! clause of the speaker's own after them ("mushrooms, anything with
//! chickpeas, and I hate olives" after "Any foods you love?").
//! [`super::short_answers`] says them in the speaker's sentence. Reads
//! text only.

use super::clauses::{bare, is_verbish};

/// "vitest for unit tests, playwright for e2e" answering a question about
/// what one uses ("Any testing setup?", "What's your stack?"): "I use
/// vitest for unit tests, playwright for e2e". Each item one or two words,
/// "for" and what it is for; no verb anywhere.
pub(super) fn tools_for(question: &str, answer: &str) -> Option<String> {
    let asks_tools = question.split_whitespace().map(bare).any(|w| {
        matches!(
            w.as_str(),
            "setup" | "stack" | "tools" | "tooling" | "use" | "using"
        )
    });
    if !asks_tools {
        return None;
    }
    let answer = answer.trim().trim_end_matches(['.', '!']);
    let items: Vec<&str> = answer.split(", ").collect();
    let each = items.iter().all(|item| {
        let words: Vec<&str> = item.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "for");
        at.is_some_and(|at| (1..=2).contains(&at) && words.len() > at + 1 && words.len() <= at + 4)
            && !words.iter().any(|w| super::clauses::is_verbish(w))
    });
    (each && !items.is_empty()).then(|| format!("I use {answer}."))
}

/// "mushrooms, anything with chickpeas, and I hate olives" answering a
/// question of taste ("Any foods you love?", "What music do you like?"):
/// "I love mushrooms and anything with chickpeas, and I hate olives". The
/// things listed (no verb among them) are what the question's verb takes;
/// a clause of the speaker's own after them ("and I hate olives") stays.
pub(super) fn tastes_listed(question: &str, answer: &str) -> Option<String> {
    let q: Vec<String> = question.split_whitespace().map(bare).collect();
    // ("Any hobbies you want to keep up?": what one enjoys)
    let taste = q.iter().find_map(|w| match w.as_str() {
        v @ ("love" | "like" | "enjoy") => Some(v),
        "hobbies" | "hobby" => Some("enjoy"),
        _ => None,
    })?;
    let asks = matches!(q.first().map(String::as_str), Some("any" | "what"))
        && q.iter().any(|w| w == "you")
        && !q
            .iter()
            .any(|w| matches!(w.as_str(), "do" | "does") && q.len() <= 3);
    if !asks {
        return None;
    }
    let answer = answer.trim().trim_end_matches(['.', '!']);
    let words: Vec<&str> = answer.split_whitespace().collect();
    // a clause of the speaker's own after the things ("and I hate olives")
    let own_at = (1..words.len()).find(|&j| {
        matches!(bare(words[j - 1]).as_str(), "and" | "but")
            && matches!(bare(words[j]).as_str(), "i" | "i'm" | "i've" | "i'd")
    });
    let (listed, own) = match own_at {
        Some(j) => (words[..j - 1].join(" "), Some(words[j - 1..].join(" "))),
        None => (answer.to_string(), None),
    };
    let listed = listed.trim_end_matches(',');
    let mut things: Vec<&str> = Vec::new();
    for item in listed.split(", ").flat_map(|i| i.split(" and ")) {
        let item = item.strip_prefix("and ").unwrap_or(item).trim();
        let w: Vec<&str> = item.split_whitespace().collect();
        // ("climbing": a doing is a thing enjoyed)
        let doing = |x: &&str| {
            is_verbish(x)
                && !matches!(
                    super::lexicon::verb(&bare(x)),
                    Some((_, super::lexicon::VerbForm::Gerund))
                )
        };
        if w.is_empty() || w.len() > 4 || w.iter().any(doing) {
            return None;
        }
        things.push(item);
    }
    if things.len() < 2 && (own.is_none() || things.is_empty()) {
        return None;
    }
    let last = things.pop()?;
    let listed = if things.is_empty() {
        last.to_string()
    } else {
        format!("{} and {last}", things.join(", "))
    };
    // (as written: "Radiohead" is a name)
    let mine = format!("I {taste} {listed}");
    Some(match own {
        Some(clause) => format!("{mine}, {clause}."),
        None => format!("{mine}."),
    })
}
