//! Bodies of the `/v4` memory routes: `/v4/memories` (create, new version,
//! forget), `/v4/memories/forget-matching`, `/v4/memories/list`,
//! `/v4/search`, `/v4/profile` and `/v4/conversations`.

use crate::lenient;
use engram_core::{validate, Metadata, ValidationError};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// Most memories one `POST /v4/memories` creates.
pub const MAX_MEMORIES_PER_REQUEST: usize = 100;
/// Longest memory, in characters.
pub const MAX_MEMORY_CHARS: usize = 10_000;

/// `null` and absent apart: `Some(None)` is an explicit `null`.
fn double_option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// An ISO 8601 instant (`2026-01-01T00:00:00Z`, or a bare date meaning its
/// midnight UTC).
pub fn parse_instant(
    field: &str,
    s: &str,
) -> Result<chrono::DateTime<chrono::Utc>, ValidationError> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&chrono::Utc));
    }
    if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    Err(ValidationError::new(
        field,
        format!("must be an ISO 8601 date-time, got `{s}`"),
    ))
}

/// When a memory's source was said and the dates it mentions.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemporalContext {
    #[serde(default)]
    pub document_date: Option<String>,
    #[serde(default)]
    pub event_date: Option<Vec<String>>,
}

/// One memory to create.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewMemoryItem {
    pub content: String,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub is_static: Option<bool>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(default)]
    pub forget_after: Option<String>,
    #[serde(default)]
    pub forget_reason: Option<String>,
    #[serde(default)]
    pub temporal_context: Option<TemporalContext>,
}

/// `POST /v4/memories`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateMemoriesRequest {
    pub memories: Vec<NewMemoryItem>,
    /// The space (`containerTags` with one tag works too; the singular
    /// wins when both are sent).
    #[serde(default, alias = "container_tag")]
    pub container_tag: Option<String>,
    #[serde(
        default,
        alias = "container_tags",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tags: Option<Vec<String>>,
}

impl CreateMemoriesRequest {
    /// Checks the request; returns the space it writes to.
    pub fn validate(&self) -> Result<Option<String>, ValidationError> {
        let tag = validate::one_container_tag(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        if self.memories.is_empty() || self.memories.len() > MAX_MEMORIES_PER_REQUEST {
            return Err(ValidationError::new(
                "memories",
                format!("must hold 1 to {MAX_MEMORIES_PER_REQUEST} memories"),
            ));
        }
        for (i, m) in self.memories.iter().enumerate() {
            let f = |name: &str| format!("memories[{i}].{name}");
            if m.content.trim().is_empty() {
                return Err(ValidationError::new(f("content"), "must not be empty"));
            }
            validate::max_chars(&f("content"), &m.content, MAX_MEMORY_CHARS)?;
            if let Some(md) = &m.metadata {
                validate::metadata(&f("metadata"), md)?;
            }
            if let Some(t) = &m.forget_after {
                parse_instant(&f("forgetAfter"), t)?;
            }
        }
        Ok(tag)
    }
}

/// One created memory.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedMemory {
    pub id: String,
    pub memory: String,
    pub is_static: bool,
    pub created_at: String,
    pub forget_after: Option<String>,
    pub forget_reason: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
}

/// `POST /v4/memories` answer (201).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateMemoriesResponse {
    pub document_id: Option<String>,
    pub memories: Vec<CreatedMemory>,
}

/// Which memory: `id`, or its exact `content`, in `containerTag`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemoryTarget {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default, alias = "container_tag")]
    pub container_tag: Option<String>,
    #[serde(
        default,
        alias = "container_tags",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tags: Option<Vec<String>>,
}

