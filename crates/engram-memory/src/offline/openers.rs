//! The openings of chat sentences that add nothing to their fact, and
//! dropping them ([`strip_openers`]): interjections ("Oh, yeah, ..."),
//! answers and news ("Not really, ...", "Update: ..."), stock phrases
//! ("To be honest, ..."), greeting clauses ("Haven't talked in a while,
//! ..."). "So much ..." and "Next week ..." are kept. Reads text only.

/// Interjections that open chat sentences without adding to them.
const OPENERS: &[&str] = &[
    "oh",
    "yeah",
    "yes",
    "well",
    "so",
    "haha",
    "wow",
    "hey",
    "ok",
    "okay",
    "honestly",
    "actually",
    "lol",
    "omg",
    "ah",
    "aw",
    "aww",
    "um",
    "hmm",
    "anyway",
    "btw",
    "woah",
    "whoa",
    "yay",
    "ooh",
    "ugh",
    "argh",
    "sigh",
    "phew",
    "meh",
    "and",
    "but",
    "also",
    "plus",
    "then",
    "yup",
    "yep",
    "nah",
    "hi",
    "hello",
    "man",
    "dude",
    "guess",
    "sadly",
    "luckily",
    "unfortunately",
    "fortunately",
    "thankfully",
    "basically",
    "besides",
    "still",
];

/// Words "so" intensifies rather than opens a sentence with ("So much
/// ...", "So many ...").
const INTENSIFIED: &[&str] = &["much", "many", "far", "long", "little", "few"];

fn bare_lower(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric())
        .to_ascii_lowercase()
}

/// Phrases that open a sentence without adding to its fact.
/// Openings that answer the listener or announce news, dropped only
/// before a comma or a colon.
const ANSWER_OPENERS: &[&str] = &[
    "not really",
    "not exactly",
    "not yet",
    "no",
    "nope",
    "sure",
    "of course",
    "update",
    "small update",
    "correction",
    "quick correction",
    "fyi",
    "bad news",
    "sad news",
    "great news",
    "exciting news",
    "some news",
    "heads up",
    "quick heads up",
    // what came before, which the memory stands without ("After that, we
    // celebrated at a restaurant")
    "after that",
    "afterwards",
    "afterward",
    "later that day",
    "later that night",
    "later on",
    // asking to be reminded of what follows ("remind me, my mum's birthday
    // is ...", "note to self: ...")
    "remind me",
    // a yes hedged ("I think so, it comes with a raise"): what follows is
    // the fact
    "i think so",
    "i guess so",
    "i hope so",
    "i believe so",
    "i reckon so",
    "please remember",
    "remember",
    "note to self",
    // context given before the facts ("quick context for you: I'm a PM at
    // Deliveroo")
    "quick context for you",
    "some context for you",
    "context for you",
    "quick context",
    "some context",
    "for context",
    "a bit of context",
    "some background",
    "a bit of background",
    "background",
    "for the record",
    "just so you know",
    "less fun",
    "not so fun",
    "the less fun part",
    "the bad part",
    "the good part",
    "in other news",
    "other news",
    "more news",
    "on a sadder note",
    "on a brighter note",
    "on a lighter note",
    "on a happier note",
    // how it's going, answered before the news ("great, we're going to
    // Istanbul in June")
    "great",
    "good",
    "pretty good",
    "really good",
    "really well",
    "pretty well",
    "very well",
    "really well actually",
    "all good",
    "not bad",
    "fine",
    "amazing",
    "awesome",
    // how the speaker feels before the news ("gutted, I had to pull out")
    "gutted",
    "bummed",
    "devastated",
    "stoked",
    "thrilled",
];

