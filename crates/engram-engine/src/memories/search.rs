//! `/v4/search`: memories (default), chunks, or both in one ranked list.
//! Memories are ranked by the memory index with the same fusion and the
//! same 0..1 scale as chunks, so one threshold means the same in every
//! mode and a hybrid list merges by score. A memory whose passage (the
//! chunk it was formed from) matches the question better than the memory
//! itself moves halfway toward the passage's score: it stands for what was
//! said around it too. In a hybrid list a memory and
//! the passage it was formed from are one result (the fact, with its
//! passage as context), never two. Only the latest, unforgotten, unexpired
//! memories are returned unless forgotten ones are asked for.

use super::passages::{lift_by_passages, merge_passages, CONTEXT_PASSAGES, CONTEXT_WEIGHT};
use super::ranked::ranked_memories;
use crate::{Engine, EngineError};
use engram_core::filter::Filter;
use engram_core::DocumentSearch;
use engram_index::{Query, Scope, Subject};
use engram_store::{now, Document, Memory, RelationKind};
use std::collections::HashMap;
use std::time::Instant;

/// What `/v4/search` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    #[default]
    Memories,
    /// Memories and chunks, one list.
    Hybrid,
    /// Chunks only.
    Documents,
}

/// A `/v4/search` request, validated.
#[derive(Debug, Clone, Default)]
pub struct MemorySearch {
    pub q: String,
    /// Spaces searched; all when empty.
    pub container_tags: Vec<String>,
    pub filter: Option<Filter>,
    pub threshold: f32,
    pub limit: usize,
    pub mode: SearchMode,
    pub include_forgotten: bool,
    /// Each memory's versions and relations (`context`).
    pub include_related: bool,
    /// Each memory's source documents.
    pub include_documents: bool,
    /// Re-score the top candidates (LLM, or the local re-scorer).
    pub rerank: bool,
    /// Add memories synthesised from several results.
    pub aggregate: bool,
    /// Also search a rewritten query (LLM, or the local expansion).
    pub rewrite_query: bool,
}

/// A memory's neighbours in the graph: what it updates or derives from
/// (parents), what updates or extends it (children), and what it extends.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Related {
    pub parents: Vec<(RelationKind, Memory)>,
    pub children: Vec<(RelationKind, Memory)>,
    pub related: Vec<(RelationKind, Memory)>,
}

/// A chunk a memory result carries: the passage it was formed from.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    pub document_id: String,
    pub content: String,
    pub position: i64,
    pub score: f32,
}

/// One result.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchHit {
    Memory {
        memory: Memory,
        score: f32,
        related: Option<Related>,
        documents: Vec<Document>,
        /// In a hybrid list, the passage it was formed from.
        passages: Vec<Passage>,
    },
    Chunk {
        document: Document,
        content: String,
        position: i64,
        score: f32,
    },
    /// A memory synthesised from several results (`aggregate`); not stored.
    Aggregate {
        content: String,
        score: f32,
        /// The memories it was made from.
        sources: Vec<String>,
    },
}

impl SearchHit {
    pub fn score(&self) -> f32 {
        match self {
            SearchHit::Memory { score, .. }
            | SearchHit::Chunk { score, .. }
            | SearchHit::Aggregate { score, .. } => *score,
        }
    }

    pub(super) fn set_score(&mut self, to: f32) {
        match self {
            SearchHit::Memory { score, .. }
            | SearchHit::Chunk { score, .. }
            | SearchHit::Aggregate { score, .. } => *score = to,
        }
    }

    /// The memory's or the chunk's text.
    pub fn text(&self) -> &str {
        match self {
            SearchHit::Memory { memory, .. } => &memory.content,
            SearchHit::Chunk { content, .. } | SearchHit::Aggregate { content, .. } => content,
        }
    }
}

/// A `/v4/search` answer.
#[derive(Debug, Clone, Default)]
pub struct V4Outcome {
    pub hits: Vec<SearchHit>,
    /// Results above the threshold (before `limit`).
    pub total: usize,
    pub elapsed_ms: f64,
}

