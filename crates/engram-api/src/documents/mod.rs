//! Bodies of the `/v3/documents*` routes.

use engram_core::validate;
use engram_core::{DocumentInput, DocumentStatus, Dreaming, Metadata, TaskType, ValidationError};
use serde::{Deserialize, Serialize};

mod read;
pub use read::*;

/// Most items in one `POST /v3/documents/batch`.
pub const MAX_BATCH: usize = 600;
/// Most ids in one `DELETE /v3/documents/bulk`.
pub const MAX_BULK_DELETE_IDS: usize = 100;
/// Largest list page.
pub const MAX_LIST_LIMIT: u64 = 1100;

/// `POST /v3/documents`, and one item of a batch.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddDocumentRequest {
    pub content: String,
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
    pub custom_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_type: Option<TaskType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dreaming: Option<Dreaming>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filepath: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity_context: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub filter_by_metadata: Option<Metadata>,
}

impl AddDocumentRequest {
    /// Check every field; `prefix` is prepended to field names (for batch
    /// items, `documents[3].`).
    pub fn validate(&self, prefix: &str) -> Result<DocumentInput, ValidationError> {
        let named =
            |e: ValidationError| ValidationError::new(format!("{prefix}{}", e.field), e.message);
        validate::content("content", &self.content).map_err(named)?;
        let container_tags = validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )
        .map_err(named)?;
        if let Some(c) = &self.custom_id {
            validate::custom_id("customId", c).map_err(named)?;
        }
        let metadata = self.metadata.clone().unwrap_or_default();
        validate::metadata("metadata", &metadata).map_err(named)?;
        if let Some(f) = &self.filter_by_metadata {
            validate::metadata("filterByMetadata", f).map_err(named)?;
        }
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p).map_err(named)?;
        }
        if let Some(e) = &self.entity_context {
            validate::max_chars("entityContext", e, validate::MAX_ENTITY_CONTEXT_LEN)
                .map_err(named)?;
        }
        Ok(DocumentInput {
            content: self.content.clone(),
            container_tags,
            custom_id: self.custom_id.clone(),
            metadata,
            task_type: self.task_type.unwrap_or(TaskType::Memory),
            dreaming: self.dreaming.unwrap_or(Dreaming::Dynamic),
            filepath: self.filepath.clone(),
            entity_context: self.entity_context.clone(),
        })
    }
}

/// `{id, status}`: what an accepted write answers.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct AddDocumentResponse {
    pub id: String,
    pub status: DocumentStatus,
}

/// `POST /v3/documents/batch`. `documents` items are objects or bare strings;
/// the top-level fields are defaults for items that leave them out. Items are
/// kept as raw JSON so that one bad item fails alone.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchAddRequest {
    pub documents: Vec<serde_json::Value>,
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
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_type: Option<TaskType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dreaming: Option<Dreaming>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filepath: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity_context: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub filter_by_metadata: Option<Metadata>,
}

impl BatchAddRequest {
    /// Check the shared fields and the item count.
    pub fn validate_shared(&self) -> Result<(), ValidationError> {
        if self.documents.is_empty() || self.documents.len() > MAX_BATCH {
            return Err(ValidationError::new(
                "documents",
                format!(
                    "must hold 1 to {MAX_BATCH} items, got {}",
                    self.documents.len()
                ),
            ));
        }
        validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )?;
        if let Some(m) = &self.metadata {
            validate::metadata("metadata", m)?;
        }
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p)?;
        }
        if let Some(e) = &self.entity_context {
            validate::max_chars("entityContext", e, validate::MAX_ENTITY_CONTEXT_LEN)?;
        }
        Ok(())
    }

    /// Item `i` as an add request with the shared defaults filled in.
    pub fn item(&self, i: usize) -> Result<AddDocumentRequest, ValidationError> {
        let raw = &self.documents[i];
        let mut item: AddDocumentRequest = match raw {
            serde_json::Value::String(s) => AddDocumentRequest {
                content: s.clone(),
                ..Default::default()
            },
            serde_json::Value::Object(_) => serde_json::from_value(raw.clone())
                .map_err(|e| ValidationError::new(format!("documents[{i}]"), e.to_string()))?,
            _ => {
                return Err(ValidationError::new(
                    format!("documents[{i}]"),
                    "must be a string or an object with `content`",
                ))
            }
        };
        if item.container_tag.is_none() && item.container_tags.is_none() {
            item.container_tag = self.container_tag.clone();
            item.container_tags = self.container_tags.clone();
        }
        if item.metadata.is_none() {
            item.metadata = self.metadata.clone();
        }
        item.task_type = item.task_type.or(self.task_type);
        item.dreaming = item.dreaming.or(self.dreaming);
        if item.filepath.is_none() {
            item.filepath = self.filepath.clone();
        }
        if item.entity_context.is_none() {
            item.entity_context = self.entity_context.clone();
        }
        Ok(item)
    }
}

