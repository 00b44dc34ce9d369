//! Which sentences are facts worth keeping, and which facts are durable.

/// The chatter phrases of `data/chatter.txt`.
const CHATTER: &str = include_str!("../../data/chatter.txt");

/// The phrases of one `[section]` of [`CHATTER`].
fn phrases(section: &'static str) -> &'static [&'static str] {
    static SECTIONS: std::sync::OnceLock<
        std::collections::HashMap<&'static str, Vec<&'static str>>,
    > = std::sync::OnceLock::new();
    let all = SECTIONS.get_or_init(|| {
        let mut out: std::collections::HashMap<&'static str, Vec<&'static str>> =
            Default::default();
        let mut at = "";
        for line in CHATTER.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                Some(name) => at = name,
                None => out.entry(at).or_default().push(line),
            }
        }
        out
    });
    all.get(section).map_or(&[], Vec::as_slice)
}

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

/// The section of openings of small talk: greetings, thanks, reactions,
/// wishes.
const SMALL_TALK: &str = "small talk";

/// The section of phrases anywhere in a clause that mark advice,
/// encouragement or talk about the conversation itself, not a fact.
const NOT_FACTS_ANYWHERE: &str = "anywhere";

/// Words that open a relative or question clause inside a sentence
/// (the conjunctions are [`super::clauses::SUBORDINATORS`]).
const RELATIVES: &[&str] = &[
    "what", "that", "which", "who", "whom", "whose", "where", "how", "why",
];

/// Subjects that make a clause about the listener: in a conversation those
/// are reactions, compliments and advice ("You're so talented").
const SECOND_PERSON: &[&str] = &[
    "you", "you're", "you've", "you'll", "you'd", "your", "yours", "u", "ur", "y'all", "yall", "ya",
];

/// Verbs whose bare form opens a statement with "I" left out ("Love
/// hiking with my dog"); other bare verbs open commands.
pub const STANCE_VERBS: &[&str] = &[
    "love", "like", "hate", "need", "want", "plan", "prefer", "miss", "adore", "dislike", "own",
];

/// Subjects that point back into the conversation: a sentence opening with
/// one cannot stand alone as a memory ("It was amazing").
const BACK_REFERENCES: &[&str] = &[
    "it", "it's", "that", "that's", "thats", "its", "here's", "heres",
];

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
        .collect()
}

/// Whether a sentence (as said, before any rewriting) could hold a fact:
/// not a question, and with some content (small talk is judged clause by
/// clause: "Thanks! We got another cat" still holds a fact).
pub fn is_fact_like(sentence: &str) -> bool {
    let t = sentence.trim();
    if t.ends_with('?') {
        return false;
    }
    let w = words(t);
    if w.len() < 2 {
        return false;
    }
    // ("my 5k PB is 28:10": a measure like "5k" or "10km" is content)
    let measure =
        |x: &String| x.chars().any(|c| c.is_ascii_digit()) && x.chars().any(char::is_alphabetic);
    content_words(&w) >= 1 || w.iter().any(measure)
}

fn content_words(w: &[String]) -> usize {
    w.iter()
        .filter(|x| x.len() > 2 && !FILLER.contains(&x.as_str()))
        .count()
}

/// How many words of a clause carry content.
pub fn content(clause: &str) -> usize {
    content_words(&words(clause))
}

