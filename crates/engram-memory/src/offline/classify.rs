//! Which sentences are facts worth keeping, and which facts are durable.

/// Words that carry no content of their own.
const FILLER: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "so", "to", "of", "in", "on", "at", "for", "with", "it",
    "is", "are", "was", "were", "be", "been", "that", "this", "these", "those", "i", "you", "me",
    "my", "we", "us", "our", "your", "he", "she", "they", "them", "his", "her", "their", "its",
    "oh", "yeah", "yes", "no", "not", "just", "really", "very", "too", "so", "well", "also", "do",
    "does", "did", "have", "has", "had", "what", "how", "all", "about", "as", "by", "from", "im",
    "i'm", "it's", "that's", "there", "here", "can", "will", "would", "like", "get", "got",
    "thing", "things", "lot", "much", "more", "some", "any", "one", "now", "then", "if", "up",
];

/// Openings of small talk: greetings, thanks, reactions, wishes.
const SMALL_TALK: &[&str] = &[
    "hi",
    "hey",
    "hello",
    "thanks",
    "thank you",
    "bye",
    "goodbye",
    "see you",
    "take care",
    "congrats",
    "congratulations",
    "wow",
    "haha",
    "lol",
    "omg",
    "awesome",
    "great",
    "cool",
    "nice",
    "sounds good",
    "sounds great",
    "sounds like",
    "that sounds",
    "that's great",
    "that's awesome",
    "that's amazing",
    "that's so",
    "that is so",
    "i'm glad",
    "glad to hear",
    "good luck",
    "have a great",
    "have a good",
    "no problem",
    "you're welcome",
    "sure",
    "okay",
    "ok",
    "yeah",
    "yes",
    "no worries",
    "same here",
    "me too",
    "absolutely",
    "exactly",
    "totally",
    "i agree",
    "you're right",
    "good to hear",
    "so good",
    "love that",
    "i love that",
    "i bet",
    "i hope you",
    "hope you",
    "keep it up",
    "well done",
    "good job",
    "you got this",
    "i appreciate",
    "appreciate it",
    "it was nice",
    "nice to",
    "talk soon",
    "catch up",
    "good to see",
    "great to see",
    "good to talk",
    "talk to you",
    "see ya",
    "take it easy",
    "glad",
    "so glad",
    "really glad",
    "so happy for",
    "happy for you",
    "i'm happy for",
    "i'm so happy for",
    "means a lot",
    "that means",
    "hope you're",
    "hope you've",
    "wishing you",
    "keep you posted",
    "keep ya posted",
    "i'll keep you",
    "i'll keep ya",
    "proud of you",
];

/// Subjects that point back into the conversation: a sentence opening with
/// one cannot stand alone as a memory ("It was amazing").
const BACK_REFERENCES: &[&str] = &["it", "it's", "that", "that's", "thats", "its"];

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
        .collect()
}

/// Whether a sentence (as said, before any rewriting) could hold a fact:
/// not a question, not small talk, and with some content.
pub fn is_fact_like(sentence: &str) -> bool {
    let t = sentence.trim();
    if t.ends_with('?') {
        return false;
    }
    let w = words(t);
    if w.len() < 4 {
        return false;
    }
    if BACK_REFERENCES.contains(&w[0].as_str()) {
        return false;
    }
    let lower = w.join(" ");
    if SMALL_TALK
        .iter()
        .any(|p| lower == *p || lower.starts_with(&format!("{p} ")))
    {
        return false;
    }
    let content = w
        .iter()
        .filter(|x| x.len() > 2 && !FILLER.contains(&x.as_str()))
        .count();
    content >= 2
}

/// Phrases that mark a durable trait: identity, home, work, relationships,
/// lasting preferences and conditions.
const STATIC: &[&str] = &[
    // identity
    " is a ",
    " is an ",
    "'s name is",
    " was born",
    " grew up",
    " identifies as",
    " is years old",
    " years old",
    " is married",
    " is single",
    " is divorced",
    " is engaged",
    " is pregnant",
    // home
    " lives in",
    " lives with",
    " lives near",
    " is from ",
    " comes from",
    " moved to",
    " moved from",
    " home is",
    " hometown",
    // work and study
    " works as",
    " works at",
    " works for",
    " works in",
    " job is",
    " is employed",
    " studies ",
    " is studying",
    " majored in",
    " graduated",
    " is retired",
    " runs a ",
    " owns a ",
    " is a student",
    " career",
    // relationships
    "'s wife",
    "'s husband",
    "'s partner",
    "'s girlfriend",
    "'s boyfriend",
    "'s mother",
    "'s father",
    "'s mom",
    "'s dad",
    "'s sister",
    "'s brother",
    "'s son",
    "'s daughter",
    "'s kids",
    "'s children",
    "'s parents",
    "'s grandmother",
    "'s grandfather",
    "'s best friend",
    " has kids",
    " has children",
    " has a son",
    " has a daughter",
    " has a dog",
    " has a cat",
    " has two ",
    " has three ",
    " is dating",
    " got married",
    // preferences and conditions
    " loves ",
    " likes ",
    " enjoys ",
    " prefers ",
    " hates ",
    " dislikes ",
    " favorite ",
    " favourite ",
    " is allergic",
    " is vegetarian",
    " is vegan",
    " doesn't eat",
    " does not eat",
    " is passionate about",
    " is into ",
    " is a fan of",
    " believes ",
    " values ",
];

/// Whether a resolved fact describes a durable trait.
pub fn is_static(fact: &str) -> bool {
    let lower = format!(" {} ", fact.to_lowercase().replace('\u{2019}', "'"));
    STATIC.iter().any(|p| lower.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_and_small_talk_are_not_facts() {
        for s in [
            "How was your weekend?",
            "Thanks so much!",
            "Haha, that's awesome!",
            "That sounds like a lot of fun.",
            "Good luck with the race!",
            "Oh yes.",
            "Me too, I think so.",
            "It is what it is.",
            "Glad you're here to share in it.",
            "Hope you're doing good.",
            "Wishing you the best on your adoption journey.",
            "I'll keep ya posted.",
            "It brings us together and makes us happy.",
            "That was the best day of the summer.",
        ] {
            assert!(!is_fact_like(s), "{s}");
        }
        for s in [
            "I went to an LGBTQ support group yesterday.",
            "My kids love the beach.",
            "I'm training for a marathon in October.",
        ] {
            assert!(is_fact_like(s), "{s}");
        }
    }

    #[test]
    fn durable_traits_are_static_and_events_are_not() {
        for s in [
            "Caroline is a counselor",
            "Melanie lives in Boston",
            "Caroline's kids love dinosaurs",
            "Melanie prefers tea to coffee",
            "Caroline moved to Sweden in 2019",
            "Jon works as a nurse",
        ] {
            assert!(is_static(s), "{s}");
        }
        for s in [
            "Caroline went to a support group on 7 May 2023",
            "Melanie ran a charity race",
            "Caroline is tired today",
        ] {
            assert!(!is_static(s), "{s}");
        }
    }
}
