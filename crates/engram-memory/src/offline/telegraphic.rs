//! Plans told in note form, with no verb and no subject: "Flights on
//! August 4th from Manchester to Faro, staying in Lagos for ten days."
//! A sentence that opens with an event ("Flights", "Meeting", "Dentist
//! appointment") and a preposition, with no verb before its first comma,
//! is the speaker's own plan: "I have flights on August 4th from
//! Manchester to Faro", and a gerund after the comma goes on about the
//! speaker ("I'm staying in Lagos for ten days"). A new best ("new 10k
//! PB last week, 50:10") and news of something decided ("offer
//! accepted!! 400k for the Leyton flat") are the speaker's too, and so
//! is news cried out and then described ("found a place! a studio in
//! Mokotów"). Reads text only.

use super::clauses::{bare, is_verbish};

/// Events one has, as the first word of a note (singular or plural).
const EVENTS: &[&str] = &[
    "flight",
    "meeting",
    "appointment",
    "interview",
    "exam",
    "dinner",
    "lunch",
    "party",
    "concert",
    "surgery",
    "checkup",
    "class",
    "lesson",
    "game",
    "match",
    "trip",
    "train",
];

/// Events said without an article ("physio twice a week"), besides
/// [`EVENTS`].
const MASS: &[&str] = &[
    "physio",
    "physiotherapy",
    "therapy",
    "rehab",
    "training",
    "practice",
];

/// Prepositions that go on to say when, where or with whom.
const GOES_ON: &[&str] = &[
    "on", "at", "in", "from", "to", "with", "next", "this", "tomorrow", "twice", "once", "every",
    "three",
];

/// `sentence` said with its subject when it is a plan in note form
/// (see the module docs); `None` otherwise.
pub(super) fn expanded(sentence: &str) -> Option<String> {
    // "back running, did 5k this morning", "back at work": "I'm" left out
    let mut opening = sentence.split_whitespace().map(bare);
    if opening.next().as_deref() == Some("back")
        && opening.next().is_some_and(|n| {
            matches!(n.as_str(), "at" | "to" | "in" | "on" | "home")
                || matches!(
                    super::lexicon::verb(&n),
                    Some((_, super::lexicon::VerbForm::Gerund))
                )
        })
    {
        return Some(format!("I'm {sentence}"));
    }
    let (head, tail) = match sentence.split_once(", ") {
        Some((h, t)) => (h, Some(t)),
        None => (sentence, None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let first = *words.first()?;
    // (in chat a note may open in lower case: "physio twice a week")
    if !first.chars().next().is_some_and(char::is_alphabetic) {
        return None;
    }
    // "Flights on", "Dentist appointment at": the event, then what goes on
    let noun_at = (0..words.len().min(2)).find(|&i| {
        let b = bare(words[i]);
        let one = b
            .strip_suffix("es")
            .filter(|s| s.ends_with("ss"))
            .or(b.strip_suffix('s'));
        EVENTS.contains(&b.as_str())
            || MASS.contains(&b.as_str())
            || one.is_some_and(|s| EVENTS.contains(&s))
    })?;
    // ("Meeting" is no verb here, nor "called" in "a guy called Raj")
    let verb = words.iter().enumerate().any(|(i, w)| {
        let naming = matches!(bare(w).as_str(), "called" | "named")
            && words
                .get(i + 1)
                .is_some_and(|n| super::intro::is_name_word(n));
        i != noun_at && is_verbish(w) && !naming
    });
    if verb
        || !words
            .get(noun_at + 1)
            .is_some_and(|w| GOES_ON.contains(&bare(w).as_str()))
    {
        return None;
    }
    let noun = bare(words[noun_at]);
    let plural = !EVENTS.contains(&noun.as_str()) && !MASS.contains(&noun.as_str());
    let opening = bare(first);
    let article = if plural || MASS.contains(&noun.as_str()) {
        ""
    } else if opening.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an "
    } else {
        "a "
    };
    // ("Dentist appointment": both words lowercase, names aside)
    let event: Vec<String> = words[..=noun_at]
        .iter()
        .map(|w| {
            if super::intro::is_name_word(w) && *w != first {
                w.to_string()
            } else {
                w.to_lowercase()
            }
        })
        .collect();
    let said = format!(
        "I have {article}{} {}",
        event.join(" "),
        words[noun_at + 1..].join(" ")
    );
    match tail {
        // ", staying in Lagos for ten days": the speaker goes on
        Some(t)
            if t.split_whitespace()
                .next()
                .is_some_and(|w| bare(w).ends_with("ing")) =>
        {
            let t = t.trim_end_matches(['.', '!']);
            let stop = &sentence[sentence.trim_end_matches(['.', '!']).len()..];
            Some(format!(
                "{said}, and I'm {t}{}",
                if stop.is_empty() { "." } else { stop }
            ))
        }
        Some(t) => Some(format!("{said}, {t}")),
        None => Some(said),
    }
}

/// Words for a best one set ("a new 10k PB", "a new record").
const BESTS: &[&str] = &["pb", "pr", "record", "best", "high-score"];

/// A new best told in note form, "new 10k PB last week, 50:10" (or "new
/// 5k PB today: 26:45"): the
/// speaker set it, "I set a new 10k PB of 50:10 last week". `None` for
/// anything else.
pub(super) fn new_best(sentence: &str) -> Option<String> {
    // ("new 5k PB today: 26:45": a colon gives the value too)
    let (head, tail) = sentence
        .split_once(", ")
        .or_else(|| sentence.split_once(": "))?;
    let mut words: Vec<&str> = head.split_whitespace().collect();
    while words
        .first()
        .is_some_and(|w| matches!(bare(w).as_str(), "also" | "and" | "plus" | "oh" | "a"))
    {
        words.remove(0);
    }
    if words.first().is_none_or(|w| bare(w) != "new") {
        return None;
    }
    // the best, one to three words ("10k PB", "personal best")
    let at = (1..words.len().min(4)).find(|&i| BESTS.contains(&bare(words[i]).as_str()))?;
    let value: Vec<&str> = tail.split_whitespace().collect();
    let amount = value
        .first()
        .map(|v| v.trim_end_matches(['.', '!']))
        .filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit()))?;
    // ("record" may read as a verb: it is the best here)
    let verb = words
        .iter()
        .enumerate()
        .any(|(i, w)| i != at && is_verbish(w));
    if verb || value.len() > 3 {
        return None;
    }
    let thing = words[1..=at].join(" ");
    let when = words[at + 1..].join(" ");
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" {when}")
    };
    Some(format!("I set a new {thing} of {amount}{when}."))
}