/// Why a clause (as said, openers gone) is not a fact, if it is not:
/// small talk, advice, encouragement, talk about the conversation, or a
/// statement about the listener.
pub fn not_a_fact(clause: &str) -> Option<&'static str> {
    let w = words(clause);
    let first = w.first()?;
    let lower = format!(" {} ", w.join(" "));
    if lower.trim_end().ends_with('?') || clause.trim_end().ends_with('?') {
        return Some("question");
    }
    if phrases(SMALL_TALK)
        .iter()
        .any(|p| lower.trim() == *p || lower.trim_start().starts_with(&format!("{p} ")))
    {
        return Some("small talk");
    }
    // ("I do my best work after 10pm": "best" of a thing named after it)
    let said_of_a_thing = |p: &str, at: usize| {
        let next = lower[at + p.len() + 2..].split_whitespace().next();
        p.ends_with(" best") && next.is_some_and(|n| !super::words::FUNCTION.contains(&n))
    };
    if phrases(NOT_FACTS_ANYWHERE).iter().any(|p| {
        lower
            .find(&format!(" {p} "))
            .is_some_and(|at| !said_of_a_thing(p, at))
    }) {
        return Some("advice, encouragement, a compliment or talk about the conversation");
    }
    if SECOND_PERSON.contains(&first.as_str()) {
        return Some("about the listener");
    }
    // "Just like you with your tournament": a comparison, with no verb of
    // its own (read as "Joanna just likes ..." it would be false)
    let lead = w.iter().find(|x| {
        !matches!(
            x.as_str(),
            "just" | "exactly" | "kinda" | "much" | "a" | "bit"
        )
    });
    if lead.is_some_and(|x| matches!(x.as_str(), "like" | "unlike")) {
        return Some("a comparison");
    }
    // "Respect for finding acceptance and ...", "Kudos for sticking with
    // it": praise, a word and `for` with no verb of its own before any
    // clause it holds ("Tickets for the show sold out" has one)
    // ("training for a half marathon": a doing, its "I'm" left out)
    let gerund = matches!(
        super::lexicon::verb(&w[0]),
        Some((_, super::lexicon::VerbForm::Gerund))
    );
    if w.len() > 2 && w[1] == "for" && !gerund {
        let opens = |x: &str| RELATIVES.contains(&x) || super::clauses::SUBORDINATORS.contains(&x);
        let mut main = w[2..].iter().take_while(|x| !opens(x.as_str()));
        if !main.any(|x| super::coordination::finite(x)) {
            return Some("a reaction");
        }
    }
    // "Almost as silly as when ...": a comparison too
    let opening: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .skip_while(|x| matches!(*x, "almost" | "just" | "about" | "nearly" | "not"))
        .take(3)
        .collect();
    if matches!(opening.as_slice(), ["as", _, "as"]) {
        return Some("a comparison");
    }
    // "I hope I can hear you play some day", "wish you were here": a wish
    // that involves the listener
    if w.iter().any(|x| {
        matches!(x.as_str(), "hope" | "hopes" | "hoped" | "hoping") || x.starts_with("wish")
    }) && w.iter().any(|x| SECOND_PERSON.contains(&x.as_str()))
    {
        return Some("a wish for the listener");
    }
    if BACK_REFERENCES.contains(&first.as_str()) {
        return Some("refers back");
    }
    // "... love that", "... been there": a pointer, not a fact
    let last = w.last().map(String::as_str).unwrap_or("");
    // ("bought a bike and love it": the clause names what "it" is)
    let said_here = || {
        let raw: Vec<&str> = clause.split_whitespace().collect();
        super::pronouns::thing_before(&raw[..raw.len().saturating_sub(1)])
    };
    if matches!(last, "this" | "that" | "these" | "those" | "here" | "there")
        || (last == "it" && !said_here())
    {
        return Some("refers back");
    }
    // "... how hard that is", "... what it was"
    if w.len() >= 2
        && matches!(w[w.len() - 2].as_str(), "that" | "this" | "it" | "what")
        && matches!(last, "is" | "was" | "are" | "were" | "be")
    {
        return Some("refers back");
    }
    None
}

