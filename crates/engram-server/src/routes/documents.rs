//! `/v3/documents*` handlers: wire types in, engine calls, wire types out.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use engram_api::*;
use engram_core::validate;
use engram_store::{Chunk, Document, DocumentPatch, ListQuery};

pub use engram_engine::iso;

fn path_id(id: &str) -> Result<&str, ApiError> {
    if id.is_empty() || id.len() > 255 {
        return Err(ApiError::validation("id", "must be 1 to 255 characters"));
    }
    Ok(id)
}

fn document_response(d: Document) -> DocumentResponse {
    let content = d
        .text
        .clone()
        .or_else(|| (d.url.is_none() && d.file.is_none()).then(|| d.content.clone()));
    let raw = (d.url.is_some()).then(|| d.content.clone());
    DocumentResponse {
        id: d.id,
        custom_id: d.custom_id,
        connection_id: d.connection_id,
        content,
        container_tags: d.container_tags,
        created_at: iso(d.created_at),
        updated_at: iso(d.updated_at),
        metadata: Some(d.metadata),
        og_image: None,
        raw,
        source: d.source,
        status: d.status,
        summary: d.summary,
        title: d.title,
        doc_type: d.doc_type,
        task_type: d.task_type,
        dreaming_status: d.dreaming_status,
        latest_revision: d.revision,
        url: d.url,
        filepath: d.filepath,
        error: d.error,
        chunk_count: Some(d.chunk_count),
        memories: None,
    }
}

fn list_item(d: Document, include_content: bool) -> DocumentListItem {
    let content = include_content.then(|| d.text.clone().unwrap_or_else(|| d.content.clone()));
    DocumentListItem {
        id: d.id,
        custom_id: d.custom_id,
        connection_id: d.connection_id,
        container_tags: d.container_tags,
        created_at: iso(d.created_at),
        updated_at: iso(d.updated_at),
        filepath: d.filepath,
        metadata: Some(d.metadata),
        status: d.status,
        summary: d.summary,
        title: d.title,
        doc_type: d.doc_type,
        url: d.url,
        content,
    }
}

