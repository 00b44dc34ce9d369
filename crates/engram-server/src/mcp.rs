//! The `/mcp` endpoint: Engram's MCP server over streamable HTTP.
//!
//! Each request must carry a bearer key (checked here, before any MCP
//! message is read). The tools do not touch the engine: they send their
//! requests straight into the API router in this process (no socket), with
//! the key of the HTTP request that carried the call, so a tool may do
//! exactly what its key may do and every call is authenticated, scoped,
//! rate limited and recorded like any other request. The endpoint keeps no
//! sessions (each POST stands alone), so it works behind any replica.

use crate::AppState;
use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use engram_client::{BoxFuture, ClientError, Incoming, Outgoing, Transport};
use engram_mcp::{Docs, EngramMcp};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use tower::ServiceExt;

/// Requests into a router in this process.
#[derive(Clone)]
struct InProcess {
    api: Router,
    max_body: usize,
}

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcess")
    }
}

impl Transport for InProcess {
    fn base(&self) -> &str {
        "engram (in process)"
    }

    fn send(&self, req: Outgoing) -> BoxFuture<Result<Incoming, ClientError>> {
        let api = self.api.clone();
        let max_body = self.max_body;
        Box::pin(async move {
            let failed = |reason: String| ClientError::Unreachable {
                url: "engram (in process)".into(),
                reason,
            };
            let mut builder = Request::builder()
                .method(req.method)
                .uri(&req.path)
                .header(header::AUTHORIZATION, format!("Bearer {}", req.key));
            let body = match req.body {
                Some((content_type, bytes)) => {
                    builder = builder.header(header::CONTENT_TYPE, content_type);
                    bytes
                }
                None => Vec::new(),
            };
            let request = builder
                .body(Body::from(body))
                .map_err(|e| failed(e.to_string()))?;
            let resp = api
                .oneshot(request)
                .await
                .map_err(|e| failed(e.to_string()))?;
            let status = resp.status().as_u16();
            let body = axum::body::to_bytes(resp.into_body(), max_body)
                .await
                .map_err(|e| failed(e.to_string()))?;
            Ok(Incoming {
                status,
                body: body.to_vec(),
            })
        })
    }
}

/// `/mcp`, its tools sending into `api` (the authenticated routes).
pub fn routes(state: &AppState, api: Router) -> Router {
    let transport: Arc<dyn Transport> = Arc::new(InProcess {
        api,
        max_body: state.config.max_json_bytes.max(64 * 1024 * 1024),
    });
    let docs = Docs::new(
        Some(state.engine.embedder.clone()),
        state.config.docs_cache_dir.clone(),
    );
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        // every request needs a key, so the Host check against DNS
        // rebinding (meant for unauthenticated local servers) would only
        // refuse the names a deployment is reached by
        .disable_allowed_hosts();
    let service = StreamableHttpService::new(
        move || Ok(EngramMcp::new(transport.clone(), None, docs.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::auth::require_key,
        ))
}
