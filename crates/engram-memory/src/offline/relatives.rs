//! Relative clauses set off by commas ("My sister, who lives in Bristol,
//! is a nurse"; "We have a daughter, Ana, who just turned three") add a
//! second fact about the one they follow. [`expanded`] says each as a
//! sentence of its own before the sentence is cut into clauses: "My
//! sister is a nurse." and "My sister lives in Bristol.", so a memory holds
//! one fact. A "who" without a comma before it ("a brother named Ahmed who
//! lives in Cairo") is [`super::clauses::split`]'s. Reads text only.

use super::clauses::{bare, capitalised, is_verbish, SUBORDINATORS};
use super::short_answers::PREPOSITIONS;
use super::surface::upper_first;

/// Words that end the noun phrase a relative clause follows, counted in
/// it ("my sister", "the twins").
const DETERMINERS: &[&str] = &[
    "my", "our", "his", "her", "their", "your", "the", "a", "an", "this", "that",
];

/// Adverbs a relative clause may open with before its verb ("who just
/// turned three", "who recently moved").
const ADVERBS: &[&str] = &[
    "just", "recently", "now", "still", "also", "finally", "only",
];

/// `sentence` as sentences that say one fact each when it holds a relative
/// clause after a comma: the sentence without it, then the clause said of
/// the noun phrase before the comma. `None` when there is no such clause,
/// or the phrase before it is not one a person is named by.
pub(super) fn expanded(sentence: &str) -> Option<Vec<String>> {
    if sentence.trim_end().ends_with('?') {
        return None;
    }
    let words: Vec<&str> = sentence.split_whitespace().collect();
    // "..., who" after a word that ends with the comma
    let at = (1..words.len().saturating_sub(1)).find(|&i| {
        matches!(words[i], "who" | "whom")
            && words[i - 1].ends_with(',')
            && (opens_predicate(&words[i + 1..]) || object_at(&words[i + 1..]).is_some())
    })?;
    let head = &words[..at];
    let phrase = antecedent(head)?;
    // the clause runs to the next comma, or to the end of the sentence
    // ("who had been through a lot, yet stayed optimistic": a verb after a
    // conjunction goes on with the clause)
    let close = (at + 1..words.len())
        .find(|&j| words[j].ends_with(','))
        .filter(|&j| {
            let goes_on = words
                .get(j + 1)
                .is_some_and(|c| matches!(bare(c).as_str(), "and" | "but" | "yet" | "or" | "then"))
                && words.get(j + 2).is_some_and(|w| is_verbish(w));
            !goes_on
        });
    let (clause, rest): (Vec<&str>, &[&str]) = match close {
        Some(j) if j + 1 < words.len() => (words[at + 1..=j].to_vec(), &words[j + 1..]),
        _ => (words[at + 1..].to_vec(), &[]),
    };
    let stop = sentence
        .trim_end()
        .chars()
        .last()
        .filter(|c| matches!(c, '.' | '!'))
        .unwrap_or('.');
    let clause = clause.join(" ");
    let clause = clause.trim_end_matches([',', '.', '!', '?', ';']);
    if clause.split_whitespace().count() < 2 {
        return None;
    }
    let mut main: Vec<&str> = head.to_vec();
    let last = main.pop()?;
    let last = last.trim_end_matches(',');
    let mut main = main.join(" ");
    if !main.is_empty() {
        main.push(' ');
    }
    main.push_str(last);
    if rest.is_empty() {
        main.push(stop);
    } else {
        // "..., and Leo, who is 6.": a list goes on without its comma
        main.push(' ');
        main.push_str(&rest.join(" "));
    }
    // "Ines, who I met at a conference": "I met Ines at a conference"
    let clause_words: Vec<&str> = clause.split_whitespace().collect();
    let about = match object_at(&clause_words) {
        Some(k) => format!(
            "{} {} {}{stop}",
            upper_first(&clause_words[..k].join(" ")),
            mid_sentence(&phrase),
            clause_words[k..].join(" ")
        ),
        _ => format!("{} {clause}{stop}", upper_first(&phrase)),
    };
    Some(vec![main, about])
}

/// Where the one a relative clause is about goes in it when it is the
/// object ("who I met at a conference": after "I met"): after a subject
/// pronoun and its verbs. `None` when the clause opens otherwise.
fn object_at(words: &[&str]) -> Option<usize> {
    let subject = bare(words.first()?);
    let own = matches!(subject.as_str(), "i" | "we" | "he" | "she" | "they" | "you");
    let contracted =
        ["i've", "we've", "i'd", "we'd", "they've", "you've"].contains(&subject.as_str());
    if !own && !contracted {
        return None;
    }
    let verbs = words[1..]
        .iter()
        .take_while(|w| is_verbish(w) && !w.ends_with(','))
        .count();
    (verbs > 0 || contracted).then_some(1 + verbs)
}