#[utoipa::path(
    post,
    path = "/v3/documents",
    operation_id = "addDocument",
    tag = "documents",
    request_body = AddDocumentRequest,
    responses(
        (status = 200, description = "Queued for processing", body = AddDocumentResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Add a document (text, URL, HTML, Markdown, or a conversation); processed in the background.
pub async fn add(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<AddDocumentRequest>,
) -> Result<Json<AddDocumentResponse>, ApiError> {
    let mut valid = req.validate("")?;
    s.engine.scope_document_input(&who, &mut valid).await?;
    let out = s.engine.add_documents(&who.org_id, vec![valid]).await?;
    let d = &out[0].document;
    Ok(Json(AddDocumentResponse {
        id: d.id.clone(),
        status: d.status,
    }))
}

#[utoipa::path(
    post,
    path = "/v3/documents/batch",
    operation_id = "batchAddDocuments",
    tag = "documents",
    request_body = BatchAddRequest,
    responses(
        (status = 200, description = "Per-item results", body = BatchAddResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Add up to 600 documents; each item succeeds or fails on its own.
pub async fn batch_add(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<BatchAddRequest>,
) -> Result<Json<BatchAddResponse>, ApiError> {
    req.validate_shared()?;
    let mut results: Vec<Option<BatchItemResult>> = vec![None; req.documents.len()];
    let mut valid = Vec::new();
    let mut slots = Vec::new();
    for (i, result) in results.iter_mut().enumerate() {
        match req
            .item(i)
            .and_then(|it| it.validate(&format!("documents[{i}].")))
        {
            Ok(mut v) => {
                s.engine.scope_document_input(&who, &mut v).await?;
                valid.push(v);
                slots.push(i);
            }
            Err(e) => {
                *result = Some(BatchItemResult {
                    id: String::new(),
                    status: "error".into(),
                    error: Some("ValidationError".into()),
                    details: Some(e.to_string()),
                })
            }
        }
    }
    let out = s.engine.add_documents(&who.org_id, valid).await?;
    for (slot, o) in slots.into_iter().zip(out) {
        results[slot] = Some(BatchItemResult {
            id: o.document.id,
            status: o.document.status.to_string(),
            error: None,
            details: None,
        });
    }
    let results: Vec<BatchItemResult> = results.into_iter().flatten().collect();
    let failed = results.iter().filter(|r| r.status == "error").count() as u64;
    Ok(Json(BatchAddResponse {
        success: results.len() as u64 - failed,
        failed,
        results,
    }))
}

#[utoipa::path(
    get,
    path = "/v3/documents/{id}",
    operation_id = "getDocument",
    tag = "documents",
    params(("id" = String, Path, description = "Document id or customId")),
    responses(
        (status = 200, description = "The document, with its memories", body = DocumentResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such document (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Get a document (by id or customId), with its status and memories.
pub async fn get(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<DocumentResponse>, ApiError> {
    let d = s.engine.get_document(&who.org_id, path_id(&id)?).await?;
    if !who.sees(&d.container_tags) {
        return Err(ApiError::NotFound(format!("Document `{id}` not found")));
    }
    let q = engram_store::MemoryListQuery {
        document_id: Some(d.id.clone()),
        limit: 1000,
        ..Default::default()
    };
    let (memories, _) = s.engine.store.list_memories(&who.org_id, &q).await?;
    let mut out = document_response(d);
    out.memories = Some(
        memories
            .into_iter()
            .map(|m| super::memories::entry(m, Vec::new()))
            .collect(),
    );
    Ok(Json(out))
}

#[utoipa::path(
    patch,
    path = "/v3/documents/{id}",
    operation_id = "updateDocument",
    tag = "documents",
    request_body = UpdateDocumentRequest,
    params(("id" = String, Path, description = "Document id or customId")),
    responses(
        (status = 200, description = "Updated (reprocessed when the content changed)", body = AddDocumentResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such document (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "Another document has the new `customId` (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Update a document; new content is processed again.
pub async fn update(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<UpdateDocumentRequest>,
) -> Result<Json<AddDocumentResponse>, ApiError> {
    let mut tags = req.validate()?;
    s.engine.check_document_scope(&who, path_id(&id)?).await?;
    if let Some(tags) = tags.as_mut() {
        who.scope_tags(tags)?;
    }
    let patch = DocumentPatch {
        content: req.content,
        container_tags: tags,
        custom_id: req.custom_id,
        metadata: req.metadata,
        task_type: req.task_type,
        filepath: req.filepath,
    };
    let d = s
        .engine
        .update_document(&who.org_id, path_id(&id)?, patch)
        .await?;
    Ok(Json(AddDocumentResponse {
        id: d.id,
        status: d.status,
    }))
}

#[utoipa::path(
    delete,
    path = "/v3/documents/{id}",
    operation_id = "deleteDocument",
    tag = "documents",
    params(("id" = String, Path, description = "Document id or customId")),
    responses(
        (status = 204, description = "Deleted, with its chunks and the memories only it supported"),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such document (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Delete a document.
pub async fn delete(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    s.engine.check_document_scope(&who, path_id(&id)?).await?;
    s.engine.delete_document(&who.org_id, path_id(&id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/v3/documents/list",
    operation_id = "listDocuments",
    tag = "documents",
    request_body = ListDocumentsRequest,
    responses(
        (status = 200, description = "A page of documents", body = ListDocumentsResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// List documents, filtered by container tags and metadata, sorted and paged.
pub async fn list(
    State(s): State<AppState>,
    Caller(who): Caller,
    body: axum::body::Bytes,
) -> Result<Json<ListDocumentsResponse>, ApiError> {
    // an empty body lists with defaults
    let req: ListDocumentsRequest = if crate::json::is_blank(&body) {
        ListDocumentsRequest::default()
    } else {
        crate::json::parse(&body)?
    };
    let mut v = req.validate()?;
    who.scope_tags(&mut v.container_tags)?;
    let q = ListQuery {
        container_tags: v.container_tags,
        filepath: v.filepath,
        filter: v.filter,
        sort: v.sort,
        order: v.order,
        limit: v.limit,
        offset: (v.page - 1).saturating_mul(v.limit),
    };
    let (docs, total) = s.engine.list_documents(&who.org_id, &q).await?;
    Ok(Json(ListDocumentsResponse {
        memories: docs
            .into_iter()
            .map(|d| list_item(d, v.include_content))
            .collect(),
        pagination: Pagination::new(v.page, v.limit, total),
    }))
}

#[utoipa::path(
    get,
    path = "/v3/documents/processing",
    operation_id = "listProcessingDocuments",
    tag = "documents",
    responses(
        (status = 200, description = "Documents not yet done", body = ProcessingResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Documents still being processed.
pub async fn processing(
    State(s): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<ProcessingResponse>, ApiError> {
    let docs = s.engine.list_processing(&who.org_id).await?;
    let documents: Vec<ProcessingDocument> = docs
        .into_iter()
        .filter(|d| who.sees(&d.container_tags))
        .map(|d| ProcessingDocument {
            id: d.id,
            custom_id: d.custom_id,
            title: d.title,
            doc_type: d.doc_type,
            status: d.status,
            created_at: iso(d.created_at),
            updated_at: iso(d.updated_at),
            metadata: Some(d.metadata),
            container_tags: d.container_tags,
        })
        .collect();
    Ok(Json(ProcessingResponse {
        total_count: documents.len() as u64,
        documents,
    }))
}

fn chunk_item(c: Chunk) -> ChunkItem {
    ChunkItem {
        id: c.id,
        position: c.position,
        content: c.content,
        chunk_type: "text".into(),
        metadata: Some(serde_json::json!({"tokenCount": c.token_count})),
        created_at: iso(c.created_at),
    }
}

#[utoipa::path(
    get,
    path = "/v3/documents/{id}/chunks",
    operation_id = "getDocumentChunks",
    tag = "documents",
    params(("id" = String, Path, description = "Document id or customId")),
    responses(
        (status = 200, description = "The document's chunks in order", body = ChunksResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such document (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// A document's chunks.
pub async fn chunks(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<ChunksResponse>, ApiError> {
    s.engine.check_document_scope(&who, path_id(&id)?).await?;
    let (doc, chunks) = s.engine.document_chunks(&who.org_id, path_id(&id)?).await?;
    Ok(Json(ChunksResponse {
        document_id: doc.id,
        total: chunks.len() as u64,
        chunks: chunks.into_iter().map(chunk_item).collect(),
    }))
}

#[utoipa::path(
    delete,
    path = "/v3/documents/bulk",
    operation_id = "bulkDeleteDocuments",
    tag = "documents",
    request_body = BulkDeleteRequest,
    responses(
        (status = 200, description = "What was deleted", body = BulkDeleteResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Delete documents by ids or by container tags.
pub async fn bulk_delete(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<BulkDeleteRequest>,
) -> Result<Json<BulkDeleteResponse>, ApiError> {
    let tags = req.validate()?;
    if let Some(tags) = &tags {
        tags.iter().try_for_each(|t| who.require_tag(t))?;
    }
    if req.filepath.is_some() {
        who.require_full("deleting by file path")?;
    }
    let mut deleted = 0;
    let mut errors = Vec::new();
    if let Some(ids) = &req.ids {
        let mut visible = Vec::new();
        for id in ids {
            match s.engine.check_document_scope(&who, id).await {
                Ok(()) => visible.push(id.clone()),
                Err(engram_engine::EngineError::NotFound { .. }) => errors.push(BulkDeleteError {
                    id: id.clone(),
                    error: "document not found".into(),
                }),
                Err(e) => return Err(e.into()),
            }
        }
        let (n, errs) = s.engine.delete_by_ids(&who.org_id, &visible).await?;
        deleted += n;
        errors.extend(
            errs.into_iter()
                .map(|(id, error)| BulkDeleteError { id, error }),
        );
    }
    if let Some(tags) = &tags {
        deleted += s.engine.delete_by_tags(&who.org_id, tags).await?;
    }
    if let Some(p) = &req.filepath {
        validate::filepath("filepath", p)?;
        deleted += s.engine.delete_by_filepath(&who.org_id, p).await?;
    }
    Ok(Json(BulkDeleteResponse {
        success: errors.is_empty(),
        deleted_count: deleted,
        errors,
        container_tags: tags,
    }))
}
