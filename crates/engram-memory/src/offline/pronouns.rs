//! Third-person pronouns ("she", "him", "their", "it") resolved to who
//! was just mentioned, or reported unresolved so the clause is not kept as
//! a memory: "My sister lives in Denver and she convinced me" gives "Ben's
//! sister convinced Ben", while "Audrey's furry friends love them" (who?)
//! gives nothing.
//!
//! Antecedents are people named in the same turn or the one before:
//! names, and relatives or groups by a possessive ("Ben's sister",
//! "Melanie's kids"). "It", "this" and "that" standing for things are
//! never guessed.

use super::clauses::bare;
use super::coref::parts as strip;
use super::lexicon::PERSON_NOUNS;

/// People mentioned recently, newest last.
#[derive(Debug, Default, Clone)]
pub struct Antecedents {
    /// `(text, turn)` of singular people ("Ben's sister", "Sam").
    one: Vec<(String, usize)>,
    /// `(text, turn)` of groups ("Melanie's kids").
    many: Vec<(String, usize)>,
}

/// Words that are third-person pronouns.
const THIRD: &[&str] = &[
    "he",
    "she",
    "him",
    "her",
    "his",
    "hers",
    "himself",
    "herself",
    "he's",
    "she's",
    "he'd",
    "she'd",
    "he'll",
    "she'll",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "they're",
    "they've",
    "they'd",
    "they'll",
    "it",
    "its",
    "itself",
    "it's",
    "it'd",
    "it'll",
];

/// Words after "her" that show it is an object, not a possessive ("I
/// called her yesterday", "I gave her a book").
const NOT_NOUNS: &[&str] = &[
    "and",
    "or",
    "but",
    "to",
    "for",
    "with",
    "at",
    "in",
    "on",
    "a",
    "an",
    "the",
    "so",
    "too",
    "again",
    "back",
    "up",
    "out",
    "about",
    "yesterday",
    "today",
    "tomorrow",
    "tonight",
    "last",
    "next",
    "every",
    "this",
    "that",
    "later",
    "soon",
    "once",
    "twice",
    "now",
    "recently",
    "often",
    "when",
    "because",
    "since",
    "after",
    "before",
    "as",
    "if",
    "very",
    "really",
    "how",
    "what",
    "why",
    "from",
    "off",
    "over",
    "into",
    "some",
    "my",
    "your",
    "his",
    "our",
    "their",
    "all",
    "more",
    "last",
    "first",
    "one",
    "two",
    "down",
    "home",
    "there",
    "here",
    "by",
    "while",
];

impl Antecedents {
    /// Forget mentions older than the turn before `turn`.
    pub fn age(&mut self, turn: usize) {
        let keep = |v: &mut Vec<(String, usize)>| v.retain(|(_, t)| t + 1 >= turn);
        keep(&mut self.one);
        keep(&mut self.many);
    }