/// Whether words open a predicate: a verb, perhaps after an adverb.
fn opens_predicate(words: &[&str]) -> bool {
    match words {
        [w, ..] if is_verbish(w) => true,
        [a, w, ..] if ADVERBS.contains(&bare(a).as_str()) => is_verbish(w),
        _ => false,
    }
}

/// The noun phrase at the end of `head` (its last word ends with the
/// comma): back to a determiner or possessive ("my sister", "our
/// twins"), or a name alone ("Ana", "Priya Shah"). `None` when it is
/// neither, or runs into the start of a clause.
fn antecedent(head: &[&str]) -> Option<String> {
    let mut from = head.len();
    while from > 0 {
        let w = head[from - 1];
        let b = bare(w);
        let last = from == head.len();
        if !last && w.ends_with([',', ':', ';']) {
            break;
        }
        // (the word before the comma is the phrase's noun: "my coach")
        if (!last && is_verbish(w))
            || PREPOSITIONS.contains(&b.as_str())
            || SUBORDINATORS.contains(&b.as_str())
            || matches!(b.as_str(), "and" | "or" | "but" | "so" | "with")
        {
            break;
        }
        from -= 1;
        if DETERMINERS.contains(&b.as_str()) {
            break;
        }
        if head.len() - from > 5 {
            return None;
        }
    }
    let phrase = &head[from..];
    let first = bare(phrase.first()?);
    let named = phrase.iter().all(|w| capitalised(w));
    // a name, or a determiner and a noun at least
    let determined = DETERMINERS.contains(&first.as_str()) && phrase.len() >= 2;
    if !(named || determined) {
        return None;
    }
    // "a friend" is no one in particular
    if matches!(first.as_str(), "a" | "an") {
        return None;
    }
    let words: Vec<&str> = phrase
        .iter()
        .map(|w| w.trim_end_matches([',', ':', ';']))
        .collect();
    Some(words.join(" "))
}

/// A phrase as said inside a sentence: "My sister" as "my sister"; a
/// name as it is.
fn mid_sentence(phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((first, rest)) if DETERMINERS.contains(&bare(first).as_str()) => {
            format!("{} {rest}", first.to_lowercase())
        }
        _ => phrase.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::expanded;

    fn check(sentence: &str, want: &[&str]) {
        let got = expanded(sentence).unwrap_or_default();
        assert_eq!(got, want, "{sentence}");
    }

    #[test]
    fn a_clause_after_a_comma_is_said_of_the_phrase_before_it() {
        check(
            "My sister, who lives in Bristol, is a nurse.",
            &["My sister is a nurse.", "My sister lives in Bristol."],
        );
        check(
            "We have a daughter, Ana, who just turned three.",
            &["We have a daughter, Ana.", "Ana just turned three."],
        );
        check(
            "It's me, my husband Marco and our twins, who are seven.",
            &[
                "It's me, my husband Marco and our twins.",
                "Our twins are seven.",
            ],
        );
        check(
            "My partner Sam, who works at the BBC, is vegan!",
            &[
                "My partner Sam is vegan!",
                "My partner Sam works at the BBC!",
            ],
        );
        check(
            "I have two kids: Mia, who is 9, and Leo, who is 6.",
            &["I have two kids: Mia and Leo, who is 6.", "Mia is 9."],
        );
        check(
            "I met Sam, who is a nurse.",
            &["I met Sam.", "Sam is a nurse."],
        );
        check(
            "My manager will be Ines, who I met at a conference last year.",
            &[
                "My manager will be Ines.",
                "I met Ines at a conference last year.",
            ],
        );
        check(
            "My friend Bo, whom we've known since school, is moving.",
            &[
                "My friend Bo is moving.",
                "We've known my friend Bo since school.",
            ],
        );
    }

    #[test]
    fn other_whos_stay() {
        for s in [
            "I have a brother named Ahmed who lives in Cairo.",
            "I talked to a guy, who was nice.",
            "Guess who, who knows.",
            "I wonder, who is coming?",
            "Do you know my sister, who lives in Bristol?",
        ] {
            assert_eq!(expanded(s), None, "{s}");
        }
    }
}
