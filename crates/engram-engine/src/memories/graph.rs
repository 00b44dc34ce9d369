//! The knowledge graph of a space, for viewers: its memories (every
//! version, forgotten ones included, so chains read whole), the documents
//! they came from and the entities they mention, as nodes; version,
//! relation, source and mention links as typed edges. Built from the store
//! on request; nothing here is cached.

use crate::{Engine, EngineError};
use engram_store::{Document, Memory, MemoryListQuery};
use std::collections::{BTreeMap, HashSet};

/// A node's kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Memory(Memory),
    Document(Document),
    /// `(id, name, kind)`.
    Entity(String, String, String),
}

/// A typed edge: `updates`, `extends`, `derives` (memory to memory),
/// `source` (memory to document), `mentions` (memory to entity).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub source: String,
    pub target: String,
    pub kind: String,
}

/// A space's graph.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Memories in the space (the graph holds at most `limit`).
    pub total_memories: u64,
}

/// An entity's node id: kind and name, case-folded.
pub fn entity_id(name: &str, kind: &str) -> String {
    format!("entity:{kind}:{}", name.to_lowercase())
}

impl Engine {
    /// The graph of space `tag` (every space when `None`), the newest
    /// `limit` memories.
    pub async fn graph(
        &self,
        org_id: &str,
        tag: Option<&str>,
        limit: u64,
    ) -> Result<Graph, EngineError> {
        let q = MemoryListQuery {
            container_tags: tag.map(str::to_string).into_iter().collect(),
            include_history: true,
            include_forgotten: true,
            limit,
            ..Default::default()
        };
        let (memories, total) = self.store.list_memories(org_id, &q).await?;
        let ids: HashSet<&str> = memories.iter().map(|m| m.id.as_str()).collect();
        let mut edges = Vec::new();
        let mut entities: BTreeMap<String, (String, String)> = BTreeMap::new();
        let mut doc_ids: Vec<String> = Vec::new();
        for m in &memories {
            for (other, kind) in &m.relations {
                if ids.contains(other.as_str()) {
                    edges.push(Edge {
                        source: m.id.clone(),
                        target: other.clone(),
                        kind: kind.as_str().to_string(),
                    });
                }
            }
            for d in &m.document_ids {
                edges.push(Edge {
                    source: m.id.clone(),
                    target: d.clone(),
                    kind: "source".into(),
                });
                doc_ids.push(d.clone());
            }
            for e in &m.entities {
                let id = entity_id(&e.name, &e.kind);
                entities
                    .entry(id.clone())
                    .or_insert_with(|| (e.name.clone(), e.kind.clone()));
                edges.push(Edge {
                    source: m.id.clone(),
                    target: id,
                    kind: "mentions".into(),
                });
            }
        }
        doc_ids.sort();
        doc_ids.dedup();
        let documents = self.store.documents_by_ids(org_id, &doc_ids).await?;
        edges.sort();
        edges.dedup();
        let mut nodes: Vec<Node> = memories.into_iter().map(Node::Memory).collect();
        nodes.extend(documents.into_iter().map(Node::Document));
        nodes.extend(
            entities
                .into_iter()
                .map(|(id, (name, kind))| Node::Entity(id, name, kind)),
        );
        Ok(Graph {
            nodes,
            edges,
            total_memories: total,
        })
    }
}
