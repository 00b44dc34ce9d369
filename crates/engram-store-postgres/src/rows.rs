//! Mapping between PostgreSQL rows and store records, and the dynamic-SQL
//! helper that numbers placeholders.

use engram_store::{Chunk, Document, StoreError, StoreResult, StoredFile};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::{Postgres, Row};

pub use engram_store::from_millis as ts;

use engram_store::parse_column as parse;

/// A document's tags, sorted, as a text array named `tags`, for `documents d`.
pub const TAGS_COLUMN: &str =
    "COALESCE((SELECT array_agg(tag ORDER BY position, tag) FROM document_tags t \
     WHERE t.document_id = d.id), '{}') AS tags";

/// The columns [`document`] reads (over `documents d`).
pub fn doc_columns() -> String {
    format!(
        "d.id, d.org_id, d.custom_id, d.content, d.text, d.title, d.summary, d.url, \
         d.source, d.doc_type, d.status, d.error, d.task_type, d.dreaming, d.dreaming_status, d.metadata, \
         d.filepath, d.entity_context, d.connection_id, d.revision, d.chunk_count, d.file_name, d.file_mime, d.file_bytes, \
         d.created_at, d.updated_at, {TAGS_COLUMN}"
    )
}

/// The metadata column of a document row.
pub fn metadata(r: &PgRow) -> StoreResult<engram_core::Metadata> {
    match r.get::<serde_json::Value, _>("metadata") {
        serde_json::Value::Object(m) => Ok(m),
        other => Err(StoreError::Incompatible(format!(
            "column metadata: not an object: {other}"
        ))),
    }
}

/// A document row (selected with [`doc_columns`]).
pub fn document(r: &PgRow) -> StoreResult<Document> {
    let file_bytes: Option<Vec<u8>> = r.get("file_bytes");
    Ok(Document {
        id: r.get("id"),
        org_id: r.get("org_id"),
        custom_id: r.get("custom_id"),
        container_tags: r.get("tags"),
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
        metadata: metadata(r)?,
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

/// The columns [`chunk_row`] reads, in order (the vector read as `real[]`).
pub const CHUNK_COLUMNS: &str =
    "id, document_id, position, content, token_count, embedding::real[] AS embedding, created_at";

/// A chunk row (selected with [`CHUNK_COLUMNS`]).
pub fn chunk_row(r: PgRow) -> Chunk {
    Chunk {
        id: r.get(0),
        document_id: r.get(1),
        position: r.get(2),
        content: r.get(3),
        token_count: r.get(4),
        embedding: r.get(5),
        created_at: ts(r.get(6)),
    }
}

/// A value bound to a numbered placeholder.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    Text(String),
    Real(f64),
    Int(i64),
    Texts(Vec<String>),
    Reals(Vec<f32>),
}

/// Binds collected while SQL text is built; [`Binds::arg`] returns the
/// placeholder (`$n`) for a new value.
#[derive(Debug, Default)]
pub struct Binds(pub Vec<Bind>);

impl Binds {
    pub fn arg(&mut self, b: Bind) -> String {
        self.0.push(b);
        format!("${}", self.0.len())
    }

    pub fn text(&mut self, s: impl Into<String>) -> String {
        self.arg(Bind::Text(s.into()))
    }

    /// Bind every value, in order, to a query.
    pub fn apply<'q>(
        &self,
        mut q: sqlx::query::Query<'q, Postgres, PgArguments>,
    ) -> sqlx::query::Query<'q, Postgres, PgArguments> {
        for b in &self.0 {
            q = match b {
                Bind::Text(t) => q.bind(t.clone()),
                Bind::Real(r) => q.bind(*r),
                Bind::Int(i) => q.bind(*i),
                Bind::Texts(v) => q.bind(v.clone()),
                Bind::Reals(v) => q.bind(v.clone()),
            };
        }
        q
    }

    /// [`Binds::apply`] for a scalar query.
    pub fn apply_scalar<'q, O>(
        &self,
        mut q: sqlx::query::QueryScalar<'q, Postgres, O, PgArguments>,
    ) -> sqlx::query::QueryScalar<'q, Postgres, O, PgArguments> {
        for b in &self.0 {
            q = match b {
                Bind::Text(t) => q.bind(t.clone()),
                Bind::Real(r) => q.bind(*r),
                Bind::Int(i) => q.bind(*i),
                Bind::Texts(v) => q.bind(v.clone()),
                Bind::Reals(v) => q.bind(v.clone()),
            };
        }
        q
    }
}
