//! Engram's HTTP face: the axum router, bearer authentication, request ids,
//! body limits, request logs, and the single place where engine, store and
//! validation errors become HTTP statuses and JSON error bodies.
//!
//! Handlers only translate between wire types (`engram-api`) and the engine;
//! they hold no business rules. This is the only crate that knows HTTP.

mod analytics;
mod auth;
mod console;
pub mod error;
mod input;
mod json;
mod mcp;
pub mod openapi;
mod routes;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue, Request};
use axum::Router;
use engram_engine::Engine;
use std::sync::Arc;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

pub use error::ApiError;

/// Limits and switches of the HTTP layer.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest JSON body, in bytes.
    pub max_json_bytes: usize,
    /// Largest multipart upload, in bytes.
    pub max_file_bytes: usize,
    /// Where the MCP docs search caches the sections' vectors (none: it
    /// embeds them on its first search in each process).
    pub docs_cache_dir: Option<std::path::PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            max_json_bytes: 10 * 1024 * 1024,
            max_file_bytes: 50 * 1024 * 1024,
            docs_cache_dir: None,
        }
    }
}

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub engine: Arc<Engine>,
    pub config: Arc<ServerConfig>,
}

impl AppState {
    pub fn new(engine: Arc<Engine>, config: ServerConfig) -> Self {
        Self {
            engine,
            config: Arc::new(config),
        }
    }
}

#[derive(Clone, Default)]
struct RandomRequestId;

impl MakeRequestId for RandomRequestId {
    fn make_request_id<B>(&mut self, _req: &Request<B>) -> Option<RequestId> {
        let id = format!("req_{}", engram_core::ids::random_base62(16));
        id.parse().ok().map(RequestId::new)
    }
}

/// The whole application. Tests drive exactly this.
pub fn router(state: AppState) -> Router {
    let x_request_id = HeaderName::from_static("x-request-id");
    // outermost last: authenticate, then record, then guard the route
    let api = routes::api(state.clone())
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            analytics::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            analytics::record,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::require_key,
        ));
    let mcp = mcp::routes(&state, api.clone());
    Router::new()
        .merge(routes::public())
        .merge(routes::public_with_state(state.clone()))
        .merge(console::routes(state.clone()))
        .merge(api)
        .merge(mcp)
        .fallback(routes::not_found)
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn(input::refuse_nul_in_url))
        .layer(DefaultBodyLimit::max(state.config.max_json_bytes))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<_>| {
                    let id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!("request", id = %id, method = %req.method(), path = %req.uri().path())
                })
                .on_response(|res: &axum::response::Response, latency: std::time::Duration, _span: &tracing::Span| {
                    tracing::info!(status = res.status().as_u16(), ms = latency.as_secs_f64() * 1000.0, "response");
                }),
        )
        .layer(PropagateRequestIdLayer::new(x_request_id.clone()))
        .layer(SetRequestIdLayer::new(x_request_id, RandomRequestId))
        // on every answer, errors and the callback page included: no
        // content sniffing, no framing, no referrer leaving with a URL
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
}

/// Serve the application on `listener` until `shutdown` resolves, then let
/// in-flight requests finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let engine = state.engine.clone();
    let served = axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await;
    // the requests just answered are written before the process ends
    engine.analytics().flush().await;
    served
}
