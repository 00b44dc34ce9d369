//! Bodies of `/v4/search`, `/v4/profile` and `/v4/conversations`.

use crate::lenient;
use crate::search::MAX_QUERY_CHARS;
use engram_core::{validate, Metadata, ValidationError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The default `threshold` of `/v4/search`.
pub const DEFAULT_V4_THRESHOLD: f32 = 0.6;

/// What `include` asks for.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchInclude {
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub documents: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub summaries: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub related_memories: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub forgotten_memories: Option<bool>,
    /// Deprecated; accepted.
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub chunks: Option<bool>,
}

/// `POST /v4/search`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct V4SearchRequest {
    pub q: String,
    #[serde(default)]
    pub container_tag: Option<String>,
    #[serde(default)]
    pub container_tags: Option<Vec<String>>,
    #[serde(default)]
    pub threshold: Option<f64>,
    #[serde(default)]
    pub filters: Option<Value>,
    #[serde(default)]
    pub include: Option<SearchInclude>,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub limit: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub rerank: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub aggregate: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub rewrite_query: Option<bool>,
    #[serde(default)]
    pub search_mode: Option<String>,
}

/// A validated `/v4/search`.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidV4Search {
    pub q: String,
    pub container_tags: Vec<String>,
    pub threshold: f32,
    pub filter: Option<engram_core::filter::Filter>,
    pub limit: usize,
    /// `memories`, `hybrid` or `documents`.
    pub mode: String,
    pub include: SearchInclude,
    pub rerank: bool,
    pub rewrite_query: bool,
    pub aggregate: bool,
}

impl V4SearchRequest {
    pub fn validate(&self) -> Result<ValidV4Search, ValidationError> {
        let limit = crate::search::query_and_limit(&self.q, self.limit)?;
        let threshold = match self.threshold {
            None => DEFAULT_V4_THRESHOLD,
            Some(t) if (0.0..=1.0).contains(&t) => t as f32,
            Some(t) => {
                return Err(ValidationError::new(
                    "threshold",
                    format!("must be between 0 and 1, got {t}"),
                ))
            }
        };
        let mode = self
            .search_mode
            .clone()
            .unwrap_or_else(|| "memories".into());
        if !["memories", "hybrid", "documents"].contains(&mode.as_str()) {
            return Err(ValidationError::new(
                "searchMode",
                format!("must be `memories`, `hybrid` or `documents`, got `{mode}`"),
            ));
        }
        let container_tags = validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        let filter = match &self.filters {
            None | Some(Value::Null) => None,
            Some(v) => Some(engram_core::filter::parse("filters", v)?),
        };
        Ok(ValidV4Search {
            q: self.q.clone(),
            container_tags,
            threshold,
            filter,
            limit: limit as usize,
            mode,
            include: self.include.clone().unwrap_or_default(),
            rerank: self.rerank.unwrap_or(false),
            rewrite_query: self.rewrite_query.unwrap_or(false),
            aggregate: self.aggregate.unwrap_or(false),
        })
    }
}

/// A memory next to a result in the graph.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextMemory {
    pub relation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    pub memory: String,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub updated_at: String,
}

/// `context` of a result (with `include.relatedMemories`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ResultContext {
    pub parents: Vec<ContextMemory>,
    pub children: Vec<ContextMemory>,
    pub related: Vec<ContextMemory>,
}

/// A source document of a result (with `include.documents`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultDocumentRef {
    pub id: String,
    #[serde(rename = "type")]
    pub doc_type: String,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub summary: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A chunk carried by a memory result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultChunk {
    pub content: String,
    pub score: f32,
    pub position: i64,
    pub document_id: String,
}

/// One `/v4/search` result: a memory or a chunk.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct V4Result {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub updated_at: String,
    pub similarity: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ResultContext>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documents: Option<Vec<ResultDocumentRef>>,
    /// A memory's passage in a hybrid list: the chunk it was formed from,
    /// carried by the memory instead of listed as a result of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<Vec<ResultChunk>>,
    /// Synthesised from several memories (`aggregate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_aggregated: Option<bool>,
}

/// `POST /v4/search` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct V4SearchResponse {
    pub results: Vec<V4Result>,
    pub timing: f64,
    pub total: u64,
}

/// `POST /v4/profile`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRequest {
    pub container_tag: String,
    #[serde(default)]
    pub q: Option<String>,
    #[serde(default)]
    pub threshold: Option<f64>,
    #[serde(default)]
    pub filters: Option<Value>,
    #[serde(default)]
    pub include: Option<Vec<String>>,
    #[serde(default)]
    pub buckets: Option<Vec<String>>,
}

