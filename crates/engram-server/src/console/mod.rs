//! The console's server side: `/` leads to `/console`, which serves a
//! small web app embedded in the binary (nothing fetched at run time, no
//! Node toolchain), and its sign-in: an API key exchanged for a session
//! cookie.
//!
//! The session cookie (`engram_session`) is HttpOnly, SameSite=Strict and
//! expires after [`SESSION_TTL`]. Its value is the key and the expiry,
//! sealed with the server's secret key (AES-256-GCM), so any replica
//! sharing that key can read it and nothing is stored; the key inside is
//! checked on every request, so a revoked key ends its sessions at once.
//! A request authenticated by the cookie that changes anything must also
//! carry `X-Engram-Console: 1`, a header a cross-site form cannot send (a
//! page elsewhere cannot set it without a CORS preflight, which Engram
//! never grants): the CSRF guard, on top of SameSite.
//!
//! Console pages are sent with a strict Content-Security-Policy (own
//! scripts and styles only, no inline code, no framing). This module must
//! not grant anything the key would not: the cookie only stands in for
//! the `Authorization` header.

use crate::error::ApiError;
use crate::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::time::Duration;

/// The session cookie's name.
pub const COOKIE: &str = "engram_session";
/// The header a cookie-authenticated change must carry.
pub const CSRF_HEADER: &str = "x-engram-console";
/// How long a console session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(12 * 3600);
/// What the sealed value is bound to.
const SEAL_CONTEXT: &str = "console-session/v1";

/// The policy every console page is sent with.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

const INDEX: &str = include_str!("assets/index.html");

/// The assets under `/console-assets/`: name, content type, body. The
/// scripts are ES modules (`app.js` imports the rest); no build step.
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.css", "text/css", include_str!("assets/app.css")),
    ("app.js", JS, include_str!("assets/js/app.js")),
    ("core.js", JS, include_str!("assets/js/core.js")),
    ("charts.js", JS, include_str!("assets/js/charts.js")),
    ("overview.js", JS, include_str!("assets/js/overview.js")),
    ("documents.js", JS, include_str!("assets/js/documents.js")),
    ("memories.js", JS, include_str!("assets/js/memories.js")),
    ("graph.js", JS, include_str!("assets/js/graph.js")),
    ("search.js", JS, include_str!("assets/js/search.js")),
    ("spaces.js", JS, include_str!("assets/js/spaces.js")),
    (
        "connections.js",
        JS,
        include_str!("assets/js/connections.js"),
    ),
    ("logs.js", JS, include_str!("assets/js/logs.js")),
    ("keys.js", JS, include_str!("assets/js/keys.js")),
    ("settings.js", JS, include_str!("assets/js/settings.js")),
];
const JS: &str = "text/javascript";

/// The console's routes (no key needed: the app signs in itself).
pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/", get(|| async { Redirect::to("/console") }))
        .route(
            "/console",
            get(page).layer(tower_http::compression::CompressionLayer::new()),
        )
        .route("/console/{*path}", get(page))
        .route(
            "/console-assets/{name}",
            // gzip for browsers that ask (all do): a third of the bytes
            get(asset).layer(tower_http::compression::CompressionLayer::new()),
        )
        .route(
            "/console-session",
            post(sign_in).delete(sign_out).get(whoami),
        )
        .with_state(state)
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::CACHE_CONTROL, "no-store"),
        ],
        INDEX,
    )
        .into_response()
}

async fn asset(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => ApiError::NotFound(format!("no console asset `{name}`")).into_response(),
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Sealed {
    /// The API key.
    k: String,
    /// Expiry, Unix seconds.
    e: i64,
}

/// The key a session cookie stands for, if the cookie is genuine and
/// current.
pub fn session_key(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let value = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| {
            c.trim()
                .strip_prefix(&format!("{COOKIE}="))
                .map(str::to_string)
        })?;
    let sealed = hex::decode(value).ok()?;
    let plain = state
        .engine
        .config
        .connect
        .sealer
        .open(&sealed, SEAL_CONTEXT)
        .ok()?;
    let s: Sealed = serde_json::from_slice(&plain).ok()?;
    (s.e > chrono::Utc::now().timestamp()).then_some(s.k)
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignIn {
    api_key: String,
}

/// Whether the browser reached this server over https (so the cookie is
/// marked Secure).
fn over_https(state: &AppState, headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"))
        || state
            .engine
            .config
            .connect
            .public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
}

/// `POST /console-session {"apiKey"}`: check the key, answer who it is,
/// and set the session cookie.
async fn sign_in(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let req: SignIn = serde_json::from_slice(&body)
        .map_err(|_| ApiError::validation("apiKey", "send {\"apiKey\": \"...\"}"))?;
    let key = req.api_key.trim().to_string();
    let who = crate::auth::verified(&state, &key).await?;
    let expires = chrono::Utc::now() + chrono::Duration::seconds(SESSION_TTL.as_secs() as i64);
    let sealed = state.engine.config.connect.sealer.seal(
        &serde_json::to_vec(&Sealed {
            k: key,
            e: expires.timestamp(),
        })
        .unwrap_or_default(),
        SEAL_CONTEXT,
    );
    let cookie = format!(
        "{COOKIE}={}; Path=/; Max-Age={}; HttpOnly; SameSite=Strict{}",
        hex::encode(sealed),
        SESSION_TTL.as_secs(),
        if over_https(&state, &headers) {
            "; Secure"
        } else {
            ""
        }
    );
    let mut resp = Json(identity(&who, Some(expires))).into_response();
    resp.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| ApiError::Internal(e.to_string()))?,
    );
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// `GET /console-session`: who the cookie stands for (401 without one).
async fn whoami(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let key = session_key(&state, &headers)
        .ok_or_else(|| ApiError::Authentication("not signed in".into()))?;
    let who = crate::auth::verified(&state, &key).await?;
    Ok(Json(identity(&who, None)).into_response())
}

/// `DELETE /console-session`: sign out (the cookie is cleared).
async fn sign_out() -> Response {
    (
        StatusCode::NO_CONTENT,
        [(
            header::SET_COOKIE,
            format!("{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"),
        )],
    )
        .into_response()
}

fn identity(
    who: &engram_engine::auth::AuthContext,
    expires: Option<chrono::DateTime<chrono::Utc>>,
) -> serde_json::Value {
    serde_json::json!({
        "orgId": who.org_id,
        "keyName": who.key_name,
        "scoped": who.scope.is_some(),
        "containerTag": who.scope.as_ref().map(|s| s.container_tag.clone()),
        "expiresAt": expires.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
    })
}
