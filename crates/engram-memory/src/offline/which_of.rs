//! "Which school?" asked of what the speaker just said ("my daughter Ella
//! starts school in September") and answered with a name ("St Anne's,
//! just round the corner"): the answer is that thing's name, said in full
//! ("my daughter Ella's school is St Anne's, ..."). So is "Names?" asked
//! of "my sister Ana just had twins" and answered "Leo and Mila" ("my
//! sister Ana's twins are named Leo and Mila"). And "When is the wedding?"
//! asked of "my sister is getting married" is her wedding, not the
//! speaker's ([`whose_thing`]). Reads text only.

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
    // (the speaker's opens the sentence: "My gym is ...")
    let whose = match super::owners::whose_subject(&words[..v])? {
        my if my == "my" => "My".to_string(),
        whose => whose,
    };
    Some(format!("{whose} {noun} is {answer}"))
}

/// The short answer to `question`, asked of turn `ti`, said in full:
/// [`super::short_answers::expanded`] (with "my X" made whose the
/// speaker's own turn before said it is, [`whose_thing`]), a yes said in
/// full, a baby's sex, else [`of_before`].
pub(super) fn answered(
    turns: &[crate::Turn],
    ti: usize,
    question: &str,
    said: &str,
) -> Option<String> {
    let own = ti
        .checked_sub(2)
        .map(|i| &turns[i])
        .filter(|own| own.speaker == turns[ti].speaker);
    super::short_answers::expanded(question, said)
        .map(|full| match own {
            Some(own) => whose_thing(full, own.text),
            None => full,
        })
        .or_else(|| super::affirmed::said_yes(question, said))
        .or_else(|| super::baby::gender_answer(question, said))
        .or_else(|| of_before(question, own?.text, said))
}

/// Events told of by a verb ("my sister is getting married") that "the"
/// and a noun then ask about ("When is the wedding?").
const TOLD_BY_VERB: &[(&str, &[&str])] = &[
    (
        "wedding",
        &["married", "marry", "marrying", "marries", "engaged"],
    ),
    ("graduation", &["graduate", "graduates", "graduating"]),
    ("move", &["move", "moves", "moving"]),
    ("funeral", &["died", "passed"]),
    // (the recovery of whoever had it)
    ("recovery", &["surgery", "operation"]),
];

/// A short answer said in full as the speaker's ("My wedding is on 14
/// June"), said of whose the thing is when the speaker's turn before
/// (`before`) told of it: "my sister is getting married in June" makes it
/// "My sister's wedding"; "my dad's 60th party" "My dad's 60th party";
/// "a party for my dad's 60th" "The party for my dad's 60th"; "a job
/// interview" (the speaker's) "My job interview". Anything else as it is.
pub(super) fn whose_thing(full: String, before: &str) -> String {
    let Some((thing, said)) = full
        .strip_prefix("My ")
        .and_then(|rest| rest.split_once(" is "))
    else {
        return full;
    };
    let head = bare(thing.rsplit(' ').next().unwrap_or(thing));
    let verbs = TOLD_BY_VERB
        .iter()
        .find(|(noun, _)| *noun == head)
        .map_or(&[][..], |(_, verbs)| *verbs);
    let told = before.split([',', '.', '!', '?', ';']).find_map(|clause| {
        let words: Vec<&str> = super::strip_openers(clause).split_whitespace().collect();
        let k = words
            .iter()
            .position(|w| bare(w) == head || verbs.contains(&bare(w).as_str()))?;
        Some((words, k))
    });
    let Some((words, k)) = told else {
        return full;
    };
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let owned = |w: &str| w.ends_with("'s") || w.ends_with("\u{2019}s");
    let named = lower[k] == head;
    // the words before the noun that say which ("job interview", "60th
    // party"), up to a determiner, a verb or an owner
    let mut j = k;
    while named
        && j > 0
        && k - j < 2
        && !owned(words[j - 1])
        && !super::clauses::is_verbish(words[j - 1])
        && !matches!(
            lower[j - 1].as_str(),
            "a" | "an" | "the" | "my" | "our" | "his" | "her" | "their" | "your" | "this" | "that"
        )
    {
        j -= 1;
    }
    let which = words[j..=k].join(" ");
    let which = if named { which.as_str() } else { thing };
    // "a party for my dad's 60th": what it is for says which
    let what_for = &words[k + 1..];
    if named && lower.get(k + 1).is_some_and(|w| w == "for") && what_for.len() <= 5 {
        return format!("The {which} {} is {said}", what_for.join(" "));
    }
    // "my dad's 60th party": whose, said before it
    if named && j >= 2 && owned(words[j - 1]) && matches!(lower[j - 2].as_str(), "my" | "our") {
        return format!("My {} {which} is {said}", words[j - 1]);
    }
    // else the clause's subject, before its first verb ("just" aside)
    let subject: Vec<&str> = words[..k]
        .iter()
        .take_while(|w| {
            let pronoun = matches!(
                bare(w).as_str(),
                "he's" | "she's" | "it's" | "that's" | "there's" | "what's" | "who's"
            );
            !super::clauses::is_verbish(w) || owned(w) && !pronoun
        })
        .filter(|w| !matches!(bare(w).as_str(), "just" | "finally" | "also" | "recently"))
        .copied()
        .collect();
    // ("I'm getting married": the speaker's, though "I'm" is a verb too)
    let whose = if matches!(lower[0].as_str(), "i" | "i'm" | "we" | "we're") {
        Some("my".to_string())
    } else {
        super::owners::whose_subject(&subject)
    };
    let Some(whose) = whose else {
        return full;
    };
    format!("{} {which} is {said}", super::surface::upper_first(&whose))
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
    use super::{names_of_before, which_of_before, whose_thing};

    #[test]
    fn whose_the_thing_asked_about_is() {
        let check = |full: &str, before: &str, want: &str| {
            assert_eq!(whose_thing(full.to_string(), before), want, "{before}");
        };
        // an event told of by a verb: the subject's
        check(
            "My wedding is on 14 June",
            "my sister is getting married in June",
            "My sister's wedding is on 14 June",
        );
        check(
            "My wedding is in May",
            "omg my brother Tom just got engaged!",
            "My brother Tom's wedding is in May",
        );
        check(
            "My recovery is 6 weeks",
            "my dad had knee surgery last week",
            "My dad's recovery is 6 weeks",
        );
        check(
            "My graduation is in July",
            "Priya is graduating this summer",
            "Priya's graduation is in July",
        );
        // named: the words that say which, an owner before them, or what
        // it is for
        check(
            "My party is at a pub",
            "my dad's 60th party is this weekend",
            "My dad's 60th party is at a pub",
        );
        check(
            "My party is at a pub",
            "we're throwing a party for my dad's 60th",
            "The party for my dad's 60th is at a pub",
        );
        check(
            "My interview is in London",
            "I have a job interview at Google next week",
            "My job interview is in London",
        );
        // the speaker's own, or nothing told of it: as it is
        check(
            "My wedding is in Porto",
            "I'm getting married next year!",
            "My wedding is in Porto",
        );
        check(
            "My appointment is on Monday",
            "work has been crazy",
            "My appointment is on Monday",
        );
        // a pronoun says not whose
        check(
            "My wedding is in May",
            "she's getting married",
            "My wedding is in May",
        );
    }

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
