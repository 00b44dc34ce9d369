//! People listed by name with something said of each: "We have two kids,
//! Arjun who is 7 and Meera who just turned 4" says three facts: the kids
//! (by name), Arjun's age and Meera's. [`expanded`] rewrites such a
//! sentence as those three sentences before it is cut into clauses, so no
//! clause runs one person's "who" into the next name. Reads text only.

use super::clauses::{bare, is_verbish};
use super::intro::is_name_word;

/// `sentence` as one sentence per fact when, after a comma, it lists
/// names each followed by "who" and a verb ("..., Arjun who is 7 and
/// Meera who just turned 4."): the head with the names ("We have two
/// kids, Arjun and Meera."), then "Arjun is 7.", "Meera just turned 4.".
pub(super) fn expanded(sentence: &str) -> Option<Vec<String>> {
    let (head, list) = sentence.split_once(", ")?;
    // "My husband Dev and our two kids, Zara who is 9 and ...": a head
    // with no verb, listing those close, says who they are
    let (lead, head) = if head.split_whitespace().any(is_verbish) {
        (Vec::new(), head.to_string())
    } else {
        verbless_head(head)?
    };
    let body = list.trim_end_matches(['.', '!']);
    let stop = &list[body.len()..];
    let stop = if stop.is_empty() { "." } else { stop };
    let words: Vec<&str> = body.split_whitespace().collect();
    // where each listed name starts: a capitalised word right before "who"
    let starts: Vec<usize> = (0..words.len().saturating_sub(1))
        .filter(|&i| is_name_word(words[i]) && bare(words[i + 1]) == "who")
        .collect();
    if starts.first() != Some(&0) {
        return None;
    }
    let mut names = Vec::new();
    let mut facts = Vec::new();
    for (k, &at) in starts.iter().enumerate() {
        // the name's clause runs to the next name (less the "and" or the
        // comma before it)
        let end = starts.get(k + 1).copied().unwrap_or(words.len());
        let mut clause: Vec<&str> = words[at + 2..end].to_vec();
        if k + 1 < starts.len() {
            match clause.last().map(|w| bare(w)) {
                Some(w) if w == "and" => {
                    clause.pop();
                }
                _ if clause.last().is_some_and(|w| w.ends_with(',')) => {}
                _ => return None,
            }
        }
        let clause = clause.join(" ");
        let clause = clause.trim_end_matches(',');
        // "who is 7", "who just turned 4", "who lives in Leeds"
        let says = clause.split_whitespace().take(2).any(is_verbish);
        if clause.is_empty() || !says {
            return None;
        }
        names.push(words[at].trim_end_matches(','));
        facts.push(format!("{} {clause}{stop}", words[at]));
    }
    let listed = match names.as_slice() {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => return None,
    };
    let mut out: Vec<String> = lead.into_iter().map(|l| format!("{l}{stop}")).collect();
    out.push(format!("{head}, {listed}{stop}"));
    out.extend(facts);
    Some(out)
}

/// A head with no verb listing those close ("My husband Dev and our two
/// kids") said as sentences: the named ones ("My husband is Dev"), and the
/// last, which the list names, as had ("We have two kids"). `None` unless
/// every part is such.
fn verbless_head(head: &str) -> Option<(Vec<String>, String)> {
    let parts: Vec<&str> = head.split(" and ").map(str::trim).collect();
    let (last, named) = parts.split_last()?;
    let mut lead = Vec::new();
    for part in named {
        lead.push(super::named::in_fragment(part)?);
    }
    let (whose, rest) = last.split_once(' ')?;
    let has = match bare(whose).as_str() {
        "my" => "I have",
        "our" => "We have",
        _ => return None,
    };
    // "our two kids", "my three sisters": a number of people
    let mut words = rest.split_whitespace();
    let counted = words.next().is_some_and(|n| {
        n.chars().all(|c| c.is_ascii_digit()) || super::lexicon::number(&bare(n)).is_some()
    });
    (counted && words.next().is_some() && words.next().is_none())
        .then(|| (lead, format!("{has} {rest}")))
}

#[cfg(test)]
mod tests {
    use super::expanded;

    #[test]
    fn names_each_with_a_who_clause_are_facts_of_their_own() {
        let got = expanded("We have two kids, Arjun who is 7 and Meera who just turned 4.");
        assert_eq!(
            got.unwrap(),
            [
                "We have two kids, Arjun and Meera.",
                "Arjun is 7.",
                "Meera just turned 4."
            ]
        );
        let got = expanded("I have two brothers, Sam who lives in Leeds, Tom who works at Acme and Ben who is a nurse!");
        assert_eq!(
            got.unwrap(),
            [
                "I have two brothers, Sam, Tom and Ben!",
                "Sam lives in Leeds!",
                "Tom works at Acme!",
                "Ben is a nurse!"
            ]
        );
        let got = expanded("My husband Dev and our two kids, Zara who is 9 and Kian who is 6.");
        assert_eq!(
            got.unwrap(),
            [
                "My husband is Dev.",
                "We have two kids, Zara and Kian.",
                "Zara is 9.",
                "Kian is 6."
            ]
        );
        for plain in [
            "We have two kids, Arjun and Meera.",
            "The kids and the dog, Rex who is 3 and Bo who is 5.",
            "I met Sam, who is a nurse.",
            "Yesterday, Arjun who is 7 fell off his bike.",
            "We have two kids, Arjun who",
        ] {
            assert_eq!(expanded(plain), None, "{plain}");
        }
    }
}
