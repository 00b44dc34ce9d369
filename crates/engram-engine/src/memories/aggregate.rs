//! `aggregate` of `/v4/search`: new memories synthesised from several
//! results, mixed into the list and ranked with them (they are answers to
//! this query, not stored). With an LLM configured the model writes them
//! from the top memories; without one, memories among the results that
//! mention the same entity are joined into one statement about it.

use super::search::SearchHit;
use crate::Engine;
use engram_llm::ChatRequest;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Results an aggregate is made from at most.
pub const AGGREGATE_FROM: usize = 10;
/// Aggregates added at most.
pub const MAX_AGGREGATES: usize = 3;

#[derive(Deserialize)]
struct Answer {
    aggregates: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    content: String,
    #[serde(default)]
    from: Vec<usize>,
}

/// Memory hits that share an entity, joined: `(text, indexes)` per entity
/// named by at least two of them, the best-scoring groups first.
pub fn by_entity(hits: &[SearchHit]) -> Vec<(String, Vec<usize>)> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, h) in hits.iter().enumerate().take(AGGREGATE_FROM) {
        if let SearchHit::Memory { memory, .. } = h {
            for e in &memory.entities {
                groups.entry(e.name.clone()).or_default().push(i);
            }
        }
    }
    let mut out: Vec<(String, Vec<usize>)> = groups
        .into_values()
        .filter(|v| v.len() >= 2)
        .map(|v| {
            let text = v
                .iter()
                .map(|i| hits[*i].text().trim_end_matches('.'))
                .collect::<Vec<_>>()
                .join("; ");
            (format!("{text}."), v)
        })
        .collect();
    // a group's standing is its best member's rank
    out.sort_by_key(|(_, v)| v[0]);
    out.dedup_by(|a, b| a.1 == b.1);
    out.truncate(MAX_AGGREGATES);
    out
}

impl Engine {
    /// Aggregates of the top hits: by the LLM when configured (and it
    /// answers), else by shared entities.
    pub(crate) async fn aggregate(&self, q: &str, hits: &[SearchHit]) -> Vec<(String, Vec<usize>)> {
        let top: Vec<(usize, &SearchHit)> = hits
            .iter()
            .enumerate()
            .filter(|(_, h)| matches!(h, SearchHit::Memory { .. }))
            .take(AGGREGATE_FROM)
            .collect();
        if let (Some(llm), true) = (self.llm.as_deref(), top.len() >= 2) {
            let listing: String = top
                .iter()
                .map(|(i, h)| format!("[{i}] {}\n", h.text()))
                .collect();
            let req = ChatRequest::new(
                "You combine memories into new synthesized memories that answer a query better \
                 than any one of them. Answer JSON only: {\"aggregates\": [{\"content\": string, \
                 \"from\": [indexes of the memories used]}]} with at most three entries, each \
                 using two or more memories.",
                format!("Query: {q}\n\nMemories:\n{listing}"),
            );
            match self.ask_now::<Answer>(llm, req).await {
                Ok(a) => {
                    return a
                        .aggregates
                        .into_iter()
                        .filter(|x| !x.content.trim().is_empty())
                        .map(|x| {
                            let from: Vec<usize> =
                                x.from.into_iter().filter(|i| *i < hits.len()).collect();
                            (x.content.trim().to_string(), from)
                        })
                        .filter(|(_, from)| from.len() >= 2)
                        .take(MAX_AGGREGATES)
                        .collect();
                }
                Err(e) => tracing::warn!(error = %e, "LLM aggregation failed; grouping by entity"),
            }
        }
        by_entity(hits)
    }
}
