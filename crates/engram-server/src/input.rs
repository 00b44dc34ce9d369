//! Input refused before any route sees it: a URL whose path or query
//! carries a NUL character (`%00`). No id, tag or filter of the API can
//! hold one, PostgreSQL cannot compare text with one, and refusing it here
//! answers the same 400 on both backends instead of a database error.

use crate::error::ApiError;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Middleware: 400 for a NUL in the URL.
pub async fn refuse_nul_in_url(req: Request, next: Next) -> Response {
    let uri = req.uri();
    let has_nul = |s: &str| {
        s.as_bytes()
            .windows(3)
            .any(|w| w.eq_ignore_ascii_case(b"%00"))
    };
    if has_nul(uri.path()) || uri.query().is_some_and(has_nul) {
        return ApiError::validation("url", "must not contain NUL characters (%00)")
            .into_response();
    }
    next.run(req).await
}