impl MemoryTarget {
    /// Checks the tag, and that exactly one of `id` and `content` is
    /// given; returns the space.
    pub fn validate(&self) -> Result<Option<String>, ValidationError> {
        let tag = validate::one_container_tag(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        match (&self.id, &self.content) {
            (Some(id), None) if !id.is_empty() => Ok(tag),
            (None, Some(c)) if !c.is_empty() => Ok(tag),
            (Some(_), Some(_)) => Err(ValidationError::new(
                "id",
                "give either `id` or `content`, not both",
            )),
            _ => Err(ValidationError::new(
                "id",
                "give the memory's `id` or its exact `content`",
            )),
        }
    }
}

/// `PATCH /v4/memories`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchMemoryRequest {
    #[serde(flatten)]
    pub target: MemoryTarget,
    #[serde(default)]
    pub new_content: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(
        default,
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub forget_after: Option<Option<String>>,
    #[serde(
        default,
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub forget_reason: Option<Option<String>>,
    #[serde(default)]
    pub temporal_context: Option<TemporalContext>,
}

impl PatchMemoryRequest {
    /// Checks the request; returns the space.
    pub fn validate(&self) -> Result<Option<String>, ValidationError> {
        let tag = self.target.validate()?;
        if let Some(c) = &self.new_content {
            if c.trim().is_empty() {
                return Err(ValidationError::new("newContent", "must not be empty"));
            }
            validate::max_chars("newContent", c, MAX_MEMORY_CHARS)?;
        }
        if let Some(md) = &self.metadata {
            validate::metadata("metadata", md)?;
        }
        if let Some(Some(t)) = &self.forget_after {
            parse_instant("forgetAfter", t)?;
        }
        Ok(tag)
    }
}

/// `PATCH /v4/memories` answer: the new version.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchMemoryResponse {
    pub id: String,
    pub memory: String,
    pub version: i64,
    pub parent_memory_id: Option<String>,
    pub root_memory_id: Option<String>,
    pub created_at: String,
    pub forget_after: Option<String>,
    pub forget_reason: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
}

/// `DELETE /v4/memories`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForgetMemoryRequest {
    #[serde(flatten)]
    pub target: MemoryTarget,
    #[serde(default)]
    pub reason: Option<String>,
}

/// `DELETE /v4/memories` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ForgetMemoryResponse {
    pub id: String,
    pub forgotten: bool,
}

/// `POST /v4/memories/forget-matching`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForgetMatchingRequest {
    #[serde(default)]
    pub query: Option<String>,
    #[serde(default)]
    pub ids: Option<Vec<String>>,
    #[serde(default, alias = "container_tag")]
    pub container_tag: Option<String>,
    #[serde(
        default,
        alias = "container_tags",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tags: Option<Vec<String>>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub dry_run: Option<bool>,
    #[serde(default)]
    pub threshold: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub max_forget: Option<u64>,
    #[serde(default)]
    pub reason: Option<String>,
}

impl ForgetMatchingRequest {
    /// Checks the request; returns the space.
    pub fn validate(&self) -> Result<Option<String>, ValidationError> {
        let tag = validate::one_container_tag(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        if let Some(q) = &self.query {
            if q.trim().is_empty() || q.chars().count() > 2000 {
                return Err(ValidationError::new(
                    "query",
                    "must be 1 to 2000 characters",
                ));
            }
        }
        if let Some(ids) = &self.ids {
            if ids.is_empty() || ids.len() > 500 {
                return Err(ValidationError::new("ids", "must hold 1 to 500 ids"));
            }
        }
        if self.query.is_none() && self.ids.is_none() {
            return Err(ValidationError::new("query", "give a `query` or `ids`"));
        }
        if let Some(t) = self.threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(ValidationError::new("threshold", "must be between 0 and 1"));
            }
        }
        if let Some(m) = self.max_forget {
            if !(1..=500).contains(&m) {
                return Err(ValidationError::new(
                    "maxForget",
                    "must be between 1 and 500",
                ));
            }
        }
        Ok(tag)
    }
}

/// A memory `forget-matching` found.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct MatchedMemory {
    pub id: String,
    pub memory: String,
    pub score: f32,
}

