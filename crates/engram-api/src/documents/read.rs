//! Answers of the read routes of `/v3/documents*`: one document, the
//! list (with its request and paging), the processing queue, and chunks.
//! Only shapes and their validation; nothing here reads a store.

use super::MAX_LIST_LIMIT;
use crate::lenient;
use engram_core::validate;
use engram_core::{
    DocumentStatus, DocumentType, DreamingStatus, Metadata, SortField, SortOrder, TaskType,
    ValidationError,
};
use serde::{Deserialize, Serialize};

/// `GET /v3/documents/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentResponse {
    pub id: String,
    pub custom_id: Option<String>,
    pub connection_id: Option<String>,
    pub content: Option<String>,
    pub container_tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub og_image: Option<String>,
    pub raw: Option<String>,
    pub source: Option<String>,
    pub status: DocumentStatus,
    pub summary: Option<String>,
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    pub task_type: TaskType,
    pub dreaming_status: DreamingStatus,
    pub latest_revision: i64,
    pub url: Option<String>,
    pub filepath: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_count: Option<i64>,
    /// The memories formed from it (`GET /v3/documents/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memories: Option<Vec<crate::MemoryEntry>>,
}

/// `POST /v3/documents/list` body.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListDocumentsRequest {
    #[serde(
        default,
        alias = "container_tag",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tag: Option<String>,
    #[serde(
        default,
        alias = "container_tags",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<serde_json::Value>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_content: Option<bool>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<u64>,
    #[serde(
        default,
        deserialize_with = "lenient::opt_u64",
        skip_serializing_if = "Option::is_none"
    )]
    pub page: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<SortField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filepath: Option<String>,
}

/// The validated form of a list request.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidList {
    pub container_tags: Vec<String>,
    pub filter: Option<engram_core::filter::Filter>,
    pub include_content: bool,
    pub limit: u64,
    pub page: u64,
    pub order: SortOrder,
    pub sort: SortField,
    pub filepath: Option<String>,
}

impl ListDocumentsRequest {
    pub fn validate(&self) -> Result<ValidList, ValidationError> {
        let container_tags = validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        let limit = self.limit.unwrap_or(10);
        if !(1..=MAX_LIST_LIMIT).contains(&limit) {
            return Err(ValidationError::new(
                "limit",
                format!("must be between 1 and {MAX_LIST_LIMIT}"),
            ));
        }
        let page = self.page.unwrap_or(1);
        if !(1..=crate::MAX_PAGE).contains(&page) {
            return Err(ValidationError::new(
                "page",
                format!("must be between 1 and {}", crate::MAX_PAGE),
            ));
        }
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p)?;
        }
        let filter = match &self.filters {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(engram_core::filter::parse("filters", v)?),
        };
        Ok(ValidList {
            container_tags,
            filter,
            include_content: self.include_content.unwrap_or(false),
            limit,
            page,
            order: self.order.unwrap_or(SortOrder::Desc),
            sort: self.sort.unwrap_or(SortField::CreatedAt),
            filepath: self.filepath.clone(),
        })
    }
}

/// One document of a list answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentListItem {
    pub id: String,
    pub custom_id: Option<String>,
    pub connection_id: Option<String>,
    pub container_tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    pub filepath: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub status: DocumentStatus,
    pub summary: Option<String>,
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// `{currentPage, limit, totalItems, totalPages}`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub current_page: u64,
    pub limit: u64,
    pub total_items: u64,
    pub total_pages: u64,
}

impl Pagination {
    pub fn new(page: u64, limit: u64, total: u64) -> Self {
        Self {
            current_page: page,
            limit,
            total_items: total,
            total_pages: total.div_ceil(limit.max(1)),
        }
    }
}

/// `POST /v3/documents/list` answer: the key really is `memories`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ListDocumentsResponse {
    pub memories: Vec<DocumentListItem>,
    pub pagination: Pagination,
}

/// One document of `GET /v3/documents/processing`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessingDocument {
    pub id: String,
    pub custom_id: Option<String>,
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    pub status: DocumentStatus,
    pub created_at: String,
    pub updated_at: String,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    pub container_tags: Vec<String>,
}

/// `GET /v3/documents/processing` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessingResponse {
    pub documents: Vec<ProcessingDocument>,
    pub total_count: u64,
}

/// One chunk of `GET /v3/documents/{id}/chunks`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChunkItem {
    pub id: String,
    pub position: i64,
    pub content: String,
    #[serde(rename = "type")]
    pub chunk_type: String,
    pub metadata: Option<serde_json::Value>,
    pub created_at: String,
}

/// `GET /v3/documents/{id}/chunks` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChunksResponse {
    pub document_id: String,
    pub chunks: Vec<ChunkItem>,
    pub total: u64,
}