/// The document search for the passages of `s`: its query, spaces,
/// filter and threshold, `limit` documents, matching chunks only.
fn passage_search(s: &MemorySearch, limit: usize) -> DocumentSearch {
    DocumentSearch {
        q: s.q.clone(),
        limit,
        container_tags: s.container_tags.clone(),
        doc_id: None,
        chunk_threshold: s.threshold,
        filter: s.filter.clone(),
        filepath: None,
        include_full_docs: false,
        include_summary: true,
        only_matching_chunks: true,
    }
}

fn backend(e: impl std::fmt::Display) -> EngineError {
    EngineError::Store(engram_store::StoreError::Backend(e.to_string()))
}

impl Engine {
    /// Run a `/v4/search`.
    pub async fn search_v4(
        &self,
        org_id: &str,
        s: &MemorySearch,
    ) -> Result<V4Outcome, EngineError> {
        let start = Instant::now();
        let mut queries = vec![(s.q.clone(), 1.0)];
        if s.rewrite_query {
            if let Some(r) = self.rewrite_query(&s.q).await.filter(|r| r.0 != s.q) {
                queries.push(r);
            }
        }
        // reranking looks at more candidates than it returns
        let mut wide = s.clone();
        if s.rerank || s.aggregate {
            wide.limit = s.limit.max(super::rerank::RERANK_TOP);
        }
        let mut merged: HashMap<String, SearchHit> = HashMap::new();
        let mut total = 0;
        for (q, weight) in &queries {
            wide.q = q.clone();
            let (found, n) = self.hits_for(org_id, &wide).await?;
            total = total.max(n);
            for mut h in found {
                h.set_score(h.score() * weight);
                let key = match &h {
                    SearchHit::Memory { memory, .. } => format!("m:{}", memory.id),
                    SearchHit::Chunk {
                        document, position, ..
                    } => format!("d:{}:{position}", document.id),
                    SearchHit::Aggregate { content, .. } => format!("a:{content}"),
                };
                match merged.get(&key) {
                    Some(old) if old.score() >= h.score() => {}
                    _ => {
                        merged.insert(key, h);
                    }
                }
            }
        }
        // an expansion's weighted results meet the threshold too
        let mut hits: Vec<SearchHit> = merged
            .into_values()
            .filter(|h| h.score() >= s.threshold)
            .collect();
        if s.aggregate {
            hits.sort_by(|a, b| b.score().total_cmp(&a.score()));
            let made = self.aggregate(&s.q, &hits).await;
            for (content, from) in made {
                let sources: Vec<String> = from
                    .iter()
                    .filter_map(|i| match &hits[*i] {
                        SearchHit::Memory { memory, .. } => Some(memory.id.clone()),
                        _ => None,
                    })
                    .collect();
                // it answers as well as its best source, on the same scale
                let best = from.iter().map(|i| hits[*i].score()).fold(0.0, f32::max);
                hits.push(SearchHit::Aggregate {
                    content,
                    score: best,
                    sources,
                });
            }
        }
        if s.rerank || s.aggregate {
            hits.sort_by(|a, b| b.score().total_cmp(&a.score()));
            hits.truncate(super::rerank::RERANK_TOP);
            self.rerank(org_id, &s.q, &mut hits).await;
        }
        hits.sort_by(|a, b| b.score().total_cmp(&a.score()));
        if s.mode == SearchMode::Hybrid {
            merge_passages(&mut hits, s.threshold);
        }
        hits.truncate(s.limit);
        if s.include_related || s.include_documents {
            self.annotate(org_id, s, &mut hits).await?;
        }
        Ok(V4Outcome {
            hits,
            total,
            elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// One query's hits in the request's mode, and how many matched.
    async fn hits_for(
        &self,
        org_id: &str,
        s: &MemorySearch,
    ) -> Result<(Vec<SearchHit>, usize), EngineError> {
        let mut hits: Vec<SearchHit> = Vec::new();
        let mut total = 0;
        // one embedding of the query serves both searches (with the name
        // it holds, embedded alongside, when memories are searched)
        let named = async {
            match s.mode {
                SearchMode::Documents => None,
                _ => self.query_subject(&s.q).await,
            }
        };
        let (qv, subject) = tokio::join!(self.embed_query(&s.q), named);
        let qv = qv?;
        let subject = subject.as_ref();
        if s.mode == SearchMode::Memories {
            // a wider pool, lifted by the passages they were formed from
            // (below the threshold too: a passage may lift one above it)
            let mut wide = s.clone();
            wide.limit = s.limit * 2;
            wide.threshold = 0.0;
            // (the two searches run side by side)
            let around = passage_search(s, CONTEXT_PASSAGES);
            let (memories, passages) = tokio::join!(
                self.memory_candidates(org_id, &wide, &qv, subject),
                self.matching_passages(org_id, &around, qv.clone())
            );
            let (mut memories, passages) = (memories?, passages?);
            lift_by_passages(&mut memories, &passages, CONTEXT_WEIGHT);
            return Ok(ranked_memories(&s.q, memories, s.threshold, s.limit));
        }
        if s.mode != SearchMode::Documents {
            let (memories, n) = self.memory_hits(org_id, s, &qv, subject).await?;
            total += n;
            hits.extend(memories);
        }
        if s.mode != SearchMode::Memories {
            let (chunks, n) = self.chunk_hits(org_id, s, &qv).await?;
            total += n;
            hits.extend(chunks);
        }
        Ok((hits, total))
    }

    /// The passages matching `s` (at most `s.limit` documents' worth) as
    /// hits, and how many documents matched.
    async fn chunk_hits(
        &self,
        org_id: &str,
        s: &MemorySearch,
        qv: &[f32],
    ) -> Result<(Vec<SearchHit>, usize), EngineError> {
        let d = passage_search(s, s.limit);
        let out = self
            .search_documents_with(org_id, &d, Some(qv.to_vec()))
            .await?;
        let mut hits = Vec::new();
        for r in out.results {
            // each matching passage is a result of its own (a long
            // document, a whole conversation, has several)
            for c in r.chunks.into_iter().filter(|c| c.is_relevant) {
                hits.push(SearchHit::Chunk {
                    document: r.document.clone(),
                    content: c.content,
                    position: c.position,
                    score: c.score,
                });
            }
        }
        Ok((hits, out.total))
    }

    /// Re-score hits: by the LLM when one is configured (blended half and
    /// half with the fused score), else locally (term coverage, then the
    /// lift from memories formed next to each other: [`super::rerank`]).
    async fn rerank(&self, org_id: &str, q: &str, hits: &mut [SearchHit]) {
        let texts: Vec<String> = hits.iter().map(|h| h.text().to_string()).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        if let Some(v) = self.llm_scores(q, &refs).await {
            for (h, llm) in hits.iter_mut().zip(v) {
                h.set_score(0.5 * h.score() + 0.5 * llm);
            }
            return;
        }
        let mut scores: Vec<f32> = hits
            .iter()
            .zip(&texts)
            .map(|(h, t)| super::rerank::local_score(h.score(), q, t))
            .collect();
        if let Some(slot) = self.memory_slot(org_id) {
            let ids: Vec<Option<&str>> = hits
                .iter()
                .map(|h| match h {
                    SearchHit::Memory { memory, .. } => Some(memory.id.as_str()),
                    _ => None,
                })
                .collect();
            let formation = slot.formation.read().unwrap_or_else(|e| e.into_inner());
            super::rerank::lift(&mut scores, |i, j| match (ids[i], ids[j]) {
                (Some(a), Some(b)) => formation.near(a, b, super::rerank::NEIGHBOUR_SPAN),
                _ => false,
            });
        }
        for (h, s) in hits.iter_mut().zip(scores) {
            h.set_score(s);
        }
    }

    /// Memories above the threshold, best first (at most `limit`), and
    /// how many there were.
    async fn memory_hits(
        &self,
        org_id: &str,
        s: &MemorySearch,
        qv: &[f32],
        subject: Option<&(String, Vec<f32>)>,
    ) -> Result<(Vec<SearchHit>, usize), EngineError> {
        let found = self.memory_candidates(org_id, s, qv, subject).await?;
        Ok(ranked_memories(&s.q, found, s.threshold, s.limit))
    }

    /// The memory index's best matches for `s` (a few times `limit`) at or
    /// above its threshold, with their scores, unordered. The facts naming
    /// the query's `subject` rank by what else they say.
    async fn memory_candidates(
        &self,
        org_id: &str,
        s: &MemorySearch,
        qv: &[f32],
        subject: Option<&(String, Vec<f32>)>,
    ) -> Result<Vec<(Memory, f32)>, EngineError> {
        let subject = subject.cloned();
        let slot = self.fresh_memory_index(org_id).await?;
        let qv = qv.to_vec();
        let scope = Scope {
            container_tags: s.container_tags.clone(),
            filter: s.filter.clone(),
            ..Scope::default()
        };
        let k = (s.limit * 3).max(30);
        let (text, forgotten) = (s.q.clone(), s.include_forgotten);
        let scored = tokio::task::spawn_blocking(move || {
            let q = Query {
                text: &text,
                embedding: &qv,
                scope: &scope,
                limit: k,
                nearest: None,
                subject: subject
                    .as_ref()
                    .map(|(name, v)| Subject { name, embedding: v }),
            };
            let mut hits = slot
                .live
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .search(&q);
            if forgotten {
                hits.extend(
                    slot.forgotten
                        .read()
                        .unwrap_or_else(|e| e.into_inner())
                        .search(&q),
                );
            }
            hits
        })
        .await
        .map_err(backend)?;
        let scores: HashMap<String, f32> = scored
            .into_iter()
            .filter(|h| h.score >= s.threshold && h.score > 0.0)
            .map(|h| (h.document_id, h.score))
            .collect();
        let ids: Vec<String> = scores.keys().cloned().collect();
        let at = now();
        let found: Vec<(Memory, f32)> = self
            .store
            .memories_by_ids(org_id, &ids)
            .await?
            .into_iter()
            .filter(|m| s.include_forgotten || !m.is_gone(at))
            .filter_map(|m| scores.get(&m.id).map(|sc| (*sc, m)))
            .map(|(sc, m)| (m, sc))
            .collect();
        Ok(found)
    }

    /// Fill in each memory hit's relations and source documents.
    async fn annotate(
        &self,
        org_id: &str,
        s: &MemorySearch,
        hits: &mut [SearchHit],
    ) -> Result<(), EngineError> {
        for hit in hits.iter_mut() {
            let SearchHit::Memory {
                memory,
                related,
                documents,
                ..
            } = hit
            else {
                continue;
            };
            if s.include_related {
                *related = Some(self.related(org_id, memory).await?);
            }
            if s.include_documents {
                *documents = self
                    .store
                    .documents_by_ids(org_id, &memory.document_ids)
                    .await?;
            }
        }
        Ok(())
    }

    /// A memory's neighbours in the graph.
    pub async fn related(&self, org_id: &str, m: &Memory) -> Result<Related, EngineError> {
        let mut out = Related::default();
        let ids: Vec<String> = m.relations.iter().map(|(id, _)| id.clone()).collect();
        let targets: HashMap<String, Memory> = self
            .store
            .memories_by_ids(org_id, &ids)
            .await?
            .into_iter()
            .map(|x| (x.id.clone(), x))
            .collect();
        for (id, kind) in &m.relations {
            if let Some(t) = targets.get(id) {
                match kind {
                    RelationKind::Extends => out.related.push((*kind, t.clone())),
                    _ => out.parents.push((*kind, t.clone())),
                }
            }
        }
        // newer versions, extensions and inferences point at this one
        for c in self.store.memories_relating_to(org_id, &m.id).await? {
            if let Some((_, kind)) = c.relations.iter().find(|(id, _)| id == &m.id) {
                out.children.push((*kind, c.clone()));
            }
        }
        Ok(out)
    }
}