const OPENING_PHRASES: &[&str] = &[
    "by the way",
    "i mean",
    "on another note",
    "on a different note",
    "speaking of which",
    "change of plans",
    "fun fact",
    "guess what",
    // what was found out is the fact ("turns out she grew up in Izmir")
    "it turns out that",
    "it turns out",
    "turns out that",
    "turns out",
    "believe it or not",
    "to be honest",
    "in fact",
    "as for me",
    "these days",
    "nowadays",
    "lately",
    "right now",
    "at the moment",
    "for what it's worth",
    "good news",
    "big news",
    "quick update",
    "an update",
    "oh and",
    "oh by the way",
    // a stance announced: what follows is the fact ("I gotta say, I
    // really like ...")
    "i gotta say",
    "i've gotta say",
    "i have to say",
    "i must say",
    "gotta say",
    "i gotta admit",
    "i have to admit",
    "i must admit",
    // news announced: the news is the fact ("Wanted to let you know that
    // I'm running for office again")
    "i just wanted to let you know that",
    "i just wanted to let you know",
    "i wanted to let you know that",
    "i wanted to let you know",
    "just wanted to let you know that",
    "just wanted to let you know",
    "wanted to let you know that",
    "wanted to let you know",
    "i just wanted to tell you that",
    "i just wanted to tell you",
    "just wanted to tell you that",
    "just wanted to tell you",
    "i wanted to tell you that",
    "wanted to tell you that",
    "i wanted to tell ya",
    "wanted to tell ya",
    "i wanted to tell you",
    "wanted to tell you",
    "just wanted to say that",
    "i have to tell you that",
    "i gotta tell you that",
    "gotta tell you that",
    "i'm so excited to tell you that",
    "i'm so excited to tell you",
    "i'm excited to tell you that",
    "i'm excited to tell you",
    "so excited to tell you that",
    "so excited to tell you",
    "i can't wait to tell you that",
    "i have to tell you",
    "i gotta tell you",
    "since we spoke last",
    "since we talked last",
    "since we chatted last",
    "since we caught up last",
    "since we last caught up",
    "since we caught up",
    "since we last spoke",
    "since we last talked",
    "since we last chatted",
    "since we talked",
    "since we spoke",
    "since we chatted",
    "since our last chat",
    "since last time",
    "in the meantime",
    "meanwhile",
    "looky here",
    "look here",
];

/// Greeting clauses that open a sentence and end at its first comma
/// ("Haven't talked in a few days, ...", "Long time no see, ...").
const OPENING_CLAUSES: &[&str] = &[
    "haven't talked",
    "havent talked",
    "haven't spoken",
    "haven't chatted",
    "long time no",
    "it's been a while",
    "been a while",
    "good to hear from you",
    "great to hear from you",
    "nice to hear from you",
];

/// A sentence without a short label before a colon that announces it
/// ("Small change: we're skipping Porto", "Big news: I got the job"): a
/// label of up to three words with no subject, before the speaker's own
/// clause. A label before anything else says what follows ("Breakfast:
/// oats") and stays.
fn without_label(s: &str) -> &str {
    let Some((label, rest)) = s.split_once(": ") else {
        return s;
    };
    let words: Vec<&str> = label.split_whitespace().collect();
    let own = rest.split_whitespace().next().is_some_and(|w| {
        matches!(
            bare_lower(w).replace('\u{2019}', "'").as_str(),
            "i" | "i'm" | "i've" | "i'll" | "we" | "we're" | "we've" | "we'll" | "my" | "our"
        )
    });
    // (no clause of its own: "I moved: ..." is not a label)
    let labelled = words.iter().all(|w| {
        w.chars().all(char::is_alphabetic)
            && !super::clauses::SUBJECTS.contains(&w.to_lowercase().as_str())
    });
    if (1..=3).contains(&words.len()) && labelled && own {
        rest.trim_start()
    } else {
        s
    }
}

/// Drop leading interjections ("Yeah, so I ...") and opening phrases ("By
/// the way, I ...").
/// `s` without a hedge that closes it ("so pescatarian now I guess", "the
/// party's on the 12th I think"): what it hedges is still what the
/// speaker says. Only after a few words, and not in a question.
pub(super) fn strip_closers(s: &str) -> &str {
    let t = s.trim_end_matches(['.', '!', ' ']);
    if t.ends_with('?') {
        return s;
    }
    let lower = t.to_ascii_lowercase().replace('\u{2019}', "'");
    for tag in [
        " i guess",
        " i think",
        " i suppose",
        " i reckon",
        " i believe",
    ] {
        if lower.ends_with(tag) {
            let head = t[..t.len() - tag.len()].trim_end_matches([',', ' ']);
            if head.split_whitespace().count() >= 3 {
                return head;
            }
        }
    }
    s
}

/// Whether a sentence is only thanks or a reaction ("Thanks!", "Haha,
/// thanks!", "Wow, thank you so much"), which may lead the answer to a
/// question ("Thanks, Maria! Three times a week."). A yes ("Definitely!")
/// is an answer itself.
pub(super) fn courtesy(sentence: &str) -> bool {
    let words: Vec<String> = sentence.split_whitespace().map(bare_lower).collect();
    !words.is_empty()
        && words.len() <= 5
        && words.iter().all(|w| {
            matches!(
                w.as_str(),
                "thanks"
                    | "thank"
                    | "you"
                    | "so"
                    | "much"
                    | "haha"
                    | "hahaha"
                    | "lol"
                    | "wow"
                    | "oh"
                    | "aw"
                    | "aww"
                    | "omg"
                    | "hey"
                    | "hi"
                    | "cool"
                    | "great"
                    | "awesome"
                    | "nice"
                    | "ha"
                    | "ah"
            )
        })
}

