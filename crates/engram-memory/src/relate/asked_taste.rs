//! What someone enjoys: whether a question asks it ("what does X enjoy?",
//! "what are X's hobbies?", "what does X do for fun?") and whether a
//! memory says it ("loves her crosswords", "has started climbing twice a
//! week"). For [`super::Asked`]; reads words only.

use super::bare_question;

/// Whether `question` asks what someone enjoys: "what does X enjoy /
/// like / love (doing)?", "what is X into?", "what are X's hobbies?".
pub(super) fn asks_taste(question: &str) -> bool {
    let q = bare_question(question);
    let words: Vec<&str> = q.split_whitespace().collect();
    let verb = matches!(
        words.as_slice(),
        ["what", "does" | "do", .., "enjoy" | "like" | "love"]
            | [
                "what",
                "does" | "do",
                ..,
                "enjoy" | "like" | "love",
                "doing"
            ]
    );
    let into = matches!(words.as_slice(), ["what", "is" | "are", .., "into"]);
    // "what does Priya do for fun / in her spare time / at weekends?"
    let pastime = matches!(words.as_slice(), ["what", "does" | "do", ..])
        && words[2..].contains(&"do")
        && [
            " for fun",
            " free time",
            " spare time",
            " at weekends",
            " on weekends",
        ]
        .iter()
        .any(|p| q.ends_with(p));
    let hobbies = words.first() == Some(&"what")
        && words
            .last()
            .is_some_and(|w| matches!(*w, "hobbies" | "interests" | "pastimes"));
    verb || into || hobbies || pastime
}

/// Whether `memory` says what someone enjoys ("... still loves her
/// crosswords", "Ana likes hiking", "Tom's favourite band is ...") or
/// does for the pleasure of it ("has started climbing twice a week").
pub(super) fn states_taste(memory: &str) -> bool {
    let m = format!(" {} ", memory.to_lowercase());
    [
        " loves ",
        " love ",
        " likes ",
        " like ",
        " enjoys ",
        " enjoy ",
        " is into ",
        " adores ",
        " favourite ",
        " favorite ",
        " is a fan of ",
        " is passionate about ",
    ]
    .iter()
    .any(|p| m.contains(p))
        // a pastime kept up or taken up ("climbs twice a week", "has
        // started climbing", "took up pottery")
        || super::super::habits::states_rate(memory)
        || [" started ", " took up ", " has taken up ", " picked up "]
            .iter()
            .any(|p| {
                m.split_once(p).is_some_and(|(_, rest)| {
                    rest.split_whitespace().next().is_some_and(|w| {
                        w.ends_with("ing") || p.trim() != "started"
                    })
                })
            })
}
