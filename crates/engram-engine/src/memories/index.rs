//! The memory indexes this process holds, one pair per organisation: the
//! live memories (latest versions, not forgotten) and the forgotten ones
//! (searched only when a request asks for them). Like the document index
//! they are caches of the store, brought up to date from its memory change
//! log before every use, so any replica's write is seen by the next read.
//! Each memory is one standalone record: its own text is its context.

use crate::{Engine, EngineError};
use engram_index::{IndexChunk, IndexDocument, OrgIndex};
use engram_store::Memory;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

/// Changes read per round trip.
const PAGE: usize = 500;

/// One organisation's memory indexes and how far they have read the log.
pub struct MemorySlot {
    /// Latest, unforgotten memories (expired ones stay until the sweep
    /// forgets them; readers drop them by `forget_after`).
    pub live: RwLock<OrgIndex>,
    /// Latest versions that were forgotten.
    pub forgotten: RwLock<OrgIndex>,
    seen: tokio::sync::Mutex<i64>,
}

impl MemorySlot {
    /// The last memory change applied.
    pub async fn seen(&self) -> i64 {
        *self.seen.lock().await
    }
}

/// All loaded memory indexes.
#[derive(Default)]
pub struct MemoryIndexes {
    orgs: Mutex<HashMap<String, Arc<MemorySlot>>>,
}

/// A memory as an index record: one chunk, its space as its tag.
pub(crate) fn record(m: &Memory) -> IndexDocument {
    IndexDocument {
        id: m.id.clone(),
        seq: m.created_at.timestamp_millis(),
        container_tags: vec![m.container_tag.clone()],
        metadata: m.metadata.clone(),
        filepath: None,
        chunks: vec![IndexChunk {
            id: m.id.clone(),
            position: 0,
            text: m.content.clone(),
            embedding: m.embedding.clone(),
        }],
    }
}

impl Engine {
    /// The organisation's memory indexes, brought up to date with the store.
    pub async fn fresh_memory_index(&self, org_id: &str) -> Result<Arc<MemorySlot>, EngineError> {
        let slot = {
            let mut orgs = self
                .memory_indexes
                .orgs
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            orgs.entry(org_id.to_string())
                .or_insert_with(|| {
                    let dim = self.embedder.dimension();
                    Arc::new(MemorySlot {
                        live: RwLock::new(OrgIndex::standalone(dim)),
                        forgotten: RwLock::new(OrgIndex::standalone(dim)),
                        seen: tokio::sync::Mutex::new(0),
                    })
                })
                .clone()
        };
        let mut seen = slot.seen.lock().await;
        loop {
            let changes = self.store.memory_changes(org_id, *seen, PAGE).await?;
            let Some(last) = changes.last().map(|c| c.seq) else {
                break;
            };
            let ids: Vec<String> = changes.iter().map(|c| c.document_id.clone()).collect();
            let memories = self.store.memories_by_ids(org_id, &ids).await?;
            let full = changes.len() == PAGE;
            let slot2 = slot.clone();
            tokio::task::spawn_blocking(move || {
                let mut live = slot2.live.write().unwrap_or_else(|e| e.into_inner());
                let mut forgotten = slot2.forgotten.write().unwrap_or_else(|e| e.into_inner());
                for id in &ids {
                    live.remove(id);
                    forgotten.remove(id);
                }
                let (keep, gone): (Vec<&Memory>, Vec<&Memory>) = memories
                    .iter()
                    .filter(|m| m.is_latest)
                    .partition(|m| !m.is_forgotten);
                live.upsert_many(keep.into_iter().map(record));
                forgotten.upsert_many(gone.into_iter().map(record));
            })
            .await
            .map_err(|e| {
                EngineError::Store(engram_store::StoreError::Backend(format!(
                    "memory index refresh failed: {e}"
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
}
