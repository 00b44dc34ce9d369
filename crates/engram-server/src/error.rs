//! The one mapping from failures to HTTP: status, `type` and a JSON body
//! `{error, details?, type}`. Internal errors are logged with detail and
//! answered without it.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use engram_api::ErrorBody;
use engram_core::ValidationError;
use engram_engine::EngineError;
use engram_store::StoreError;

/// The kind of error a response carries (`ValidationError`, ...), left on
/// the response for the request log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorKind(pub &'static str);

/// Every way a request can fail.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the input breaks a rule; `field` names where.
    Validation { field: String, message: String },
    /// 401.
    Authentication(String),
    /// 403: the key may not do this (a scoped key outside its scope).
    Permission(String),
    /// 404.
    NotFound(String),
    /// 405.
    MethodNotAllowed,
    /// 409.
    Conflict(String),
    /// 413.
    PayloadTooLarge(usize),
    /// 415.
    UnsupportedMediaType(String),
    /// 429: over a rate limit; try again after the seconds given.
    RateLimited { message: String, retry_after: u64 },
    /// 500: logged, not shown.
    Internal(String),
    /// 501: the server does not do this (a provider without resources).
    NotImplemented(String),
    /// 503: the service cannot serve this now (e.g. data directory incompatible).
    Unavailable(String),
}

impl ApiError {
    pub fn validation(field: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::Validation {
            field: field.into(),
            message: message.into(),
        }
    }

    fn parts(&self) -> (StatusCode, &'static str, String, Option<String>) {
        match self {
            ApiError::Validation { field, message } => {
                let details = if field.is_empty() {
                    message.clone()
                } else {
                    format!("{field}: {message}")
                };
                (
                    StatusCode::BAD_REQUEST,
                    "ValidationError",
                    "Invalid request parameters".into(),
                    Some(details),
                )
            }
            ApiError::Authentication(m) => (
                StatusCode::UNAUTHORIZED,
                "AuthenticationError",
                "Unauthorized".into(),
                Some(m.clone()),
            ),
            ApiError::Permission(m) => (
                StatusCode::FORBIDDEN,
                "PermissionError",
                "Forbidden".into(),
                Some(m.clone()),
            ),
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, "NotFoundError", m.clone(), None),
            ApiError::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                "ValidationError",
                "Method not allowed".into(),
                Some("this path does not accept that HTTP method".into()),
            ),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, "ConflictError", m.clone(), None),
            ApiError::PayloadTooLarge(n) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "ValidationError",
                "Request body too large".into(),
                Some(format!("the limit for this route is {n} bytes")),
            ),
            ApiError::UnsupportedMediaType(m) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "ValidationError",
                "Unsupported media type".into(),
                Some(m.clone()),
            ),
            ApiError::RateLimited {
                message,
                retry_after,
            } => (
                StatusCode::TOO_MANY_REQUESTS,
                "RateLimitError",
                "Too many requests".into(),
                Some(format!("{message}; try again in {retry_after} s")),
            ),
            ApiError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "InternalServerError",
                "Internal server error".into(),
                None,
            ),
            ApiError::NotImplemented(m) => (
                StatusCode::NOT_IMPLEMENTED,
                "NotImplementedError",
                m.clone(),
                None,
            ),
            ApiError::Unavailable(m) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "ServiceUnavailableError",
                m.clone(),
                None,
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!(error = %detail, "internal error");
        }
        let retry_after = match &self {
            ApiError::RateLimited { retry_after, .. } => Some(*retry_after),
            // a dependency down: clients (the SDKs) retry after a pause
            ApiError::Unavailable(_) => Some(UNAVAILABLE_RETRY_SECS),
            _ => None,
        };
        let (status, kind, error, details) = self.parts();
        let body = ErrorBody {
            error,
            details,
            kind: kind.to_string(),
            retry_after_seconds: retry_after,
        };
        let mut res = (status, Json(body)).into_response();
        if let Some(secs) = retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        // the request log records the error's kind
        res.extensions_mut().insert(ErrorKind(kind));
        res
    }
}

/// What a 503 asks clients to wait before trying again, in seconds.
pub const UNAVAILABLE_RETRY_SECS: u64 = 5;

/// Middleware: an error the framework answers before any handler runs (a
/// query string or a multipart body it could not read) comes as plain
/// text; it is answered like every other error, as the JSON error body
/// with the same status, the framework's message (which names the field)
/// in `details`.
pub async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    let text = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/plain"));
    if !(status.is_client_error() || status.is_server_error()) || !text {
        return res;
    }
    let details = match axum::body::to_bytes(res.into_body(), 16 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let err = match status {
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(details),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
        StatusCode::NOT_FOUND => ApiError::NotFound(details),
        s if s.is_server_error() => ApiError::Internal(details),
        _ => ApiError::Validation {
            field: String::new(),
            message: details,
        },
    };
    let mut res = err.into_response();
    *res.status_mut() = status;
    res
}

impl From<ValidationError> for ApiError {
    fn from(e: ValidationError) -> Self {
        ApiError::Validation {
            field: e.field,
            message: e.message,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(m) => ApiError::Conflict(m),
            StoreError::Incompatible(m) => ApiError::Unavailable(m),
            StoreError::Unavailable(m) => {
                tracing::warn!(error = %m, "the database is unavailable");
                ApiError::Unavailable("the database is unavailable; try again shortly".into())
            }
            StoreError::Full(m) => {
                tracing::error!(error = %m, "the database's disk is full; writes fail until space is freed");
                ApiError::Unavailable(
                    "the server's storage is full; reads still work, writes will once space is freed"
                        .into(),
                )
            }
            StoreError::Backend(m) => ApiError::Internal(m),
        }
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Validation(v) => v.into(),
            EngineError::NotFound { what } => {
                ApiError::NotFound(format!("{} not found", capitalise(&what)))
            }
            EngineError::Conflict(m) => ApiError::Conflict(m),
            EngineError::Permission(m) => ApiError::Permission(m),
            EngineError::RateLimited {
                message,
                retry_after_secs,
            } => ApiError::RateLimited {
                message,
                retry_after: retry_after_secs,
            },
            EngineError::Unsupported(m) => ApiError::NotImplemented(m),
            EngineError::Unavailable(m) => ApiError::Unavailable(m),
            EngineError::Sync(e) => EngineError::from(e).into(),
            EngineError::Store(s) => s.into(),
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
