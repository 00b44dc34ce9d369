//! `POST /v3/documents/file`: multipart uploads. The file's bytes are stored
//! with the document and extracted by the pipeline.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Multipart, State};
use axum::Json;
use engram_api::{AddDocumentRequest, AddDocumentResponse, ErrorBody, UploadFileForm};
use engram_core::{Dreaming, TaskType};
use engram_engine::FileInput;

fn text_field(name: &str, bytes: &[u8]) -> Result<String, ApiError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| ApiError::validation(name, "must be UTF-8 text"))
}

#[utoipa::path(
    post,
    path = "/v3/documents/file",
    operation_id = "uploadFile",
    tag = "documents",
    request_body(content = UploadFileForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Queued for processing", body = AddDocumentResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 413, description = "Too large (`PayloadTooLargeError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Upload a file (multipart form).
pub async fn upload_file(
    State(s): State<AppState>,
    Caller(who): Caller,
    mut form: Multipart,
) -> Result<Json<AddDocumentResponse>, ApiError> {
    let mut file: Option<FileInput> = None;
    let mut req = AddDocumentRequest::default();
    let mut mime_override: Option<String> = None;
    let limit = s.config.max_file_bytes;
    let form_err = |e: axum::extract::multipart::MultipartError| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge(limit)
        } else {
            ApiError::validation("", format!("malformed multipart body: {}", e.body_text()))
        }
    };
    while let Some(field) = form.next_field().await.map_err(form_err)? {
        let name = field.name().unwrap_or("").to_string();
        if name == "file" {
            let filename = field.file_name().map(str::to_string);
            let mime = field.content_type().map(str::to_string);
            let bytes = field.bytes().await.map_err(form_err)?;
            if bytes.len() > limit {
                return Err(ApiError::PayloadTooLarge(limit));
            }
            file = Some(FileInput {
                filename,
                mime_type: mime,
                bytes: bytes.to_vec(),
            });
            continue;
        }
        let value = text_field(&name, &field.bytes().await.map_err(form_err)?)?;
        match name.as_str() {
            "containerTag" | "container_tag" => req.container_tag = Some(value),
            "containerTags" | "container_tags" => {
                let tags = if value.trim_start().starts_with('[') {
                    serde_json::from_str::<Vec<String>>(&value).map_err(|e| {
                        ApiError::validation(
                            "containerTags",
                            format!("must be a JSON array of strings: {e}"),
                        )
                    })?
                } else {
                    vec![value]
                };
                req.container_tags = Some(tags);
            }
            "metadata" => {
                let m: serde_json::Value = serde_json::from_str(&value).map_err(|e| {
                    ApiError::validation("metadata", format!("must be a JSON object: {e}"))
                })?;
                match m {
                    serde_json::Value::Object(o) => req.metadata = Some(o),
                    _ => return Err(ApiError::validation("metadata", "must be a JSON object")),
                }
            }
            "customId" => req.custom_id = Some(value),
            "entityContext" => req.entity_context = Some(value),
            "filepath" => req.filepath = Some(value),
            "taskType" => {
                req.task_type = Some(
                    value
                        .parse::<TaskType>()
                        .map_err(|e| ApiError::validation("taskType", e))?,
                )
            }
            "dreaming" => {
                req.dreaming = Some(
                    value
                        .parse::<Dreaming>()
                        .map_err(|e| ApiError::validation("dreaming", e))?,
                )
            }
            "mimeType" => mime_override = Some(value),
            // accepted for compatibility, not needed here
            "fileType" | "useAdvancedProcessing" | "filterByMetadata" => {}
            _ => {}
        }
    }
    let mut file = file.ok_or_else(|| ApiError::validation("file", "a `file` part is required"))?;
    if file.bytes.is_empty() {
        return Err(ApiError::validation("file", "the file is empty"));
    }
    if mime_override.is_some() {
        file.mime_type = mime_override;
    }
    // content is the file name (what the document shows until extracted)
    req.content = file.filename.clone().unwrap_or_else(|| "upload".into());
    let mut valid = req.validate("")?;
    s.engine.scope_document_input(&who, &mut valid).await?;
    let out = s.engine.add_file(&who.org_id, valid, file).await?;
    Ok(Json(AddDocumentResponse {
        id: out.document.id,
        status: out.document.status,
    }))
}