/// `POST /v4/memories/forget-matching` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForgetMatchingResponse {
    pub dry_run: bool,
    pub count: u64,
    pub forget_batch_id: Option<String>,
    pub summary: String,
    pub candidates: Vec<MatchedMemory>,
    pub forgotten: Vec<MatchedMemory>,
}

/// `POST /v4/memories/list`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListMemoriesRequest {
    #[serde(default, alias = "container_tags")]
    pub container_tags: Vec<String>,
    #[serde(
        default,
        alias = "container_tag",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tag: Option<String>,
    #[serde(default)]
    pub filters: Option<Value>,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub limit: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub page: Option<u64>,
    #[serde(default)]
    pub order: Option<String>,
    #[serde(default)]
    pub sort: Option<String>,
}

/// A validated memory page request.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidMemoryList {
    pub container_tags: Vec<String>,
    pub filter: Option<engram_core::filter::Filter>,
    pub limit: u64,
    pub page: u64,
    pub ascending: bool,
    pub by_updated: bool,
}

impl ListMemoriesRequest {
    pub fn validate(&self) -> Result<ValidMemoryList, ValidationError> {
        let container_tags =
            validate::container_tags(self.container_tag.as_deref(), Some(&self.container_tags))?;
        if container_tags.is_empty() {
            return Err(ValidationError::new(
                "containerTags",
                "must hold at least one tag (or send `containerTag`)",
            ));
        }
        let limit = self.limit.unwrap_or(10);
        if !(1..=1100).contains(&limit) {
            return Err(ValidationError::new("limit", "must be between 1 and 1100"));
        }
        let page = self.page.unwrap_or(1).max(1);
        if page > crate::MAX_PAGE {
            return Err(ValidationError::new(
                "page",
                format!("must be between 1 and {}", crate::MAX_PAGE),
            ));
        }
        let ascending = match self.order.as_deref() {
            None | Some("desc") => false,
            Some("asc") => true,
            Some(o) => {
                return Err(ValidationError::new(
                    "order",
                    format!("must be `asc` or `desc`, got `{o}`"),
                ))
            }
        };
        let by_updated = match self.sort.as_deref() {
            None | Some("createdAt") => false,
            Some("updatedAt") => true,
            Some(o) => {
                return Err(ValidationError::new(
                    "sort",
                    format!("must be `createdAt` or `updatedAt`, got `{o}`"),
                ))
            }
        };
        let filter = match &self.filters {
            None | Some(Value::Null) => None,
            Some(v) => Some(engram_core::filter::parse("filters", v)?),
        };
        Ok(ValidMemoryList {
            container_tags,
            filter,
            limit,
            page,
            ascending,
            by_updated,
        })
    }
}

/// An older version in a memory's history.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemoryVersion {
    pub id: String,
    pub memory: String,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub parent_memory_id: Option<String>,
    pub root_memory_id: Option<String>,
    pub is_latest: bool,
    pub is_forgotten: bool,
}

/// One memory of a list (and of a document's `memories`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemoryEntry {
    pub id: String,
    pub memory: String,
    pub version: i64,
    pub is_latest: bool,
    pub is_forgotten: bool,
    pub is_static: bool,
    pub is_inference: Option<bool>,
    pub created_at: String,
    pub updated_at: String,
    pub space_id: String,
    pub org_id: String,
    pub source_count: i64,
    pub parent_memory_id: Option<String>,
    pub root_memory_id: Option<String>,
    pub forget_after: Option<String>,
    pub forget_reason: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub memory_relations: Option<serde_json::Map<String, Value>>,
    pub temporal_context: Option<serde_json::Map<String, Value>>,
    pub history: Vec<MemoryVersion>,
    pub document_ids: Vec<String>,
}

/// `POST /v4/memories/list` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListMemoriesResponse {
    pub memory_entries: Vec<MemoryEntry>,
    pub pagination: crate::Pagination,
}
