//! Hybrid document search (`/v3/search`): keyword (BM25) and vector
//! (cosine) candidates from the store, fused into one calibrated score per
//! chunk, grouped by document.
//!
//! Fusion. Cosine similarity of unit vectors is already on a meaningful
//! absolute scale (near 1 only for near-identical meaning), so it is the
//! backbone: `v = clamp(cos, 0, 1)`. BM25 is unbounded and corpus-dependent,
//! so it is squashed to `k = bm25 / (bm25 + 5)` and allowed to lift a chunk
//! part of the way that vector similarity leaves open:
//! `score = 1 - (1 - v) * (1 - k / 2)`. The score stays in 0..1, a keyword
//! match can never push an unrelated chunk to 1, and a near-exact match
//! scores near 1 whatever its keywords — so `chunkThreshold` means the same
//! thing from one query to the next. The constants are general (no data
//! set was tuned here); retrieval quality is measured by the LoCoMo bench.

use crate::{Engine, EngineError};
use engram_core::DocumentSearch;
use engram_store::{Chunk, ChunkHit, Document, SearchScope};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// BM25 value at which a keyword match counts half.
const BM25_HALF: f32 = 5.0;
/// Most query terms sent to the keyword index.
const MAX_TERMS: usize = 32;

const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Lowercase word terms of a query, without stop words, de-duplicated.
pub fn query_terms(q: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in q.split(|c: char| !c.is_alphanumeric()) {
        let w = w.to_lowercase();
        if w.is_empty() || STOP_WORDS.contains(&w.as_str()) || out.contains(&w) {
            continue;
        }
        out.push(w);
        if out.len() == MAX_TERMS {
            break;
        }
    }
    out
}

/// The fused, calibrated score of a chunk.
pub fn fuse(cosine: Option<f32>, bm25: Option<f32>) -> f32 {
    let v = cosine.unwrap_or(0.0).clamp(0.0, 1.0);
    let k = bm25
        .map(|b| b.max(0.0) / (b.max(0.0) + BM25_HALF))
        .unwrap_or(0.0);
    (1.0 - (1.0 - v) * (1.0 - k / 2.0)).clamp(0.0, 1.0)
}

/// A document id, its best chunk score, and its scored chunk hits.
type RankedDocument = (String, f32, Vec<(ChunkHit, f32)>);

/// A scored chunk of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultChunk {
    pub content: String,
    pub position: i64,
    pub score: f32,
    /// False for neighbouring chunks added as context.
    pub is_relevant: bool,
}

/// One document of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultDocument {
    pub document: Document,
    pub score: f32,
    pub chunks: Vec<ResultChunk>,
}

/// A search's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    pub results: Vec<ResultDocument>,
    /// Documents that matched (before `limit`).
    pub total: usize,
    pub elapsed_ms: f64,
}

