//! The search indexes this process holds in memory, one per organisation,
//! and how they stay equal to the store.
//!
//! The store is the truth; an index is a cache of it. Every search first
//! reads the store's change log past the index's last seen sequence number
//! (one indexed query when nothing changed) and reloads the documents it
//! names, so a write made through any replica on the same database is
//! visible to the next search on every replica. An organisation's index is
//! loaded on its first search (or by [`Engine::warm_indexes`] at start):
//! from its snapshot when one is configured and readable, then caught up
//! from the change log past the position the snapshot reflects (see
//! [`crate::snapshots`]). Searches that arrive while it loads wait for it.

use crate::{Engine, EngineError};
use engram_index::{IndexChunk, IndexDocument, OrgIndex};
use engram_store::IndexedDocument;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Changes read per round trip.
const PAGE: usize = 500;
/// The snapshot kind of document indexes.
const KIND: &str = "docs";

/// One organisation's index and how far it has read the change log.
pub struct OrgSlot {
    pub index: RwLock<OrgIndex>,
    /// Serialises refreshes; holds the last applied change sequence.
    seen: tokio::sync::Mutex<Seen>,
    /// The change-log position `index` reflects, and the changes applied
    /// since its last snapshot: both written under `index`'s write lock,
    /// so a reader of the index reads the pair that matches it.
    applied: AtomicI64,
    unsaved: AtomicUsize,
    /// A snapshot of this index is being written.
    saving: AtomicBool,
    /// The index was loaded from a snapshot (not built from the store).
    from_snapshot: AtomicBool,
}

/// What an organisation's loaded index holds and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexInfo {
    pub documents: usize,
    pub chunks: usize,
    /// The change-log position it reflects.
    pub seq: i64,
    /// Loaded from a snapshot, then caught up from the log.
    pub from_snapshot: bool,
}

