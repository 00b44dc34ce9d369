//! Remembering one fact in a space: the same fact again is merged into
//! the memory that holds it (one more source), a new value of a remembered
//! attribute becomes the next version of that memory (`updates`), added
//! detail is a new memory that `extends` the old one, and anything else is
//! a new memory. Updates follow when things were said, not the order
//! documents are processed in: a fact stated on an earlier day than the
//! memory that would replace it is already out of date and is not
//! remembered (its document keeps it; `hybrid` search finds it there),
//! unless it tells of something ending: that is history, remembered
//! without ending the newer memory.
//! A name corrected ("her name is Priyanka, not Priya") renames the
//! memories that used the wrong one, each a new version.
//! The nearest memories of the space (fused keyword and vector ranking in
//! the memory index) are the ones compared.

use crate::{Engine, EngineError};
use engram_core::Metadata;
use engram_index::{Query, Scope};
use engram_memory::relate::{relate, Relation};
use engram_store::{
    now, Memory, MemoryEntity, MemorySource, MemoryUpdate, NewMemory, RelationKind, StoreError,
    Timestamp,
};

/// Memories of the space compared with a new fact.
const NEIGHBOURS: usize = 8;

/// Most short texts kept embedded ([`Engine::cached_vectors`]).
const CACHED_SHORT_TEXTS: usize = 4096;

/// A fact to remember, embedded.
#[derive(Debug, Clone, Default)]
pub struct Fact {
    pub content: String,
    pub embedding: Vec<f32>,
    pub is_static: bool,
    pub is_inference: bool,
    pub metadata: Metadata,
    pub forget_after: Option<Timestamp>,
    pub forget_reason: Option<String>,
    /// The document that stated it (none for a memory written directly).
    pub document_id: Option<String>,
    pub document_date: Option<String>,
    pub event_dates: Vec<String>,
    pub entities: Vec<MemoryEntity>,
    /// What it was formed from (none when written directly).
    pub source: Option<MemorySource>,
}

/// The day of an ISO date or date-time.
fn day(d: &str) -> &str {
    d.get(..10).unwrap_or(d)
}

/// Whether `fact` was stated on an earlier day than `old` (both dated).
fn said_before(fact: &Fact, old: &Memory) -> bool {
    match (&fact.document_date, &old.document_date) {
        // ISO days compare as text
        (Some(new), Some(old)) => day(new) < day(old),
        _ => false,
    }
}

/// What remembering a fact did.
#[derive(Debug, Clone, PartialEq)]
pub enum Remembered {
    New(Memory),
    /// The fact was already remembered: this memory gained a source.
    Merged(Memory),
    /// A new version of a remembered attribute.
    Updated(Memory),
    /// A new memory extending an older one.
    Extended(Memory),
    /// The fact was stated before this memory, which replaces it: it is
    /// not remembered (its document still holds it).
    Outdated(Memory),
}

impl Remembered {
    pub fn memory(&self) -> &Memory {
        match self {
            Remembered::New(m)
            | Remembered::Merged(m)
            | Remembered::Updated(m)
            | Remembered::Extended(m)
            | Remembered::Outdated(m) => m,
        }
    }
}

fn backend(e: impl std::fmt::Display) -> EngineError {
    EngineError::Store(StoreError::Backend(e.to_string()))
}

