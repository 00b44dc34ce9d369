//! Sentences said again in the words their facts are asked in, before
//! they are cut into clauses: an idiom of taste ("X is my thing" is "I
//! love X"), a thing got as another was sold ("we sold the Golf and got a
//! Tesla" is "we got a Tesla to replace the Golf"), an age and what else
//! one is said with one "is" ("Tiago is 7 and in year 2" is two facts), a
//! judgement before what someone is ("she's great, a nurse"), a statement
//! with a question after it ("I moved to Oslo, any tips?").
//! Each leaves a sentence it does not fit as it was. Reads text only.

use super::clauses;

/// `sentence` with every rewrite of this module and its kin applied, in
/// the order they build on each other (a verb named as itself first, then
/// dates, places and people named, then the shapes of this module, then
/// names given in passing and requests made for good).
pub(super) fn restated(sentence: &str) -> String {
    use super::idioms::{if_a_girl, killing_me, near_me, self_expression};
    use super::restate::{bike_as_verb, date_set, hometown_named, manager_named};
    let sentence = bike_as_verb(sentence);
    let sentence = killing_me(&sentence).into_owned();
    let sentence = self_expression(&sentence).into_owned();
    let sentence = if_a_girl(&sentence).into_owned();
    let sentence = near_me(&sentence).into_owned();
    let sentence = date_set(&sentence).into_owned();
    let sentence = hometown_named(&sentence).into_owned();
    let sentence = manager_named(&sentence);
    let sentence = my_thing(&sentence).into_owned();
    let sentence = got_in_place(&sentence).into_owned();
    let sentence = age_and(&sentence).into_owned();
    let sentence = judged_then_said(&sentence).into_owned();
    let sentence = asked_after(&sentence).into_owned();
    let sentence = one_of_named(&sentence).into_owned();
    let sentence = super::named::someone_named(&sentence);
    let sentence = super::named::animal_named(&sentence).into_owned();
    let sentence = super::wants::help_with(&sentence).unwrap_or(sentence);
    let sentence = super::wants::reminder(&sentence).unwrap_or(sentence);
    let sentence = super::wants::standing_request(&sentence);
    let sentence = plan_changed(&sentence).unwrap_or_else(|| sentence.into_owned());
    super::wants::so_state(&sentence).into_owned()
}

/// A plan said as changed with an "it": "we were going to Rome in May but
/// we changed it to Lisbon in June instead" says "... but we're now going
/// to Lisbon in June instead" (the "it" is the trip, never a thing said
/// before). Only after "was/were going to" and "but", with "changed",
/// "moved" or "switched" it "to".
pub(super) fn plan_changed(sentence: &str) -> Option<String> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| clauses::bare(w)).collect();
    let planned = lower.windows(3).any(|p| {
        matches!(p[0].as_str(), "was" | "were")
            && matches!(p[1].as_str(), "going" | "planning")
            && p[2] == "to"
    });
    let but = lower.iter().position(|w| w == "but")?;
    let rest = &lower[but + 1..];
    let (who, at) = match rest {
        [w, ..] if w == "we" || w == "i" => (w.as_str(), 1),
        _ => return None,
    };
    let at = at + usize::from(rest.get(at).is_some_and(|h| h == "have" || h == "just"));
    let changed = rest
        .get(at)
        .is_some_and(|v| matches!(v.as_str(), "changed" | "moved" | "switched" | "swapped"))
        && rest.get(at + 1).is_some_and(|w| w == "it")
        && rest.get(at + 2).is_some_and(|w| w == "to");
    // (to a place: "moved it to Friday" is a time, said otherwise)
    let place = words
        .get(but + 1 + at + 3)
        .is_some_and(|w| super::said_alone::named_not_dated(w));
    if !planned || !changed || !place {
        return None;
    }
    let be = if who == "we" { "we're" } else { "I'm" };
    Some(format!(
        "{} but {be} now going to {}",
        words[..but].join(" "),
        words[but + 1 + at + 3..].join(" ")
    ))
}

