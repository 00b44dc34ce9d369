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
    /// Where each memory was formed among its documents' memories.
    pub formation: RwLock<Formation>,
    seen: tokio::sync::Mutex<i64>,
}

/// The order memories were formed in, per source document (creation
/// order, which follows the order of the turns they came from): what
/// the local re-scorer reads as a memory's context, the way a chunk's
/// context is its neighbouring chunks. Every version of every memory
/// keeps its place; deleted memories leave.
#[derive(Debug, Default)]
pub struct Formation {
    /// Per document: its memories by (creation time, id).
    by_doc: HashMap<String, Vec<(i64, String)>>,
    /// Per memory: its documents and its place in each.
    at: HashMap<String, Vec<(String, usize)>>,
}

impl Formation {
    /// Record `m` (once; later calls for the same id change nothing).
    pub fn add(&mut self, m: &Memory) {
        if self.at.contains_key(&m.id) {
            return;
        }
        self.at.insert(m.id.clone(), Vec::new());
        let key = (m.created_at.timestamp_millis(), m.id.clone());
        for doc in &m.document_ids {
            let list = self.by_doc.entry(doc.clone()).or_default();
            let i = list.partition_point(|e| *e < key);
            list.insert(i, key.clone());
            self.renumber(doc, i);
        }
    }

    /// Forget memory `id` (it was deleted).
    pub fn remove(&mut self, id: &str) {
        let Some(places) = self.at.remove(id) else {
            return;
        };
        for (doc, i) in places {
            if let Some(list) = self.by_doc.get_mut(&doc) {
                if list.get(i).is_some_and(|e| e.1 == id) {
                    list.remove(i);
                    self.renumber(&doc, i);
                }
            }
        }
    }

    /// Refresh the places of `doc`'s memories from index `from` on.
    fn renumber(&mut self, doc: &str, from: usize) {
        let Some(list) = self.by_doc.get(doc) else {
            return;
        };
        for (i, (_, id)) in list.iter().enumerate().skip(from) {
            if let Some(places) = self.at.get_mut(id) {
                match places.iter_mut().find(|(d, _)| d == doc) {
                    Some(p) => p.1 = i,
                    None => places.push((doc.to_string(), i)),
                }
            }
        }
    }

    /// Whether `a` and `b` were formed within `span` places of each other
    /// from a document they share.
    pub fn near(&self, a: &str, b: &str, span: usize) -> bool {
        let (Some(pa), Some(pb)) = (self.at.get(a), self.at.get(b)) else {
            return false;
        };
        pa.iter()
            .any(|(d, i)| pb.iter().any(|(e, j)| d == e && i.abs_diff(*j) <= span))
    }
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

/// How an attribute a fact states is asked about, as keyword context:
/// "Noor is a data engineer at Keel Analytics." answers "where does Noor
/// work?" though it says no "work".
fn asked_as(slot: &str) -> Option<&'static str> {
    Some(match slot {
        "employer" => "works at, job, workplace",
        "occupation" => "works as, job, occupation",
        "home" => "lives in, home",
        "relationship" => "partner, relationship",
        "age" => "age, how old",
        "diet" => "diet, eats",
        _ => return None,
    })
}

/// Kinds of fact and how they are asked about, as keyword context, beside
/// the attributes of [`asked_as`]: what the fact is, the words, and
/// whether it counts only while it holds (work that is over is not what
/// "what is Priya working on?" asks for).
type StatesFn = fn(&str) -> bool;
const ASKED_BY: &[(StatesFn, &str, bool)] = &[
    // "what medication does Grace take?"
    (
        engram_memory::relate::states_dose,
        "medication, takes",
        false,
    ),
    // "does Mateo have a pet?" of "Mateo is adopting a cat"
    (
        engram_memory::offline::names_a_pet,
        "pet, pets, animal",
        false,
    ),
    // "what can't Marco eat?" of "Marco is lactose intolerant"
    (
        engram_memory::relate::states_intolerance,
        "can't eat, allergy, avoid",
        false,
    ),
    // "what is Priya working on?" of "Priya is moving on to the fraud
    // detection project"
    (
        engram_memory::relate::states_work_on,
        "working on, project",
        true,
    ),
    // "who is Nadia's manager?" of "Nadia reports to Gareth"
    (
        engram_memory::relate::names_manager,
        "manager, boss, reports to",
        false,
    ),
];

/// A memory as an index record: one chunk, its space as its tag, and the
/// words it was formed from (its source turns and day) as its keyword
/// context, the way a chunk reads its neighbours, with how the attributes
/// it states are asked about.
pub(crate) fn record(m: &Memory) -> IndexDocument {
    let mut context = m
        .source
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    // (an attribute the fact ends, "lost their job as a banker", is not
    // what it answers)
    let over = engram_memory::relate::attributes_over(&m.content);
    let slots = match over {
        true => Vec::new(),
        false => engram_memory::relate::slots(&m.content),
    };
    let mut asked: Vec<&str> = slots
        .iter()
        .filter_map(|(slot, _, _)| asked_as(slot))
        .collect();
    asked.extend(
        ASKED_BY
            .iter()
            .filter(|(_, _, needs_current)| !(over && *needs_current))
            .filter(|(states, _, _)| states(&m.content))
            .map(|(_, words, _)| *words),
    );
    asked.dedup();
    for a in asked {
        context.push('\n');
        context.push_str(a);
    }
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
        context,
    }
}

impl Engine {
    /// The organisation's memory indexes as last refreshed, if loaded.
    pub(crate) fn memory_slot(&self, org_id: &str) -> Option<Arc<MemorySlot>> {
        self.memory_indexes
            .orgs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(org_id)
            .cloned()
    }

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
                        formation: RwLock::new(Formation::default()),
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
                let mut formation = slot2.formation.write().unwrap_or_else(|e| e.into_inner());
                let exist: std::collections::HashSet<&str> =
                    memories.iter().map(|m| m.id.as_str()).collect();
                for id in &ids {
                    if !exist.contains(id.as_str()) {
                        formation.remove(id);
                    }
                }
                for m in &memories {
                    formation.add(m);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(id: &str, ms: i64, docs: &[&str]) -> Memory {
        let at = chrono::DateTime::from_timestamp_millis(ms).unwrap();
        super::super::fixtures::memory(id, id, docs, at)
    }

    #[test]
    fn formation_order_is_creation_order_per_document() {
        let mut f = Formation::default();
        // formed out of order, and one memory in two documents
        for m in [
            memory("a3", 3, &["a"]),
            memory("a1", 1, &["a"]),
            memory("a2", 2, &["a"]),
            memory("a4", 4, &["a", "b"]),
            memory("b5", 5, &["b"]),
        ] {
            f.add(&m);
        }
        f.add(&memory("a1", 99, &["b"])); // seen before: no change
        assert!(f.near("a1", "a2", 1));
        assert!(!f.near("a1", "a3", 1));
        assert!(f.near("a1", "a3", 2));
        assert!(
            f.near("a4", "b5", 1),
            "neighbours in the document they share"
        );
        assert!(!f.near("a3", "b5", 5), "no shared document");
        f.remove("a2");
        assert!(f.near("a1", "a3", 1), "the gap closes");
        assert!(!f.near("a2", "a1", 5), "a removed memory has no place");
    }
}
