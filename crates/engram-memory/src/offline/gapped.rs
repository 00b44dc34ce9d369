//! A second part that leaves out the first one's verb ("I do the cooking
//! on weekdays, Marco on weekends") says the same of someone else at
//! another time or place. [`expanded`] says it in full ("Marco does the
//! cooking on weekends.") so each memory holds one person's fact. Reads
//! text only.

use super::clauses::{bare, is_verbish};
use super::intro::is_name_word;

/// Prepositions whose phrase the two parts contrast.
const CONTRASTED: &[&str] = &["on", "in", "at", "during", "for", "from", "until"];

/// Possessives that open someone named by relation ("my wife").
const OWNERS: &[&str] = &["my", "our", "his", "her", "their"];

/// `sentence` as two sentences when it ends with a comma, someone else
/// and a phrase that contrasts with the first part's last one ("I do the
/// cooking on weekdays, Marco on weekends."); `None` otherwise.
pub(super) fn expanded(sentence: &str) -> Option<Vec<String>> {
    let trimmed = sentence.trim_end();
    let stop = match trimmed.chars().last()? {
        c @ ('.' | '!') => c,
        _ => return None,
    };
    let body = trimmed.trim_end_matches(['.', '!']);
    let (left, right) = body.rsplit_once(", ")?;
    let right: Vec<&str> = right.split_whitespace().collect();
    // who the second part is about: a name, or "my wife"
    let who = if right
        .first()
        .is_some_and(|w| OWNERS.contains(&bare(w).as_str()))
    {
        2
    } else if right.first().is_some_and(|w| is_name_word(w)) {
        1
    } else {
        return None;
    };
    let prep = bare(right.get(who)?);
    if !CONTRASTED.contains(&prep.as_str())
        || right.len() > who + 4
        || right.len() < who + 2
        || right.iter().any(|w| is_verbish(w) || w.contains(','))
    {
        return None;
    }
    let words: Vec<&str> = left.split_whitespace().collect();
    let v = words.iter().position(|w| is_verbish(w))?;
    // the first part's subject, a word or two of its own before the verb
    let subject = bare(words[..v].last()?);
    if v > 2 || words[..v].iter().any(|w| w.contains(',')) {
        return None;
    }
    // the first part's phrase with the same preposition ends it
    let k = (v + 1..words.len())
        .rev()
        .find(|&i| bare(words[i]) == prep)?;
    if words[k + 1..].iter().any(|w| is_verbish(w)) || k + 1 == words.len() {
        return None;
    }
    let plural_other = who == 2 && right[1].ends_with('s');
    let verb = bare(words[v]);
    let verb = match subject.as_str() {
        "i" | "we" | "you" | "they" if !plural_other => super::coref::third_person(&verb),
        "i" if verb == "am" => "are".to_string(),
        "i" | "we" | "you" | "they" => verb,
        // ("Sam does the cooking on weekdays, Marco on weekends")
        "he" | "she" if !plural_other => verb,
        _ if is_name_word(words[v - 1]) && !plural_other => verb,
        _ => return None,
    };
    let other = right[..who].join(" ");
    // ("my wife" opens the sentence)
    let other = super::surface::upper_first(&other);
    let mut said = vec![other, verb];
    said.extend(words[v + 1..k].iter().map(|w| w.to_string()));
    said.extend(right[who..].iter().map(|w| w.to_string()));
    Some(vec![
        format!("{left}{stop}"),
        format!("{}{stop}", said.join(" ")),
    ])
}

#[cfg(test)]
mod tests {
    use super::expanded;

    fn check(sentence: &str, want: Option<&[&str]>) {
        let got = expanded(sentence);
        let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(got, want, "{sentence}");
    }

    #[test]
    fn the_left_out_verb_is_said_again() {
        check(
            "I do the cooking on weekdays, Marco on weekends.",
            Some(&[
                "I do the cooking on weekdays.",
                "Marco does the cooking on weekends.",
            ]),
        );
        check(
            "I work from home on Mondays, my wife on Fridays!",
            Some(&[
                "I work from home on Mondays!",
                "My wife works from home on Fridays!",
            ]),
        );
        check(
            "We walk the dog in the morning, my parents in the evening.",
            Some(&[
                "We walk the dog in the morning.",
                "My parents walk the dog in the evening.",
            ]),
        );
    }

    #[test]
    fn someone_named_keeps_the_verb() {
        check(
            "Sam does the cooking on weekdays, Marco on weekends.",
            Some(&[
                "Sam does the cooking on weekdays.",
                "Marco does the cooking on weekends.",
            ]),
        );
        check(
            "I live in Leeds, Marco in York.",
            Some(&["I live in Leeds.", "Marco lives in York."]),
        );
    }

    #[test]
    fn other_commas_stay() {
        for s in [
            "I live in Leeds, Marco in York?",
            "I met Sam at work, Tuesday in fact.",
            "I moved to Leeds in May, Sam said it was nice.",
            "I do the cooking, Marco on weekends.",
            "I love it, Marco at least.",
        ] {
            check(s, None);
        }
    }
}