/// "Epic adventures and magical worlds are my thing" said as "I love epic
/// adventures and magical worlds": the idiom of taste, in the words a
/// question about what someone likes uses. Only a whole sentence whose
/// subject is a thing (no verb, no pronoun, a few words).
pub(super) fn my_thing(sentence: &str) -> std::borrow::Cow<'_, str> {
    let body = sentence.trim_end_matches(['.', '!']);
    let end = &sentence[body.len()..];
    let Some(np) = [" are my thing", " is my thing", " are totally my thing"]
        .iter()
        .find_map(|t| body.strip_suffix(t))
    else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let words: Vec<&str> = np.split_whitespace().collect();
    let pointing = words.first().is_some_and(|w| {
        matches!(
            clauses::bare(w).as_str(),
            "it" | "this" | "that" | "these" | "those" | "they" | "what" | "which"
        )
    });
    // ("Cooking is my thing": a doing may lead)
    let gerund = |w: &str| clauses::bare(w).ends_with("ing");
    if words.is_empty()
        || words.len() > 8
        || pointing
        || words
            .iter()
            .enumerate()
            .any(|(i, w)| clauses::is_verbish(w) && !(i == 0 && gerund(w)))
    {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let first = words[0];
    let common = gerund(first) || words.get(1).is_some_and(|w| !clauses::capitalised(w));
    let np = if clauses::capitalised(first) && common {
        let mut c = first.chars();
        let lead: String = c
            .next()
            .map(|c| c.to_lowercase().collect())
            .unwrap_or_default();
        format!("{lead}{}{}", c.as_str(), &np[first.len()..])
    } else {
        np.to_string()
    };
    std::borrow::Cow::Owned(format!(
        "I love {np}{}",
        if end.is_empty() { "." } else { end }
    ))
}

/// "we sold the Golf and got a Tesla Model 3" said as "we got a Tesla Model
/// 3 to replace the Golf": what was got in the same breath as something
/// was sold takes its place, and the fact says so on its own.
pub(super) fn got_in_place(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let Some(sold) = words
        .iter()
        .position(|w| matches!(clauses::bare(w).as_str(), "sold"))
    else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    // the thing sold: a determiner and at most three words, up to "and"
    let and = (sold + 2..words.len().min(sold + 6)).find(|&i| words[i] == "and");
    let got = and.and_then(|a| words.get(a + 1)).map(|w| clauses::bare(w));
    let det = words
        .get(sold + 1)
        .map(|w| clauses::bare(w))
        .is_some_and(|d| matches!(d.as_str(), "the" | "my" | "our" | "his" | "her" | "their"));
    let (Some(and), Some(got)) = (and, got) else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let object: Vec<&str> = words[sold + 1..and].to_vec();
    if !det
        || !matches!(got.as_str(), "got" | "bought")
        || object.iter().any(|w| w.ends_with([',', '.', '!', '?']))
        || words.len() <= and + 3
    {
        return std::borrow::Cow::Borrowed(sentence);
    }
    // the end of the clause of getting: the first word that closes it
    let end = (and + 2..words.len())
        .find(|&i| words[i].ends_with([',', '.', '!', '?', ';']))
        .unwrap_or(words.len() - 1);
    let last = words[end];
    let core = last.trim_end_matches([',', '.', '!', '?', ';']);
    let stop = &last[core.len()..];
    // (the selling is said by the replacing: one fact, not two, so that
    // the new thing takes the old one's place in what was said of it)
    let mut out: Vec<String> = words[..sold].iter().map(|w| w.to_string()).collect();
    out.extend(words[and + 1..end].iter().map(|w| w.to_string()));
    // (the thing's name keeps its capital; "my" stays the speaker's)
    out.push(format!("{core} to replace {}{stop}", object.join(" ")));
    out.extend(words[end + 1..].iter().map(|w| w.to_string()));
    std::borrow::Cow::Owned(out.join(" "))
}

