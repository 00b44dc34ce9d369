//! `POST /v3/search`: hybrid document search.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use engram_api::{ErrorBody, SearchChunk, SearchRequest, SearchResponse, SearchResult};

#[utoipa::path(
    post,
    path = "/v3/search",
    operation_id = "searchDocuments",
    tag = "search",
    request_body = SearchRequest,
    responses(
        (status = 200, description = "Documents ranked by their best chunks", body = SearchResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "`docId` names no document of the organisation (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Search documents (hybrid keyword and vector search over chunks).
pub async fn search(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Json<SearchResponse>, ApiError> {
    let mut q = req.validate()?;
    who.scope_tags(&mut q.container_tags)?;
    let out = s.engine.search_documents(&who.org_id, &q).await?;
    let results = out
        .results
        .into_iter()
        .map(|r| {
            let d = r.document;
            SearchResult {
                document_id: d.id,
                title: d.title,
                doc_type: d.doc_type,
                score: r.score,
                created_at: iso(d.created_at),
                updated_at: iso(d.updated_at),
                metadata: Some(d.metadata),
                summary: if q.include_summary { d.summary } else { None },
                content: if q.include_full_docs {
                    d.text.or(Some(d.content))
                } else {
                    None
                },
                chunks: r
                    .chunks
                    .into_iter()
                    .map(|c| SearchChunk {
                        content: c.content,
                        is_relevant: c.is_relevant,
                        score: c.score,
                        position: c.position,
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(Json(SearchResponse {
        results,
        timing: (out.elapsed_ms * 100.0).round() / 100.0,
        total: out.total as u64,
    }))
}
