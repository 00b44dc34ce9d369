//! Labelled lines of a note that say who does something: the writer's own
//! tasks ("Next step: send the questionnaire to Raj"), an action item's
//! owner ("Priya: send the plan"), and a label that is a verb of the
//! writer's own doing ("Lives in: Montreal"), and what a reading list
//! says of a book ("Finished: Piranesi (loved it)"). Each is said as a
//! sentence for [`super::notes`]. Reads text only.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};
use super::notes::{lower_first, lowered, sentence};

/// A task of the writer's under a label that says so ("Next step: send
/// the questionnaire to Raj", "TODO: book flights"): "I need to send the
/// questionnaire to Raj."; `None` unless the value opens with a verb's
/// base form.
pub(super) fn own_task(key: &str, value: &str) -> Option<String> {
    let first = bare(value.split_whitespace().next()?);
    let task = matches!(
        key,
        "next step"
            | "next steps"
            | "todo"
            | "to do"
            | "to-do"
            | "follow-up"
            | "follow up"
            | "action"
            | "action item"
            | "reminder"
    );
    let base = matches!(verb(&first), Some((_, VerbForm::Base)))
        || super::lexicon::ARRANGING.contains(&first.as_str());
    (task && base).then(|| sentence(&format!("I need to {}", lower_first(value))))
}

/// An action item ("Priya: send the plan to finance by Friday") as what
/// the one named will do: "Priya will send the plan to finance by
/// Friday."; `None` unless the label is a name and the value opens with a
/// verb's base form.
pub(super) fn assigned(label: &str, value: &str) -> Option<String> {
    let first = value.split_whitespace().next()?;
    let base = matches!(verb(&bare(first)), Some((_, VerbForm::Base)))
        || super::lexicon::ARRANGING.contains(&bare(first).as_str());
    // ("Owns: Priya" is a label, not someone)
    let named = label
        .split_whitespace()
        .all(|w| super::intro::is_name_word(w) && verb(&bare(w)).is_none());
    (named && base).then(|| sentence(&format!("{label} will {}", lower_first(value))))
}

/// A label that is a verb in the third person and what follows it ("Lives
/// in", "Works as", "Hates") said with its value as the writer's own
/// doing: "I live in Montreal", "I work as a UX designer at Shopify".
pub(super) fn done_by_me(label: &str, value: &str) -> Option<String> {
    let mut words = label.split_whitespace();
    let first = words.next()?;
    let (base, form) = verb(&bare(first))?;
    // (what a person does of their own; "Owns: Priya" in meeting notes is
    // whose task)
    let personal = matches!(
        base,
        "live"
            | "work"
            | "study"
            | "speak"
            | "drink"
            | "eat"
            | "hate"
            | "love"
            | "like"
            | "prefer"
            | "play"
            | "enjoy"
            | "dislike"
            | "avoid"
    );
    if form != VerbForm::Third || !personal {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let value_first = value
        .split_whitespace()
        .next()
        .map(bare)
        .unwrap_or_default();
    // ("Works as: UX designer": "as a UX designer")
    let article =
        rest.last() == Some(&"as") && !matches!(value_first.as_str(), "a" | "an" | "the" | "my");
    let a = if !article {
        ""
    } else if value.starts_with(['a', 'e', 'i', 'o', 'A', 'E', 'I', 'O']) {
        "an "
    } else {
        "a "
    };
    // ("Lives: Bristol", "Works: Monzo": where, its word left out)
    let named = value.starts_with(char::is_uppercase) && rest.is_empty();
    let at = match base {
        "live" if named => " in",
        "work" if named => " at",
        _ => "",
    };
    let lead = std::iter::once(base)
        .chain(rest.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    Some(format!(
        "I {}{at} {a}{}",
        lead.to_lowercase(),
        lowered(value)
    ))
}

/// A labelled line of a reading list: "Finished: Project Hail Mary (loved
/// it)" is "I finished reading Project Hail Mary. I loved Project Hail
/// Mary."; "Reading: X" is "I'm reading X."; "Next: X" is "I plan to read
/// X next.". `None` for other labels.
pub(super) fn reading(key: &str, value: &str) -> Option<Vec<String>> {
    let (title, aside) = match value.split_once(" (") {
        Some((t, a)) => (t.trim(), Some(a.trim_end_matches(')').trim())),
        None => (value.trim(), None),
    };
    let said = match key {
        "finished" | "read" | "done" | "completed" | "just finished" => {
            format!("I finished reading {title}")
        }
        "reading" | "currently reading" | "now reading" | "current" | "now" => {
            format!("I'm reading {title}")
        }
        "next" | "up next" | "to read" | "queued" | "on deck" => {
            format!("I plan to read {title} next")
        }
        _ => return None,
    };
    let mut out = vec![sentence(&said)];
    match aside.map(str::to_lowercase).as_deref() {
        Some("loved it" | "loved" | "amazing" | "favourite" | "favorite") => {
            out.push(sentence(&format!("I loved {title}")));
        }
        Some("hated it" | "didn't like it" | "meh" | "dnf") => {
            out.push(sentence(&format!("I didn't like {title}")));
        }
        _ => {}
    }
    Some(out)
}

/// Labels that are no one's name, though capitalised like one.
const NOT_SOMEONE: &[&str] = &[
    "decision",
    "status",
    "update",
    "note",
    "goal",
    "focus",
    "plan",
    "summary",
    "current",
    "now",
    "today",
    "next",
    "progress",
    "done",
    "doing",
    "reading",
    "watching",
    "learning",
    "listening",
    "working",
    "playing",
    "blocked",
    "blocker",
    "risk",
    "question",
    "outcome",
    "agenda",
    "topic",
    "owner",
    "context",
    "background",
    "result",
    "where",
    "when",
    "who",
];

/// A meeting note's line about someone named ("Priya: finishing the
/// onboarding redesign", "Tom: on holiday until the 10th", "Ade: book the
/// venue") as a sentence about them: "Priya is finishing ...", "Tom is on
/// holiday ...", "Ade will book the venue"; an action that names whose
/// ("Action: Ade to book the venue by Friday") is theirs too.
pub(super) fn about_someone(label: &str, value: &str) -> Option<String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let key = label.to_lowercase();
    // "Action: Ade to book the offsite venue by Friday"
    if matches!(
        key.as_str(),
        "action" | "action item" | "todo" | "to do" | "next step"
    ) {
        let (name, rest) = (words.first()?, words.get(1..)?);
        let base = rest.get(1).is_some_and(|v| {
            matches!(verb(&bare(v)), Some((_, VerbForm::Base)))
                || super::lexicon::ARRANGING.contains(&bare(v).as_str())
        });
        return (super::intro::is_name_word(name)
            && verb(&bare(name)).is_none()
            && rest.first().is_some_and(|t| *t == "to")
            && base)
            .then(|| sentence(&format!("{name} will {}", rest[1..].join(" "))));
    }
    let named = (1..=2).contains(&label.split_whitespace().count())
        && label.split_whitespace().all(|w| {
            super::intro::is_name_word(w)
                && verb(&bare(w)).is_none()
                && !NOT_SOMEONE.contains(&bare(w).as_str())
                && !bare(w).ends_with('s')
        });
    if !named {
        return None;
    }
    let first = bare(words.first()?);
    let said = match verb(&first) {
        Some((_, VerbForm::Gerund)) => format!("{label} is {value}"),
        _ if matches!(
            first.as_str(),
            "on" | "off" | "away" | "out" | "back" | "at"
        ) =>
        {
            format!("{label} is {value}")
        }
        _ => return None,
    };
    Some(sentence(&said))
}
