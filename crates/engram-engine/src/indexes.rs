//! The search indexes this process holds in memory, one per organisation,
//! and how they stay equal to the store.
//!
//! The store is the truth; an index is a cache of it. Every search first
//! reads the store's change log past the index's last seen sequence number
//! (one indexed query when nothing changed) and reloads the documents it
//! names, so a write made through any replica on the same database is
//! visible to the next search on every replica. An organisation's index is
//! loaded on its first search (or by [`Engine::warm_indexes`] at start).

use crate::{Engine, EngineError};
use engram_index::{IndexChunk, IndexDocument, OrgIndex};
use engram_store::IndexedDocument;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

/// Changes read per round trip.
const PAGE: usize = 500;

/// One organisation's index and how far it has read the change log.
pub struct OrgSlot {
    pub index: RwLock<OrgIndex>,
    /// Serialises refreshes; holds the last applied change sequence.
    seen: tokio::sync::Mutex<i64>,
}

/// All loaded organisation indexes.
#[derive(Default)]
pub struct Indexes {
    orgs: Mutex<HashMap<String, Arc<OrgSlot>>>,
}

fn to_index(d: IndexedDocument) -> IndexDocument {
    IndexDocument {
        context: String::new(),
        id: d.id,
        seq: d.seq,
        container_tags: d.container_tags,
        metadata: d.metadata,
        filepath: d.filepath,
        chunks: d
            .chunks
            .into_iter()
            .map(|c| IndexChunk {
                id: c.id,
                position: c.position,
                text: c.content,
                embedding: c.embedding,
            })
            .collect(),
    }
}

impl Engine {
    /// The organisation's index, brought up to date with the store.
    pub async fn fresh_index(&self, org_id: &str) -> Result<Arc<OrgSlot>, EngineError> {
        let slot = {
            let mut orgs = self.indexes.orgs.lock().unwrap_or_else(|e| e.into_inner());
            orgs.entry(org_id.to_string())
                .or_insert_with(|| {
                    // a store with its own vector index spares every
                    // replica building (and holding) a graph
                    let dim = self.embedder.dimension();
                    let index = if self.config.vector_index == crate::VectorIndex::Store {
                        OrgIndex::without_graph(dim)
                    } else {
                        OrgIndex::new(dim)
                    };
                    Arc::new(OrgSlot {
                        index: RwLock::new(index),
                        seen: tokio::sync::Mutex::new(0),
                    })
                })
                .clone()
        };
        let mut seen = slot.seen.lock().await;
        loop {
            let changes = self.store.index_changes(org_id, *seen, PAGE).await?;
            let Some(last) = changes.last().map(|c| c.seq) else {
                break;
            };
            let ids: Vec<String> = changes.iter().map(|c| c.document_id.clone()).collect();
            let docs = self.store.index_documents(org_id, &ids).await?;
            let full = changes.len() == PAGE;
            let slot2 = slot.clone();
            // tokenising and graph inserts are CPU work: off the runtime
            tokio::task::spawn_blocking(move || {
                let mut index = slot2.index.write().unwrap_or_else(|e| e.into_inner());
                let present: std::collections::HashSet<String> =
                    docs.iter().map(|d| d.id.clone()).collect();
                for id in ids.iter().filter(|id| !present.contains(*id)) {
                    index.remove(id);
                }
                let (empty, docs): (Vec<_>, Vec<_>) =
                    docs.into_iter().partition(|d| d.chunks.is_empty());
                for d in empty {
                    index.remove(&d.id);
                }
                index.upsert_many(docs.into_iter().map(to_index));
            })
            .await
            .map_err(|e| {
                EngineError::Store(engram_store::StoreError::Backend(format!(
                    "index refresh failed: {e}"
                )))
            })?;
            *seen = last;
            if !full {
                break;
            }
        }
        drop(seen);
        Ok(slot)
    }

    /// Load every organisation's index (at start, so that first searches
    /// are fast).
    pub async fn warm_indexes(&self) -> Result<(), EngineError> {
        for org in self.store.list_orgs().await? {
            let slot = self.fresh_index(&org.id).await?;
            let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
            tracing::info!(
                org = %org.name,
                documents = index.documents(),
                chunks = index.chunks(),
                memory_mb = index.memory_bytes() / (1 << 20),
                hnsw = index.has_ann(),
                "search index loaded"
            );
        }
        Ok(())
    }
}