/// "my son Tiago is 7 and in year 2 at St Mary's" said as "my son Tiago
/// is 7, and my son Tiago is in year 2 at St Mary's": an age and what
/// else one is, said with one "is", are two facts (the age is the one a
/// birthday moves on). Only for a short subject opening the sentence, an
/// age of a number, and a second part that is no clause of its own.
pub(super) fn age_and(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let Some(be) = words.iter().position(|w| matches!(*w, "is" | "am" | "are")) else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let age = words
        .get(be + 1)
        .and_then(|w| w.parse::<u32>().ok())
        .is_some_and(|n| (1..=120).contains(&n));
    let second = words
        .get(be + 3)
        .map(|w| clauses::bare(w))
        .unwrap_or_default();
    let subject = &words[..be];
    let plain_subject = (1..=4).contains(&subject.len())
        && !subject
            .iter()
            .any(|w| w.ends_with(',') || clauses::is_verbish(w));
    let opens = matches!(
        second.as_str(),
        "in" | "at" | "a" | "an" | "doing" | "starting" | "already" | "loving"
    );
    if !age || words.get(be + 2) != Some(&"and") || !plain_subject || !opens {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let subject = subject.join(" ");
    let rest = words[be + 3..].join(" ");
    // ("My daughter" again mid-sentence is "my daughter"; names and "I"
    // keep their capital)
    let again = match subject.split_once(' ') {
        Some((first, more)) if matches!(first, "My" | "Our" | "His" | "Her" | "Their" | "The") => {
            format!("{} {more}", first.to_lowercase())
        }
        _ => subject.clone(),
    };
    std::borrow::Cow::Owned(format!(
        "{subject} {} {}, and {again} {} {rest}",
        words[be],
        words[be + 1],
        words[be]
    ))
}

/// "she's great, a nurse at the Royal London" said as "she's a nurse at
/// the Royal London": a judgement before what someone is, in apposition,
/// is the speaker's warmth, and what they are is the fact.
pub(super) fn judged_then_said(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let at = (1..words.len().saturating_sub(2)).find(|&i| {
        let be = clauses::bare(words[i - 1]);
        let judged = words[i].ends_with(',')
            && super::words::EVALUATIVE.contains(&clauses::bare(words[i]).as_str());
        let linking =
            matches!(be.as_str(), "is" | "was" | "she's" | "he's" | "'s") || be.ends_with("'s");
        judged && linking && matches!(clauses::bare(words[i + 1]).as_str(), "a" | "an")
    });
    let Some(i) = at else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let mut out: Vec<&str> = words[..i].to_vec();
    out.extend(&words[i + 1..]);
    std::borrow::Cow::Owned(out.join(" "))
}

/// "I'm allergic to shellfish and my wife is vegetarian, can you suggest
/// a restaurant?" said as "I'm allergic to shellfish and my wife is
/// vegetarian.": a question asked after a statement in the same sentence
/// leaves the statement standing (a sentence ending in "?" is otherwise
/// no fact at all).
pub(super) fn asked_after(sentence: &str) -> std::borrow::Cow<'_, str> {
    const ASKING: &[&str] = &[
        "can", "could", "would", "will", "do", "does", "did", "any", "what", "where", "when",
        "how", "which", "should", "is", "are", "got", "have", "who", "why",
    ];
    if !sentence.trim_end().ends_with('?') {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let Some(at) = sentence.rmatch_indices(", ").map(|(i, _)| i).find(|&i| {
        sentence[i + 2..]
            .split_whitespace()
            .next()
            .is_some_and(|w| ASKING.contains(&clauses::bare(w).as_str()))
    }) else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let head = &sentence[..at];
    let first = head
        .split_whitespace()
        .next()
        .map(clauses::bare)
        .unwrap_or_default();
    // (the speaker's own news: "Love the tattoo, when did you get it?" is
    // a reaction, and stays with its question)
    let own = head.split_whitespace().take(5).any(|w| {
        matches!(
            clauses::bare(w).as_str(),
            "i" | "i'm" | "i've" | "my" | "we" | "we're" | "we've" | "our"
        )
    });
    let stated = own
        && !ASKING.contains(&first.as_str())
        && !matches!(first.as_str(), "if" | "so" | "since" | "when" | "because")
        && head.split_whitespace().count() >= 3
        && head.split_whitespace().any(clauses::is_verbish);
    if !stated {
        return std::borrow::Cow::Borrowed(sentence);
    }
    std::borrow::Cow::Owned(format!("{head}."))
}

/// "one of them, Theo, just passed his grade 3 exam" said as "Theo just
/// passed his grade 3 exam": the one picked out by name is the subject.
pub(super) fn one_of_named(sentence: &str) -> std::borrow::Cow<'_, str> {
    let lower = sentence.to_lowercase();
    if !lower.starts_with("one of ") {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let Some(first) = sentence.find(", ") else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let rest = &sentence[first + 2..];
    let Some(second) = rest.find(", ") else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let name = &rest[..second];
    let named = !name.is_empty()
        && name.split_whitespace().count() <= 2
        && name.split_whitespace().all(crate::offline::is_name_word);
    if !named || sentence[..first].split_whitespace().count() > 4 {
        return std::borrow::Cow::Borrowed(sentence);
    }
    std::borrow::Cow::Owned(format!("{name} {}", &rest[second + 2..]))
}

#[cfg(test)]
mod tests {
    use super::{age_and, asked_after, got_in_place, judged_then_said, my_thing, one_of_named};

    #[test]
    fn a_plan_changed_with_it_is_the_plan() {
        assert_eq!(
            super::plan_changed(
                "we were going to Rome in May but we changed it to Lisbon in June instead"
            )
            .as_deref(),
            Some("we were going to Rome in May but we're now going to Lisbon in June instead")
        );
        assert_eq!(
            super::plan_changed("I was going to fly on Monday but I've moved it to Friday")
                .as_deref(),
            None
        );
        assert_eq!(
            super::plan_changed("I was going to fly on Monday but I moved it to Friday").as_deref(),
            None
        );
        assert_eq!(
            super::plan_changed("I bought a lamp but I moved it to the hall"),
            None
        );
    }

    #[test]
    fn one_picked_out_by_name_is_the_subject() {
        assert_eq!(
            one_of_named("one of them, Theo, just passed his grade 3 exam with distinction"),
            "Theo just passed his grade 3 exam with distinction"
        );
        assert_eq!(
            one_of_named("One of my students, Ana Lima, won a prize."),
            "Ana Lima won a prize."
        );
        assert_eq!(
            one_of_named("one of them, sadly, left."),
            "one of them, sadly, left."
        );
    }

    #[test]
    fn a_statement_before_a_question_stands() {
        for (said, expect) in [
            (
                "I'm allergic to shellfish and my wife Priya is vegetarian, can you suggest a restaurant for Friday?",
                "I'm allergic to shellfish and my wife Priya is vegetarian.",
            ),
            ("I moved to Oslo, any tips?", "I moved to Oslo."),
            ("Is it vegan, do you know?", "Is it vegan, do you know?"),
            ("If I go, can you come?", "If I go, can you come?"),
            ("What's up, how are you?", "What's up, how are you?"),
            (
                "Love the tattoo, when did you get it?",
                "Love the tattoo, when did you get it?",
            ),
        ] {
            assert_eq!(asked_after(said), expect, "{said}");
        }
    }

    #[test]
    fn a_judgement_before_what_someone_is_goes() {
        for (said, expect) in [
            (
                "she's great, a nurse at the Royal London",
                "she's a nurse at the Royal London",
            ),
            (
                "Priya is lovely, a vet in Leeds.",
                "Priya is a vet in Leeds.",
            ),
            ("she's great, and a nurse", "she's great, and a nurse"),
            (
                "the food is great, a real treat",
                "the food is a real treat",
            ),
        ] {
            assert_eq!(judged_then_said(said), expect, "{said}");
        }
    }

    #[test]
    fn my_thing_is_a_taste() {
        for (said, expect) in [
            (
                "Epic adventures and magical worlds are my thing!",
                "I love epic adventures and magical worlds!",
            ),
            ("Cooking is my thing.", "I love cooking."),
            ("Harry Potter is my thing.", "I love Harry Potter."),
            ("That is my thing.", "That is my thing."),
            (
                "Doing what I love is my thing.",
                "Doing what I love is my thing.",
            ),
        ] {
            assert_eq!(my_thing(said), expect, "{said}");
        }
    }

    #[test]
    fn what_is_got_as_something_is_sold_replaces_it() {
        for (said, expect) in [
            (
                "big news, we sold the Golf and got a Tesla Model 3!",
                "big news, we got a Tesla Model 3 to replace the Golf!",
            ),
            (
                "I sold my old bike and bought a gravel bike, so happy",
                "I bought a gravel bike to replace my old bike, so happy",
            ),
            (
                "I sold the Golf last year and we got a dog.",
                "I sold the Golf last year and we got a dog.",
            ),
            ("we sold the house.", "we sold the house."),
        ] {
            assert_eq!(got_in_place(said), expect, "{said}");
        }
    }

    #[test]
    fn an_age_and_what_else_one_is_are_two_facts() {
        for (said, expect) in [
            (
                "my son Tiago is 7 and in year 2 at St Mary's",
                "my son Tiago is 7, and my son Tiago is in year 2 at St Mary's",
            ),
            ("I am 34 and a teacher.", "I am 34, and I am a teacher."),
            (
                "My daughter is 5 and in reception.",
                "My daughter is 5, and my daughter is in reception.",
            ),
            ("he is 7 and I am 9", "he is 7 and I am 9"),
            (
                "the rent is 900 and in euros",
                "the rent is 900 and in euros",
            ),
        ] {
            assert_eq!(age_and(said), expect, "{said}");
        }
    }
}