impl ProfileRequest {
    pub fn validate(&self) -> Result<(), ValidationError> {
        validate::container_tag("containerTag", &self.container_tag)?;
        if let Some(t) = self.threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(ValidationError::new("threshold", "must be between 0 and 1"));
            }
        }
        if let Some(inc) = &self.include {
            for i in inc {
                if !["static", "dynamic", "buckets"].contains(&i.as_str()) {
                    return Err(ValidationError::new(
                        "include",
                        format!("unknown part `{i}`: use static, dynamic or buckets"),
                    ));
                }
            }
        }
        if let Some(q) = &self.q {
            validate::max_chars("q", q, MAX_QUERY_CHARS)?;
        }
        Ok(())
    }
}

/// The profile itself.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ProfileBody {
    #[serde(rename = "static")]
    pub static_facts: Vec<String>,
    pub dynamic: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buckets: Option<serde_json::Map<String, Value>>,
}

/// `POST /v4/profile` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileResponse {
    pub profile: ProfileBody,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_results: Option<V4SearchResponse>,
}

/// One message of `/v4/conversations`.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationMessage {
    pub role: String,
    pub content: Value,
    #[serde(default)]
    pub name: Option<String>,
}

impl ConversationMessage {
    /// The message as text: string content, or its text parts joined, with
    /// image parts (`imageUrl` or `image_url`) noted by URL.
    pub fn text(&self, field: &str) -> Result<String, ValidationError> {
        match &self.content {
            Value::String(s) => Ok(s.clone()),
            Value::Array(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    match p.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            if let Some(t) = p.get("text").and_then(Value::as_str) {
                                out.push(t.to_string());
                            }
                        }
                        Some("image_url") => {
                            let url = p
                                .get("imageUrl")
                                .or_else(|| p.get("image_url"))
                                .and_then(|u| u.get("url").or(Some(u)))
                                .and_then(Value::as_str)
                                .ok_or_else(|| {
                                    ValidationError::new(field, "an image part needs a url")
                                })?;
                            out.push(format!("[image: {url}]"));
                        }
                        _ => {
                            return Err(ValidationError::new(
                                field,
                                "parts must be `text` or `image_url`",
                            ))
                        }
                    }
                }
                Ok(out.join(" "))
            }
            _ => Err(ValidationError::new(
                field,
                "must be a string or a list of parts",
            )),
        }
    }
}

/// `POST /v4/conversations`.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationRequest {
    /// The conversation's id: its document's `customId` (sending it as
    /// `customId` works too).
    #[serde(alias = "customId", alias = "conversation_id")]
    pub conversation_id: String,
    pub messages: Vec<ConversationMessage>,
    /// The conversation's space; `containerTags` works too (both: the
    /// singular is the space its memories form in, the plural adds tags).
    #[serde(
        default,
        alias = "container_tag",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tag: Option<String>,
    #[serde(default, alias = "container_tags")]
    pub container_tags: Option<Vec<String>>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
}

impl ConversationRequest {
    /// The messages as `(role, text)`, validated.
    pub fn validate(&self) -> Result<Vec<(String, String)>, ValidationError> {
        let id = &self.conversation_id;
        if id.is_empty() || id.chars().count() > 255 {
            return Err(ValidationError::new(
                "conversationId",
                "must be 1 to 255 characters",
            ));
        }
        if self.messages.is_empty() {
            return Err(ValidationError::new(
                "messages",
                "must hold at least one message",
            ));
        }
        validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        if let Some(md) = &self.metadata {
            validate::metadata("metadata", md)?;
        }
        self.messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if !["user", "assistant", "system", "tool"].contains(&m.role.as_str()) {
                    return Err(ValidationError::new(
                        format!("messages[{i}].role"),
                        "must be user, assistant, system or tool",
                    ));
                }
                let text = m.text(&format!("messages[{i}].content"))?;
                // a person speaks under their name; an assistant (or a
                // tool) is never taken for one
                let who = match (m.role.as_str(), &m.name) {
                    ("user", Some(n)) if !n.trim().is_empty() => {
                        n.replace([':', '\n', '\r'], " ").trim().to_string()
                    }
                    _ => m.role.clone(),
                };
                Ok((who, text))
            })
            .collect()
    }
}

/// `POST /v4/profile/buckets`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BucketsRequest {
    pub container_tag: Option<String>,
}

/// A bucket profiles file facts into.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ProfileBucket {
    pub key: String,
    pub description: String,
}

/// `POST /v4/profile/buckets` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct BucketsResponse {
    pub buckets: Vec<ProfileBucket>,
}
