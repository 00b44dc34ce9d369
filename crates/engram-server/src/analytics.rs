//! The request log's HTTP side: every authenticated request is timed and
//! handed, with its raw JSON body and answer, to the engine's recorder
//! (which compacts and writes them in the background); and the guard that
//! keeps scoped keys to their routes and rates, and rate-limits analytics
//! per organisation, across replicas.

use crate::error::{ApiError, ErrorKind};
use crate::AppState;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use engram_engine::analytics::{PendingRequest, ANALYTICS_PER_MINUTE};
use engram_engine::auth::AuthContext;
use serde_json::{Map, Value};
use std::time::Instant;

/// The request type a route is logged under.
pub fn request_type(method: &Method, route: &str) -> &'static str {
    match (method.as_str(), route) {
        (
            "POST",
            "/v3/documents"
            | "/v3/documents/batch"
            | "/v3/documents/file"
            | "/v4/conversations"
            | "/v4/memories",
        ) => "add",
        (_, "/v3/search" | "/v4/search") => "search",
        ("PATCH", "/v3/documents/{id}" | "/v4/memories") => "update",
        ("DELETE", "/v3/documents/{id}" | "/v3/documents/bulk") => "delete",
        ("DELETE", "/v4/memories") | (_, "/v4/memories/forget-matching") => "forget",
        ("GET", "/v3/documents/{id}" | "/v3/documents/{id}/chunks") => "get",
        (_, "/v3/documents/list" | "/v3/documents/processing" | "/v4/memories/list") => "list",
        (_, r) if r.starts_with("/v4/profile") => "profile",
        (_, "/v3/graph") => "graph",
        (_, r) if r.starts_with("/v3/settings") => "settings",
        (_, r) if r.starts_with("/v3/container-tags") => "tags",
        (_, r) if r.starts_with("/v3/analytics") => "analytics",
        (_, r) if r.starts_with("/v3/connections") => "connections",
        (_, r) if r.starts_with("/v3/auth") || r == "/v3/session" => "keys",
        _ => "other",
    }
}

/// The matched route and its request type: worked out once a request
/// (the recorder and the guard both need them) and kept on it.
#[derive(Debug, Clone)]
struct Classified {
    route: std::sync::Arc<str>,
    kind: &'static str,
}

fn classify(req: &mut Request) -> Classified {
    if let Some(c) = req.extensions().get::<Classified>() {
        return c.clone();
    }
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| req.uri().path().to_string());
    let c = Classified {
        kind: request_type(req.method(), &route),
        route: route.into(),
    };
    req.extensions_mut().insert(c.clone());
    c
}

/// `{name}` segments of `route` with their values in `path`.
fn path_params(route: &str, path: &str) -> Map<String, Value> {
    route
        .split('/')
        .zip(path.split('/'))
        .filter_map(|(r, p)| {
            let name = r.strip_prefix('{')?.strip_suffix('}')?;
            let value = percent_decode(p);
            Some((
                name.trim_start_matches('*').to_string(),
                Value::String(value),
            ))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={s}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| s.to_string())
}

fn query_params(query: Option<&str>) -> Map<String, Value> {
    url::form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect()
}

/// Time the request, keep its JSON body and answer, and hand them to the
/// recorder once answered. Bodies are read here once (within the route's
/// limit) and passed on unchanged.
pub async fn record(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let at = engram_store::now();
    let Some(who) = req.extensions().get::<AuthContext>().cloned() else {
        return next.run(req).await;
    };
    let Classified { route, kind } = classify(&mut req);
    let params = path_params(&route, req.uri().path());
    let query = query_params(req.uri().query());
    let is_json = !req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("multipart/"));
    let (req, request_body) = if is_json {
        let (parts, body) = req.into_parts();
        let limit = state.config.max_json_bytes;
        match axum::body::to_bytes(body, limit).await {
            Ok(bytes) => (
                Some(Request::from_parts(parts, Body::from(bytes.clone()))),
                bytes,
            ),
            Err(_) => (None, Bytes::new()),
        }
    } else {
        (Some(req), Bytes::new())
    };
    let res = match req {
        Some(req) => next.run(req).await,
        None => ApiError::PayloadTooLarge(state.config.max_json_bytes).into_response(),
    };
    let (parts, body) = res.into_parts();
    let response_body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    state.engine.analytics().record(PendingRequest {
        org_id: who.org_id,
        key_id: who.key_id,
        kind,
        status_code: parts.status.as_u16(),
        error_type: parts.extensions.get::<ErrorKind>().map(|k| k.0.to_string()),
        duration_ms: started.elapsed().as_secs_f64() * 1000.0,
        at,
        request_body,
        params,
        query,
        response_body: response_body.clone(),
    });
    Response::from_parts(parts, Body::from(response_body))
}

