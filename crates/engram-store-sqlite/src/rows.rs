//! Mapping between SQLite rows and store records.

use engram_store::{
    embedding_from_bytes, Chunk, Document, StoreError, StoreResult, StoredFile, Timestamp,
};
use sqlx::sqlite::SqliteRow;
use sqlx::Row;
use std::str::FromStr;

/// Milliseconds to a timestamp.
pub fn ts(v: i64) -> Timestamp {
    chrono::DateTime::from_timestamp_millis(v).unwrap_or_default()
}

fn parse<T: FromStr<Err = String>>(col: &str, v: &str) -> StoreResult<T> {
    T::from_str(v).map_err(|e| StoreError::Incompatible(format!("column {col}: {e}")))
}

/// The columns [`document`] reads, in a form that can follow `SELECT`.
pub const DOC_COLUMNS: &str = "d.id, d.org_id, d.custom_id, d.content, d.text, d.title, d.summary, d.url, \
    d.source, d.doc_type, d.status, d.error, d.task_type, d.dreaming, d.dreaming_status, d.metadata, \
    d.filepath, d.entity_context, d.revision, d.chunk_count, d.file_name, d.file_mime, d.file_bytes, \
    d.created_at, d.updated_at, \
    (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM document_tags t WHERE t.document_id = d.id ORDER BY tag)) AS tags";

/// A document row (selected with [`DOC_COLUMNS`]).
pub fn document(r: &SqliteRow) -> StoreResult<Document> {
    let metadata: String = r.get("metadata");
    let metadata = serde_json::from_str(&metadata)
        .map_err(|e| StoreError::Incompatible(format!("column metadata: {e}")))?;
    let tags: Option<String> = r.get("tags");
    let file_bytes: Option<Vec<u8>> = r.get("file_bytes");
    Ok(Document {
        id: r.get("id"),
        org_id: r.get("org_id"),
        custom_id: r.get("custom_id"),
        container_tags: tags
            .map(|t| t.split('\u{1f}').map(str::to_string).collect())
            .unwrap_or_default(),
        content: r.get("content"),
        text: r.get("text"),
        title: r.get("title"),
        summary: r.get("summary"),
        url: r.get("url"),
        source: r.get("source"),
        doc_type: parse("doc_type", r.get("doc_type"))?,
        status: parse("status", r.get("status"))?,
        error: r.get("error"),
        task_type: parse("task_type", r.get("task_type"))?,
        dreaming: parse("dreaming", r.get("dreaming"))?,
        dreaming_status: parse("dreaming_status", r.get("dreaming_status"))?,
        metadata,
        filepath: r.get("filepath"),
        entity_context: r.get("entity_context"),
        revision: r.get("revision"),
        chunk_count: r.get("chunk_count"),
        file: file_bytes.map(|bytes| StoredFile {
            filename: r.get("file_name"),
            mime_type: r.get("file_mime"),
            bytes,
        }),
        created_at: ts(r.get("created_at")),
        updated_at: ts(r.get("updated_at")),
    })
}

/// The columns [`chunk_row`] reads, in order.
pub const CHUNK_COLUMNS: &str =
    "id, document_id, position, content, token_count, embedding, created_at";

/// A chunk row (selected with [`CHUNK_COLUMNS`]).
pub fn chunk_row(r: SqliteRow) -> Chunk {
    Chunk {
        id: r.get(0),
        document_id: r.get(1),
        position: r.get(2),
        content: r.get(3),
        token_count: r.get(4),
        embedding: embedding_from_bytes(r.get::<&[u8], _>(5)),
        created_at: ts(r.get(6)),
    }
}
