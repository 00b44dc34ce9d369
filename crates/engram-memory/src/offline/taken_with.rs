//! A taste said of a thing judged in the clause before: "Harry Potter and
//! Game of Thrones are amazing - I'm totally hooked!" says the speaker is
//! hooked on them; "The Name of the Wind is so good, I love it" that the
//! speaker loves the book. The thing is the subject of a judgement
//! ("X is/are amazing") written as a name (it opens and ends with a
//! capital: "The Name of the Wind", "the new Zelda"), never a person of
//! the conversation or a pronoun. The second clause is the speaker's
//! own, and says only the taste. Reads text only; anything else is left
//! to the other readings (a bare "I'm hooked" is no memory: on what?).

use super::clauses::bare;
use super::words::EVALUATIVE;

/// States that take what they are of after a preposition ("hooked on
/// X", "obsessed with X").
const HOOKED: &[(&str, &str)] = &[("hooked", "on"), ("obsessed", "with"), ("addicted", "to")];

/// Verbs of taste whose "it" or "them" may be the thing judged.
const LOVING: &[&str] = &["love", "adore", "like", "enjoy"];

/// Words that may close the taste ("I love it so much").
const CLOSING: &[&str] = &["so", "much", "a", "lot", "now", "already"];

/// `clause` with the thing `before` judged written in, or `None`.
pub(super) fn resolved(clause: &str, before: &str, people: &[&str]) -> Option<String> {
    let thing = judged_thing(before, people)?;
    let words: Vec<&str> = clause.split_whitespace().collect();
    let bares: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let end = bares.iter().rposition(|w| !CLOSING.contains(&w.as_str()))?;
    let last = bares[end].as_str();
    let adverbs = |from: usize, to: usize| {
        from <= to
            && bares[from..to]
                .iter()
                .all(|w| w == "so" || super::coref::is_adverb(w))
    };
    let tail: String = words[end]
        .chars()
        .skip_while(|c| c.is_alphanumeric() || *c == '\'')
        .collect();
    let first = bares.first().map(String::as_str);
    // "I'm totally hooked!"
    let hooked = HOOKED.iter().find(|(state, _)| *state == last);
    if let Some((_, prep)) = hooked.filter(|_| first == Some("i'm") && adverbs(1, end)) {
        let core = words[end].trim_end_matches(|c: char| !c.is_alphanumeric());
        let mut out: Vec<&str> = words[..end].to_vec();
        out.push(core);
        return Some(format!("{} {prep} {thing}{tail}", out.join(" ")));
    }
    // "I love it", "I'm so into them"
    let taste = end >= 2
        && matches!(last, "it" | "them")
        && match first {
            Some("i") => LOVING.contains(&bares[end - 1].as_str()) && adverbs(1, end - 1),
            Some("i'm") => bares[end - 1] == "into" && adverbs(1, end - 1),
            _ => false,
        };
    match taste {
        true => {
            let mut out: Vec<String> = words[..end].iter().map(|w| w.to_string()).collect();
            out.push(format!("{thing}{tail}"));
            out.extend(words[end + 1..].iter().map(|w| w.to_string()));
            Some(out.join(" "))
        }
        false => None,
    }
}

/// The thing `before` judges ("Harry Potter and Game of Thrones are
/// amazing"): a name, not a person's and not a pronoun.
fn judged_thing(before: &str, people: &[&str]) -> Option<String> {
    let words: Vec<&str> = before.split_whitespace().collect();
    let copula = words
        .iter()
        .position(|w| matches!(bare(w).as_str(), "is" | "are" | "was" | "were"))?;
    if copula == 0 {
        return None;
    }
    // judged: adverbs, then a word of judgement
    let judged = words[copula + 1..]
        .iter()
        .map(|w| bare(w))
        .find(|w| !super::coref::is_adverb(w) && !matches!(w.as_str(), "so" | "such" | "pretty"))
        .is_some_and(|w| EVALUATIVE.contains(&w.as_str()));
    let subject = &words[..copula];
    let named = subject.iter().enumerate().all(|(i, w)| {
        let b = bare(w);
        let (_, core, trail) = super::coref::parts(w);
        trail.is_empty()
            && (core.starts_with(char::is_uppercase)
                || (i > 0 && b.chars().all(|c| c.is_ascii_lowercase() || c == '-')))
    }) && subject
        .last()
        .is_some_and(|w| w.starts_with(char::is_uppercase));
    let first = bare(subject[0]);
    let pronoun = super::clauses::SUBJECTS.contains(&first.as_str())
        || matches!(
            first.as_str(),
            "my" | "our" | "your" | "his" | "her" | "their"
        );
    let person = subject
        .iter()
        .any(|w| people.iter().any(|p| *p == super::coref::parts(w).1));
    // ("The new Zelda": "the" within a sentence, unless a title's)
    let mut said = subject.join(" ");
    if subject.len() > 1
        && subject[0] == "The"
        && subject[1].starts_with(|c: char| c.is_lowercase())
    {
        said.replace_range(..1, "t");
    }
    (judged && named && !pronoun && !person).then_some(said)
}

#[cfg(test)]
mod tests {
    use super::resolved;

    fn check(before: &str, clause: &str, want: Option<&str>) {
        assert_eq!(
            resolved(clause, before, &["Tim", "John"]).as_deref(),
            want,
            "{before} / {clause}"
        );
    }

    #[test]
    fn the_thing_judged_is_what_the_taste_is_of() {
        check(
            "Harry Potter and Game of Thrones are amazing",
            "I'm totally hooked!",
            Some("I'm totally hooked on Harry Potter and Game of Thrones!"),
        );
        check(
            "The Name of the Wind is so good",
            "I love it.",
            Some("I love The Name of the Wind."),
        );
        check(
            "Stardew Valley is amazing",
            "I'm so into it",
            Some("I'm so into Stardew Valley"),
        );
        check(
            "Hades is great",
            "I really love it so much!",
            Some("I really love Hades so much!"),
        );
    }

    #[test]
    fn only_a_named_thing_judged_and_only_the_speakers_taste() {
        // a person, a pronoun, a plain noun, no judgement
        check("John is amazing", "I'm hooked", None);
        check("It is amazing", "I'm hooked", None);
        check("My garden is lovely", "I love it", None);
        check("Harry Potter is a series", "I'm hooked", None);
        // more than the taste, or someone else's
        check("Harry Potter is amazing", "I'm hooked on chess", None);
        check("Harry Potter is amazing", "She loves it", None);
        check("Harry Potter is amazing", "I love it when it rains", None);
    }
}