/// Request types a scoped key may make: the document, memory, search and
/// profile routes (and `GET /v3/session`, to learn its own scope).
const SCOPED_TYPES: [&str; 8] = [
    "add", "search", "update", "delete", "forget", "get", "list", "profile",
];

/// What a key may do before its handler runs: a scoped key only the
/// document, memory, search and profile routes (403 otherwise), at its own
/// rate; analytics at most [`ANALYTICS_PER_MINUTE`] a minute per
/// organisation. Limits count in the store, so replicas share them.
pub async fn guard(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let Some(who) = req.extensions().get::<AuthContext>().cloned() else {
        return next.run(req).await;
    };
    let Classified { route, kind } = classify(&mut req);
    if let Err(e) = check(&state, &who, kind, &route).await {
        return e.into_response();
    }
    next.run(req).await
}

async fn check(
    state: &AppState,
    who: &AuthContext,
    kind: &str,
    route: &str,
) -> Result<(), ApiError> {
    if let Some(scope) = &who.scope {
        if !SCOPED_TYPES.contains(&kind) && route != "/v3/session" {
            return Err(ApiError::Permission(format!(
                "this key is scoped to the container tag `{}` and reaches only the document, \
                 memory, search and profile routes",
                scope.container_tag
            )));
        }
        if let Some(n) = scope.rate_limit {
            let bucket = format!("key:{}", who.key_id);
            state
                .engine
                .rate_limit(&bucket, n as u64, "this key")
                .await?;
        }
    }
    if kind == "analytics" {
        let bucket = format!("analytics:{}", who.org_id);
        state
            .engine
            .rate_limit(&bucket, ANALYTICS_PER_MINUTE, "analytics")
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_have_request_types() {
        let check = |m: Method, route: &str, want: &str| {
            assert_eq!(request_type(&m, route), want, "{m} {route}");
        };
        check(Method::POST, "/v3/documents", "add");
        check(Method::POST, "/v3/documents/batch", "add");
        check(Method::POST, "/v3/documents/file", "add");
        check(Method::POST, "/v4/conversations", "add");
        check(Method::POST, "/v4/memories", "add");
        check(Method::POST, "/v3/search", "search");
        check(Method::POST, "/v4/search", "search");
        check(Method::PATCH, "/v3/documents/{id}", "update");
        check(Method::PATCH, "/v4/memories", "update");
        check(Method::DELETE, "/v3/documents/{id}", "delete");
        check(Method::DELETE, "/v3/documents/bulk", "delete");
        check(Method::DELETE, "/v4/memories", "forget");
        check(Method::POST, "/v4/memories/forget-matching", "forget");
        check(Method::GET, "/v3/documents/{id}", "get");
        check(Method::POST, "/v3/documents/list", "list");
        check(Method::POST, "/v4/profile", "profile");
        check(Method::GET, "/v3/analytics/usage", "analytics");
        check(Method::GET, "/v3/session", "keys");
        check(Method::PATCH, "/v3/settings", "settings");
        check(Method::GET, "/v3/container-tags/list", "tags");
        check(Method::GET, "/v1/{*rest}", "other");
    }

    #[test]
    fn path_and_query_parameters() {
        let p = path_params("/v3/documents/{id}/chunks", "/v3/documents/a%20b/chunks");
        assert_eq!(Value::Object(p), serde_json::json!({"id": "a b"}));
        let q = query_params(Some("period=7d&type=search"));
        assert_eq!(
            Value::Object(q),
            serde_json::json!({"period": "7d", "type": "search"})
        );
    }
}
