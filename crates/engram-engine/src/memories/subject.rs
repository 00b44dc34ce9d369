//! The person a search names, and the embedding of the name alone, so
//! that the memory index can rank the facts naming them by what else they
//! say ([`engram_index::Subject`]). A query naming two, or none, has no
//! subject.

use crate::Engine;

/// The one person `q` names ("does Omar have a pet?": "Omar"; "what did
/// Tom Baker adopt?": "Tom Baker"), when it names exactly one: names read
/// as memory formation reads them ([`engram_memory::offline::entities_of`]),
/// but places, organisations and acronyms ("LGBTQ") name no one.
pub(crate) fn named_in(q: &str) -> Option<String> {
    use engram_memory::EntityKind::{Organisation, Place};
    let people: Vec<String> = engram_memory::offline::entities_of(q)
        .into_iter()
        .filter(|e| !matches!(e.kind, Place | Organisation))
        .filter(|e| e.name.chars().any(char::is_lowercase))
        .map(|e| e.name)
        .collect();
    match people.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

impl Engine {
    /// The name `q` holds and its embedding (as a document: memories are
    /// embedded so), or `None`. A failure to embed the name only loses
    /// the re-ranking it serves.
    pub(crate) async fn query_subject(&self, q: &str) -> Option<(String, Vec<f32>)> {
        let name = named_in(q)?;
        let v = self
            .cached_vectors(std::slice::from_ref(&name))
            .await
            .ok()?
            .pop()
            .filter(|v| !v.is_empty())?;
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
            ("Where did Ana go in Tokyo?", Some("Ana")),
            ("where does Maya live", Some("Maya")),
        ] {
            assert_eq!(named_in(q).as_deref(), want, "{q}");
        }
    }
}