pub(super) fn strip_openers(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let lower = s.to_ascii_lowercase().replace('\u{2019}', "'");
        let phrase = OPENING_PHRASES
            .iter()
            .find(|p| {
                lower.starts_with(*p)
                    && lower[p.len()..].starts_with([',', ' ', ':', '!', '-'])
                    && s.len() > p.len() + 1
            })
            .or_else(|| {
                // "Not really, I hate ...", "Update: I moved ...": only
                // before a comma or a colon ("not really sure" stays)
                ANSWER_OPENERS.iter().find(|p| {
                    lower.starts_with(*p)
                        && lower[p.len()..].starts_with([',', ':'])
                        && s.len() > p.len() + 2
                })
            });
        let Some(p) = phrase else { break };
        s = s[p.len()..]
            .trim_start_matches([',', ' ', ':', '!', '-'])
            .trim();
        // ("really well, though she's scared of the hoover": what follows
        // the answer's turn is the fact)
        let lower = s.to_ascii_lowercase();
        let turned = ["though ", "although ", "but "]
            .iter()
            .find(|t| lower.starts_with(*t))
            .map(|t| s[t.len()..].trim());
        let subject = |rest: &str| {
            rest.split_whitespace()
                .next()
                .is_some_and(|w| super::clauses::SUBJECTS.contains(&bare_lower(w).as_str()))
        };
        if let Some(rest) = turned.filter(|r| subject(r)) {
            s = rest;
        }
    }
    s = without_label(s);
    // "Haven't talked in a few days, I joined ...": the greeting clause
    // goes up to its comma
    let lower = s.to_ascii_lowercase().replace('\u{2019}', "'");
    if OPENING_CLAUSES.iter().any(|p| lower.starts_with(p)) {
        if let Some(at) = s.find([',', ';']).filter(|&at| at <= 48) {
            let rest = s[at + 1..].trim();
            if !rest.is_empty() {
                return strip_openers(rest);
            }
        }
        // "Haven't talked in a bit but wanted to let you know ...": up to
        // a "but" that turns to the news
        if let Some(at) = lower.find(" but ").filter(|&at| at <= 48) {
            let rest = s[at + 5..].trim();
            let news = strip_openers(rest);
            if news.len() < rest.len() {
                return news;
            }
        }
    }
    let mut interjected = false;
    loop {
        let Some((first, rest)) = s.split_once([',', ' ']) else {
            return s;
        };
        let word = first
            .trim_end_matches(['!', '.', ','])
            .to_ascii_lowercase()
            .replace('\u{2019}', "'");
        let next = rest.split_whitespace().next().unwrap_or("");
        // "Next I'm starting on ...": an order of telling, where "Next
        // week I'm ..." says when
        let sequence = matches!(word.as_str(), "next" | "afterwards")
            && matches!(
                bare_lower(&next.replace('\u{2019}', "'")).as_str(),
                "i" | "i'm" | "i'll" | "we" | "we're" | "we'll"
            );
        // "ooh vinyl, he has a record player": after an interjection, a
        // word echoing what was said before, then the speaker's clause
        let echo = interjected
            && s[first.len()..].starts_with(',')
            && word.chars().all(|c| c.is_ascii_lowercase())
            && super::clauses::SUBJECTS.contains(&bare_lower(next).as_str());
        if echo {
            s = rest.trim_start_matches([',', ' ']).trim();
            continue;
        }
        if !(OPENERS.contains(&word.as_str()) || sequence) || rest.trim().is_empty() {
            return s;
        }
        interjected = true;
        // "So much adrenaline went into it": an intensifier, not an opener
        if word == "so" && !first.ends_with(',') && INTENSIFIED.contains(&bare_lower(next).as_str())
        {
            return s;
        }
        s = rest.trim_start_matches([',', ' ', '!', '-']).trim();
    }
}

#[cfg(test)]
mod tests {
    use super::strip_closers;

    #[test]
    fn a_closing_hedge_is_dropped() {
        assert_eq!(
            strip_closers("so pescatarian now I guess."),
            "so pescatarian now"
        );
        assert_eq!(strip_closers("I think"), "I think");
        assert_eq!(
            strip_closers("is it in June I think?"),
            "is it in June I think?"
        );
    }
}
