//! `GET /v3/graph`: the knowledge graph of a space for viewers (beyond the
//! public API): memory, document and entity nodes with typed edges.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Query, State};
use axum::Json;
use engram_api::{
    ErrorBody, GraphEdge, GraphNode, GraphParams, GraphResponse, GRAPH_DEFAULT_LIMIT,
    GRAPH_MAX_LIMIT,
};
use engram_engine::memories::Node;

#[utoipa::path(
    get,
    path = "/v3/graph",
    operation_id = "getGraph",
    tag = "graph",
    params(GraphParams),
    responses(
        (status = 200, description = "The space's knowledge graph", body = GraphResponse),
        (status = 400, description = "Bad parameters", body = ErrorBody),
        (status = 401, description = "Missing or invalid key", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The knowledge graph of a space (or of the organisation): memory,
/// document and entity nodes; `updates`, `extends`, `derives`, `source` and
/// `mentions` edges. Beyond the public API, for viewers.
pub async fn graph(
    State(s): State<AppState>,
    Caller(who): Caller,
    Query(p): Query<GraphParams>,
) -> Result<Json<GraphResponse>, ApiError> {
    if let Some(t) = &p.container_tag {
        engram_core::validate::container_tag("containerTag", t)?;
    }
    let limit = match p.limit.as_deref() {
        None => GRAPH_DEFAULT_LIMIT,
        Some(l) => match l.parse::<u64>() {
            Ok(n) if (1..=GRAPH_MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(ApiError::validation(
                    "limit",
                    format!("must be a number between 1 and {GRAPH_MAX_LIMIT}"),
                ))
            }
        },
    };
    let g = s
        .engine
        .graph(&who.org_id, p.container_tag.as_deref(), limit)
        .await?;
    let nodes = g
        .nodes
        .into_iter()
        .map(|n| match n {
            Node::Memory(m) => GraphNode::Memory {
                id: m.id,
                label: m.content,
                version: m.version,
                is_latest: m.is_latest,
                is_forgotten: m.is_forgotten,
                is_static: m.is_static,
                is_inference: m.is_inference,
                container_tag: m.container_tag,
                created_at: iso(m.created_at),
            },
            Node::Document(d) => GraphNode::Document {
                id: d.id,
                label: d
                    .title
                    .or(d.custom_id)
                    .unwrap_or_else(|| d.doc_type.to_string()),
                document_type: d.doc_type,
                created_at: iso(d.created_at),
            },
            Node::Entity(id, name, kind) => GraphNode::Entity {
                id,
                label: name,
                entity_type: kind,
            },
        })
        .collect();
    let edges = g
        .edges
        .into_iter()
        .map(|e| GraphEdge {
            source: e.source,
            target: e.target,
            kind: e.kind,
        })
        .collect();
    Ok(Json(GraphResponse {
        nodes,
        edges,
        total_memories: g.total_memories,
    }))
}
