//! A title in quotes and the "it" that opens the next sentence: "I loved
//! "Becoming Nicole" by Amy Ellis Nutt. It's a true story about a trans
//! girl" says the story is "Becoming Nicole". The title must be the only
//! quoted title of the sentence before, written as a title (its words
//! capitalised, a few of them), and not a quotation ("The sign says,
//! "Always look on the bright side"" is what the sign says; the "it" after
//! it is the sign). Reads text only; nothing is guessed beyond that one
//! step.

use super::clauses::bare;

/// The one quoted title `sentence` names, with its quotes: `"Dune"`.
pub(super) fn title_in(sentence: &str) -> Option<String> {
    let mut found = None;
    let mut at = 0;
    while let Some((open, close)) = next_quote(&sentence[at..]) {
        let open = at + open;
        let inner_start = open + sentence[open..].chars().next().map_or(1, char::len_utf8);
        let end = inner_start + sentence[inner_start..].find(close)?;
        let inner = &sentence[inner_start..end];
        // a quotation, or a second title: which one "it" is, is not said
        if !is_title(inner) || quoted_speech(&sentence[..open]) || found.is_some() {
            return None;
        }
        let after = end + close.len_utf8();
        found = Some(sentence[open..after].to_string());
        at = after;
    }
    found
}

/// `sentence` with its opening "It" (the subject: "It's", "It was", "It
/// made me ...") replaced by `title`; `None` when it does not open so.
pub(super) fn it_as_title(sentence: &str, title: &str) -> Option<String> {
    let (first, rest) = sentence.split_once(' ')?;
    let first = first.replace('\u{2019}', "'");
    let next = bare(rest.split_whitespace().next().unwrap_or(""));
    // "It's been a while", "It is what it is": the time or the talk
    if matches!(next.as_str(), "been" | "what" | "like") {
        return None;
    }
    let said = match first.as_str() {
        "It's" => format!("{title} is {rest}"),
        "It" if super::clauses::is_verbish(&next) => format!("{title} {rest}"),
        _ => return None,
    };
    Some(said)
}

/// Where the next opening quote is, and the quote that closes it.
fn next_quote(s: &str) -> Option<(usize, char)> {
    s.char_indices().find_map(|(i, c)| match c {
        '"' => Some((i, '"')),
        '\u{201c}' => Some((i, '\u{201d}')),
        _ => None,
    })
}

/// Whether quoted text reads as a title: one to eight words, the first
/// capitalised, and every longer word capitalised too ("Harry Potter and
/// the Philosopher's Stone", not "Always look on the bright side of
/// life"), with no sentence punctuation inside.
fn is_title(inner: &str) -> bool {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    !words.is_empty()
        && words.len() <= 8
        && capital(words[0])
        && words.iter().all(|w| {
            w.chars().count() < 4
                || capital(w)
                || w.chars().next().is_some_and(|c| !c.is_alphabetic())
        })
        && !inner.contains(['.', '!', '?', ','])
}

/// Whether the quote after `lead` is something said or written ("says,",
/// "the motto:", "like"): after a verb of saying or a colon.
fn quoted_speech(lead: &str) -> bool {
    let lead = lead.trim_end();
    if lead.ends_with(':') {
        return true;
    }
    let last = lead.split_whitespace().last().map(bare).unwrap_or_default();
    matches!(
        last.as_str(),
        "says" | "said" | "say" | "reads" | "wrote" | "writes" | "like" | "goes" | "went" | "motto"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(prev: &str, sentence: &str, expect: Option<&str>) {
        let got = title_in(prev).and_then(|t| it_as_title(sentence, &t));
        assert_eq!(got.as_deref(), expect, "{prev} | {sentence}");
    }

    #[test]
    fn it_after_a_title_is_the_title() {
        check(
            "I loved \"Becoming Nicole\" by Amy Ellis Nutt.",
            "It's a real inspiring true story about a trans girl and her family.",
            Some("\"Becoming Nicole\" is a real inspiring true story about a trans girl and her family."),
        );
        check(
            "I'm reading \u{201c}Dune\u{201d} by Frank Herbert.",
            "It made me think about ecology.",
            Some("\u{201c}Dune\u{201d} made me think about ecology."),
        );
        check(
            "Yeah, \"Harry Potter and the Philosopher's Stone\" is special to me.",
            "It was the first movie from the series.",
            Some(
                "\"Harry Potter and the Philosopher's Stone\" was the first movie from the series.",
            ),
        );
    }

    #[test]
    fn quotations_and_other_its_are_left() {
        // what a sign says is no title; the "it" is the sign
        check(
            "The sign says, \"Always look on the bright side of life\".",
            "It reminds us to smile.",
            None,
        );
        check("My motto is \"Carpe Diem\".", "It's been a while.", None);
        // two titles: which one is not said
        check(
            "I watched \"Elf\" and \"The Santa Clause\".",
            "It was fun.",
            None,
        );
        // "it" not opening the sentence
        check("I read \"Dune\".", "Then it rained.", None);
        check("I read \"Dune\".", "Its cover is blue.", None);
    }
}
