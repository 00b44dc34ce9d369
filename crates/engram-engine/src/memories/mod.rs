//! Memories: forming them from documents, remembering facts written
//! directly, versions and forgetting, the memory indexes, `/v4/search` and
//! profiles. Everything here speaks in store records and engine errors;
//! the server maps them to the wire.

mod aggregate;
#[cfg(test)]
mod fixtures;
pub(crate) mod form;
mod graph;
pub(crate) mod index;
mod judged;
mod passages;
mod prior;
mod profile;
mod ranked;
mod remember;
pub mod rerank;
mod search;
mod subject;

pub use form::{document_day, turns_of, DEFAULT_SPACE};
pub use graph::{entity_id, Edge, Graph, Node};
pub use index::MemorySlot;
pub use profile::{Profile, DEFAULT_BUCKETS};
pub use remember::{Fact, Remembered};
pub use search::{MemorySearch, SearchHit, SearchMode, V4Outcome};

use crate::{Engine, EngineError};
use engram_core::Metadata;
use engram_store::{now, ForgetOutcome, Memory, MemoryListQuery, MemoryUpdate, Timestamp};

/// A memory written directly (`POST /v4/memories`).
#[derive(Debug, Clone, Default)]
pub struct DirectMemory {
    pub content: String,
    pub is_static: bool,
    pub metadata: Metadata,
    pub forget_after: Option<Timestamp>,
    pub forget_reason: Option<String>,
    pub document_date: Option<String>,
    pub event_dates: Vec<String>,
}

/// Which memory a request means: by id, or by its exact content in the
/// space.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Id(String),
    Content(String),
}

/// A new version's changes (`PATCH /v4/memories`); absent fields inherit.
#[derive(Debug, Clone, Default)]
pub struct MemoryPatch {
    pub new_content: Option<String>,
    pub metadata: Option<Metadata>,
    pub forget_after: Option<Option<Timestamp>>,
    pub forget_reason: Option<Option<String>>,
    pub document_date: Option<Option<String>>,
    pub event_dates: Option<Vec<String>>,
}

/// What `forget-matching` found, and what it forgot.
#[derive(Debug, Clone, Default)]
pub struct ForgetMatching {
    pub candidates: Vec<(Memory, f32)>,
    pub forgotten: Vec<(Memory, f32)>,
}

fn not_found(what: impl Into<String>) -> EngineError {
    EngineError::NotFound { what: what.into() }
}

impl Engine {
    /// Remember memories written directly; each is searchable when this
    /// returns. A fact already remembered is merged, a new value of a
    /// remembered attribute becomes its next version.
    pub async fn create_memories(
        &self,
        org_id: &str,
        tag: &str,
        items: Vec<DirectMemory>,
    ) -> Result<Vec<Memory>, EngineError> {
        let vectors = self
            .embed_texts(items.iter().map(|m| m.content.clone()).collect())
            .await?;
        let mut out = Vec::with_capacity(items.len());
        for (m, embedding) in items.into_iter().zip(vectors) {
            let is_static = m.is_static || engram_memory::offline::is_static(&m.content);
            let entities = engram_memory::offline::entities_of(&m.content)
                .into_iter()
                .map(|e| engram_store::MemoryEntity {
                    name: e.name,
                    kind: e.kind.as_str().to_string(),
                })
                .collect();
            let fact = Fact {
                entities,
                content: m.content,
                embedding,
                is_static,
                metadata: m.metadata,
                forget_after: m.forget_after,
                forget_reason: m.forget_reason,
                document_date: m.document_date,
                event_dates: m.event_dates,
                ..Fact::default()
            };
            out.push(self.remember(org_id, tag, fact).await?.memory().clone());
        }
        Ok(out)
    }

    /// The latest version of the memory a request means, in space `tag`.
    pub async fn find_target(
        &self,
        org_id: &str,
        tag: &str,
        target: &Target,
    ) -> Result<Memory, EngineError> {
        let m = match target {
            Target::Id(id) => self
                .store
                .get_memory(org_id, id)
                .await?
                .filter(|m| m.container_tag == tag),
            Target::Content(c) => self.store.find_memory(org_id, tag, c).await?,
        };
        m.ok_or_else(|| not_found("memory"))
    }