/// Phrases that mark a durable trait: identity, home, work, relationships,
/// lasting preferences and conditions.
const STATIC: &[&str] = &[
    // identity
    " is a ",
    " is an ",
    "'s name is",
    " is the user's name",
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

/// Relatives and relationships: durable when the fact says who or where
/// they are ("Ana's sister lives in Denver"), not what they did.
const RELATIONSHIPS: &[&str] = &[
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
];

/// Verbs that state what someone is or has, not what they did.
const STATIVE: &[&str] = &[
    " is ",
    " are ",
    " lives ",
    " live ",
    " works ",
    " work ",
    " has ",
    " have ",
    " named ",
    " called ",
    " was born",
    " were born",
    " studies ",
    " married",
    " dating ",
    " love ",
    " loves ",
    " like ",
    " likes ",
    " enjoy ",
    " enjoys ",
    " hate ",
    " hates ",
];

/// Whether a resolved fact describes a durable trait.
pub fn is_static(fact: &str) -> bool {
    let lower = format!(" {} ", fact.to_lowercase().replace('\u{2019}', "'"));
    // ("the check-up got moved to 9 April": rescheduled, not a move home)
    let lower = [" got moved to", " was moved to", " been moved to"]
        .iter()
        .fold(lower, |l, p| l.replace(p, " was rescheduled to"))
        // ("is a bit nervous": a degree, not what someone is)
        .replace(" is a bit ", " is rather ")
        .replace(" is a little ", " is rather ");
    // ("is going to Istanbul to meet Elif's parents": a plan that names
    // kin, not who someone's kin are)
    let plan = [
        " going to ",
        " will ",
        " planning ",
        " plans to ",
        " cancelled ",
        " canceled ",
    ]
    .iter()
    .any(|p| lower.contains(p));
    STATIC.iter().any(|p| lower.contains(p))
        || occupation(fact).is_some()
        || (RELATIONSHIPS.iter().any(|p| lower.contains(p))
            && STATIVE.iter().any(|v| lower.contains(v))
            && !plan)
}

/// The occupation a fact gives its subject ("Ana is a marine biologist"
/// -> "marine biologist"), when its wording says "is/works as a(n) ...
/// <occupation>".
pub fn occupation(fact: &str) -> Option<String> {
    let w = words(fact);
    for (i, x) in w.iter().enumerate() {
        let cue = matches!(x.as_str(), "is" | "am" | "as" | "became" | "become")
            && matches!(w.get(i + 1).map(String::as_str), Some("a" | "an"));
        if !cue {
            continue;
        }
        // the phrase up to a preposition or the end; its last word the head
        let phrase: Vec<&String> = w[i + 2..]
            .iter()
            .take_while(|y| {
                !matches!(
                    y.as_str(),
                    "at" | "in" | "for" | "with" | "and" | "but" | "from" | "on" | "who" | "since"
                )
            })
            .take(4)
            .collect();
        let head = phrase.last()?;
        if super::lexicon::is_occupation(head) {
            return Some(
                phrase
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(s: &str) -> bool {
        is_fact_like(s) && not_a_fact(s).is_none()
    }

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
            "You should try pottery sometime.",
            "You're so talented.",
            "I remember you mentioning it.",
            "So happy for you!",
            "I can't wait to see it",
            "I love that",
            "I know how hard that is",
        ] {
            assert!(!kept(s), "{s}");
        }
        for s in [
            "I went to an LGBTQ support group yesterday.",
            "My kids love the beach.",
            "I'm training for a marathon in October.",
            "I see my therapist every week.",
            "I'm vegan.",
        ] {
            assert!(kept(s), "{s}");
        }
    }

    #[test]
    fn occupations_are_read_from_is_a() {
        assert_eq!(
            occupation("Maya works as a marine biologist").as_deref(),
            Some("marine biologist")
        );
        assert_eq!(
            occupation("Tom is a software engineer at Stripe").as_deref(),
            Some("software engineer")
        );
        assert_eq!(occupation("Tom is a big fan of jazz"), None);
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
            "Ana's sister lives in Denver",
            "Ana is a marine biologist",
        ] {
            assert!(is_static(s), "{s}");
        }
        for s in [
            "Caroline went to a support group on 7 May 2023",
            "Melanie ran a charity race",
            "Caroline is tired today",
            "Ben's sister convinced Ben",
            "Greta's check-up got moved to 9 April 2025.",
            "Jonas is a bit nervous about flying.",
            "Sam is going to Istanbul in June 2025 to meet Elif's parents.",
        ] {
            assert!(!is_static(s), "{s}");
        }
    }
}
