//! Mapping between SQLite rows and store records.

use engram_store::{embedding_from_bytes, Chunk, Document, StoreError, StoreResult, StoredFile};
use sqlx::sqlite::SqliteRow;
use sqlx::Row;

pub use engram_store::from_millis as ts;

use engram_store::parse_column as parse;

/// A document's tags, in the order given, joined by U+001F, for `documents d` (read
/// back with [`tags`]).
macro_rules! tags_column {
    () => {
        "(SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM document_tags t \
         WHERE t.document_id = d.id ORDER BY position, tag)) AS tags"
    };
}
pub(crate) use tags_column;

/// The columns [`document`] reads, in a form that can follow `SELECT`.
pub const DOC_COLUMNS: &str = concat!(
    "d.id, d.org_id, d.custom_id, d.content, d.text, d.title, d.summary, d.url, \
     d.source, d.doc_type, d.status, d.error, d.task_type, d.dreaming, d.dreaming_status, d.metadata, \
     d.filepath, d.entity_context, d.connection_id, d.revision, d.chunk_count, d.file_name, d.file_mime, d.file_bytes, \
     d.created_at, d.updated_at, ",
    tags_column!()
);

/// The tags of a row selected with `tags_column!()`.
pub fn tags(r: &SqliteRow) -> Vec<String> {
    r.get::<Option<String>, _>("tags")
        .map(|t| t.split('\u{1f}').map(str::to_string).collect())
        .unwrap_or_default()
}

/// The metadata column of a document row.
pub fn metadata(r: &SqliteRow) -> StoreResult<engram_core::Metadata> {
    let raw: String = r.get("metadata");
    serde_json::from_str(&raw)
        .map_err(|e| StoreError::Incompatible(format!("column metadata: {e}")))
}

/// A document row (selected with [`DOC_COLUMNS`]).
pub fn document(r: &SqliteRow) -> StoreResult<Document> {
    let metadata = metadata(r)?;
    let file_bytes: Option<Vec<u8>> = r.get("file_bytes");
    Ok(Document {
        id: r.get("id"),
        org_id: r.get("org_id"),
        custom_id: r.get("custom_id"),
        container_tags: tags(r),
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
        connection_id: r.get("connection_id"),
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
