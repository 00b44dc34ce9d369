//! What a speaker wants or is, said around a request to an assistant: a
//! standing request ("always get me a window seat": "I always want a
//! window seat"; "make sure invoices go to ... from now on": "I want
//! invoices to go to ..."), and a state said bare after ", so" ("started
//! eating fish again, so pescatarian now": "so I'm pescatarian now"). A
//! one-off request stays a request. Reads words only.

/// A standing request of an assistant that says what the speaker wants
/// every time ("always get me a window seat", "please always book me an
/// aisle seat"): "I always want a window seat". Only "always" with get,
/// book, give, find or order and "me"; other requests stay requests.
pub(super) fn standing_request(sentence: &str) -> std::borrow::Cow<'_, str> {
    let lower = sentence.to_lowercase();
    for verb in ["get", "book", "give", "find", "order"] {
        let said = format!("always {verb} me ");
        let Some(i) = lower.find(&said) else {
            continue;
        };
        // at the start (after "please"), or after a comma
        let before = lower[..i].trim_end();
        let before = before.strip_suffix("please").unwrap_or(before).trim_end();
        let opens = before.is_empty() || before.ends_with(',');
        if !opens {
            continue;
        }
        let lead = &sentence[..before.len()];
        let want = if lead.is_empty() {
            "I always want "
        } else {
            " I always want "
        };
        return std::borrow::Cow::Owned(format!("{lead}{want}{}", &sentence[i + said.len()..]));
    }
    match made_sure(sentence) {
        Some(s) => std::borrow::Cow::Owned(s),
        None => std::borrow::Cow::Borrowed(sentence),
    }
}

/// "remind me that my car insurance renews on April 3rd" said as "my car
/// insurance renews on April 3rd"; "remind me to call the dentist on
/// Friday" as "I need to call the dentist on Friday". A request to be
/// reminded, or to have something noted, carries what is to be
/// remembered.
pub(super) fn reminder(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let lead = ["please ", "can you ", "could you ", "pls "]
        .iter()
        .find_map(|l| lower.strip_prefix(l).map(|_| l.len()))
        .unwrap_or(0);
    let asked = &lower[lead..];
    let (said, to) = [
        ("remind me that ", false),
        ("remind me to ", true),
        ("don't let me forget that ", false),
        ("don't let me forget to ", true),
        ("make a note that ", false),
        ("note that ", false),
        ("remember that ", false),
    ]
    .into_iter()
    .find(|(p, _)| asked.starts_with(p))?;
    let at = lead + said.len();
    let rest = sentence.get(at..)?.trim_end_matches('?');
    if rest.split_whitespace().count() < 2 {
        return None;
    }
    Some(if to {
        format!("I need to {rest}")
    } else {
        rest.to_string()
    })
}

/// "can you help me plan a trip to Japan?" -> "I'm planning a trip to
/// Japan.", "could you help me find a flat in Leeds?" -> "I'm looking for
/// a flat in Leeds.", "help me pack for Iceland?" -> "I'm going to
/// Iceland.": a request for help says what the speaker is doing.
/// Only planning or finding something of their own or one thing ("a",
/// "my", "our"), asked with "can", "could" or "would" you.
pub(super) fn help_with(sentence: &str) -> Option<String> {
    let body = sentence.trim().strip_suffix('?')?;
    let lower = body.to_lowercase();
    let w: Vec<&str> = lower.split_whitespace().collect();
    let raw: Vec<&str> = body.split_whitespace().collect();
    let at = match w.as_slice() {
        ["can" | "could" | "would", "you", "help", "me", ..] => 4,
        ["please", "help", "me", ..] => 3,
        ["help", "me", ..] => 2,
        _ => return None,
    };
    let doing = match w.get(at..at + 2)? {
        ["plan" | "organise" | "organize" | "arrange", _] => "I'm planning",
        ["find", _] => "I'm looking for",
        // "help me pack for Iceland": going there
        ["pack", "for"]
            if raw
                .get(at + 2)
                .is_some_and(|p| p.starts_with(char::is_uppercase)) =>
        {
            return (raw.len() <= at + 5)
                .then(|| format!("I'm going to {}.", raw[at + 2..].join(" ")));
        }
        _ => return None,
    };
    if !matches!(w[at + 1], "a" | "an" | "my" | "our") || raw.len() < at + 3 || raw.len() > at + 10
    {
        return None;
    }
    Some(format!("{doing} {}.", raw[at + 1..].join(" ")))
}

