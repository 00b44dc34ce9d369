//! Bearer authentication: `Authorization: Bearer <key>` is the only accepted
//! credential. The verified [`AuthContext`] rides on the request's
//! extensions; handlers take it as an extractor.

use crate::error::ApiError;
use crate::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
pub use engram_engine::auth::AuthContext;
use engram_engine::auth::Verified;

pub async fn require_key(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let header = req.headers().get(axum::http::header::AUTHORIZATION);
    // the console's session cookie stands in for the header (never both)
    if header.is_none() {
        if let Some(key) = crate::console::session_key(&state, req.headers()) {
            let safe = matches!(
                *req.method(),
                axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
            );
            if !safe && req.headers().get(crate::console::CSRF_HEADER).is_none() {
                return Err(ApiError::Permission(
                    "a change made with the console's session needs the `X-Engram-Console: 1` header"
                        .into(),
                ));
            }
            let ctx = verified(&state, &key).await?;
            req.extensions_mut().insert(ctx);
            return Ok(next.run(req).await);
        }
    }
    let Some(header) = header else {
        let hint = if req.headers().contains_key("x-api-key")
            || req.headers().contains_key("x-supermemory-api-key")
        {
            "API key headers are not supported; send `Authorization: Bearer <key>`"
        } else {
            "missing `Authorization: Bearer <key>` header"
        };
        return Err(ApiError::Authentication(hint.into()));
    };
    let value = header
        .to_str()
        .map_err(|_| ApiError::Authentication("malformed Authorization header".into()))?;
    let key = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            ApiError::Authentication("the Authorization header must be `Bearer <key>`".into())
        })?;
    let ctx = verified(&state, key).await?;
    req.extensions_mut().insert(ctx);
    Ok(next.run(req).await)
}

/// The caller a key stands for, or why it stands for no one (the bearer
/// header's and the console session's one mapping to errors).
pub(crate) async fn verified(
    state: &AppState,
    key: &str,
) -> Result<engram_engine::auth::AuthContext, ApiError> {
    match engram_engine::auth::verify(state.engine.store.as_ref(), key).await? {
        Verified::Key(ctx) => Ok(ctx),
        Verified::Invalid => Err(ApiError::Authentication(
            "invalid or revoked API key".into(),
        )),
        Verified::Expired(at) => Err(ApiError::Authentication(format!(
            "this API key expired at {}",
            at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ))),
    }
}

/// Extractor for the authenticated caller.
pub struct Caller(pub AuthContext);

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<AuthContext>()
            .cloned()
            .map(Caller)
            .ok_or_else(|| ApiError::Authentication("not authenticated".into()))
    }
}
