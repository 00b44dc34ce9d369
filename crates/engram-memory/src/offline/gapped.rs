//! A second part that leaves out the first one's verb ("I do the cooking
//! on weekdays, Marco on weekends") says the same of someone else at
//! another time or place. [`expanded`] says it in full ("Marco does the
//! cooking on weekends.") so each memory holds one person's fact. So does
//! a list of costs that leaves out "is" ("rent is 1450, car payment 320":
//! [`amounts`]), and two events dated with one "is" ("draft is due March
//! 31, defence sometime in June": [`dated_events`]). Reads text only.

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

/// Whether `w` is an amount: a number, with a currency sign or a "k".
pub(super) fn amount(w: &str) -> bool {
    let core = w.trim_end_matches([',', '.', '!', ';']);
    let digits = core.trim_start_matches(['$', '\u{20ac}', '\u{a3}']);
    let digits = digits.trim_end_matches(['k', 'K', '\u{20ac}']);
    !digits.is_empty()
        && digits.starts_with(|c: char| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
}

/// What may follow an amount and belongs to it ("280 a month").
const PER: &[&str] = &["a", "per", "month", "week", "year", "monthly", "weekly"];

/// A list of what things cost that says "is" once: "rent is 1450, car
/// payment 320, and I'm paying off a loan" -> "my rent is 1450.", "my car
/// payment is 320.", "I'm paying off a loan". A thing with no owner said
/// is the speaker's ("rent is 1450" of someone's own budget). `None`
/// unless the sentence opens with a bare noun, "is" and an amount.
pub(super) fn amounts(sentence: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let noun = |ws: &[&str]| {
        // ("Rent is 1450" opens a sentence; "Sam is 34" is someone)
        let lower = |(i, w): (usize, &&str)| {
            let rest_lower = w.chars().skip(1).all(|c| !c.is_uppercase());
            let first_lower = w.starts_with(|c: char| c.is_lowercase());
            rest_lower
                && (first_lower
                    || (i == 0 && (ws.len() == 2 || super::lexicon::verb(&bare(w)).is_some())))
        };
        !ws.is_empty()
            && ws.len() <= 2
            && ws.iter().enumerate().all(lower)
            && ws.iter().all(|w| {
                let b = bare(w);
                !b.is_empty()
                    && b.chars().all(|c| c.is_ascii_lowercase())
                    && !matches!(
                        b.as_str(),
                        "and" | "the" | "a" | "an" | "it" | "this" | "that"
                    )
                    && !OWNERS.contains(&b.as_str())
                    && !matches!(b.as_str(), "your" | "its" | "who" | "what" | "which")
            })
            && !ws[..ws.len() - 1].iter().any(|w| w.ends_with(','))
    };
    let is = words.iter().position(|w| matches!(*w, "is" | "was"))?;
    if !noun(&words[..is]) || is_verbish(words[0]) && is > 1 {
        return None;
    }
    // the amount and what belongs to it, up to a comma
    let item_end = |from: usize| -> Option<usize> {
        if !words.get(from).is_some_and(|w| amount(w)) {
            return None;
        }
        let mut end = from;
        while !words[end].ends_with([',', '.', '!', ';'])
            && words
                .get(end + 1)
                .is_some_and(|w| PER.contains(&bare(w).as_str()))
        {
            end += 1;
        }
        Some(end)
    };
    let first_end = item_end(is + 1)?;
    let mut out = vec![format!(
        "my {} {}",
        words[0].to_lowercase(),
        words[1..=first_end].join(" ")
    )];
    let mut i = first_end + 1;
    // the items after it: a noun and an amount, each after a comma
    while i < words.len() && words[i - 1].ends_with(',') {
        let rest = &words[i..];
        // "salary is 68k, up from 52k at Pixelworks": how the amount
        // changed, part of its item
        if rest.len() > 2
            && matches!(bare(rest[0]).as_str(), "up" | "down")
            && matches!(bare(rest[1]).as_str(), "from" | "to")
        {
            let end = rest
                .iter()
                .position(|w| w.ends_with([',', '.', '!', ';']))
                .unwrap_or(rest.len() - 1);
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(&rest[..=end].join(" "));
            }
            i += end + 1;
            continue;
        }
        let Some(k) = rest.iter().take(3).position(|w| amount(w)) else {
            break;
        };
        if !noun(&rest[..k]) {
            break;
        }
        let end = item_end(i + k)?;
        out.push(format!(
            "my {} is {}",
            rest[..k].join(" "),
            words[i + k..=end].join(" ")
        ));
        i = end + 1;
    }
    let tidy = |s: &str| format!("{}.", s.trim_end_matches([',', '.', '!', ';']));
    let mut out: Vec<String> = out.iter().map(|s| tidy(s)).collect();
    if i < words.len() {
        let rest = &words[i..];
        let rest = match rest.first().map(|w| bare(w)).as_deref() {
            Some("and" | "but" | "plus") => &rest[1..],
            _ => rest,
        };
        out.push(rest.join(" "));
    }
    Some(out)
}

