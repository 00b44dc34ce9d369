//! Bodies of `POST /v3/search` (document and chunk search).

use crate::lenient;
use engram_core::{validate, DocumentSearch, DocumentType, Metadata, ValidationError};
use serde::{Deserialize, Serialize};

/// Most results one search returns.
pub const MAX_SEARCH_LIMIT: u64 = 100;
/// Longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 10_000;

/// `POST /v3/search`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchRequest {
    pub q: String,
    #[serde(
        default,
        deserialize_with = "lenient::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_tag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_threshold: Option<f64>,
    /// Deprecated; accepted (and range-checked) but ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_threshold: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filepath: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_full_docs: Option<bool>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_summary: Option<bool>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub only_matching_chunks: Option<bool>,
    /// Belongs to /v4/search; accepted and ignored here.
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub rerank: Option<bool>,
    /// Belongs to /v4/search; accepted and ignored here.
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub rewrite_query: Option<bool>,
}

fn unit_interval(field: &str, v: Option<f64>) -> Result<f32, ValidationError> {
    match v {
        None => Ok(0.0),
        Some(x) if (0.0..=1.0).contains(&x) => Ok(x as f32),
        Some(x) => Err(ValidationError::new(
            field,
            format!("must be between 0 and 1, got {x}"),
        )),
    }
}

/// A search's `q` (not empty, not too long) and `limit` (1..=100, 10 by
/// default), for `/v3/search` and `/v4/search` alike.
pub fn query_and_limit(q: &str, limit: Option<u64>) -> Result<u64, ValidationError> {
    if q.trim().is_empty() {
        return Err(ValidationError::new("q", "must not be empty"));
    }
    validate::max_chars("q", q, MAX_QUERY_CHARS)?;
    let limit = limit.unwrap_or(10);
    if !(1..=MAX_SEARCH_LIMIT).contains(&limit) {
        return Err(ValidationError::new(
            "limit",
            format!("must be between 1 and {MAX_SEARCH_LIMIT}"),
        ));
    }
    Ok(limit)
}

impl SearchRequest {
    pub fn validate(&self) -> Result<DocumentSearch, ValidationError> {
        let limit = query_and_limit(&self.q, self.limit)?;
        let container_tags = validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        if let Some(d) = &self.doc_id {
            if d.is_empty() || d.chars().count() > 255 {
                return Err(ValidationError::new("docId", "must be 1 to 255 characters"));
            }
        }
        let chunk_threshold = unit_interval("chunkThreshold", self.chunk_threshold)?;
        unit_interval("documentThreshold", self.document_threshold)?;
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p)?;
        }
        let filter = match &self.filters {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(engram_core::filter::parse("filters", v)?),
        };
        Ok(DocumentSearch {
            q: self.q.clone(),
            limit: limit as usize,
            container_tags,
            doc_id: self.doc_id.clone(),
            chunk_threshold,
            filter,
            filepath: self.filepath.clone(),
            include_full_docs: self.include_full_docs.unwrap_or(false),
            include_summary: self.include_summary.unwrap_or(false),
            only_matching_chunks: self.only_matching_chunks.unwrap_or(true),
        })
    }
}

/// One chunk of a search result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchChunk {
    pub content: String,
    pub is_relevant: bool,
    pub score: f32,
    pub position: i64,
}

/// One document of a search result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub document_id: String,
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    pub score: f32,
    pub created_at: String,
    pub updated_at: String,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    pub chunks: Vec<SearchChunk>,
}

/// `POST /v3/search` answer. `timing` is in milliseconds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct SearchResponse {
    pub results: Vec<SearchResult>,
    pub timing: f64,
    pub total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: serde_json::Value) -> String {
        let r: SearchRequest = match serde_json::from_value(v) {
            Ok(r) => r,
            Err(e) => return e.to_string(),
        };
        r.validate().unwrap_err().to_string()
    }

    #[test]
    fn bad_searches() {
        assert!(err(json!({"q": ""})).starts_with("q:"));
        assert!(err(json!({"q": "x", "limit": 0})).starts_with("limit:"));
        assert!(err(json!({"q": "x", "limit": 101})).starts_with("limit:"));
        assert!(err(json!({"q": "x", "chunkThreshold": 1.5})).starts_with("chunkThreshold:"));
        assert!(err(json!({"q": "x", "chunkThreshold": -0.1})).starts_with("chunkThreshold:"));
        assert!(err(json!({"q": "x", "documentThreshold": 2})).starts_with("documentThreshold:"));
        assert!(err(json!({"q": "x", "docId": "d".repeat(256)})).starts_with("docId:"));
        assert!(err(json!({"q": "x", "containerTag": "bad tag"})).starts_with("containerTag:"));
        let ok: SearchRequest = serde_json::from_value(
            json!({"q": "x", "rerank": true, "rewriteQuery": "true", "limit": "5"}),
        )
        .unwrap();
        let v = ok.validate().unwrap();
        assert_eq!(
            (v.limit, v.only_matching_chunks, v.chunk_threshold),
            (5, true, 0.0)
        );
    }
}
