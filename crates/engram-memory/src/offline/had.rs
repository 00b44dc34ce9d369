//! Things a speaker says they have ("I've got a monstera and two
//! pothos", "I bought a used Fender"): what "the monstera" later in the
//! conversation means, for [`super::owners`]. Reads words only.

use super::clauses::bare;

/// Verbs of having, after "I" ("I have", "I've got", "I got", "I bought").
const HAVING: &[&str] = &["have", "got", "bought", "own", "adopted"];

/// Words that end the thing's words: the head noun is the word before.
const ENDS: &[&str] = &[
    "and",
    "in",
    "on",
    "at",
    "for",
    "from",
    "with",
    "that",
    "which",
    "who",
    "but",
    "so",
    "to",
    "last",
    "next",
    "this",
    "today",
    "tomorrow",
    "yesterday",
    "now",
];

/// The head nouns of what `speaker` says they have in `words`, each with
/// the speaker: ("monstera", "Noor").
pub(super) fn had_things(words: &[&str], speaker: Option<&str>) -> Vec<(String, String)> {
    let Some(owner) = speaker else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let b = bare(w);
        let by_me = match b.as_str() {
            "i've" => words.get(i + 1).is_some_and(|n| bare(n) == "got"),
            "i" => words
                .get(i + 1)
                .is_some_and(|n| HAVING.contains(&bare(n).as_str())),
            _ => false,
        };
        if !by_me {
            continue;
        }
        // the article, then at most two words to the head noun
        let Some(a) = (i + 2..(i + 4).min(words.len()))
            .find(|&k| matches!(bare(words[k]).as_str(), "a" | "an"))
        else {
            continue;
        };
        let mut head = None;
        for w in words.iter().skip(a + 1).take(3) {
            let x = bare(w);
            if x.is_empty() || ENDS.contains(&x.as_str()) {
                break;
            }
            head = Some(x);
            if w.ends_with([',', '.', '!', '?', ';']) {
                break;
            }
        }
        if let Some(h) = head.filter(|h| h.len() > 2 && h.chars().all(char::is_alphabetic)) {
            out.push((h, owner.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::had_things;

    fn heads(text: &str) -> Vec<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        had_things(&words, Some("Noor"))
            .into_iter()
            .map(|(h, _)| h)
            .collect()
    }

    #[test]
    fn what_a_speaker_has() {
        assert_eq!(
            heads("I've got a monstera and two pothos in my living room"),
            ["monstera"]
        );
        assert_eq!(heads("I bought a used Fender Strat last week"), ["strat"]);
        assert_eq!(heads("I have a new bike."), ["bike"]);
        assert!(heads("You have a monstera").is_empty());
        assert!(heads("I have to go").is_empty());
    }
}
