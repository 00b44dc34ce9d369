//! The person (or place, or thing) a search names, and the embedding of
//! the name alone, so that the memory index can rank the facts naming
//! them by what else they say ([`engram_index::Subject`]). Names are read
//! from the query's capitals; a query naming two, or none, has no subject.

use crate::Engine;

/// Capitalised words that are not names: question and helper words,
/// months and days (dates name no one), and words that open requests.
const NOT_NAMES: &[&str] = &[
    "What",
    "Who",
    "Whom",
    "Whose",
    "When",
    "Where",
    "Why",
    "How",
    "Which",
    "Does",
    "Did",
    "Do",
    "Is",
    "Are",
    "Was",
    "Were",
    "Has",
    "Have",
    "Had",
    "Can",
    "Could",
    "Will",
    "Would",
    "Should",
    "Shall",
    "May",
    "Might",
    "Must",
    "The",
    "A",
    "An",
    "I",
    "I'm",
    "I've",
    "I'd",
    "I'll",
    "My",
    "Me",
    "We",
    "Our",
    "You",
    "Your",
    "He",
    "She",
    "They",
    "Their",
    "His",
    "Her",
    "It",
    "Its",
    "This",
    "That",
    "These",
    "Those",
    "Tell",
    "Show",
    "List",
    "Give",
    "Find",
    "Any",
    "Anything",
    "Something",
    "In",
    "On",
    "At",
    "For",
    "About",
    "And",
    "Or",
    "But",
    "If",
    "Please",
    "Hey",
    "Hi",
    "Hello",
    "Last",
    "Next",
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "January",
    "February",
    "March",
    "April",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Most names kept embedded.
const CACHED_NAMES: usize = 4096;

/// The one name `q` holds ("does Omar have a pet?": "Omar"; "what did
/// Tom Baker adopt?": "Tom Baker"), when it holds exactly one.
pub(crate) fn named_in(q: &str) -> Option<String> {
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut open = false;
    for raw in q.split_whitespace() {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '\u{2019}');
        let w = w
            .strip_suffix("'s")
            .or_else(|| w.strip_suffix("\u{2019}s"))
            .unwrap_or(w)
            .trim_end_matches(['\'', '\u{2019}']);
        let mut chars = w.chars();
        let name = chars.next().is_some_and(char::is_uppercase)
            && w.chars().count() > 1
            && w.chars().all(|c| c.is_alphabetic() || c == '-')
            && chars.any(char::is_lowercase)
            && !NOT_NAMES.contains(&w);
        if name {
            if open {
                groups.last_mut().expect("an open group").push(w);
            } else {
                groups.push(vec![w]);
            }
        }
        // punctuation after a word ends its name ("Omar, Lena and ...")
        open = name && !raw.ends_with([',', '.', '?', '!', ';', ':']);
    }
    match groups.as_slice() {
        [one] => Some(one.join(" ")),
        _ => None,
    }
}

impl Engine {
    /// The name `q` holds and its embedding (as a document: memories are
    /// embedded so), or `None`. A failure to embed the name only loses
    /// the re-ranking it serves.
    pub(crate) async fn query_subject(&self, q: &str) -> Option<(String, Vec<f32>)> {
        let name = named_in(q)?;
        let cached = self
            .name_vectors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&name)
            .cloned();
        if let Some(v) = cached {
            return Some((name, v));
        }
        let v = self
            .embed_texts(vec![name.clone()])
            .await
            .ok()?
            .pop()
            .filter(|v| !v.is_empty())?;
        let mut cache = self.name_vectors.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHED_NAMES {
            cache.clear();
        }
        cache.insert(name.clone(), v.clone());
        Some((name, v))
    }
}

#[cfg(test)]
mod tests {
    use super::named_in;

    #[test]
    fn the_one_name_a_query_holds() {
        for (q, want) in [
            ("does Omar have a pet?", Some("Omar")),
            ("What is Omar's job?", Some("Omar")),
            ("what did Tom Baker adopt?", Some("Tom Baker")),
            (
                "When did Caroline go to the LGBTQ support group?",
                Some("Caroline"),
            ),
            ("What did Caroline and Melanie do?", None),
            ("does omar have a pet?", None),
            ("What happened in May?", None),
            ("Who is Lena engaged to?", Some("Lena")),
            ("Omar, Lena and Sam", None),
            ("where does Maya live", Some("Maya")),
        ] {
            assert_eq!(named_in(q).as_deref(), want, "{q}");
        }
    }
}
