//! Route table. Public routes need no key; everything else goes through
//! [`crate::auth::require_key`].

mod analytics;
mod connections;
mod documents;
mod graph;
mod keys;
mod memories;
mod search;
mod settings;
mod spaces;
mod upload;
mod v4;

use crate::error::ApiError;
use crate::AppState;
use axum::http::{Method, Uri};
use axum::routing::{any, get};
use axum::{Json, Router};
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes that need no key: health, and the OpenAPI description.
pub fn public() -> Router {
    let doc = Arc::new(crate::openapi::document());
    let serve = move || {
        let doc = doc.clone();
        async move { Json(doc.as_ref().clone()) }
    };
    Router::new()
        .route("/health", get(health))
        .route("/v3/openapi", get(serve.clone()))
        .route("/v4/openapi", get(serve))
}

/// Public routes that need the app's state: the OAuth callback (its
/// `state` parameter is the credential) and providers' webhooks (their
/// signature is).
pub fn public_with_state(state: AppState) -> Router {
    Router::new()
        .route("/v3/connections/callback", get(connections::callback))
        .route(
            "/v3/connections/{connectionId}/webhook",
            axum::routing::post(connections::webhook),
        )
        .with_state(state)
}

/// The documented, authenticated routes: each handler's `#[utoipa::path]`
/// gives both its route here and its entry in the OpenAPI description, so
/// the two cannot drift apart.
pub(crate) fn documented(max_file: usize) -> OpenApiRouter<AppState> {
    let (schemas, paths, upload) = routes!(upload::upload_file);
    let upload = upload.layer(axum::extract::DefaultBodyLimit::max(max_file + 1024 * 1024));
    OpenApiRouter::with_openapi(crate::openapi::base())
        .routes(routes!(documents::add))
        .routes(routes!(documents::batch_add))
        .routes((schemas, paths, upload))
        .routes(routes!(documents::list))
        .routes(routes!(documents::processing))
        .routes(routes!(documents::bulk_delete))
        .routes(routes!(
            documents::get,
            documents::update,
            documents::delete
        ))
        .routes(routes!(documents::chunks))
        .routes(routes!(search::search))
        .routes(routes!(memories::create, memories::patch, memories::forget))
        .routes(routes!(memories::forget_matching))
        .routes(routes!(memories::list))
        .routes(routes!(v4::search))
        .routes(routes!(v4::profile))
        .routes(routes!(v4::buckets))
        .routes(routes!(v4::conversation))
        .routes(routes!(graph::graph))
        .routes(routes!(settings::get, settings::update))
        .routes(routes!(settings::reset))
        .routes(routes!(keys::session))
        .routes(routes!(keys::list, keys::create))
        .routes(routes!(keys::rename, keys::revoke))
        .routes(routes!(keys::create_scoped))
        .routes(routes!(keys::revoke_scoped))
        .routes(routes!(analytics::usage))
        .routes(routes!(analytics::errors))
        .routes(routes!(analytics::logs))
        .routes(routes!(connections::list))
        .routes(routes!(
            connections::create,
            connections::get,
            connections::delete
        ))
        .routes(routes!(connections::get_by_tags))
        .routes(routes!(connections::documents))
        .routes(routes!(connections::import))
        .routes(routes!(connections::resources))
        .routes(routes!(connections::configure))
        .routes(routes!(spaces::list))
        .routes(routes!(spaces::merge))
        .routes(routes!(spaces::merge_get))
        .routes(routes!(spaces::get, spaces::update, spaces::delete))
}

/// Authenticated routes.
pub fn api(state: AppState) -> Router {
    let (documented, _) = documented(state.config.max_file_bytes).split_for_parts();
    documented
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
