//! Whether a question asks how things are now ("what car does Jo
//! drive?", "where does Ana work?") rather than how they were or how they
//! ended ("what did Jo sell?", "does Ana still work there?", "why did she
//! quit?"). Search ranks memories of something over ("Jo sold their
//! Civic") below the ones that hold for such a question. Also whether a
//! memory describes what a "what is X about?" question asks about ("Ines's
//! first novel is a mystery set in a lighthouse", not "Ines finished her
//! first novel"). Reads words only.

/// Words that ask about the past, a change or an ending.
const NOT_NOW: &[&str] = &[
    "did",
    "was",
    "were",
    "used",
    "still",
    "anymore",
    "longer",
    "ever",
    "why",
    "before",
    "previous",
    "previously",
    "former",
    "formerly",
    "last",
    "first",
    "stop",
    "stopped",
    "quit",
    "sell",
    "sold",
    "leave",
    "left",
    "give",
    "gave",
    "end",
    "ended",
    "lose",
    "lost",
    "had",
    "change",
    "changed",
    "happen",
    "happened",
    "history",
    "again",
];

/// Whether `question` asks how things are now: it asks in the present
/// ("does", "is", "are") and says nothing of the past or of an ending.
pub fn asks_about_now(question: &str) -> bool {
    let words: Vec<String> = question
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    let present = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "does" | "do" | "is" | "are" | "what's" | "where's" | "who's"
        )
    });
    present && !words.iter().any(|w| NOT_NOW.contains(&w.as_str()))
}

/// Wordings of doing a piece of work now.
const WORKING_ON: &[&str] = &[
    " is leading ",
    " is working on ",
    " is moving on to ",
    " moving on to ",
    " is building ",
    " is writing ",
    " is running ",
    " is in charge of ",
    " owns ",
    " will run ",
    " will lead ",
    " started working on ",
];

/// Whether `fact` says what someone is working on ("Priya is now moving
/// on to the fraud detection project", "Tom owns the pricing page"): it
/// answers "what is Priya working on?" though it may not say "work".
pub fn states_work_on(fact: &str) -> bool {
    let t = format!(" {} ", super::slots::normalise(fact));
    WORKING_ON.iter().any(|p| t.contains(p)) && !super::attributes_over(fact)
}

/// Whether `memory` says what the one `question` asks about is working on
/// ("what is Priya working on?" - "Priya is now moving on to the fraud
/// detection project"): the question asks what someone is working on,
/// and the memory is about the person it names.
pub fn answers_work_on(question: &str, memory: &str) -> bool {
    let q = question.to_lowercase();
    if !(q.contains(" working on") || q.contains(" work on")) || !states_work_on(memory) {
        return false;
    }
    let subject = super::slots::lead_subject(&super::slots::normalise(memory));
    let named: Vec<String> = question
        .split_whitespace()
        .skip(1)
        .filter(|w| w.starts_with(char::is_uppercase))
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .trim_end_matches("'s")
                .to_lowercase()
        })
        .collect();
    named.len() == 1 && super::slots::same_subject(&subject, &named[0])
}

/// The thing a "what is ... about?" question asks about, as its last
/// word ("novel" of "what is Ines's novel about?").
fn asked_about(question: &str) -> Option<String> {
    let q = question
        .trim()
        .trim_end_matches(['?', '.', '!'])
        .to_lowercase();
    let rest = [
        "what is ",
        "what's ",
        "what was ",
        "what are ",
        "what were ",
    ]
    .iter()
    .find_map(|p| q.strip_prefix(p))?;
    let thing = rest.strip_suffix(" about")?;
    let last = thing.split_whitespace().last()?;
    (thing.split_whitespace().count() <= 5).then(|| last.to_string())
}

/// Whether `memory` describes what `question` asks the contents of: the
/// thing, then "is a", "is about", "was a" ... ("what is Ines's novel
/// about?" - "Ines's first novel is a mystery set in a lighthouse").
pub fn describes_asked(question: &str, memory: &str) -> bool {
    let Some(thing) = asked_about(question) else {
        return false;
    };
    let m = format!(" {} ", memory.to_lowercase());
    [
        "is a ",
        "is an ",
        "is about ",
        "was a ",
        "was an ",
        "was about ",
        "are about ",
    ]
    .iter()
    .any(|c| m.contains(&format!(" {thing} {c}")))
}

#[cfg(test)]
mod tests {
    use super::{asks_about_now, describes_asked};

    #[test]
    fn work_one_is_on() {
        use super::{answers_work_on, states_work_on};
        let q = "what is Priya working on?";
        assert!(answers_work_on(
            q,
            "Priya is now moving on to the fraud detection project."
        ));
        assert!(!answers_work_on(q, "Aisha took over the database work."));
        assert!(!answers_work_on(q, "Aisha is leading the database work."));
        assert!(!answers_work_on(
            "where does Priya work?",
            "Priya is leading the migration."
        ));
        assert!(states_work_on(
            "Priya is now moving on to the fraud detection project."
        ));
        assert!(states_work_on(
            "Priya is leading the billing migration at Finlo."
        ));
        assert!(states_work_on("Tom owns the pricing page."));
        assert!(!states_work_on("Aisha took over the database work."));
        assert!(!states_work_on("Priya lives in Leeds."));
    }

    #[test]
    fn a_description_of_what_is_asked_about() {
        let q = "what is Ines's novel about?";
        assert!(describes_asked(
            q,
            "Ines's first novel is a mystery set in a lighthouse in Cornwall."
        ));
        assert!(!describes_asked(
            q,
            "Ines finally finished their first novel."
        ));
        assert!(describes_asked(
            "What was the podcast about?",
            "Sam's podcast was about urban gardening."
        ));
        assert!(!describes_asked(
            "where is Ines's novel set?",
            "Ines's first novel is a mystery set in a lighthouse in Cornwall."
        ));
    }

    #[test]
    fn questions_about_now() {
        for q in [
            "what car does Jo drive?",
            "Where does Ana work?",
            "what instrument does Luis play?",
            "who is Omar engaged to?",
            "how old is Theo?",
        ] {
            assert!(asks_about_now(q), "{q}");
        }
        for q in [
            "what did Jo sell?",
            "does Walter still work?",
            "why did Leo quit Google?",
            "Is Omar still with Lena?",
            "where did Maya live before?",
            "Jo's car",
        ] {
            assert!(!asks_about_now(q), "{q}");
        }
    }
}