impl Engine {
    /// The live memories of `tag` nearest to `fact`, with their cosine.
    async fn neighbours(
        &self,
        org_id: &str,
        tag: &str,
        fact: &Fact,
    ) -> Result<Vec<(Memory, f32)>, EngineError> {
        let slot = self.fresh_memory_index(org_id).await?;
        let (text, emb, tag2) = (
            fact.content.clone(),
            fact.embedding.clone(),
            tag.to_string(),
        );
        let hits = tokio::task::spawn_blocking(move || {
            let index = slot.live.read().unwrap_or_else(|e| e.into_inner());
            index.search(&Query {
                text: &text,
                embedding: &emb,
                scope: &Scope {
                    container_tags: vec![tag2],
                    ..Scope::default()
                },
                limit: NEIGHBOURS,
                nearest: None,
                subject: None,
            })
        })
        .await
        .map_err(backend)?;
        let ids: Vec<String> = hits.iter().map(|h| h.document_id.clone()).collect();
        let at = now();
        let mut found = self.store.memories_by_ids(org_id, &ids).await?;
        found.retain(|m| m.is_latest && !m.is_gone(at) && m.container_tag == tag);
        let mut out: Vec<(Memory, f32)> = found
            .into_iter()
            .map(|m| {
                let cos = engram_embed::dot(&m.embedding, &fact.embedding);
                (m, cos)
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(out)
    }

    /// Remember `fact` in space `tag` (see the module docs).
    pub async fn remember(
        &self,
        org_id: &str,
        tag: &str,
        fact: Fact,
    ) -> Result<Remembered, EngineError> {
        let near = self.neighbours(org_id, tag, &fact).await?;
        // "my sister's name is Priyanka, not Priya": the memories that say
        // Priya say Priyanka now (the correction itself is then said)
        if let Some((wrong, right)) = engram_memory::relate::renamed(&fact.content) {
            if let Some(m) = self
                .rename_memories(org_id, &fact, &wrong, &right, &near)
                .await?
            {
                return Ok(Remembered::Updated(m));
            }
        }
        let mut best: Option<(Relation, &Memory)> = None;
        for (m, cos) in &near {
            let r = relate(&fact.content, &m.content, *cos);
            // (a plan told done ranks below an attribute's new value:
            // "Lia just turned 30" is the next version of "Lia is 29
            // years old", and ends "Lia is turning 30 in March")
            let rank = |r: Relation, m: &Memory| match r {
                Relation::Same => 4,
                Relation::Updates
                    if engram_memory::relate::tells_done(&fact.content, &m.content) =>
                {
                    2
                }
                Relation::Updates => 3,
                Relation::Extends => 1,
                Relation::Unrelated => 0,
            };
            if rank(r, m) > best.map_or(0, |(b, o)| rank(b, o)) {
                best = Some((r, m));
            }
        }
        match best {
            Some((Relation::Same, old)) => {
                if let Some(m) = self
                    .store
                    .add_memory_source(org_id, &old.id, fact.document_id.as_deref())
                    .await?
                {
                    return Ok(Remembered::Merged(m));
                }
            }
            // a statement older than the one it would replace (documents
            // are processed in any order: a backfill, two workers) is
            // already out of date: the newer memory stays current. An
            // older event that ended something ("lost their job as a
            // banker" before "got a temp job") is still history: it is
            // remembered beside the newer memory, which it does not end
            Some((Relation::Updates, old))
                if said_before(&fact, old)
                    && !engram_memory::relate::ends_something(&fact.content) =>
            {
                tracing::debug!(fact = %fact.content, current = %old.content, "said before what replaces it");
                return Ok(Remembered::Outdated(old.clone()));
            }
            // (an older ending: remembered below as a memory of its own)
            Some((Relation::Updates, old)) if said_before(&fact, old) => {}
            Some((Relation::Updates, old)) => {
                let mut fact = fact.clone();
                // "Max passed away" after "Tariq adopted a dog named Max"
                // says whose dog
                if let Some(d) =
                    engram_memory::relate::described_subject(&fact.content, &old.content)
                {
                    if let Some(v) = self.embed_texts(vec![d.clone()]).await?.pop() {
                        fact.content = d;
                        fact.embedding = v;
                    }
                }
                // the new version is found by the words of what it replaced
                // too ("where does Maya live?" finds "Maya moved to Oslo")
                // (and by those of every version before it: "where does
                // Leo live?" finds the flat that replaced "moved out of
                // halls", which replaced "lives in student halls")
                let earlier: Vec<&str> = old
                    .source
                    .iter()
                    .flat_map(|s| s.text.lines())
                    .filter(|l| l.starts_with("Before: "))
                    .collect();
                let source = fact.source.clone().map(|mut s| {
                    s.text.push_str(&format!("\nBefore: {}", old.content));
                    for line in &earlier {
                        s.text.push('\n');
                        s.text.push_str(line);
                    }
                    s
                });
                let update = MemoryUpdate {
                    content: fact.content.clone(),
                    embedding: fact.embedding.clone(),
                    metadata: (!fact.metadata.is_empty()).then(|| fact.metadata.clone()),
                    forget_after: fact.forget_after.map(Some),
                    forget_reason: fact.forget_reason.clone().map(Some),
                    is_static: Some(fact.is_static || old.is_static),
                    document_ids: Some(fact.document_id.iter().cloned().collect()),
                    document_date: Some(fact.document_date.clone()),
                    event_dates: Some(fact.event_dates.clone()),
                    entities: Some(fact.entities.clone()),
                    source: Some(source),
                };
                match self.store.update_memory(org_id, &old.id, update).await {
                    Ok(Some(m)) => {
                        self.remember_residual(org_id, tag, &fact, old).await?;
                        self.end_others(org_id, &fact, &old.id, &near).await?;
                        return Ok(Remembered::Updated(m));
                    }
                    // changed meanwhile: remember it as a new fact
                    Ok(None) | Err(StoreError::Conflict(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            _ => {}
        }
        let extends = match best {
            Some((Relation::Extends, old)) => Some(old.id.clone()),
            _ => None,
        };
        let new = NewMemory {
            org_id: org_id.to_string(),
            container_tag: tag.to_string(),
            content: fact.content,
            embedding: fact.embedding,
            is_static: fact.is_static,
            is_inference: fact.is_inference,
            forget_after: fact.forget_after,
            forget_reason: fact.forget_reason,
            document_ids: fact.document_id.into_iter().collect(),
            metadata: fact.metadata,
            document_date: fact.document_date,
            event_dates: fact.event_dates,
            entities: fact.entities,
            source: fact.source,
        };
        let m = self
            .store
            .insert_memories(vec![new])
            .await?
            .pop()
            .ok_or_else(|| EngineError::NotFound {
                what: "the memory's source documents (deleted while it formed)".into(),
            })?;
        if let Some(old) = extends {
            self.store
                .relate_memories(org_id, &m.id, &old, RelationKind::Extends)
                .await?;
            let m = self.store.get_memory(org_id, &m.id).await?.unwrap_or(m);
            return Ok(Remembered::Extended(m));
        }
        Ok(Remembered::New(m))
    }

    /// The memories of `near` that use the name `wrong`, each made a new
    /// version that says `right` instead (with `fact`, the correction, as
    /// its source); the first of them, if any.
    async fn rename_memories(
        &self,
        org_id: &str,
        fact: &Fact,
        wrong: &str,
        right: &str,
        near: &[(Memory, f32)],
    ) -> Result<Option<Memory>, EngineError> {
        use engram_memory::relate::rename;
        let renamed: Vec<(&Memory, String)> = near
            .iter()
            .filter_map(|(m, _)| rename(&m.content, wrong, right).map(|c| (m, c)))
            .collect();
        // (embedded in one batch)
        let vectors = match renamed.is_empty() {
            true => Vec::new(),
            false => {
                self.embed_texts(renamed.iter().map(|(_, c)| c.clone()).collect())
                    .await?
            }
        };
        let mut first = None;
        for ((m, content), embedding) in renamed.into_iter().zip(vectors) {
            let entities = m
                .entities
                .iter()
                .map(|e| MemoryEntity {
                    name: rename(&e.name, wrong, right).unwrap_or_else(|| e.name.clone()),
                    kind: e.kind.clone(),
                })
                .collect();
            let source = fact.source.clone().map(|mut s| {
                s.text.push_str(&format!("\nBefore: {}", m.content));
                s
            });
            let update = MemoryUpdate {
                content,
                embedding,
                metadata: None,
                forget_after: None,
                forget_reason: None,
                is_static: None,
                document_ids: None,
                document_date: None,
                event_dates: None,
                entities: Some(entities),
                source: source.map(Some),
            };
            match self.store.update_memory(org_id, &m.id, update).await {
                Ok(Some(renamed)) => {
                    tracing::debug!(from = %m.content, to = %renamed.content, "renamed");
                    first.get_or_insert(renamed);
                }
                Ok(None) | Err(StoreError::Conflict(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(first)
    }

    /// An ending (`fact`, now the next version of memory `updated`) ends
    /// the other current memories of `near` it updates too: "Lena and Omar
    /// called off the engagement" replaces "got engaged" and ends "Omar's
    /// wedding is on June 14th". Those are forgotten, with the ending as
    /// the reason (kept for history, out of the profile and search). Only
    /// for endings and plans told done: a new value of an attribute has
    /// one memory to replace.
    async fn end_others(
        &self,
        org_id: &str,
        fact: &Fact,
        updated: &str,
        near: &[(Memory, f32)],
    ) -> Result<(), EngineError> {
        let for_good = engram_memory::relate::ends_for_good(&fact.content);
        for (m, cos) in near {
            // (or a plan it tells done: "just turned 30" ends "is turning
            // 30 in March" beside the age it updates)
            let ended = m.id != updated
                && !said_before(fact, m)
                && (for_good || engram_memory::relate::tells_done(&fact.content, &m.content))
                && relate(&fact.content, &m.content, *cos) == Relation::Updates;
            if ended {
                let reason = format!("Ended: {}", fact.content);
                tracing::debug!(ended = %m.content, by = %fact.content, "ended too");
                self.store
                    .forget_memory(org_id, &m.id, Some(&reason))
                    .await?;
                // ("lives with their cat Miso" stays of a list the
                // ending took one from)
                self.remember_residual(org_id, &m.container_tag, fact, m)
                    .await?;
            }
        }
        Ok(())
    }

    /// What of `old` stays true beside its next version, `fact`, said
    /// with what changed ("Omar works as a senior accountant at
    /// Deloitte." when a promotion replaced "Omar works as a junior
    /// accountant at Deloitte."): remembered as an inference from the old
    /// version (`derives`), from the old version's documents.
    async fn remember_residual(
        &self,
        org_id: &str,
        tag: &str,
        fact: &Fact,
        old: &Memory,
    ) -> Result<(), EngineError> {
        let Some(content) = engram_memory::relate::residual(&fact.content, &old.content) else {
            return Ok(());
        };
        let Some(embedding) = self.embed_texts(vec![content.clone()]).await?.pop() else {
            return Ok(());
        };
        let new = NewMemory {
            org_id: org_id.to_string(),
            container_tag: tag.to_string(),
            content,
            embedding,
            is_static: old.is_static,
            is_inference: true,
            forget_after: None,
            forget_reason: None,
            document_ids: old.document_ids.clone(),
            metadata: Default::default(),
            document_date: old.document_date.clone(),
            event_dates: Vec::new(),
            entities: Vec::new(),
            source: None,
        };
        if let Some(m) = self.store.insert_memories(vec![new]).await?.pop() {
            self.store
                .relate_memories(org_id, &m.id, &old.id, RelationKind::Derives)
                .await?;
        }
        Ok(())
    }

    /// Embeddings of short texts that come back (bucket descriptions,
    /// names), from a cache of at most [`CACHED_SHORT_TEXTS`]; the rest are
    /// embedded in one call. In the order of `texts`.
    pub(crate) async fn cached_vectors(
        &self,
        texts: &[String],
    ) -> Result<Vec<Vec<f32>>, EngineError> {
        let missing: Vec<String> = {
            let cache = self.short_vectors.lock().unwrap_or_else(|e| e.into_inner());
            let mut m: Vec<String> = texts
                .iter()
                .filter(|t| !cache.contains_key(*t))
                .cloned()
                .collect();
            m.dedup();
            m
        };
        let vectors = self.embed_texts(missing.clone()).await?;
        let mut cache = self.short_vectors.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() + missing.len() > CACHED_SHORT_TEXTS {
            cache.clear();
        }
        let mut fresh: std::collections::HashMap<String, Vec<f32>> =
            missing.into_iter().zip(vectors).collect();
        let out = texts
            .iter()
            .map(|t| {
                cache
                    .get(t)
                    .or_else(|| fresh.get(t))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        cache.extend(fresh.drain());
        Ok(out)
    }

    /// Embed one search query (with the model's query prompt, if any).
    pub(crate) async fn embed_query(&self, q: &str) -> Result<Vec<f32>, EngineError> {
        Ok(self
            .embedder
            .embed_queries(vec![q.to_string()])
            .await
            .map_err(crate::embedding_failed)?
            .pop()
            .unwrap_or_default())
    }

    /// Embed texts on the model (batched by the embedder).
    pub(crate) async fn embed_texts(
        &self,
        texts: Vec<String>,
    ) -> Result<Vec<Vec<f32>>, EngineError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        self.embedder
            .embed(texts)
            .await
            .map_err(crate::embedding_failed)
    }
}
