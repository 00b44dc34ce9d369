//! `GET /v3/graph`: the knowledge graph of a space for viewers (beyond the
//! public API): memory, document and entity nodes with typed edges.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Query, State};
use axum::Json;
use engram_engine::memories::Node;
use serde::Deserialize;
use serde_json::{json, Value};

/// Memories a graph holds by default, and at most.
const DEFAULT_LIMIT: u64 = 500;
const MAX_LIMIT: u64 = 5000;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphParams {
    container_tag: Option<String>,
    limit: Option<String>,
}

pub async fn graph(
    State(s): State<AppState>,
    Caller(who): Caller,
    Query(p): Query<GraphParams>,
) -> Result<Json<Value>, ApiError> {
    if let Some(t) = &p.container_tag {
        engram_core::validate::container_tag("containerTag", t)?;
    }
    let limit = match p.limit.as_deref() {
        None => DEFAULT_LIMIT,
        Some(l) => match l.parse::<u64>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(ApiError::validation(
                    "limit",
                    format!("must be a number between 1 and {MAX_LIMIT}"),
                ))
            }
        },
    };
    let g = s
        .engine
        .graph(&who.org_id, p.container_tag.as_deref(), limit)
        .await?;
    let nodes: Vec<Value> = g
        .nodes
        .into_iter()
        .map(|n| match n {
            Node::Memory(m) => json!({
                "id": m.id, "type": "memory", "label": m.content,
                "version": m.version, "isLatest": m.is_latest, "isForgotten": m.is_forgotten,
                "isStatic": m.is_static, "isInference": m.is_inference,
                "containerTag": m.container_tag, "createdAt": iso(m.created_at),
            }),
            Node::Document(d) => json!({
                "id": d.id, "type": "document",
                "label": d.title.or(d.custom_id).unwrap_or_else(|| d.doc_type.to_string()),
                "documentType": d.doc_type, "createdAt": iso(d.created_at),
            }),
            Node::Entity(id, name, kind) => json!({
                "id": id, "type": "entity", "label": name, "entityType": kind,
            }),
        })
        .collect();
    let edges: Vec<Value> = g
        .edges
        .into_iter()
        .map(|e| json!({"source": e.source, "target": e.target, "type": e.kind}))
        .collect();
    Ok(Json(json!({
        "nodes": nodes,
        "edges": edges,
        "totalMemories": g.total_memories,
    })))
}