/// Participles that tell news of something one applied or asked for
/// ("offer accepted", "visa approved").
const DECIDED: &[&str] = &[
    "accepted",
    "approved",
    "rejected",
    "declined",
    "confirmed",
    "granted",
    "denied",
    "booked",
    "signed",
    "submitted",
];

/// Words that are never the thing of such news.
const NOT_THINGS: &[&str] = &[
    "i",
    "we",
    "it",
    "this",
    "that",
    "he",
    "she",
    "they",
    "you",
    "all",
    "everything",
    "so",
];

/// News told in note form at the start of a turn, "offer accepted!! 400k
/// for the Leyton flat": the speaker's, "My offer of 400k for the Leyton
/// flat was accepted!" (the amount a fragment after it may give). `None`
/// for anything else; the rest of the turn follows as it was.
pub(super) fn news(text: &str) -> Option<String> {
    // ("surgery done, all went fine": done, then how it went)
    let end = text.find(['!', '.', '?', ','])?;
    let head = &text[..end];
    let mark_end = end
        + text[end..]
            .chars()
            .take_while(|c| matches!(c, '!' | '.' | '?' | ','))
            .count();
    let words: Vec<&str> = head.split_whitespace().collect();
    let (participle, thing) = words.split_last()?;
    let lower_word = |w: &&str| w.chars().all(|c| c.is_lowercase() || c == '-');
    let done = matches!(bare(participle).as_str(), "done" | "finished" | "over");
    if !(DECIDED.contains(&bare(participle).as_str()) || done)
        || thing.is_empty()
        || thing.len() > 2
        || !thing.iter().all(lower_word)
        || thing.iter().any(|w| {
            NOT_THINGS.contains(&bare(w).as_str())
                || super::lexicon::AUXILIARIES.contains(&bare(w).as_str())
                || matches!(
                    super::lexicon::verb(&bare(w)),
                    Some((
                        _,
                        super::lexicon::VerbForm::Past | super::lexicon::VerbForm::Gerund
                    ))
                )
        })
    {
        return None;
    }
    let thing = thing.join(" ");
    let plural = thing.ends_with('s') && !thing.ends_with("ss");
    // ("surgery done": it is done now; "offer accepted": it was)
    let be = match (done, plural) {
        (true, true) => "are",
        (true, false) => "is",
        (false, true) => "were",
        (false, false) => "was",
    };
    // "400k for the Leyton flat": what it was of, a fragment after it
    let rest = text[mark_end..].trim_start();
    let fragment_end = rest.find(['!', '.', '?']).unwrap_or(rest.len());
    let fragment = &rest[..fragment_end];
    let amount = fragment.split_whitespace().next().is_some_and(|w| {
        w.trim_start_matches(['$', '\u{a3}', '\u{20ac}'])
            .starts_with(|c: char| c.is_ascii_digit())
    });
    let verbless = !fragment.split_whitespace().any(is_verbish);
    let (of, rest) = if amount && verbless && fragment.split_whitespace().count() <= 8 {
        (format!(" of {fragment}"), &rest[fragment_end..])
    } else {
        (String::new(), rest)
    };
    let rest = rest.trim_start_matches(['!', '.', '?']).trim_start();
    let sep = if rest.is_empty() { "" } else { " " };
    // (a comma after the news ends it: "My surgery is done. all went fine")
    let marks = &text[end..mark_end];
    let marks = if marks.trim() == "," { "." } else { marks };
    Some(format!(
        "My {thing}{of} {be} {}{marks}{sep}{rest}",
        bare(participle),
    ))
}

