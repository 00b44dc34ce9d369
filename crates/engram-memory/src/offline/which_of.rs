//! "Which school?" asked of what the speaker just said ("my daughter Ella
//! starts school in September") and answered with a name ("St Anne's,
//! just round the corner"): the answer is that thing's name, said in full
//! ("my daughter Ella's school is St Anne's, ..."). So is "Names?" asked
//! of "my sister Ana just had twins" and answered "Leo and Mila" ("my
//! sister Ana's twins are named Leo and Mila"). Reads text only.

use super::clauses::bare;

/// The answer to a question of what `before` just told of, said in full:
/// [`which_of_before`], else [`names_of_before`].
pub(super) fn of_before(question: &str, before: &str, answer: &str) -> Option<String> {
    which_of_before(question, before, answer).or_else(|| names_of_before(question, before, answer))
}

/// "Which school?" asked of "my daughter Ella starts school in September",
/// answered "St Anne's, just round the corner": "my daughter Ella's school
/// is St Anne's, just round the corner". Only a two-word "which/what X?"
/// whose X the speaker's own turn before (`before`) names after a verb,
/// and an answer that opens with a name.
pub(super) fn which_of_before(question: &str, before: &str, answer: &str) -> Option<String> {
    let q = super::short_answers::last_question(question)?
        .trim_end_matches('?')
        .to_lowercase();
    let (which, noun) = q.split_once(' ')?;
    if !matches!(which, "which" | "what") || noun.contains(' ') || noun.is_empty() {
        return None;
    }
    let first = answer.split_whitespace().next()?;
    if !first.starts_with(char::is_uppercase)
        || super::clauses::is_verbish(first)
        || matches!(
            bare(first).as_str(),
            "the" | "a" | "an" | "this" | "that" | "it" | "one" | "my" | "not" | "no"
        )
    {
        return None;
    }
    let answer = answer.trim().trim_end_matches(['.', '!']);
    // the clause of `before` that names the noun after its verb
    let clause = before
        .split([',', '.', '!', '?', ';'])
        .find(|c| c.split_whitespace().any(|w| bare(w) == noun))?;
    let words: Vec<&str> = clause.split_whitespace().collect();
    let k = words.iter().position(|w| bare(w) == noun)?;
    // (one word may say which: "starts secondary school")
    let v = (1..=2)
        .filter_map(|d| k.checked_sub(d))
        .find(|&v| v > 0 && super::clauses::is_verbish(words[v]))?;
    if k - v == 2 && super::clauses::is_verbish(words[v + 1]) {
        return None;
    }
    let said = &words[v + 1..=k];
    let said = match said.first().map(|d| bare(d)).as_deref() {
        Some("a" | "an" | "the") => &said[1..],
        _ => said,
    };
    let noun = said.join(" ");
    let subject = &words[..v];
    let own = matches!(bare(subject[0]).as_str(), "my" | "our");
    let whose = match subject {
        [i] if bare(i) == "i" => "My".to_string(),
        _ if own && subject.len() <= 4 => format!("{}'s", subject.join(" ")),
        _ => return None,
    };
    Some(format!("{whose} {noun} is {answer}"))
}

/// Young ones whose names "Names?" may ask.
const NAMED_ONES: &[(&str, bool)] = &[
    ("twins", true),
    ("triplets", true),
    ("kids", true),
    ("puppies", true),
    ("kittens", true),
    ("baby", false),
    ("boy", false),
    ("girl", false),
    ("puppy", false),
    ("kitten", false),
    ("dog", false),
    ("cat", false),
];

