//! Records the store keeps. Timestamps are UTC with millisecond precision.

use engram_core::{
    DocumentStatus, DocumentType, Dreaming, DreamingStatus, Metadata, SortField, SortOrder,
    TaskType,
};

/// A point in time (UTC).
pub type Timestamp = chrono::DateTime<chrono::Utc>;

/// Now, truncated to milliseconds (what every backend stores).
pub fn now() -> Timestamp {
    let t = chrono::Utc::now();
    chrono::DateTime::from_timestamp_millis(t.timestamp_millis()).unwrap_or(t)
}

/// An organisation: the unit of tenancy.
#[derive(Debug, Clone, PartialEq)]
pub struct Org {
    pub id: String,
    pub name: String,
    pub created_at: Timestamp,
}

/// An API key. Only the SHA-256 of the secret is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiKeyRecord {
    pub id: String,
    pub org_id: String,
    pub name: String,
    /// Hex SHA-256 of the whole key string.
    pub secret_hash: String,
    pub created_at: Timestamp,
    pub revoked_at: Option<Timestamp>,
    /// A scoped key reaches only this container tag (and only the
    /// document, memory, search and profile routes); `None`: a full key.
    pub container_tag: Option<String>,
    /// After this the key is refused.
    pub expires_at: Option<Timestamp>,
    /// The key's own limit, in requests per minute.
    pub rate_limit: Option<u32>,
}

/// The embedding model a store's vectors came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelInfo {
    pub name: String,
    pub dimension: usize,
}

impl ModelInfo {
    /// How backends keep the record: `name|dimension`.
    pub fn to_record(&self) -> String {
        format!("{}|{}", self.name, self.dimension)
    }

    /// Read a record written by [`ModelInfo::to_record`].
    pub fn from_record(v: &str) -> Result<Self, crate::StoreError> {
        let bad = || crate::StoreError::Incompatible(format!("bad embedding model record `{v}`"));
        let (name, dim) = v.rsplit_once('|').ok_or_else(bad)?;
        Ok(ModelInfo {
            name: name.to_string(),
            dimension: dim.parse().map_err(|_| bad())?,
        })
    }
}

/// Milliseconds since the epoch (how backends keep timestamps) to a
/// timestamp.
pub fn from_millis(v: i64) -> Timestamp {
    chrono::DateTime::from_timestamp_millis(v).unwrap_or_default()
}

/// A text column holding one of the core enums (`DocumentStatus`, ...).
pub fn parse_column<T: std::str::FromStr<Err = String>>(
    col: &str,
    v: &str,
) -> Result<T, crate::StoreError> {
    T::from_str(v).map_err(|e| crate::StoreError::Incompatible(format!("column {col}: {e}")))
}

/// A document as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub id: String,
    pub org_id: String,
    pub custom_id: Option<String>,
    pub container_tags: Vec<String>,
    /// What the client sent (text, or the URL for fetched documents).
    pub content: String,
    /// Extracted plain text, once extracted.
    pub text: Option<String>,
    pub title: Option<String>,
    pub summary: Option<String>,
    pub url: Option<String>,
    pub source: Option<String>,
    pub doc_type: DocumentType,
    pub status: DocumentStatus,
    pub error: Option<String>,
    pub task_type: TaskType,
    pub dreaming: Dreaming,
    pub dreaming_status: DreamingStatus,
    pub metadata: Metadata,
    pub filepath: Option<String>,
    pub entity_context: Option<String>,
    /// The connection that synced it.
    pub connection_id: Option<String>,
    /// Bumped on each content change; jobs carry the revision they process.
    pub revision: i64,
    pub chunk_count: i64,
    /// Raw bytes of an uploaded file, kept until extracted.
    pub file: Option<StoredFile>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// An uploaded file awaiting extraction.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredFile {
    pub filename: Option<String>,
    pub mime_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// A document to insert (or to replace by `custom_id`).
#[derive(Debug, Clone, PartialEq)]
pub struct NewDocument {
    pub org_id: String,
    pub custom_id: Option<String>,
    pub container_tags: Vec<String>,
    pub content: String,
    pub doc_type: DocumentType,
    pub url: Option<String>,
    pub source: Option<String>,
    pub task_type: TaskType,
    pub dreaming: Dreaming,
    pub metadata: Metadata,
    pub filepath: Option<String>,
    pub entity_context: Option<String>,
    pub file: Option<StoredFile>,
    /// The connection that synced it (none: written through the API).
    pub connection_id: Option<String>,
}

impl NewDocument {
    /// The document a first insert of `self` as `id` at `at` stores,
    /// exactly as reading it back would return it (queued, revision 1,
    /// no text yet, tags without repeats in the order given), so that a
    /// backend need not read back every row it has just written.
    pub fn into_inserted(self, id: String, at: Timestamp) -> Document {
        let mut container_tags: Vec<String> = Vec::with_capacity(self.container_tags.len());
        for t in self.container_tags {
            if !container_tags.contains(&t) {
                container_tags.push(t);
            }
        }
        Document {
            id,
            org_id: self.org_id,
            custom_id: self.custom_id,
            container_tags,
            content: self.content,
            text: None,
            title: None,
            summary: None,
            url: self.url,
            source: self.source,
            doc_type: self.doc_type,
            status: DocumentStatus::Queued,
            error: None,
            task_type: self.task_type,
            dreaming: self.dreaming,
            dreaming_status: DreamingStatus::Dreaming,
            metadata: self.metadata,
            filepath: self.filepath,
            entity_context: self.entity_context,
            connection_id: self.connection_id,
            revision: 1,
            chunk_count: 0,
            file: self.file,
            created_at: at,
            updated_at: at,
        }
    }
}