    /// A new version of a memory.
    pub async fn patch_memory(
        &self,
        org_id: &str,
        tag: &str,
        target: &Target,
        patch: MemoryPatch,
    ) -> Result<Memory, EngineError> {
        let old = self.find_target(org_id, tag, target).await?;
        let (content, embedding) = match patch.new_content {
            Some(c) if c != old.content => {
                let v = self.embed_texts(vec![c.clone()]).await?.remove(0);
                (c, v)
            }
            _ => (old.content.clone(), old.embedding.clone()),
        };
        let update = MemoryUpdate {
            is_static: Some(old.is_static || engram_memory::offline::is_static(&content)),
            content,
            embedding,
            metadata: patch.metadata,
            forget_after: patch.forget_after,
            forget_reason: patch.forget_reason,
            document_date: patch.document_date,
            event_dates: patch.event_dates,
            ..MemoryUpdate::default()
        };
        self.store
            .update_memory(org_id, &old.id, update)
            .await?
            .ok_or_else(|| not_found("memory"))
    }

    /// Forget a memory (kept for history). `Conflict` when it already is.
    pub async fn forget(
        &self,
        org_id: &str,
        tag: &str,
        target: &Target,
        reason: Option<&str>,
    ) -> Result<Memory, EngineError> {
        let m = match target {
            Target::Id(_) => self.find_target(org_id, tag, target).await?,
            Target::Content(c) => {
                // an exact content match among the space's latest versions,
                // forgotten ones included (so forgetting twice says so)
                let q = MemoryListQuery {
                    container_tags: vec![tag.to_string()],
                    include_forgotten: true,
                    content: Some(c.clone()),
                    limit: 100,
                    ..Default::default()
                };
                let (mut same, _) = self.store.list_memories(org_id, &q).await?;
                same.sort_by_key(|m| m.is_forgotten);
                same.into_iter().next().ok_or_else(|| not_found("memory"))?
            }
        };
        match self.store.forget_memory(org_id, &m.id, reason).await? {
            ForgetOutcome::Forgotten(m) => Ok(*m),
            ForgetOutcome::AlreadyForgotten => Err(EngineError::Conflict(format!(
                "memory {} is already forgotten",
                m.id
            ))),
            ForgetOutcome::NotFound => Err(not_found("memory")),
        }
    }

    /// Forget the space's memories that match a query (scored as search
    /// scores them, at least `threshold`) or are listed by id; at most
    /// `max`. With `dry_run`, only say which.
    #[allow(clippy::too_many_arguments)]
    pub async fn forget_matching(
        &self,
        org_id: &str,
        tag: &str,
        query: Option<&str>,
        ids: &[String],
        threshold: f32,
        max: usize,
        dry_run: bool,
        reason: Option<&str>,
    ) -> Result<ForgetMatching, EngineError> {
        let mut candidates: Vec<(Memory, f32)> = Vec::new();
        if let Some(q) = query {
            let s = MemorySearch {
                q: q.to_string(),
                container_tags: vec![tag.to_string()],
                threshold,
                limit: max,
                ..MemorySearch::default()
            };
            for hit in self.search_v4(org_id, &s).await?.hits {
                if let SearchHit::Memory { memory, score, .. } = hit {
                    candidates.push((memory, score));
                }
            }
        }
        if !ids.is_empty() {
            let at = now();
            for m in self.store.memories_by_ids(org_id, ids).await? {
                if m.container_tag == tag
                    && !m.is_gone(at)
                    && !candidates.iter().any(|(c, _)| c.id == m.id)
                {
                    candidates.push((m, 1.0));
                }
            }
        }
        candidates.truncate(max);
        let mut out = ForgetMatching::default();
        if !dry_run {
            for (m, score) in &candidates {
                if let ForgetOutcome::Forgotten(f) =
                    self.store.forget_memory(org_id, &m.id, reason).await?
                {
                    out.forgotten.push((*f, *score));
                }
            }
        }
        out.candidates = candidates;
        Ok(out)
    }

    /// The older versions of a memory's chain, newest first.
    pub async fn history(&self, org_id: &str, m: &Memory) -> Result<Vec<Memory>, EngineError> {
        let mut out: Vec<Memory> = Vec::new();
        let mut next = m.parent_id.clone();
        while let Some(id) = next {
            let Some(p) = self.store.get_memory(org_id, &id).await? else {
                break;
            };
            if out.iter().any(|x| x.id == p.id) {
                break; // never loop on a damaged chain
            }
            next = p.parent_id.clone();
            out.push(p);
        }
        Ok(out)
    }

    /// Forget every memory past its `forget_after` (the periodic sweep).
    pub async fn sweep_expired(&self) -> Result<u64, EngineError> {
        Ok(self.store.expire_memories(now()).await?)
    }
}