/// Verbs of getting hold of something, which open a short cry of news
/// that the next sentence describes ("found a place! a studio in ...").
const GOT_HOLD: &[&str] = &[
    "found", "got", "bought", "signed", "adopted", "booked", "landed",
];

/// News cried out bare and described by the fragment after it, "found a
/// place! a studio in Mokotów, 3100 zł a month, moving on June 28": the
/// thing and what it is, one sentence ("found a place, a studio in
/// Mokotów, 3100 zł a month."), or a thing named by "the" and named
/// after it ("booked the venue! Aynhoe Park"), or a pronoun the fragment
/// says ("we got him! a cavapoo puppy called Biscuit"), and a part that
/// does something after it ("moving on June 28") a sentence of its own.
/// `None` for anything else.
pub(super) fn described_news(text: &str) -> Option<String> {
    let end = text.find('!')?;
    let said: Vec<&str> = text[..end].split_whitespace().collect();
    // ("we finally booked the wedding venue!": who and when may lead)
    let lead = said
        .iter()
        .take_while(|w| {
            matches!(
                bare(w).as_str(),
                "we" | "i" | "we've" | "i've" | "just" | "finally" | "so"
            )
        })
        .count();
    let head = &said[lead..];
    // "we got him! a cavapoo puppy called Biscuit": the fragment is who
    let pronoun = matches!(head, [got, it] if GOT_HOLD.contains(&bare(got).as_str())
        && matches!(bare(it).as_str(), "him" | "her" | "it" | "them"));
    // "booked the venue! Aynhoe Park": a thing named by "the" is named
    let (definite, bare_news) = match head {
        [got, a, _, ..] => {
            let definite = matches!(bare(a).as_str(), "the" | "our" | "my");
            let news = head.len() <= 4
                && GOT_HOLD.contains(&bare(got).as_str())
                && (matches!(bare(a).as_str(), "a" | "an") || definite)
                && !head[2..].iter().any(|w| is_verbish(w));
            (definite, news)
        }
        _ => (false, false),
    };
    if !bare_news && !pronoun {
        return None;
    }
    let marks = text[end..].chars().take_while(|c| *c == '!').count();
    let rest = text[end + marks..].trim_start();
    let fragment_end = rest.find(['!', '.', '?']).unwrap_or(rest.len());
    let parts: Vec<&str> = rest[..fragment_end].split(", ").collect();
    // the description: the parts with no verb, from an article on
    let opens = parts
        .first()
        .and_then(|p| p.split_whitespace().next())
        .is_some_and(|w| matches!(w, "a" | "an") || (definite && crate::offline::is_name_word(w)));
    let described = parts
        .iter()
        .take_while(|p| {
            // ("a used Fender Strat": a participle after the article is
            // said of the thing)
            let words: Vec<&str> = p.split_whitespace().collect();
            !words.iter().enumerate().any(|(i, w)| {
                let article = i > 0 && matches!(bare(words[i - 1]).as_str(), "a" | "an");
                is_verbish(w) && !article && !matches!(bare(w).as_str(), "called" | "named")
            })
        })
        .count();
    if !opens || described == 0 {
        return None;
    }
    let after = parts[described..].join(", ");
    let sep = if after.is_empty() { "" } else { ". " };
    // (the pronoun's place is the description's)
    let (news, joint) = match pronoun {
        true => (text[..end].trim_end().rsplit_once(' ')?.0, " "),
        false => (text[..end].trim_end(), ", "),
    };
    Some(format!(
        "{news}{joint}{}{sep}{after}{}",
        parts[..described].join(", "),
        &rest[fragment_end..],
    ))
}