/// What an upsert did.
#[derive(Debug, Clone, PartialEq)]
pub struct UpsertOutcome {
    pub document: Document,
    /// False when an existing document (same custom id) was replaced.
    pub created: bool,
}

/// How a backend writes a group of upserts in one transaction: a document
/// with a custom id is written when it comes, in input order (two writes
/// of one custom id in a group apply one after the other); the new ones
/// (no custom id) wait for one insert of them all, since a statement is a
/// round trip. Outcomes come back in input order.
#[derive(Debug, Default)]
pub struct UpsertGroup {
    out: Vec<Option<UpsertOutcome>>,
    /// (index in the group, id, creation time, document)
    fresh: Vec<(usize, String, Timestamp, NewDocument)>,
}

impl UpsertGroup {
    /// Keep `d` for the group's insert when it is new, giving it an id;
    /// otherwise hand it back, with its custom id, to be written now and
    /// [`answered`](Self::answered).
    pub fn defer(&mut self, d: NewDocument) -> Option<(NewDocument, String)> {
        match d.custom_id.clone() {
            Some(custom_id) => Some((d, custom_id)),
            None => {
                let id = engram_core::ids::new_id();
                self.fresh.push((self.out.len(), id, now(), d));
                self.out.push(None);
                None
            }
        }
    }

    /// The outcome of the document [`defer`](Self::defer) handed back.
    pub fn answered(&mut self, outcome: UpsertOutcome) {
        self.out.push(Some(outcome));
    }

    /// The new documents to insert: id, creation time, what was sent.
    pub fn fresh(&self) -> Vec<(&str, Timestamp, &NewDocument)> {
        self.fresh
            .iter()
            .map(|(_, id, at, d)| (id.as_str(), *at, d))
            .collect()
    }

    /// Every outcome in input order, once the group is committed (a new
    /// row is known without reading it back).
    pub fn finish(self) -> Vec<UpsertOutcome> {
        let mut out = self.out;
        for (i, id, at, d) in self.fresh {
            out[i] = Some(UpsertOutcome {
                document: d.into_inserted(id, at),
                created: true,
            });
        }
        out.into_iter().flatten().collect()
    }
}

/// A change to a document. `content: Some` reprocesses it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentPatch {
    pub content: Option<String>,
    pub container_tags: Option<Vec<String>>,
    pub custom_id: Option<String>,
    pub metadata: Option<Metadata>,
    pub task_type: Option<TaskType>,
    pub filepath: Option<String>,
}

/// A list request.
#[derive(Debug, Clone, PartialEq)]
pub struct ListQuery {
    /// Documents carrying any of these tags; all when empty.
    pub container_tags: Vec<String>,
    /// Exact path, or a prefix when it ends with `/`.
    pub filepath: Option<String>,
    /// Metadata filter, applied inside the store before paging.
    pub filter: Option<engram_core::filter::Filter>,
    pub sort: SortField,
    pub order: SortOrder,
    pub limit: u64,
    pub offset: u64,
}

/// A chunk of a document with its embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub id: String,
    pub document_id: String,
    pub position: i64,
    pub content: String,
    pub token_count: i64,
    pub embedding: Vec<f32>,
    pub created_at: Timestamp,
}

/// A chunk produced by the pipeline, before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChunk {
    pub position: i64,
    pub content: String,
    pub token_count: i64,
    pub embedding: Vec<f32>,
}

/// Everything the pipeline learned about a document.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessedDocument {
    pub text: String,
    pub title: Option<String>,
    pub summary: Option<String>,
    pub doc_type: DocumentType,
    pub chunks: Vec<NewChunk>,
    /// When deferred memory formation may start, for a `memory` document
    /// that dreams `dynamic`ally (its job turns into a [`JobStage::Dream`]
    /// job due then; other documents' jobs end here).
    pub dream_at: Timestamp,
}

/// What a job does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobStage {
    /// Extract, chunk, embed and index the document.
    Process,
    /// Form the memories of a processed (`done`) document, grouped with
    /// related documents due at the same time (`dreaming: dynamic`).
    Dream,
}

impl JobStage {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStage::Process => "process",
            JobStage::Dream => "dream",
        }
    }

    /// The stage a stored name stands for (unknown names process).
    pub fn parse(s: &str) -> Self {
        match s {
            "dream" => JobStage::Dream,
            _ => JobStage::Process,
        }
    }
}

/// A claimed processing job.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: String,
    pub org_id: String,
    pub document_id: String,
    /// The document revision this job processes.
    pub revision: i64,
    /// Earlier failed attempts.
    pub attempts: i64,
    pub lease_owner: String,
    pub stage: JobStage,
}

/// Encode an embedding as little-endian f32 bytes (the storage format).
pub fn embedding_to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// Decode little-endian f32 bytes.
pub fn embedding_from_bytes(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Where a search looks: all conditions must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchScope {
    /// Documents carrying any of these tags; all when empty.
    pub container_tags: Vec<String>,
    /// Only this document (its id, already resolved).
    pub document_id: Option<String>,
    /// Exact path, or a prefix when it ends with `/`.
    pub filepath: Option<String>,
    pub filter: Option<engram_core::filter::Filter>,
}

/// A change to a document's searchable state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexChange {
    /// Increases with every change in the store (commit order).
    pub seq: i64,
    pub document_id: String,
}

/// A document as the search index loads it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedDocument {
    pub id: String,
    /// Creation order within the store.
    pub seq: i64,
    pub container_tags: Vec<String>,
    pub metadata: Metadata,
    pub filepath: Option<String>,
    /// Chunks by position, with embeddings.
    pub chunks: Vec<Chunk>,
}