struct Seen {
    seq: i64,
    /// Whether the snapshot (if any) was looked for.
    opened: bool,
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
                        seen: tokio::sync::Mutex::new(Seen {
                            seq: 0,
                            opened: false,
                        }),
                        applied: AtomicI64::new(0),
                        unsaved: AtomicUsize::new(0),
                        saving: AtomicBool::new(false),
                        from_snapshot: AtomicBool::new(false),
                    })
                })
                .clone()
        };
        let mut seen = slot.seen.lock().await;
        if !seen.opened {
            seen.opened = true;
            if let Some(seq) = self.open_snapshot(org_id, &slot).await {
                seen.seq = seq;
            }
        }
        loop {
            let changes = self.store.index_changes(org_id, seen.seq, PAGE).await?;
            let Some(last) = changes.last().map(|c| c.seq) else {
                break;
            };
            let ids: Vec<String> = changes.iter().map(|c| c.document_id.clone()).collect();
            let docs = self.store.index_documents(org_id, &ids).await?;
            let full = changes.len() == PAGE;
            let count = changes.len();
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
                slot2.applied.store(last, Ordering::Release);
                slot2.unsaved.fetch_add(count, Ordering::AcqRel);
            })
            .await
            .map_err(|e| {
                EngineError::Store(engram_store::StoreError::Backend(format!(
                    "index refresh failed: {e}"
                )))
            })?;
            seen.seq = last;
            if !full {
                break;
            }
        }
        drop(seen);
        self.snapshot_if_due(org_id, &slot, false);
        Ok(slot)
    }

    /// The organisation's index as loaded in this process (None when it
    /// was not loaded yet).
    pub fn index_info(&self, org_id: &str) -> Option<IndexInfo> {
        let slot = self
            .indexes
            .orgs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(org_id)
            .cloned()?;
        let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
        Some(IndexInfo {
            documents: index.documents(),
            chunks: index.chunks(),
            seq: slot.applied.load(Ordering::Acquire),
            from_snapshot: slot.from_snapshot.load(Ordering::Acquire),
        })
    }

    /// Load the organisation's snapshot into its (empty) slot; the
    /// change-log position it reflects, or None (no snapshots configured,
    /// none saved, or unreadable: then deleted, and the index is built
    /// from the store).
    async fn open_snapshot(&self, org_id: &str, slot: &Arc<OrgSlot>) -> Option<i64> {
        let config = self.config.snapshots.clone()?;
        let label = self.snapshot_label();
        let org = org_id.to_string();
        let slot = slot.clone();
        let started = std::time::Instant::now();
        let loaded = tokio::task::spawn_blocking(move || {
            match crate::snapshots::load(&config.dir, &org, KIND, &label) {
                Ok(Some((seq, index))) => {
                    let chunks = index.chunks();
                    *slot.index.write().unwrap_or_else(|e| e.into_inner()) = index;
                    slot.applied.store(seq, Ordering::Release);
                    slot.from_snapshot.store(true, Ordering::Release);
                    Some((seq, chunks))
                }
                Ok(None) => None,
                Err(e) => {
                    tracing::warn!(org = %org, error = %e, "index snapshot unreadable; rebuilding from the store");
                    crate::snapshots::remove(&config.dir, &org, KIND);
                    None
                }
            }
        })
        .await
        .ok()
        .flatten()?;
        tracing::info!(
            org = %org_id,
            chunks = loaded.1,
            seq = loaded.0,
            ms = started.elapsed().as_millis() as u64,
            "search index loaded from its snapshot"
        );
        Some(loaded.0)
    }

    /// What a snapshot must have been made with to be read back.
    fn snapshot_label(&self) -> String {
        format!(
            "dim={} graph={}",
            self.embedder.dimension(),
            self.config.vector_index != crate::VectorIndex::Store
        )
    }

    /// Save the slot's index in the background when enough changed since
    /// its last snapshot (`force`: when anything did).
    fn snapshot_if_due(&self, org_id: &str, slot: &Arc<OrgSlot>, force: bool) {
        if let Some(task) = self.snapshot_task(org_id, slot, force) {
            tokio::task::spawn_blocking(task);
        }
    }

    /// The work of saving the slot's index, if it is due and no save of it
    /// is under way.
    fn snapshot_task(
        &self,
        org_id: &str,
        slot: &Arc<OrgSlot>,
        force: bool,
    ) -> Option<impl FnOnce() + Send + 'static> {
        let config = self.config.snapshots.clone()?;
        let chunks = slot
            .index
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .chunks();
        let unsaved = slot.unsaved.load(Ordering::Acquire);
        let due = if force {
            chunks >= config.min_chunks && unsaved > 0
        } else {
            config.due(chunks, unsaved)
        };
        if !due || slot.saving.swap(true, Ordering::AcqRel) {
            return None;
        }
        let label = self.snapshot_label();
        let (org, slot) = (org_id.to_string(), slot.clone());
        Some(move || {
            let started = std::time::Instant::now();
            let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
            let (seq, unsaved) = (
                slot.applied.load(Ordering::Acquire),
                slot.unsaved.load(Ordering::Acquire),
            );
            match crate::snapshots::save(&config.dir, &org, KIND, &label, seq, &index) {
                Ok(()) => {
                    slot.unsaved.fetch_sub(unsaved, Ordering::AcqRel);
                    tracing::info!(
                        org = %org,
                        chunks = index.chunks(),
                        seq,
                        ms = started.elapsed().as_millis() as u64,
                        "search index snapshot saved"
                    );
                }
                Err(e) => {
                    tracing::warn!(org = %org, error = %e, "saving the index snapshot failed")
                }
            }
            drop(index);
            slot.saving.store(false, Ordering::Release);
        })
    }

    /// Save every loaded index that changed since its snapshot (at
    /// shutdown), and wait for it.
    pub async fn save_indexes(&self) {
        let slots: Vec<(String, Arc<OrgSlot>)> = {
            let orgs = self.indexes.orgs.lock().unwrap_or_else(|e| e.into_inner());
            orgs.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
        };
        for (org, slot) in slots {
            // a refresh under way finishes first, and a save under way
            let _seen = slot.seen.lock().await;
            while slot.saving.load(Ordering::Acquire) {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            if let Some(task) = self.snapshot_task(&org, &slot, true) {
                let _ = tokio::task::spawn_blocking(task).await;
            }
        }
    }

    /// Load every organisation's index (at start, so that first searches
    /// are fast).
    pub async fn warm_indexes(&self) -> Result<(), EngineError> {
        let orgs = self.store.list_orgs().await?;
        if let Some(config) = &self.config.snapshots {
            // snapshots of organisations this store does not hold (another
            // database used with the same data directory)
            let known: std::collections::HashSet<&str> =
                orgs.iter().map(|o| o.id.as_str()).collect();
            for entry in std::fs::read_dir(&config.dir)
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = entry.file_name().to_string_lossy().into_owned();
                let org = name.split('.').next().unwrap_or_default();
                if !known.contains(org) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        for org in orgs {
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
