//! What "the deadline" is of: when a speaker spoke of one piece of work
//! in a conversation ("I'm leading the billing migration"), "the
//! deadline", "the budget" or "the timeline" they then mention are that
//! work's, so "The deadline is March 15" is remembered as "The deadline
//! for the billing migration is March 15", a fact that stands alone.
//! Only when the speaker named exactly one such piece of work; with two,
//! whose deadline it is stays unsaid. Work on a room of the home ("we're
//! redoing the kitchen") is such a piece of work too, whose budget, cost
//! and builder are said of it ("My budget for the kitchen is 25k"), and
//! whose stages ("demolition starts on the 3rd") are of it: "The
//! demolition of the kitchen starts on the 3rd". Reads text only.

use super::clauses::bare;
use std::collections::HashMap;

/// Pieces of work a deadline or a budget belongs to (head nouns).
const WORK: &[&str] = &[
    "migration",
    "project",
    "launch",
    "rollout",
    "redesign",
    "renovation",
    "refurbishment",
    "extension",
    "thesis",
    "dissertation",
    "app",
    "website",
    "release",
    "campaign",
    "report",
    "proposal",
    "grant",
    "paper",
    "audit",
    "upgrade",
    "merger",
    "pitch",
    "novel",
    "manuscript",
    "wedding",
    "remodel",
    "makeover",
];

/// Things a piece of work has that say nothing on their own.
const BELONGING: &[&str] = &[
    "deadline",
    "budget",
    "timeline",
    "kickoff",
    "cost",
    "contractor",
    "builder",
    "builders",
    "architect",
];

/// Words that may say which of them ("the final cost").
const WHICH: &[&str] = &["final", "total", "overall", "original", "new", "estimated"];

/// Stages a piece of building work goes through, said bare in chat
/// ("demolition starts on the 3rd").
const STAGES: &[&str] = &[
    "demolition",
    "construction",
    "installation",
    "plastering",
    "tiling",
    "fitting",
];

/// Words that open a piece of work's name.
const DETERMINERS: &[&str] = &["the", "my", "our", "a", "an", "this"];

/// The one piece of work each speaker spoke of (`None`: several).
#[derive(Debug, Default, Clone)]
pub struct Projects {
    of: HashMap<String, Option<String>>,
}

/// "the billing migration" for the words from a determiner to a work noun
/// ("the billing migration", "our website redesign"), at most two words
/// between them, all lowercase words.
fn work_at(words: &[&str], i: usize) -> Option<String> {
    if !DETERMINERS.contains(&bare(words[i]).as_str()) {
        return None;
    }
    for len in 1..=3 {
        let Some(last) = words.get(i + len) else {
            break;
        };
        let between = &words[i + 1..i + len];
        // (a word ending a sentence ends the phrase)
        if between.iter().any(|w| {
            w.ends_with([',', '.', '!', '?', ';', ':'])
                || !bare(w).chars().all(|c| c.is_ascii_lowercase() || c == '-')
                || DETERMINERS.contains(&bare(w).as_str())
        }) {
            return None;
        }
        if WORK.contains(&bare(last).as_str()) {
            let mut phrase: Vec<String> = between.iter().map(|w| bare(w)).collect();
            phrase.insert(0, "the".to_string());
            phrase.push(bare(last));
            return Some(phrase.join(" "));
        }
    }
    None
}

impl Projects {
    /// Note the pieces of work `speaker` speaks of in `text`.
    pub fn note(&mut self, text: &str, speaker: Option<&str>) {
        let Some(speaker) = speaker else { return };
        let words: Vec<&str> = text.split_whitespace().collect();
        for i in 0..words.len() {
            // ("the deadline for the migration": named where it is said)
            if i > 0 && matches!(bare(words[i - 1]).as_str(), "for" | "of") {
                continue;
            }
            let Some(work) = work_at(&words, i).or_else(|| super::home::home_work(&words, i))
            else {
                continue;
            };
            let entry = self
                .of
                .entry(speaker.to_string())
                .or_insert_with(|| Some(work.clone()));
            if entry.as_deref() != Some(work.as_str()) {
                *entry = None;
            }
        }
    }