impl Engine {
    /// Run a document search.
    pub async fn search_documents(
        &self,
        org_id: &str,
        s: &DocumentSearch,
    ) -> Result<SearchOutcome, EngineError> {
        let start = Instant::now();
        let document_id = match &s.doc_id {
            Some(id) => Some(self.get_document(org_id, id).await?.id),
            None => None,
        };
        let scope = SearchScope {
            container_tags: s.container_tags.clone(),
            document_id,
            filepath: s.filepath.clone(),
            filter: s.filter.clone(),
        };
        let k = (s.limit * 5).max(50);
        let terms = query_terms(&s.q);
        let (keyword, query_vec) = tokio::join!(
            self.store.keyword_search(org_id, &scope, &terms, k),
            self.embedder.embed(vec![s.q.clone()]),
        );
        let t_first = start.elapsed();
        let keyword = keyword?;
        let query_vec = query_vec
            .map_err(|e| {
                EngineError::Store(engram_store::StoreError::Backend(format!(
                    "query embedding failed: {e}"
                )))
            })?
            .pop()
            .unwrap_or_default();
        let also: Vec<String> = keyword.iter().map(|h| h.chunk_id.clone()).collect();
        let vector = self
            .store
            .vector_search(org_id, &scope, &query_vec, k, &also)
            .await?;
        let t_vector = start.elapsed();

        // fuse per chunk
        let mut by_chunk: HashMap<String, (ChunkHit, Option<f32>, Option<f32>)> = HashMap::new();
        for h in vector {
            let cos = h.score;
            by_chunk
                .entry(h.chunk_id.clone())
                .or_insert((h, None, None))
                .1 = Some(cos);
        }
        for h in keyword {
            let bm = h.score;
            by_chunk
                .entry(h.chunk_id.clone())
                .or_insert((h, None, None))
                .2 = Some(bm);
        }
        let mut per_doc: BTreeMap<String, Vec<(ChunkHit, f32)>> = BTreeMap::new();
        for (_, (hit, cos, bm)) in by_chunk {
            let score = fuse(cos, bm);
            if score < s.chunk_threshold || score <= 0.0 {
                continue;
            }
            per_doc
                .entry(hit.document_id.clone())
                .or_default()
                .push((hit, score));
        }
        let mut ranked: Vec<RankedDocument> = per_doc
            .into_iter()
            .map(|(doc, mut hits)| {
                hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.position.cmp(&b.0.position)));
                let best = hits[0].1;
                (doc, best, hits)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let total = ranked.len();
        ranked.truncate(s.limit);

        // at most a few chunks per document (the best ones); fetch all the
        // documents and chunks of the page in two queries
        let ranked: Vec<RankedDocument> = ranked
            .into_iter()
            .map(|(d, sc, hits)| (d, sc, hits.into_iter().take(5).collect()))
            .collect();
        let doc_ids: Vec<String> = ranked.iter().map(|(d, _, _)| d.clone()).collect();
        let chunk_ids: Vec<String> = ranked
            .iter()
            .flat_map(|(_, _, hits)| hits.iter().map(|(h, _)| h.chunk_id.clone()))
            .collect();
        let mut documents: HashMap<String, Document> = self
            .store
            .documents_by_ids(org_id, &doc_ids)
            .await?
            .into_iter()
            .map(|d| (d.id.clone(), d))
            .collect();
        let found: HashMap<String, Chunk> = self
            .store
            .chunks_by_ids(org_id, &chunk_ids)
            .await?
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
        let mut results = Vec::with_capacity(ranked.len());
        for (doc_id, score, hits) in ranked {
            let Some(document) = documents.remove(&doc_id) else {
                continue; // deleted meanwhile
            };
            let mut chunks: Vec<ResultChunk> = hits
                .iter()
                .filter_map(|(h, sc)| {
                    found.get(&h.chunk_id).map(|c| ResultChunk {
                        content: c.content.clone(),
                        position: c.position,
                        score: *sc,
                        is_relevant: true,
                    })
                })
                .collect();
            if !s.only_matching_chunks {
                let have: Vec<i64> = chunks.iter().map(|c| c.position).collect();
                let mut want: Vec<i64> = have
                    .iter()
                    .flat_map(|p| [p - 1, p + 1])
                    .filter(|p| *p >= 0 && !have.contains(p))
                    .collect();
                want.sort_unstable();
                want.dedup();
                for c in self.store.chunks_at(org_id, &doc_id, &want).await? {
                    let cos = engram_embed::dot(&c.embedding, &query_vec);
                    chunks.push(ResultChunk {
                        content: c.content,
                        position: c.position,
                        score: fuse(Some(cos), None),
                        is_relevant: false,
                    });
                }
                chunks.sort_by_key(|c| c.position);
            }
            results.push(ResultDocument {
                document,
                score,
                chunks,
            });
        }
        let elapsed = start.elapsed();
        tracing::debug!(
            keyword_and_embedding_ms = t_first.as_secs_f64() * 1000.0,
            vector_ms = (t_vector - t_first).as_secs_f64() * 1000.0,
            assembly_ms = (elapsed - t_vector).as_secs_f64() * 1000.0,
            "search stages"
        );
        Ok(SearchOutcome {
            results,
            total,
            elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stop_words_and_repeats() {
        assert_eq!(
            query_terms("What is the API rate-limit? The LIMIT!"),
            vec!["api", "rate", "limit"]
        );
        assert!(query_terms("the of and").is_empty());
    }

    #[test]
    fn fusion_is_calibrated() {
        assert_eq!(fuse(None, None), 0.0);
        assert!((fuse(Some(1.0), None) - 1.0).abs() < 1e-6);
        assert!((fuse(Some(1.0), Some(50.0)) - 1.0).abs() < 1e-6);
        // keywords lift, but never to certainty
        assert!(fuse(Some(0.3), Some(5.0)) > fuse(Some(0.3), None));
        assert!(fuse(None, Some(1e9)) <= 0.5 + 1e-6);
        // negative cosine counts as unrelated
        assert_eq!(fuse(Some(-0.4), None), 0.0);
        for c in [-1.0f32, 0.0, 0.2, 0.7, 1.0] {
            for b in [0.0f32, 1.0, 10.0, 1e6] {
                let s = fuse(Some(c), Some(b));
                assert!((0.0..=1.0).contains(&s));
            }
        }
    }
}
