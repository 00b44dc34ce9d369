//! Route table. Public routes need no key; everything else goes through
//! [`crate::auth::require_key`].

mod documents;
mod graph;
mod memories;
mod search;
mod upload;
mod v4;

use crate::error::ApiError;
use crate::AppState;
use axum::http::{Method, Uri};
use axum::routing::{any, delete, get, post};
use axum::{Json, Router};

/// Routes that need no key.
pub fn public() -> Router {
    Router::new().route("/health", get(health))
}

/// Authenticated routes.
pub fn api(state: AppState) -> Router {
    let max_file = state.config.max_file_bytes;
    Router::new()
        .route("/v3/documents", post(documents::add))
        .route("/v3/documents/batch", post(documents::batch_add))
        .route(
            "/v3/documents/file",
            post(upload::upload_file)
                .layer(axum::extract::DefaultBodyLimit::max(max_file + 1024 * 1024)),
        )
        .route("/v3/documents/list", post(documents::list))
        .route("/v3/documents/processing", get(documents::processing))
        .route("/v3/documents/bulk", delete(documents::bulk_delete))
        .route(
            "/v3/documents/{id}",
            get(documents::get)
                .patch(documents::update)
                .delete(documents::delete),
        )
        .route("/v3/documents/{id}/chunks", get(documents::chunks))
        .route("/v3/search", post(search::search))
        .route(
            "/v4/memories",
            post(memories::create)
                .patch(memories::patch)
                .delete(memories::forget),
        )
        .route(
            "/v4/memories/forget-matching",
            post(memories::forget_matching),
        )
        .route("/v4/memories/list", post(memories::list))
        .route("/v4/search", post(v4::search))
        .route("/v4/profile", post(v4::profile))
        .route("/v4/profile/buckets", post(v4::buckets))
        .route("/v4/conversations", post(v4::conversation))
        .route("/v3/graph", get(graph::graph))
        .route("/v1", any(deprecated))
        .route("/v1/{*rest}", any(deprecated))
        .route("/v3/memories", any(deprecated))
        .route("/v3/memories/{*rest}", any(deprecated))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
}

async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}

async fn deprecated(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "{} is not served: /v1 and /v3/memories are deprecated; use /v3/documents (and /v4/search for search)",
        uri.path()
    ))
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// Unknown paths.
pub async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no route for {method} {}", uri.path()))
}
