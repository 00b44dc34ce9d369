//! The storage contract: every record Engram keeps and every operation on
//! it, as one async [`Store`] trait that each backend crate implements
//! (`engram-store-sqlite`, `engram-store-postgres`), plus the [`conformance`]
//! suite that every backend must pass.
//!
//! Rules every implementation upholds:
//! - Every read and write of tenant data is filtered by `org_id`.
//! - A document write and the job that processes it commit together, so an
//!   acknowledged write is never lost and never left without a job.
//! - Job completion is fenced: it takes effect only while the worker still
//!   holds the job's lease and the document is still at the job's revision,
//!   so a document is never processed twice into duplicate chunks.
//!
//! This crate knows no SQL; nothing above it may assume a backend.

mod analytics;
#[cfg(feature = "conformance")]
pub mod conformance;
mod connection;
mod error;
mod memory;
pub mod migrations;
mod space;
mod types;

pub use analytics::*;
pub use connection::*;
pub use error::StoreError;
pub use memory::*;
pub use space::*;
pub use types::*;

use async_trait::async_trait;
use std::time::Duration;

/// Result alias for store operations.
pub type StoreResult<T> = Result<T, StoreError>;

/// The storage contract. Implementations are cheap to share (`Arc<dyn Store>`).
#[async_trait]
pub trait Store: Send + Sync + 'static {
    // ---- organisations and keys -------------------------------------------------

    /// Create an organisation, or return the one with this name.
    async fn ensure_org(&self, name: &str) -> StoreResult<Org>;
    /// Every organisation, oldest first.
    async fn list_orgs(&self) -> StoreResult<Vec<Org>>;
    /// Store a new API key record (the secret itself is never stored).
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> StoreResult<()>;
    /// A key by id, revoked or not.
    async fn get_api_key(&self, id: &str) -> StoreResult<Option<ApiKeyRecord>>;
    /// Keys of one organisation (or all when `None`), oldest first.
    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKeyRecord>>;
    /// Revoke a key; false when no such unrevoked key exists.
    async fn revoke_api_key(&self, id: &str) -> StoreResult<bool>;
    /// Rename a key; false when no such key exists.
    async fn rename_api_key(&self, id: &str, name: &str) -> StoreResult<bool>;
    /// An organisation by id.
    async fn get_org(&self, id: &str) -> StoreResult<Option<Org>>;

    // ---- embedding model --------------------------------------------------------

    /// The embedding model recorded for this store, if any.
    async fn embedding_model(&self) -> StoreResult<Option<ModelInfo>>;
    /// Record the model if none is recorded, and return what is recorded.
    async fn record_embedding_model(&self, model: &ModelInfo) -> StoreResult<ModelInfo>;

    // ---- documents --------------------------------------------------------------

    /// Insert documents (or, for an existing `custom_id`, replace their content
    /// and bump the revision) and enqueue a processing job for each, all in one
    /// transaction. Returns the stored documents in input order.
    async fn upsert_documents(&self, docs: Vec<NewDocument>) -> StoreResult<Vec<UpsertOutcome>>;
    /// A document by id or custom id.
    async fn get_document(&self, org_id: &str, id_or_custom: &str)
        -> StoreResult<Option<Document>>;
    /// Apply a patch; a content change bumps the revision and enqueues a job in
    /// the same transaction. `None` when the document does not exist.
    async fn update_document(
        &self,
        org_id: &str,
        id_or_custom: &str,
        patch: DocumentPatch,
    ) -> StoreResult<Option<Document>>;
    /// Delete a document with its chunks, vectors and jobs. False when absent.
    async fn delete_document(&self, org_id: &str, id_or_custom: &str) -> StoreResult<bool>;
    /// Delete every document carrying any of `tags`; returns how many.
    async fn delete_documents_by_tags(&self, org_id: &str, tags: &[String]) -> StoreResult<u64>;
    /// Delete every document whose file path matches (exact, or prefix when
    /// `path` ends with `/`); returns how many.
    async fn delete_documents_by_filepath(&self, org_id: &str, path: &str) -> StoreResult<u64>;
    /// One page of documents, and the total that match.
    async fn list_documents(
        &self,
        org_id: &str,
        q: &ListQuery,
    ) -> StoreResult<(Vec<Document>, u64)>;
    /// Documents still being processed, oldest first.
    async fn list_processing(&self, org_id: &str) -> StoreResult<Vec<Document>>;
    /// A document's chunks ordered by position, with embeddings.
    async fn list_chunks(&self, org_id: &str, document_id: &str) -> StoreResult<Vec<Chunk>>;

    // ---- search ------------------------------------------------------------------

    /// Changes to searchable state (chunks, tags, metadata, path, deletion)
    /// with a sequence number above `after`, oldest first, at most `limit`.
    /// Each document appears at most once, at its latest change; deleted
    /// documents appear too (and are then absent from `index_documents`).
    async fn index_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>>;
    /// The documents by id, as the search index needs them: creation order,
    /// tags, metadata, path and chunks with embeddings. Missing ids are
    /// skipped.
    async fn index_documents(
        &self,
        org_id: &str,
        ids: &[String],
    ) -> StoreResult<Vec<IndexedDocument>>;
    /// A document's chunks at the given positions (those that exist).
    async fn chunks_at(
        &self,
        org_id: &str,
        document_id: &str,
        positions: &[i64],
    ) -> StoreResult<Vec<Chunk>>;
    /// Documents by id (those that exist in this organisation), in any order.
    async fn documents_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Document>>;
    /// As [`Store::documents_by_ids`], leaving out the documents whose
    /// content and uploaded file take more than `max_bytes` together: a
    /// worker reads a batch's short documents in one query and each large
    /// one alone, so a batch never holds many large files at once.
    async fn small_documents_by_ids(
        &self,
        org_id: &str,
        ids: &[String],
        max_bytes: usize,
    ) -> StoreResult<Vec<Document>>;
    /// Chunks by id (those that exist in this organisation).
    async fn chunks_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Chunk>>;
    /// Whether this store can keep a vector index of the chunk embeddings
    /// and answer [`Store::nearest_chunks`] from it.
    fn supports_vector_index(&self) -> bool {
        false
    }
    /// Build (once) the vector index over embeddings of `dimension`.
    async fn prepare_vector_index(&self, dimension: usize) -> StoreResult<()> {
        let _ = dimension;
        Err(StoreError::Backend(
            "this store keeps no vector index".into(),
        ))
    }
    /// About the `k` chunks nearest to the unit-length `embedding` by
    /// cosine inside the scope, as `(chunk id, cosine)`; for stores that
    /// support a vector index (answered from it once prepared).
    async fn nearest_chunks(
        &self,
        org_id: &str,
        scope: &SearchScope,
        embedding: &[f32],
        k: usize,
    ) -> StoreResult<Vec<(String, f32)>> {
        let _ = (org_id, scope, embedding, k);
        Err(StoreError::Backend(
            "this store keeps no vector index".into(),
        ))
    }

    // ---- memories -------------------------------------------------------------------

    /// Insert first versions of memories, with their source documents, in
    /// one transaction; returns them in input order. A memory is deleted
    /// when the last document it came from is, and one that names
    /// documents none of which exists any more (deleted while it formed)
    /// is not inserted: it is left out of the answer.
    async fn insert_memories(&self, memories: Vec<NewMemory>) -> StoreResult<Vec<Memory>>;
    /// A memory by id: any version, forgotten or not.
    async fn get_memory(&self, org_id: &str, id: &str) -> StoreResult<Option<Memory>>;
    /// The latest, unforgotten memory of a space with exactly this content.
    async fn find_memory(
        &self,
        org_id: &str,
        container_tag: &str,
        content: &str,
    ) -> StoreResult<Option<Memory>>;
    /// A new version of memory `id`: version + 1, same chain, sources
    /// inherited, related to the old one by `updates`; the old one stops
    /// being the latest. None when `id` is unknown; `Conflict` when it is
    /// not the latest version or is forgotten.
    async fn update_memory(
        &self,
        org_id: &str,
        id: &str,
        update: MemoryUpdate,
    ) -> StoreResult<Option<Memory>>;
    /// Forget (soft-delete) a memory, keeping it for history.
    async fn forget_memory(
        &self,
        org_id: &str,
        id: &str,
        reason: Option<&str>,
    ) -> StoreResult<ForgetOutcome>;
    /// One page of memories, newest first, and how many match.
    async fn list_memories(
        &self,
        org_id: &str,
        q: &MemoryListQuery,
    ) -> StoreResult<(Vec<Memory>, u64)>;
    /// Changes to memories with a sequence number above `after`, oldest
    /// first (as [`Store::index_changes`] for documents).
    async fn memory_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>>;
    /// Memories by id (those that exist in this organisation).
    async fn memories_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Memory>>;
    /// Memories whose relations point at memory `id` (newer versions that
    /// `update` it, memories that `extend` it or `derive` from it), oldest
    /// first.
    async fn memories_relating_to(&self, org_id: &str, id: &str) -> StoreResult<Vec<Memory>>;
    /// The fact was stated again: add `document_id` to the memory's
    /// sources and count one more source. A document already among its
    /// sources changes nothing (reprocessing is idempotent); `None` (a
    /// memory written directly) always counts. None when `id` is unknown.
    async fn add_memory_source(
        &self,
        org_id: &str,
        id: &str,
        document_id: Option<&str>,
    ) -> StoreResult<Option<Memory>>;
    /// Record that memory `from` relates to `to` (`extends`, `derives`);
    /// false when either is unknown in this organisation.
    async fn relate_memories(
        &self,
        org_id: &str,
        from: &str,
        to: &str,
        kind: RelationKind,
    ) -> StoreResult<bool>;
    /// Forget every memory (of any organisation) whose `forget_after` is at
    /// or before `at`, with reason "expired" unless one was given; returns
    /// how many.
    async fn expire_memories(&self, at: Timestamp) -> StoreResult<u64>;

    // ---- organisation settings -------------------------------------------------

    /// The organisation's settings document (empty when never set).
    async fn get_settings(&self, org_id: &str) -> StoreResult<engram_core::Metadata>;
    /// Replace the organisation's settings document.
    async fn put_settings(&self, org_id: &str, settings: &engram_core::Metadata)
        -> StoreResult<()>;
    /// Delete everything the organisation holds (documents with chunks and
    /// jobs, memories, spaces' settings, merges, settings), keeping the
    /// organisation and its keys, in one transaction.
    async fn reset_org(&self, org_id: &str) -> StoreResult<OrgReset>;

    // ---- spaces (container tags) ------------------------------------------------

    /// Every space of the organisation (tags with settings, documents or
    /// memories), by tag, with counts.
    async fn list_spaces(&self, org_id: &str) -> StoreResult<Vec<SpaceSummary>>;
    /// One space; None when the tag is neither set up nor used.
    async fn get_space(&self, org_id: &str, tag: &str) -> StoreResult<Option<SpaceSummary>>;
    /// Create the space's settings or change them.
    async fn upsert_space(&self, org_id: &str, tag: &str, patch: SpacePatch) -> StoreResult<Space>;
    /// Delete the space: its documents (with chunks and the memories only
    /// they supported), its other memories (forgotten, reason `space
    /// deleted`) and its settings, in one transaction.
    async fn delete_space(&self, org_id: &str, tag: &str) -> StoreResult<SpaceDeleted>;
    /// Queue a merge of `sources` into `target`.
    async fn enqueue_merge(
        &self,
        org_id: &str,
        sources: &[String],
        target: &str,
    ) -> StoreResult<TagMerge>;
    /// A merge of the organisation's.
    async fn get_merge(&self, org_id: &str, id: &str) -> StoreResult<Option<TagMerge>>;
    /// Run a queued merge, all in one transaction: every document of a
    /// source tag carries the target instead, every memory of a source
    /// moves to the target, the sources' settings go. None when it is not
    /// queued (done already, by this process or another).
    async fn run_merge(&self, id: &str) -> StoreResult<Option<TagMerge>>;
    /// Ids of queued merges (of every organisation), oldest first.
    async fn queued_merges(&self) -> StoreResult<Vec<String>>;

    // ---- connections ---------------------------------------------------------------

    async fn insert_connection(&self, c: NewConnection) -> StoreResult<Connection>;
    async fn get_connection(&self, org_id: &str, id: &str) -> StoreResult<Option<Connection>>;
    /// The connection whose pending authorisation carries `state`, of any
    /// organisation (the OAuth callback has no key; the state is a random
    /// secret only the connection's creator was given).
    async fn connection_by_state(&self, state: &str) -> StoreResult<Option<Connection>>;
    /// A connection by id, of any organisation (a provider's webhook has no
    /// key; the caller checks its signature against the connection's own
    /// secret before acting on it).
    async fn connection_by_id(&self, id: &str) -> StoreResult<Option<Connection>>;
    /// The organisation's connections that `q` names, oldest first.
    async fn list_connections(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> StoreResult<Vec<Connection>>;
    /// Change a connection; None when unknown.
    async fn update_connection(
        &self,
        org_id: &str,
        id: &str,
        patch: ConnectionPatch,
    ) -> StoreResult<Option<Connection>>;
    /// Delete a connection, and with `delete_documents` the documents it
    /// synced (in the same transaction; otherwise they stay, unlinked).
    /// False when unknown.
    async fn delete_connection(
        &self,
        org_id: &str,
        id: &str,
        delete_documents: bool,
    ) -> StoreResult<bool>;
    /// Lease up to `max` active connections (of every organisation) whose
    /// sync is due at `at` and that no live lease holds, to `worker`.
    async fn claim_connection_syncs(
        &self,
        worker: &str,
        at: Timestamp,
        lease: Duration,
        max: usize,
    ) -> StoreResult<Vec<Connection>>;
    /// Extend `worker`'s lease on a connection; false when it is lost.
    async fn renew_connection_lease(
        &self,
        id: &str,
        worker: &str,
        lease: Duration,
    ) -> StoreResult<bool>;
    /// The documents a connection synced, oldest first.
    async fn connection_documents(
        &self,
        org_id: &str,
        connection_id: &str,
    ) -> StoreResult<Vec<Document>>;

    // ---- analytics and rate limits ---------------------------------------------

    /// Record requests, and add them to the hourly rollups, all in one
    /// transaction; a request already recorded (by id) is not counted again.
    async fn record_requests(&self, logs: &[RequestLog]) -> StoreResult<()>;
    /// Delete every request log (of any organisation) older than `before`;
    /// returns how many.
    async fn purge_requests(&self, before: Timestamp) -> StoreResult<u64>;
    /// The organisation's requests in `from <= t < to`, grouped `by` (see
    /// [`request_groups_sql`]: whole hours come from the rollups, the
    /// edges from the logs).
    async fn request_groups(
        &self,
        org_id: &str,
        from: Timestamp,
        to: Timestamp,
        by: GroupBy,
    ) -> StoreResult<Vec<RequestGroup>>;
    /// The organisation's usage in `from <= t < to`: by type, hour and
    /// key (named as they are now).
    async fn usage_stats(
        &self,
        org_id: &str,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<UsageStats> {
        let names = self
            .list_api_keys(Some(org_id))
            .await?
            .into_iter()
            .map(|k| (k.id, k.name))
            .collect();
        let mut usage = UsageStats::default();
        for by in [GroupBy::Kind, GroupBy::Hour, GroupBy::Key] {
            let u = usage_of(&self.request_groups(org_id, from, to, by).await?, &names);
            match by {
                GroupBy::Kind => usage.by_type = u.by_type,
                GroupBy::Hour => usage.hourly = u.hourly,
                _ => usage.by_key = u.by_key,
            }
        }
        Ok(usage)
    }
    /// The organisation's requests and failures in `from <= t < to`.
    async fn error_stats(
        &self,
        org_id: &str,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ErrorStats> {
        let groups = self
            .request_groups(org_id, from, to, GroupBy::Outcome)
            .await?;
        Ok(errors_of(&groups))
    }
    /// One page of the organisation's request logs, newest first, and how
    /// many match.
    async fn list_requests(
        &self,
        org_id: &str,
        q: &LogQuery,
    ) -> StoreResult<(Vec<RequestLog>, u64)>;
    /// Count one request against `bucket` at `at`, atomically across every
    /// process sharing the store: a window starts with the first request
    /// and lasts `window`; the first request after it starts a new one.
    async fn hit_rate_limit(
        &self,
        bucket: &str,
        at: Timestamp,
        window: Duration,
    ) -> StoreResult<RateWindow>;

    // ---- the job queue ----------------------------------------------------------

    /// Claim up to `max` runnable jobs (queued and due, or with an expired
    /// lease) for `worker`, leasing them for `lease`. Jobs of both stages
    /// come back; the worker runs each kind its own way.
    async fn claim_jobs(&self, worker: &str, max: usize, lease: Duration) -> StoreResult<Vec<Job>>;
    /// Extend the leases `worker` holds on `job_ids`; returns the ids still held.
    async fn renew_leases(
        &self,
        worker: &str,
        job_ids: &[String],
        lease: Duration,
    ) -> StoreResult<Vec<String>>;
    /// Move claimed jobs' documents to `status`, in one transaction. For each
    /// job: false when its lease was lost or its document moved on to a newer
    /// revision (the worker must drop it).
    async fn set_jobs_stage(
        &self,
        jobs: &[Job],
        status: engram_core::DocumentStatus,
    ) -> StoreResult<Vec<bool>>;
    /// For each job, atomically replace its document's chunks with the result,
    /// mark the document `done` and delete the job; one transaction for all.
    /// False (and no change for that job) when its lease was lost or the
    /// revision moved on.
    /// A `memory` document that dreams `dynamic`ally is marked `done` with
    /// `dreamingStatus: dreaming`, and its job becomes a [`JobStage::Dream`]
    /// job due at [`ProcessedDocument::dream_at`] instead of being deleted.
    async fn complete_jobs(&self, done: Vec<(Job, ProcessedDocument)>) -> StoreResult<Vec<bool>>;
    /// For each claimed dream job: mark its document's dreaming `done` and
    /// delete the job, fenced like [`Store::complete_jobs`] (false, and no
    /// change, when the lease was lost or the document was re-sent).
    async fn complete_dreams(&self, jobs: &[Job]) -> StoreResult<Vec<bool>>;

    /// [`Store::set_jobs_stage`] for one job.
    async fn set_job_stage(
        &self,
        job: &Job,
        status: engram_core::DocumentStatus,
    ) -> StoreResult<bool> {
        Ok(self
            .set_jobs_stage(std::slice::from_ref(job), status)
            .await?[0])
    }
    /// [`Store::complete_jobs`] for one job.
    async fn complete_job(&self, job: &Job, result: ProcessedDocument) -> StoreResult<bool> {
        Ok(self.complete_jobs(vec![(job.clone(), result)]).await?[0])
    }
    /// Give a job back: with `retry_at`, to run again then (attempts + 1);
    /// without, the document becomes `failed` with `error` and the job is gone.
    async fn fail_job(
        &self,
        job: &Job,
        error: &str,
        retry_at: Option<Timestamp>,
    ) -> StoreResult<bool>;
    /// Release every lease `worker` holds so other workers can take the jobs now.
    async fn release_jobs(&self, worker: &str) -> StoreResult<u64>;
    /// Number of jobs not yet completed (any state).
    async fn pending_jobs(&self) -> StoreResult<u64>;
    /// Call `on_job` whenever a job becomes runnable through any process
    /// sharing this store (new, re-enqueued or released), for stores that
    /// can tell (PostgreSQL: LISTEN/NOTIFY). Others do nothing: workers
    /// poll as well.
    async fn subscribe_jobs(
        &self,
        on_job: std::sync::Arc<dyn Fn() + Send + Sync>,
    ) -> StoreResult<()> {
        let _ = on_job;
        Ok(())
    }

    /// Close connections, waiting for in-flight statements (at shutdown).
    async fn close(&self) {}
}

/// How long a lease lasts by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
