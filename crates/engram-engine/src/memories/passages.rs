//! Where a memory and the passage it was formed from (a chunk of its
//! source document holding most of its words) meet in a ranking: in a
//! hybrid list they become one result, and in a memories list a memory
//! whose passage matches the question better than it does is lifted
//! toward the passage's score. Pure functions over hits; no search here.

use super::search::Passage;
use super::search::SearchHit;
use engram_store::Memory;
use std::collections::HashSet;

/// In a hybrid list, a memory and the passage it was formed from (a chunk
/// of its source document holding most of its words) become one result:
/// the memory, at the better of the two scores, carrying the passage, so a
/// reader gets the crisp fact and its context once, and the place the
/// passage held goes to other evidence. A second memory of a passage
/// already carried says little the reader has not seen: its score is
/// halved (redundancy counts against it, as in maximal marginal
/// relevance). Scores end in descending order, and a repeat that falls
/// below `threshold` is left out (its passage is listed).
pub(super) fn merge_passages(hits: &mut Vec<SearchHit>, threshold: f32) {
    hits.sort_by(|a, b| b.score().total_cmp(&a.score()));
    // each chunk's document and words, read once
    let chunks: Vec<Option<(String, HashSet<String>)>> = hits
        .iter()
        .map(|h| match h {
            SearchHit::Chunk {
                document, content, ..
            } => Some((document.id.clone(), words(content).collect())),
            _ => None,
        })
        .collect();
    let mut taken = vec![false; hits.len()];
    let mut carried: Vec<usize> = Vec::new();
    for i in 0..hits.len() {
        let SearchHit::Memory { memory, .. } = &hits[i] else {
            continue;
        };
        let want: Vec<String> = words(&memory.content).collect();
        let docs = memory.document_ids.clone();
        let source = |j: &usize| {
            chunks[*j]
                .as_ref()
                .is_some_and(|(doc, have)| docs.contains(doc) && holds(have, &want))
        };
        // the best chunk not yet carried (hits are best first)
        if let Some(j) = (0..hits.len()).find(|j| !taken[*j] && source(j)) {
            taken[j] = true;
            carried.push(j);
            let (chunk_score, passage) = match &hits[j] {
                SearchHit::Chunk {
                    document,
                    content,
                    position,
                    score,
                } => (
                    *score,
                    Passage {
                        document_id: document.id.clone(),
                        content: content.clone(),
                        position: *position,
                        score: *score,
                    },
                ),
                _ => unreachable!("only chunks are sources"),
            };
            if let SearchHit::Memory {
                score, passages, ..
            } = &mut hits[i]
            {
                *score = score.max(chunk_score);
                passages.push(passage);
            }
        } else if carried.iter().any(source) {
            let discounted = hits[i].score() * REPEAT_DISCOUNT;
            hits[i].set_score(discounted);
        }
    }
    let mut at = 0;
    hits.retain(|h| {
        at += 1;
        !taken[at - 1] && h.score() >= threshold
    });
    hits.sort_by(|a, b| b.score().total_cmp(&a.score()));
}

/// How many documents' passages lift the memories formed from them.
pub(super) const CONTEXT_PASSAGES: usize = 10;

/// How far a memory moves toward the score of a passage it was formed
/// from that matches better (LoCoMo dev, `memories` R@10: 62.1 % without,
/// 63.2-63.7 % at 0.5, 63.2 % at 1.0, where R@1 fell).
pub(super) const CONTEXT_WEIGHT: f32 = 0.5;