/// One result of a batch add.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct BatchItemResult {
    pub id: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
}

/// `POST /v3/documents/batch` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct BatchAddResponse {
    pub results: Vec<BatchItemResult>,
    pub success: u64,
    pub failed: u64,
}

/// `PATCH /v3/documents/{id}`: every field optional; a content change
/// reprocesses the document, anything else changes it in place.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateDocumentRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
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
    pub custom_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Metadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_type: Option<TaskType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filepath: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub filter_by_metadata: Option<Metadata>,
}

impl UpdateDocumentRequest {
    /// Check every present field.
    pub fn validate(&self) -> Result<Option<Vec<String>>, ValidationError> {
        if let Some(c) = &self.content {
            validate::content("content", c)?;
        }
        let tags = if self.container_tag.is_some() || self.container_tags.is_some() {
            Some(validate::container_tags(
                self.container_tag.as_deref(),
                self.container_tags.as_deref(),
            )?)
        } else {
            None
        };
        if let Some(c) = &self.custom_id {
            validate::custom_id("customId", c)?;
        }
        if let Some(m) = &self.metadata {
            validate::metadata("metadata", m)?;
        }
        if let Some(m) = &self.filter_by_metadata {
            validate::metadata("filterByMetadata", m)?;
        }
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p)?;
        }
        Ok(tags)
    }
}

/// `DELETE /v3/documents/bulk` body: ids, container tags, or a file path.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkDeleteRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
    /// One tag; joins `containerTags`.
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
    pub filepath: Option<String>,
}

impl BulkDeleteRequest {
    /// Checks the request; returns the tags whose documents go
    /// (`containerTag` and `containerTags` together; none when neither was
    /// sent).
    pub fn validate(&self) -> Result<Option<Vec<String>>, ValidationError> {
        if self.ids.is_none()
            && self.container_tags.is_none()
            && self.container_tag.is_none()
            && self.filepath.is_none()
        {
            return Err(ValidationError::new(
                "ids",
                "either `ids`, `containerTag(s)` or `filepath` must be provided",
            ));
        }
        if let Some(ids) = &self.ids {
            if ids.is_empty() || ids.len() > MAX_BULK_DELETE_IDS {
                return Err(ValidationError::new(
                    "ids",
                    format!("must hold 1 to {MAX_BULK_DELETE_IDS} ids"),
                ));
            }
            for (i, id) in ids.iter().enumerate() {
                if id.is_empty() || id.len() > 255 {
                    return Err(ValidationError::new(
                        format!("ids[{i}]"),
                        "must be 1 to 255 characters",
                    ));
                }
            }
        }
        if self.container_tags.as_ref().is_some_and(|t| t.is_empty()) {
            return Err(ValidationError::new("containerTags", "must not be empty"));
        }
        if let Some(p) = &self.filepath {
            validate::filepath("filepath", p)?;
        }
        if self.container_tag.is_none() && self.container_tags.is_none() {
            return Ok(None);
        }
        validate::container_tags(
            self.container_tag.as_deref(),
            self.container_tags.as_deref(),
        )
        .map(Some)
    }
}

/// One id that a bulk delete could not remove.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct BulkDeleteError {
    pub id: String,
    pub error: String,
}

/// `DELETE /v3/documents/bulk` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkDeleteResponse {
    pub success: bool,
    pub deleted_count: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<BulkDeleteError>,
    #[serde(
        default,
        alias = "container_tags",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_tags: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn batch_items_inherit_shared_fields() {
        let req: BatchAddRequest = serde_json::from_value(json!({
            "containerTag": "t1",
            "metadata": {"a": 1},
            "documents": ["plain", {"content": "obj", "containerTag": "t2"}, 5]
        }))
        .unwrap();
        let a = req.item(0).unwrap().validate("documents[0].").unwrap();
        assert_eq!(a.container_tags, vec!["t1"]);
        assert_eq!(a.metadata.get("a"), Some(&json!(1)));
        let b = req.item(1).unwrap().validate("documents[1].").unwrap();
        assert_eq!(b.container_tags, vec!["t2"]);
        assert_eq!(req.item(2).unwrap_err().field, "documents[2]");
    }

    #[test]
    fn list_accepts_numeric_strings() {
        let req: ListDocumentsRequest =
            serde_json::from_value(json!({"limit": "5", "page": 2, "includeContent": "true"}))
                .unwrap();
        let v = req.validate().unwrap();
        assert_eq!((v.limit, v.page, v.include_content), (5, 2, true));
        let bad: Result<ListDocumentsRequest, _> = serde_json::from_value(json!({"limit": "x"}));
        assert!(bad.is_err());
    }

    #[test]
    fn pagination_rounds_up() {
        assert_eq!(Pagination::new(1, 10, 21).total_pages, 3);
        assert_eq!(Pagination::new(1, 10, 0).total_pages, 0);
    }
}
