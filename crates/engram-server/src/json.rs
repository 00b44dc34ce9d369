//! A JSON body extractor whose failures are `400 ValidationError` naming the
//! field (via `serde_path_to_error`), instead of axum's plain-text rejections.

use crate::error::ApiError;
use axum::extract::{FromRequest, Request};
use bytes::Bytes;
use serde::de::DeserializeOwned;

/// `Json<T>` with Engram's error mapping.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if let Some(ct) = req.headers().get(axum::http::header::CONTENT_TYPE) {
            let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
            // Lenient about content types (curl's -d sends a form type), but a
            // multipart body is certainly not JSON.
            if ct.starts_with("multipart/") {
                return Err(ApiError::UnsupportedMediaType(format!(
                    "expected `Content-Type: application/json`, got `{ct}`"
                )));
            }
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(0)
            } else {
                ApiError::validation("", format!("could not read the body: {e}"))
            }
        })?;
        parse(&bytes).map(ApiJson)
    }
}

/// An optional JSON body: none when the body is empty.
impl<S: Send + Sync, T: DeserializeOwned> axum::extract::OptionalFromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Option<Self>, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(0)
            } else {
                ApiError::validation("", format!("could not read the body: {e}"))
            }
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        parse(&bytes).map(|v| Some(ApiJson(v)))
    }
}

/// Parse JSON bytes into `T`, naming the failing field.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::validation(
            "",
            "the request body is empty; a JSON object is required",
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return ApiError::validation("", format!("malformed JSON: {inner}"));
        }
        let msg = strip_position(&inner.to_string());
        let field = if path == "." {
            // "missing field `content`" names its own field
            msg.split('`')
                .nth(1)
                .filter(|_| msg.starts_with("missing field"))
                .unwrap_or("")
                .to_string()
        } else {
            path
        };
        ApiError::validation(field, msg)
    })
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_api::AddDocumentRequest;

    fn err(body: &str) -> String {
        match parse::<AddDocumentRequest>(body.as_bytes()) {
            Err(ApiError::Validation { field, message }) => format!("{field}: {message}"),
            other => panic!("expected a validation error, got {:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn errors_name_fields() {
        assert_eq!(
            err(r#"{"content": 5}"#),
            "content: invalid type: integer `5`, expected a string"
        );
        assert_eq!(err(r#"{}"#), "content: missing field `content`");
        assert!(err(r#"{"content": "x", "taskType": "nope"}"#)
            .starts_with("taskType: unknown variant `nope`"));
        assert!(err(r#"{"content": "x", "containerTags": ["a", 1]}"#)
            .starts_with("containerTags[1]: invalid type"));
        assert!(err(r#"{"content": "#).starts_with(": malformed JSON"));
        assert!(err("").contains("empty"));
    }
}