#[cfg(test)]
mod tests {
    use super::expanded;

    #[test]
    fn news_cried_out_takes_what_describes_it() {
        for (said, want) in [
            (
                "found a place! a studio in Mokotów, 3100 zł a month, moving on June 28",
                Some("found a place, a studio in Mokotów, 3100 zł a month. moving on June 28"),
            ),
            (
                "got a puppy!! a beagle called Max. so cute",
                Some("got a puppy, a beagle called Max. so cute"),
            ),
            (
                "bought an electric guitar! a used Fender Strat",
                Some("bought an electric guitar, a used Fender Strat"),
            ),
            (
                "we finally booked the wedding venue! Aynhoe Park, 20 June next year",
                Some("we finally booked the wedding venue, Aynhoe Park, 20 June next year"),
            ),
            ("booked the flights! Can't wait", None),
            ("got the job! Starting Monday", None),
            ("found a place! so happy", None),
            (
                "I found a place! a studio",
                Some("I found a place, a studio"),
            ),
            ("got a lot done! a good day", None),
            (
                "we got him! a cavapoo puppy called Biscuit, 10 weeks old",
                Some("we got a cavapoo puppy called Biscuit, 10 weeks old"),
            ),
            ("we got it! so happy", None),
        ] {
            assert_eq!(super::described_news(said).as_deref(), want, "{said}");
        }
    }

    #[test]
    fn news_in_note_form_is_the_speakers() {
        for (said, want) in [
            (
                "offer accepted!! 400k for the Leyton flat",
                Some("My offer of 400k for the Leyton flat was accepted!!"),
            ),
            (
                "visa approved! so relieved",
                Some("My visa was approved! so relieved"),
            ),
            ("tickets booked.", Some("My tickets were booked.")),
            (
                "surgery done, all went fine.",
                Some("My surgery is done. all went fine."),
            ),
            ("I got accepted!", None),
            ("kitchen is DONE!!", None),
            ("Everything approved!", None),
            ("The Smiths confirmed.", None),
        ] {
            assert_eq!(super::news(said).as_deref(), want, "{said}");
        }
    }

    #[test]
    fn a_new_best_in_note_form_is_set_by_the_speaker() {
        for (said, want) in [
            (
                "also new 10k PB last week, 50:10",
                Some("I set a new 10k PB of 50:10 last week."),
            ),
            ("New record, 42 pushups!", Some("I set a new record of 42.")),
            ("new job last week, loving it", None),
            ("new PB, so happy", None),
            (
                "new 5k PB today: 26:45!!",
                Some("I set a new 5k PB of 26:45 today."),
            ),
        ] {
            assert_eq!(super::new_best(said).as_deref(), want, "{said}");
        }
    }

    #[test]
    fn plans_in_note_form_are_the_speakers() {
        for (said, want) in [
            (
                "Flights on August 4th from Manchester to Faro, staying in Lagos for ten days.",
                Some("I have flights on August 4th from Manchester to Faro, and I'm staying in Lagos for ten days."),
            ),
            (
                "Dentist appointment on Friday at 9.",
                Some("I have a dentist appointment on Friday at 9."),
            ),
            ("Meeting with Sam tomorrow!", Some("I have a meeting with Sam tomorrow!")),
            (
                "physio twice a week with a guy called Raj",
                Some("I have physio twice a week with a guy called Raj"),
            ),
            // not a note: a verb, no event, or no preposition after it
            ("Flights are expensive now.", None),
            ("Lisbon in August, probably.", None),
            ("Flights, hotels, everything.", None),
            // back at something, "I'm" left out
            (
                "back running, did 5k this morning",
                Some("I'm back running, did 5k this morning"),
            ),
            ("back at work today", Some("I'm back at work today")),
            ("back then it was hard", None),
        ] {
            assert_eq!(expanded(said).as_deref(), want, "{said}");
        }
    }
}