/// "can you make sure invoices go to finance@brightco.io from now on":
/// "I want invoices to go to finance@brightco.io from now on". Only a
/// request for good ("from now on", "going forward", "always", "in
/// future"), of things that then do what a base verb says.
fn made_sure(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let standing = [
        "from now on",
        "going forward",
        "always",
        "in future",
        "in the future",
    ]
    .iter()
    .any(|m| lower.contains(m));
    let at = lower.find("make sure ")?;
    let before: Vec<&str> = lower[..at].split_whitespace().collect();
    let asked = matches!(
        before.as_slice(),
        [] | ["please"]
            | ["can" | "could" | "would", "you"]
            | ["can" | "could" | "would", "you", "please"]
    );
    let rest = &sentence[at + "make sure ".len()..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    // "invoices go", "my emails are cc'd": the things, then their verb
    let v = (1..words.len().min(4)).find(|&i| {
        matches!(
            super::lexicon::verb(&super::clauses::bare(words[i])),
            Some((_, super::lexicon::VerbForm::Base))
        )
    })?;
    // ("my flights always have": always to have)
    let always = words[..v]
        .iter()
        .any(|w| super::clauses::bare(w) == "always");
    let things: Vec<&str> = words[..v]
        .iter()
        .copied()
        .filter(|w| super::clauses::bare(w) != "always")
        .collect();
    let plain = !things.is_empty()
        && things.iter().all(|w| {
            let b = super::clauses::bare(w);
            !matches!(
                b.as_str(),
                "i" | "you" | "we" | "it" | "they" | "he" | "she" | "that"
            ) && super::lexicon::verb(&b).is_none()
        });
    let always = if always { "always " } else { "" };
    (standing && asked && plain).then(|| {
        format!(
            "I want {} to {always}{}",
            things.join(" "),
            words[v..].join(" ")
        )
    })
}

/// A state said bare after ", so" ("started eating fish again, so
/// pescatarian now"): "so I'm pescatarian now", a fact of its own.
pub(super) fn so_state(sentence: &str) -> std::borrow::Cow<'_, str> {
    let Some(at) = sentence.find(", so ") else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let rest = &sentence[at + 5..];
    let words: Vec<String> = rest.split_whitespace().map(super::clauses::bare).collect();
    let state = words.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "vegetarian" | "vegan" | "pescatarian" | "single" | "sober" | "retired" | "unemployed"
        )
    });
    let tail_ok = words[1..]
        .iter()
        .all(|w| matches!(w.as_str(), "now" | "again" | "officially" | "too"));
    if !state || !tail_ok {
        return std::borrow::Cow::Borrowed(sentence);
    }
    std::borrow::Cow::Owned(format!("{}, so I'm {rest}", &sentence[..at]))
}

#[cfg(test)]
mod tests {
    use super::{reminder, so_state, standing_request};

    #[test]
    fn what_to_be_reminded_of_is_said_plainly() {
        let check = |s: &str, want: Option<&str>| assert_eq!(reminder(s).as_deref(), want, "{s}");
        check(
            "remind me that my car insurance renews on the 3rd of April",
            Some("my car insurance renews on the 3rd of April"),
        );
        check(
            "Can you remind me to call the dentist on Friday?",
            Some("I need to call the dentist on Friday"),
        );
        check(
            "please note that Sam is allergic to nuts",
            Some("Sam is allergic to nuts"),
        );
        check("remind me to", None);
        check("I reminded Sam to call", None);
    }

    #[test]
    fn a_request_for_help_says_what_one_is_doing() {
        use super::help_with;
        assert_eq!(
            help_with("can you help me plan a trip to Japan?").as_deref(),
            Some("I'm planning a trip to Japan.")
        );
        assert_eq!(
            help_with("Could you help me find a flat in Leeds?").as_deref(),
            Some("I'm looking for a flat in Leeds.")
        );
        assert_eq!(
            help_with("can you help me pack for Iceland?").as_deref(),
            Some("I'm going to Iceland.")
        );
        assert_eq!(help_with("can you help me pack for the move?"), None);
        assert_eq!(help_with("can you help me with this?"), None);
        assert_eq!(help_with("can you help me plan it?"), None);
    }

    #[test]
    fn a_request_made_for_good_is_what_the_speaker_wants() {
        assert_eq!(
            standing_request("can you make sure invoices go to finance@brightco.io from now on"),
            "I want invoices to go to finance@brightco.io from now on"
        );
        assert_eq!(
            standing_request("please make sure my flights always have a window seat"),
            "I want my flights to always have a window seat"
        );
        // a one-off request stays one
        assert_eq!(
            standing_request("can you make sure the invoice goes out today"),
            "can you make sure the invoice goes out today"
        );
        assert_eq!(
            standing_request("make sure you always reply in French"),
            "make sure you always reply in French"
        );
    }

    #[test]
    fn a_state_after_so_is_said_of_the_speaker() {
        assert_eq!(
            so_state("I've started eating fish again, so pescatarian now"),
            "I've started eating fish again, so I'm pescatarian now"
        );
        assert_eq!(
            so_state("I moved, so vegan food is harder"),
            "I moved, so vegan food is harder"
        );
    }

    #[test]
    fn a_standing_request_is_what_one_wants() {
        for (said, want) in [
            (
                "I'm booking flights to Lagos, always get me a window seat",
                "I'm booking flights to Lagos, I always want a window seat",
            ),
            (
                "Please always book me an aisle seat.",
                "I always want an aisle seat.",
            ),
            ("Can you get me a coffee?", "Can you get me a coffee?"),
            ("they always get me a gift", "they always get me a gift"),
        ] {
            assert_eq!(standing_request(said), want, "{said}");
        }
    }
}