/// A memory whose passage matches the question better than the memory
/// itself does moves toward the passage's score by `weight`: the memory
/// stands for what was said around it too. (Order is left as it was.)
pub(super) fn lift_by_passages(
    memories: &mut [(Memory, f32)],
    passages: &[(String, String, f32)],
    weight: f32,
) {
    let passages: Vec<(&str, HashSet<String>, f32)> = passages
        .iter()
        .map(|(doc, text, score)| (doc.as_str(), words(text).collect(), *score))
        .collect();
    for (memory, score) in memories.iter_mut() {
        // ("Tom Baker is the user's name.": its passage, an introduction,
        // matches any question naming the person, as the memory does)
        if engram_memory::offline::says_a_name(&memory.content) {
            continue;
        }
        // (what the memory's wording adds is said otherwise in the
        // passage: names for "I" and "my", "their" for "my", dates for
        // "last week": "Tom Baker adopted a beagle in the week of 1 May
        // 2023" from "I adopted a beagle last week")
        let want: Vec<String> = memory
            .content
            .split_whitespace()
            .filter(|w| !w.starts_with(char::is_uppercase))
            .flat_map(|w| words(w).collect::<Vec<_>>())
            .filter(|w| {
                !w.chars().any(|c| c.is_ascii_digit())
                    && !matches!(
                        w.as_str(),
                        "their"
                            | "theirs"
                            | "them"
                            | "themself"
                            | "themselves"
                            | "week"
                            | "weekend"
                    )
            })
            .collect();
        let context = passages
            .iter()
            .filter(|(doc, have, _)| {
                memory.document_ids.iter().any(|d| d == doc) && holds(have, &want)
            })
            .map(|(_, _, sc)| *sc)
            .fold(0.0, f32::max);
        if context > *score {
            *score += (context - *score) * weight;
        }
    }
}

/// What a memory's score is worth when its passage is already carried.
const REPEAT_DISCOUNT: f32 = 0.5;

/// The content words of a text (longer than three letters), lowercased.
fn words(t: &str) -> impl Iterator<Item = String> + '_ {
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 3)
        .map(str::to_lowercase)
}

/// Whether a passage's words `have` hold most (three in four) of a fact's
/// words `want`.
fn holds(have: &HashSet<String>, want: &[String]) -> bool {
    !want.is_empty() && want.iter().filter(|w| have.contains(*w)).count() * 4 >= want.len() * 3
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;

    fn at() -> engram_store::Timestamp {
        chrono::DateTime::from_timestamp_millis(0).unwrap()
    }

    fn memory(id: &str, content: &str, doc: &str, score: f32) -> (Memory, f32) {
        (fixtures::memory(id, content, &[doc], at()), score)
    }

    fn passage(doc: &str, text: &str, score: f32) -> (String, String, f32) {
        (doc.into(), text.into(), score)
    }

    fn ids(memories: &[(Memory, f32)]) -> Vec<(&str, f32)> {
        memories
            .iter()
            .map(|(m, sc)| (m.id.as_str(), *sc))
            .collect()
    }

    #[test]
    fn a_memory_moves_halfway_toward_a_better_passage_of_its_own() {
        let mut memories = vec![
            memory("tea", "Ada prefers green tea.", "d1", 0.70),
            memory("bees", "Ravi has bees on his rooftop.", "d2", 0.40),
            memory("oslo", "Maya moved to Oslo.", "d3", 0.50),
        ];
        let passages = vec![
            // Ravi's passage matches well: his memory rises toward it
            passage(
                "d2",
                "Ravi: I have bees on my rooftop, honey every summer.",
                0.90,
            ),
            // a passage of another document lifts nothing
            passage("d9", "Maya moved to Oslo last month.", 0.95),
            // a passage that matches worse than the memory changes nothing
            passage("d1", "Ada: I prefer green tea, always.", 0.60),
        ];
        lift_by_passages(&mut memories, &passages, CONTEXT_WEIGHT);
        assert_eq!(
            ids(&memories),
            vec![("tea", 0.70), ("bees", 0.65), ("oslo", 0.50)],
        );
    }

    #[test]
    fn a_passage_lifts_only_the_memories_whose_words_it_holds() {
        let mut memories = vec![
            memory("x", "Ravi sold the vineyard in Douro.", "d2", 0.30),
            // a memory that only says a name gains nothing from its passage
            memory("name", "Ravi Shah is the user's name.", "d2", 0.30),
        ];
        let passages = vec![passage(
            "d2",
            "user: Hi, my name is Ravi Shah. I keep bees on my rooftop.",
            0.90,
        )];
        lift_by_passages(&mut memories, &passages, CONTEXT_WEIGHT);
        assert_eq!(ids(&memories), vec![("x", 0.30), ("name", 0.30)]);
    }
}