    /// Note the people a resolved clause mentions (`exclude`: the speaker
    /// and listener, whom "he" and "she" never mean).
    pub fn observe(&mut self, text: &str, turn: usize, names: &[String], exclude: &[&str]) {
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let (_, core, _) = strip(w);
            // "Ben's sister", "Melanie's kids"
            if let Some(owner) = core.strip_suffix("'s").or(core.strip_suffix("\u{2019}s")) {
                if let Some(noun) = words.get(i + 1).map(|n| bare(n)) {
                    if let Some((_, plural)) = PERSON_NOUNS.iter().find(|(p, _)| *p == noun) {
                        let phrase = format!("{owner}'s {noun}");
                        let list = if *plural {
                            &mut self.many
                        } else {
                            &mut self.one
                        };
                        list.push((phrase, turn));
                        continue;
                    }
                }
            }
            let name = core.trim_end_matches("'s");
            if names.iter().any(|n| n == name) && !exclude.contains(&name) {
                // "Luna and Oliver": two names together are a group
                let pair = i >= 2
                    && bare(words[i - 1]) == "and"
                    && names.iter().any(|n| n == strip(words[i - 2]).1);
                if pair {
                    let first = strip(words[i - 2]).1;
                    self.many.push((format!("{first} and {name}"), turn));
                }
                self.one.push((name.to_string(), turn));
            }
        }
    }

    /// The clause with its third-person pronouns replaced by who they
    /// mean; `None` when one cannot be resolved.
    pub fn resolve(&self, clause: &str) -> Option<String> {
        let words: Vec<&str> = clause.split_whitespace().collect();
        let mut out: Vec<String> = Vec::with_capacity(words.len());
        for (i, w) in words.iter().enumerate() {
            let (lead, core, trail) = strip(w);
            let lower = core.to_lowercase().replace('\u{2019}', "'");
            if !THIRD.contains(&lower.as_str()) {
                out.push(w.to_string());
                continue;
            }
            let next = words.get(i + 1).map(|n| bare(n)).unwrap_or_default();
            let one = self.one.last().map(|(t, _)| t.as_str());
            let many = self.many.last().map(|(t, _)| t.as_str());
            // a possessive "her" comes before a noun, an object "her" does not
            let noun_follows = !next.is_empty()
                && !trail.starts_with([',', '.', '!', '?', ';'])
                && !NOT_NOUNS.contains(&next.as_str());
            let participle = matches!(
                next.as_str(),
                "been" | "gone" | "done" | "had" | "got" | "seen" | "made" | "taken" | "become"
            );
            let with = |who: &str, s: &str| format!("{lead}{who}{s}{trail}");
            let new = match lower.as_str() {
                "he" | "she" | "him" | "himself" | "herself" => with(one?, ""),
                "her" if noun_follows => with(one?, "'s"),
                "her" => with(one?, ""),
                "his" | "hers" => with(one?, "'s"),
                "he's" | "she's" if participle => with(one?, " has"),
                "he's" | "she's" => with(one?, " is"),
                "he'd" | "she'd" => with(one?, " would"),
                "he'll" | "she'll" => with(one?, " will"),
                "they" | "them" | "themselves" => with(many?, ""),
                "their" | "theirs" => with(many?, "'s"),
                "they're" => with(many?, " are"),
                "they've" => with(many?, " have"),
                "they'd" => with(many?, " would"),
                "they'll" => with(many?, " will"),
                // things are never guessed
                _ => return None,
            };
            out.push(new);
        }
        Some(out.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["Sam".to_string(), "Ben".to_string(), "Ana".to_string()]
    }

    #[test]
    fn pronouns_point_back_to_who_was_just_named() {
        let mut a = Antecedents::default();
        a.observe("Ben's sister lives in Denver", 0, &names(), &["Ben", "Ana"]);
        assert_eq!(
            a.resolve("she convinced me.").as_deref(),
            Some("Ben's sister convinced me.")
        );
        assert_eq!(
            a.resolve("I visited her house").as_deref(),
            Some("I visited Ben's sister's house")
        );
        assert_eq!(
            a.resolve("I called her yesterday").as_deref(),
            Some("I called Ben's sister yesterday")
        );
        assert_eq!(
            a.resolve("she's been to Peru").as_deref(),
            Some("Ben's sister has been to Peru")
        );
        a.observe("Ben's kids love the beach", 0, &names(), &["Ben", "Ana"]);
        assert_eq!(
            a.resolve("they're learning to swim").as_deref(),
            Some("Ben's kids are learning to swim")
        );
        a.observe("I met Sam and Ben at work", 1, &names(), &["Ana"]);
        assert_eq!(
            a.resolve("they are twins").as_deref(),
            Some("Sam and Ben are twins")
        );
        a.observe("I met Sam at work", 1, &names(), &["Ben", "Ana"]);
        assert_eq!(a.resolve("he is a chef").as_deref(), Some("Sam is a chef"));
    }

    #[test]
    fn unresolved_pronouns_and_things_give_nothing() {
        let mut a = Antecedents::default();
        assert_eq!(a.resolve("Audrey's furry friends love them"), None);
        assert_eq!(a.resolve("I painted it last week"), None);
        a.observe("Sam moved to Oslo", 0, &names(), &["Ben"]);
        assert_eq!(a.resolve("its roof is red"), None);
        // speakers are not antecedents of "she"
        let mut b = Antecedents::default();
        b.observe("Ana went hiking", 0, &names(), &["Ana", "Ben"]);
        assert_eq!(b.resolve("she loved it"), None);
        // mentions fade after a turn
        a.age(3);
        assert_eq!(a.resolve("he is a chef"), None);
        assert_eq!(a.resolve("Nothing here").as_deref(), Some("Nothing here"));
    }
}