/// Words that open a phrase saying when ("sometime in June", "in May",
/// "on the 3rd", "next week").
const WHEN: &[&str] = &[
    "on", "in", "at", "sometime", "around", "next", "early", "late", "mid", "end", "by",
];

/// Two events whose days are said with "is" once: "first full draft is
/// due March 31, defence sometime in June" -> "first full draft is due
/// March 31.", "the defence is sometime in June." (whose the second is,
/// the first's owner says: "my draft ..., defence ..." -> "my defence").
/// `None` unless the part after the last comma is an event and when it
/// is, with no verb.
pub(super) fn dated_events(sentence: &str) -> Option<Vec<String>> {
    let body = sentence.trim_end().trim_end_matches(['.', '!']);
    let (left, right) = body.rsplit_once(", ")?;
    let left_words: Vec<&str> = left.split_whitespace().collect();
    let is = left_words
        .iter()
        .position(|w| matches!(bare(w).as_str(), "is" | "was"))?;
    let event_left = left_words[..is]
        .iter()
        .any(|w| super::lexicon::is_event(&bare(w)) || super::lexicon::is_personal_event(&bare(w)));
    let right: Vec<&str> = right.split_whitespace().collect();
    let the = right.first().is_some_and(|w| bare(w) == "the");
    let rest = &right[usize::from(the)..];
    let [event, when, ..] = rest else {
        return None;
    };
    let eventful =
        super::lexicon::is_event(&bare(event)) || super::lexicon::is_personal_event(&bare(event));
    let dated = WHEN.contains(&bare(when).as_str())
        || super::dates::names_a_day(&bare(when))
        || when.starts_with(|c: char| c.is_ascii_digit());
    if !event_left
        || !eventful
        || !dated
        || !event.chars().all(|c| c.is_lowercase() || c == '-')
        || rest[1..]
            .iter()
            .any(|w| is_verbish(w) && !WHEN.contains(&bare(w).as_str()))
    {
        return None;
    }
    let whose = match bare(left_words[0]).as_str() {
        "my" | "our" => bare(left_words[0]),
        w if w.ends_with("'s") && is_name_word(left_words[0]) => left_words[0].to_string(),
        _ => "the".to_string(),
    };
    Some(vec![
        format!("{left}."),
        format!("{whose} {} is {}.", event, rest[1..].join(" ")),
    ])
}

#[cfg(test)]
mod tests {
    use super::{amounts, dated_events, expanded};

    #[test]
    fn two_events_dated_with_one_is() {
        assert_eq!(
            dated_events("first full draft is due March 31, defence sometime in June"),
            Some(vec![
                "first full draft is due March 31.".to_string(),
                "the defence is sometime in June.".to_string(),
            ])
        );
        assert_eq!(
            dated_events("my exam is on Monday, interview on Friday."),
            Some(vec![
                "my exam is on Monday.".to_string(),
                "my interview is on Friday.".to_string(),
            ])
        );
        // not an event, or a verb in the second part
        assert_eq!(dated_events("rent is 1450, car payment 320"), None);
        assert_eq!(dated_events("the exam is on Monday, Sam is in June"), None);
    }

    #[test]
    fn a_list_of_costs_says_is_for_each() {
        let a = |s: &str| amounts(s);
        // how an amount changed is part of it
        assert_eq!(
            a("salary is 68k, up from 52k at Pixelworks"),
            Some(vec![
                "my salary is 68k, up from 52k at Pixelworks.".to_string()
            ])
        );
        assert_eq!(
            a("rent is 1450, car payment 320, and I'm paying off a student loan, 280 a month"),
            Some(vec![
                "my rent is 1450.".to_string(),
                "my car payment is 320.".to_string(),
                "I'm paying off a student loan, 280 a month".to_string(),
            ])
        );
        assert_eq!(
            a("rent is $1,450 a month."),
            Some(vec!["my rent is $1,450 a month.".to_string()])
        );
        // not a bare noun, or no amount
        assert_eq!(a("my rent is 1450"), None);
        assert_eq!(a("life is good, work 9 to 5"), None);
        assert_eq!(a("Sam is 34"), None);
        assert_eq!(a("Rent is 900."), Some(vec!["my rent is 900.".to_string()]));
    }

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