/// "Names?" (or "What are their names?", "What's its name?") asked of
/// "my sister Ana just had twins", answered "Leo and Mila": "my sister
/// Ana's twins are named Leo and Mila". The answer is names alone (up to
/// four, joined by commas and "and"); the thing named is the last young
/// one `before` tells of after a verb, and whose it is, its subject.
pub(super) fn names_of_before(question: &str, before: &str, answer: &str) -> Option<String> {
    let q = super::short_answers::last_question(question)?
        .trim_end_matches('?')
        .to_lowercase();
    let asks = matches!(
        q.as_str(),
        "names"
            | "name"
            | "what are their names"
            | "what's their name"
            | "what's its name"
            | "what are they called"
            | "what is it called"
            | "what's it called"
            | "what did they call them"
            | "what did you call them"
            | "what did you call it"
    );
    if !asks {
        return None;
    }
    let answer = answer.trim().trim_end_matches(['.', '!']);
    // ("we're thinking Churro": a name not yet settled)
    let hedge = [
        "we're thinking ",
        "thinking ",
        "probably ",
        "maybe ",
        "we like ",
    ]
    .iter()
    .find_map(|h| answer.strip_prefix(h));
    let answer = hedge.unwrap_or(answer);
    let names: Vec<&str> = answer
        .split([',', ' '])
        .filter(|w| !w.is_empty() && !matches!(*w, "and" | "&"))
        .collect();
    let named = (1..=4).contains(&names.len())
        && names
            .iter()
            .all(|n| n.starts_with(char::is_uppercase) && super::is_name_word(n));
    if !named {
        return None;
    }
    let clause = before
        .split(['.', '!', '?', ';'])
        .next_back()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or(before);
    let clause = clause.split(',').next()?;
    let words: Vec<&str> = clause.split_whitespace().collect();
    let (k, plural) = words.iter().enumerate().rev().find_map(|(k, w)| {
        let b = bare(w);
        NAMED_ONES
            .iter()
            .find(|(n, _)| *n == b)
            .map(|(_, p)| (k, *p))
    })?;
    // the subject: before the first verb, past adverbs
    let v = (1..k).find(|&v| super::clauses::is_verbish(words[v]))?;
    let mut subject = &words[..v];
    if subject.first().is_some_and(|f| bare(f) == "also") {
        subject = &subject[1..];
    }
    while let Some((last, rest)) = subject.split_last() {
        if !matches!(
            bare(last).as_str(),
            "just" | "finally" | "recently" | "also"
        ) {
            break;
        }
        subject = rest;
    }
    let noun = bare(words[k]);
    let us = subject.len() >= 3 && subject.ends_with(&["and", "I"]);
    let whose = match subject {
        [i] if bare(i) == "i" => "My".to_string(),
        [we] if matches!(bare(we).as_str(), "we" | "we're" | "we've") => "Our".to_string(),
        _ if us => "Our".to_string(),
        [m, ..] if matches!(bare(m).as_str(), "my" | "our") && subject.len() <= 4 => {
            format!("{}'s", subject.join(" "))
        }
        _ => return None,
    };
    let be = match (plural || names.len() > 1, hedge.is_some()) {
        (_, true) => "will probably be",
        (true, false) => "are",
        (false, false) => "is",
    };
    Some(format!("{whose} {noun} {be} named {answer}"))
}

#[cfg(test)]
mod tests {
    use super::{names_of_before, which_of_before};

    #[test]
    fn names_of_the_young_ones_just_told_of() {
        let check = |q: &str, before: &str, answer: &str, want: Option<&str>| {
            assert_eq!(
                names_of_before(q, before, answer).as_deref(),
                want,
                "{answer}"
            );
        };
        check(
            "Congratulations! Names?",
            "my sister Ana just had twins, a boy and a girl!",
            "Leo and Mila",
            Some("my sister Ana's twins are named Leo and Mila"),
        );
        check(
            "Aww! What's its name?",
            "we got a kitten last week",
            "Miso.",
            Some("Our kitten is named Miso"),
        );
        check(
            "Lovely! Names?",
            "also Luis and I are getting a dog, probably a rescue greyhound",
            "we're thinking Churro",
            Some("Our dog will probably be named Churro"),
        );
        check(
            "Names?",
            "my sister Ana just had twins",
            "not sure yet",
            None,
        );
        check("Names?", "I went to the park", "Leo", None);
    }

    #[test]
    fn which_one_of_what_was_just_said() {
        assert_eq!(
            which_of_before(
                "Which school?",
                "my daughter Ella starts school in September, she's so excited",
                "St Anne's, just round the corner"
            )
            .as_deref(),
            Some("my daughter Ella's school is St Anne's, just round the corner")
        );
        assert_eq!(
            which_of_before(
                "Which gym?",
                "I joined a gym last week",
                "The one on Mare Street"
            )
            .as_deref(),
            None
        );
        assert_eq!(
            which_of_before("Which school?", "school was fun", "St Anne's").as_deref(),
            None
        );
        // a word that says which, or an article, before the thing
        assert_eq!(
            which_of_before(
                "That's a big step! Which school?",
                "my son starts secondary school in September, he's nervous about it",
                "Hillcrest Academy, it's a 20 minute bus ride"
            )
            .as_deref(),
            Some("my son's secondary school is Hillcrest Academy, it's a 20 minute bus ride")
        );
        assert_eq!(
            which_of_before(
                "Which gym?",
                "I joined a gym last week",
                "PureGym on Mare Street"
            )
            .as_deref(),
            Some("My gym is PureGym on Mare Street")
        );
    }
}
