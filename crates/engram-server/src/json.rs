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
        // no body: the defaults
        if is_blank(&bytes) {
            return Ok(None);
        }
        parse(&bytes).map(|v| Some(ApiJson(v)))
    }
}

/// JSON's own whitespace (not form feed or vertical tab, which a JSON text
/// may not hold).
fn json_space(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Whether a body is empty (nothing but JSON whitespace): "no body".
pub fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(json_space)
}

/// Parse JSON bytes into `T`, naming the failing field.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if is_blank(bytes) {
        return Err(ApiError::validation(
            "",
            "the request body is empty; a JSON object is required",
        ));
    }
    // every body of the API is an object: serde would read an array into
    // a struct field by field, so `[null, null]` is refused here (and
    // anything else that is not one: malformed, or some other value)
    if bytes.iter().find(|b| !json_space(b)) != Some(&b'{') {
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            return Err(ApiError::validation("", format!("malformed JSON: {e}")));
        }
        return Err(ApiError::validation(
            "",
            "the request body must be a JSON object (`{...}`)",
        ));
    }
    if let Some(field) = nul_in_strings(bytes) {
        return Err(ApiError::validation(
            field,
            "must not contain NUL characters (\\u0000)",
        ));
    }
    // one pass: the typed read, then the end of the text (nesting is
    // limited to 128 levels; `{...}}` is trailing garbage, not ignored)
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
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
    })?;
    de.end()
        .map_err(|e| ApiError::validation("", format!("malformed JSON: {e}")))?;
    Ok(value)
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Where a string of the body holds a NUL character, if one does (a JSON
/// text can only carry it escaped, as `\u0000`). Text with NUL cannot be
/// stored in PostgreSQL and means nothing in a name, a tag or a document,
/// so it is refused on both backends alike. The raw bytes are scanned
/// first (cheap); only a body that has one is parsed again to name the
/// field.
fn nul_in_strings(bytes: &[u8]) -> Option<String> {
    let mut found = false;
    let mut i = 0;
    while let Some(at) = bytes[i..].windows(6).position(|w| w == b"\\u0000") {
        let at = i + at;
        // escaped only when an odd number of backslashes lead up to `u0000`
        let slashes = bytes[..=at]
            .iter()
            .rev()
            .take_while(|b| **b == b'\\')
            .count();
        if slashes % 2 == 1 {
            found = true;
            break;
        }
        i = at + 1;
    }
    if !found {
        return None;
    }
    fn walk(v: &serde_json::Value, path: &str) -> Option<String> {
        match v {
            serde_json::Value::String(s) if s.contains('\0') => Some(path.to_string()),
            serde_json::Value::Array(a) => a
                .iter()
                .enumerate()
                .find_map(|(n, x)| walk(x, &format!("{path}[{n}]"))),
            serde_json::Value::Object(o) => o.iter().find_map(|(k, x)| {
                if k.contains('\0') {
                    return Some(path.to_string());
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(x, &p)
            }),
            _ => None,
        }
    }
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    walk(&v, "")
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
