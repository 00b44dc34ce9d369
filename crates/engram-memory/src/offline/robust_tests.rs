//! Property: the offline extractor and the relation rules never panic,
//! whatever words a chat strings together. Sentences are drawn from the
//! words the rules key on (questions, possessives, pronouns, names, dates,
//! labels, punctuation), so short and odd shapes ("What inspires your
//! passion?", "the 20th", "Name:") come up often.

use super::extract;
use crate::{Role, Turn};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "what", "What", "does", "do", "did", "your", "my", "our", "his", "her", "their", "you", "I",
    "I'm", "we", "he", "she", "they", "it", "is", "was", "are", "how", "How", "where", "when",
    "which", "the", "a", "on", "in", "at", "to", "for", "and", "but", "so", "now", "also", "still",
    "yes", "Yep,", "no", "not", "Ana", "Ben", "Lena", "Theo", "Ghent", "team", "dog", "wife",
    "work", "works", "play", "moved", "set", "date", "wedding", "turned", "five", "34", "the 20th",
    "June", "next", "year", "last", "week", "called", "named", "haha", "lol", "Name:", "- ", "##",
    "?", "!", ".", ",", ":", "'s", "and I", "since", "before", "after", "sold", "quit", "bought",
    "reports", "manager", "engaged", "off", "instead", "dose", "mg",
];

fn sentence() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(WORDS), 1..9).prop_map(|w| w.join(" "))
}

fn turn_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(sentence(), 1..4).prop_map(|s| s.join(" "))
}

/// A question as a listener asks it: a wh-word or an auxiliary, a few
/// words, a question mark.
fn question() -> impl Strategy<Value = String> {
    const OPENERS: &[&str] = &[
        "What",
        "How",
        "Where",
        "When",
        "Which",
        "Who",
        "Do you",
        "Are you",
        "Did you",
        "How long have you",
        "What's your",
        "What does your",
        "How did you",
    ];
    (
        proptest::sample::select(OPENERS),
        proptest::collection::vec(proptest::sample::select(WORDS), 0..5),
    )
        .prop_map(|(o, w)| format!("{o} {}?", w.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn extraction_and_relations_never_panic(
        pairs in proptest::collection::vec((turn_text(), question()), 1..3),
    ) {
        // the user's turns, each after the assistant's question
        let texts: Vec<String> = pairs
            .into_iter()
            .flat_map(|(said, asked)| [asked, said])
            .collect();
        let turns: Vec<Turn> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| Turn {
                role: if i % 2 == 1 { Role::User } else { Role::Assistant },
                speaker: Some(if i % 2 == 1 { "Ana" } else { "Bot" }),
                listener: Some(if i % 2 == 1 { "Bot" } else { "Ana" }),
                text: t,
                date: chrono::NaiveDate::from_ymd_opt(2025, 7, 2),
                generic: false,
            })
            .collect();
        let formed: Vec<String> = extract(&turns).into_iter().map(|c| c.content).collect();
        for a in formed.iter().chain(&texts) {
            for b in formed.iter().chain(&texts) {
                let _ = crate::relate::relate(a, b, 0.7);
            }
            let _ = crate::relate::over_now(a);
            let asked = crate::relate::Asked::of(a);
            let _ = (asked.answered_by(a), asked.outdated(a));
        }
        // a document, too (no speaker)
        let doc = texts.join("\n");
        let _ = extract(&[Turn { role: Role::User, speaker: None, listener: None, text: &doc, date: None, generic: false }]);
    }
}