    /// `clause` with "the deadline" (and the like) said as the speaker's
    /// one piece of work's ("the deadline for the billing migration").
    pub fn rewrite(&self, clause: &str, speaker: &str) -> String {
        let Some(Some(work)) = self.of.get(speaker) else {
            return clause.to_string();
        };
        let words: Vec<&str> = clause.split_whitespace().collect();
        let mut out: Vec<String> = Vec::with_capacity(words.len() + 4);
        let said_whose = |i: usize| {
            words
                .get(i + 1)
                .is_some_and(|n| matches!(bare(n).as_str(), "for" | "of" | "on"))
        };
        for (i, w) in words.iter().enumerate() {
            let word = bare(w);
            // ("the budget", "my final cost", "the new contractor")
            let det = |at: usize| matches!(bare(words[at]).as_str(), "the" | "my" | "our");
            let determined = i > 0
                && (det(i - 1)
                    || (i > 1 && WHICH.contains(&bare(words[i - 1]).as_str()) && det(i - 2)));
            let belongs = determined
                && BELONGING.contains(&word.as_str())
                && !words[i - 1].ends_with([',', '.'])
                && !said_whose(i);
            // ("demolition starts on the 3rd": a stage, bare or "the")
            let stage = STAGES.contains(&word.as_str())
                && (i == 0 || (i == 1 && bare(words[0]) == "the"))
                && !said_whose(i)
                && w.chars().skip(usize::from(i == 0)).all(char::is_lowercase);
            if stage && i == 0 {
                let the = if w.starts_with(char::is_uppercase) {
                    "The"
                } else {
                    "the"
                };
                // (a room's work: of the speaker's own room)
                let of = match work.strip_prefix("the ") {
                    Some(room) if super::home::ROOMS.contains(&room) => format!("my {room}"),
                    _ => work.clone(),
                };
                out.push(format!("{the} {} of {of}", w.to_lowercase()));
                continue;
            }
            if !belongs && !stage {
                out.push(w.to_string());
                continue;
            }
            // ("met the deadline." keeps its full stop at the end)
            let end = w.trim_end_matches([',', '.', '!', '?', ';', ':']);
            let joint = if stage { "of" } else { "for" };
            out.push(format!("{end} {joint} {work}{}", &w[end.len()..]));
        }
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(said: &[&str], clause: &str) -> String {
        let mut p = Projects::default();
        for s in said {
            p.note(s, Some("Priya"));
        }
        p.rewrite(clause, "Priya")
    }

    #[test]
    fn the_deadline_is_of_the_one_piece_of_work() {
        let said = ["I'm leading the billing migration at Finlo."];
        for (clause, want) in [
            (
                "The deadline is March 15.",
                "The deadline for the billing migration is March 15.",
            ),
            (
                "The deadline got pushed to April 30.",
                "The deadline for the billing migration got pushed to April 30.",
            ),
            (
                "We met the deadline.",
                "We met the deadline for the billing migration.",
            ),
            // already said whose
            (
                "The deadline for the launch is May 2.",
                "The deadline for the launch is May 2.",
            ),
        ] {
            assert_eq!(rewritten(&said, clause), want);
        }
    }

    #[test]
    fn two_pieces_of_work_leave_it_unsaid() {
        let said = [
            "I'm leading the billing migration.",
            "I also started the website redesign.",
        ];
        assert_eq!(
            rewritten(&said, "The deadline is March 15."),
            "The deadline is March 15."
        );
        // the same one named twice is still one
        let said = [
            "I'm leading the billing migration.",
            "The billing migration is hard.",
        ];
        assert_eq!(
            rewritten(&said, "The budget is tight."),
            "The budget for the billing migration is tight."
        );
    }
}
