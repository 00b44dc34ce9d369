//! `POST /v3/documents/file`: the multipart form, as documentation (the
//! server reads the parts one by one).

use engram_core::{Dreaming, TaskType};
use serde::{Deserialize, Serialize};

/// `POST /v3/documents/file`: a multipart form (documentation only; the
/// server reads the parts one by one).
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadFileForm {
    /// The file (PDF, image, text, Markdown, HTML, Office documents...).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    pub container_tag: Option<String>,
    /// A JSON array of strings, or one tag.
    pub container_tags: Option<String>,
    /// A JSON object.
    pub metadata: Option<String>,
    pub custom_id: Option<String>,
    pub entity_context: Option<String>,
    pub filepath: Option<String>,
    pub task_type: Option<TaskType>,
    pub dreaming: Option<Dreaming>,
    /// The file's MIME type when the part does not say.
    pub mime_type: Option<String>,
}
