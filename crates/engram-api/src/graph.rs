//! `GET /v3/graph` (beyond the public API, for viewers): a space's
//! memories, their documents and the entities they mention, as nodes with
//! typed edges.

use serde::{Deserialize, Serialize};

/// Memories a graph holds by default, and at most.
pub const GRAPH_DEFAULT_LIMIT: u64 = 500;
pub const GRAPH_MAX_LIMIT: u64 = 5000;

/// Query parameters of `GET /v3/graph`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct GraphParams {
    /// The space (default: every space of the organisation).
    pub container_tag: Option<String>,
    /// Most memories included, newest first (1 to 5000, default 500).
    #[param(value_type = Option<u64>)]
    pub limit: Option<String>,
}

/// A node: a memory, a document or an entity.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GraphNode {
    #[serde(rename_all = "camelCase")]
    Memory {
        id: String,
        /// The memory's text.
        label: String,
        version: i64,
        is_latest: bool,
        is_forgotten: bool,
        is_static: bool,
        is_inference: bool,
        container_tag: String,
        created_at: String,
    },
    #[serde(rename_all = "camelCase")]
    Document {
        id: String,
        /// Title, else custom id, else the document type.
        label: String,
        document_type: engram_core::DocumentType,
        created_at: String,
    },
    #[serde(rename_all = "camelCase")]
    Entity {
        /// `entity:<kind>:<name>`.
        id: String,
        label: String,
        /// `person`, `place`, `organisation` or `other`.
        entity_type: String,
    },
}

/// A typed edge between two nodes.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct GraphEdge {
    pub source: String,
    pub target: String,
    /// `updates`, `extends`, `derives` (memory to memory), `source`
    /// (memory to document) or `mentions` (memory to entity).
    #[serde(rename = "type")]
    pub kind: String,
}

/// `GET /v3/graph` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GraphResponse {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// Memories in the space (the graph may hold fewer: `limit`).
    pub total_memories: u64,
}
