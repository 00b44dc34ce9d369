//! "Which school?" asked of what the speaker just said ("my daughter Ella
//! starts school in September") and answered with a name ("St Anne's,
//! just round the corner"): the answer is that thing's name, said in full
//! ("my daughter Ella's school is St Anne's, ..."). Reads text only.

use super::clauses::bare;

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

#[cfg(test)]
mod tests {
    use super::which_of_before;

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
