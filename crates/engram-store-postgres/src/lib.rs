//! The scale-out backend: [`engram_store::Store`] on PostgreSQL, for several
//! stateless Engram replicas sharing one database. Embeddings are pgvector
//! `vector`s, metadata is `jsonb`, and the metadata filter language
//! compiles to SQL over it ([`filter_sql`]).
//!
//! Concurrency rules (the part SQLite got for free from its single writer):
//! - Every transaction that writes an organisation's documents takes that
//!   organisation's advisory lock before its first write, several
//!   organisations in one fixed order ([`PgStore::lock_orgs`]). This keeps
//!   the search change log's sequence in commit order per organisation
//!   (see the migration) and makes such transactions deadlock-free.
//! - Job claims use `FOR UPDATE SKIP LOCKED` with leases; completion locks
//!   the job and document rows and re-checks the lease and revision, so two
//!   replicas never both complete one job.
//! - Migrations run under sqlx's advisory lock, so replicas starting
//!   together apply them once.
//!
//! This crate is the only place that knows this schema; nothing here knows
//! HTTP or the search index.

mod analytics;
mod connections;
mod docs;
pub mod filter_sql;
mod jobs;
mod keys;
mod memories;
mod rows;
mod search;
mod spaces;

use async_trait::async_trait;
use engram_store::{
    ApiKeyRecord, Chunk, Connection, ConnectionPatch, ConnectionQuery, Document, DocumentPatch,
    ForgetOutcome, GroupBy, IndexChange, IndexedDocument, Job, ListQuery, LogQuery, Memory,
    MemoryListQuery, MemoryUpdate, ModelInfo, NewConnection, NewDocument, NewMemory, Org,
    ProcessedDocument, RateWindow, RelationKind, RequestGroup, RequestLog, SearchScope, Space,
    SpaceDeleted, SpacePatch, SpaceSummary, Store, StoreError, StoreResult, TagMerge, Timestamp,
    UpsertOutcome,
};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection as _, PgPool, Postgres, Transaction};
use std::str::FromStr;
use std::time::Duration;

pub(crate) type Tx = Transaction<'static, Postgres>;

/// A PostgreSQL-backed store.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
}

pub(crate) fn db_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(d) = &e {
        if d.is_unique_violation() {
            return StoreError::Conflict(d.message().to_string());
        }
    }
    StoreError::Backend(e.to_string())
}

pub(crate) fn ms(t: Timestamp) -> i64 {
    t.timestamp_millis()
}

impl PgStore {
    /// Connect to the database at `url` (`postgres://...`) and migrate it.
    pub async fn connect(url: &str) -> StoreResult<Self> {
        let opts = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::Backend(format!("bad database URL: {e}")))?;
        Self::with_options(opts).await
    }

    async fn with_options(opts: PgConnectOptions) -> StoreResult<Self> {
        // filtered nearest-neighbour queries keep walking the HNSW graph
        // until enough rows pass the scope (pgvector 0.8; older versions
        // ignore the setting)
        let opts = opts.options([
            ("hnsw.iterative_scan", "relaxed_order"),
            ("hnsw.ef_search", "100"),
        ]);
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(opts)
            .await
            .map_err(db_err)?;
        // sqlx holds an advisory lock while migrating: replicas starting at
        // once apply each migration exactly once
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Incompatible(format!("migration failed: {e}")))?;
        Ok(Self { pool })
    }

    /// The HNSW index (cosine) over the chunk embeddings (the dimension is
    /// part of the index's expression). Replicas starting together create
    /// it once. It costs every chunk write a graph insertion, so it exists
    /// only once a replica asks for store-side vector candidates.
    pub(crate) async fn ensure_vector_index(&self, dim: usize) -> StoreResult<()> {
        let mut tx = self.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('engram.vector_index', 7))")
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks \
             USING hnsw ((embedding::vector({dim})) vector_cosine_ops)"
        )))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        tx.commit().await.map_err(db_err)
    }

    /// A new, empty database named `engram_test_<random>` on the server at
    /// `server_url`, migrated (each test gets its own).
    pub async fn fresh_database(server_url: &str) -> StoreResult<Self> {
        Self::connect(&Self::create_database(server_url).await?).await
    }

    /// Create an empty database named `engram_test_<random>` on the server
    /// at `server_url`; returns its URL.
    pub async fn create_database(server_url: &str) -> StoreResult<String> {
        let bad = |e: String| StoreError::Backend(format!("bad database URL: {e}"));
        let opts = PgConnectOptions::from_str(server_url).map_err(|e| bad(e.to_string()))?;
        let name = format!(
            "engram_test_{}",
            engram_core::ids::new_id().to_ascii_lowercase()
        );
        let mut admin = sqlx::PgConnection::connect_with(&opts)
            .await
            .map_err(db_err)?;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .execute(&mut admin)
            .await
            .map_err(db_err)?;
        admin.close().await.map_err(db_err)?;
        let mut url = url::Url::parse(server_url).map_err(|e| bad(e.to_string()))?;
        url.set_path(&format!("/{name}"));
        Ok(url.to_string())
    }

    /// Close the pool, waiting for in-flight statements.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    pub(crate) async fn begin(&self) -> StoreResult<Tx> {
        self.pool.begin().await.map_err(db_err)
    }

    /// Take the advisory locks of these organisations for the rest of the
    /// transaction, in one global order (the same lock the change-log
    /// trigger takes, so taking it again there is free).
    pub(crate) async fn lock_orgs(tx: &mut Tx, orgs: &[&str]) -> StoreResult<()> {
        let mut orgs: Vec<&str> = orgs.to_vec();
        orgs.sort_unstable();
        orgs.dedup();
        if let [only] = orgs[..] {
            // the common case: one organisation, one round trip
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))")
                .bind(only)
                .execute(&mut **tx)
                .await
                .map_err(db_err)?;
            return Ok(());
        }
        let mut keys: Vec<i64> = Vec::with_capacity(orgs.len());
        for o in orgs {
            let k: i64 = sqlx::query_scalar("SELECT hashtextextended($1, 7)")
                .bind(o)
                .fetch_one(&mut **tx)
                .await
                .map_err(db_err)?;
            keys.push(k);
        }
        // the lock is the hash: order by it so that colliding names agree
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(k)
                .execute(&mut **tx)
                .await
                .map_err(db_err)?;
        }
        Ok(())
    }

    /// A store on a fresh database of the server named by
    /// `ENGRAM_TEST_DATABASE_URL`, or None when it is not set.
    pub async fn from_test_env() -> Option<Self> {
        let url = std::env::var("ENGRAM_TEST_DATABASE_URL").ok()?;
        Some(
            Self::fresh_database(&url)
                .await
                .expect("a fresh test database on ENGRAM_TEST_DATABASE_URL"),
        )
    }
}

#[async_trait]
impl Store for PgStore {
    async fn ensure_org(&self, name: &str) -> StoreResult<Org> {
        keys::ensure_org(self, name).await
    }
    async fn list_orgs(&self) -> StoreResult<Vec<Org>> {
        keys::list_orgs(self).await
    }
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> StoreResult<()> {
        keys::insert_api_key(self, key).await
    }
    async fn get_api_key(&self, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
        keys::get_api_key(self, id).await
    }
    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKeyRecord>> {
        keys::list_api_keys(self, org_id).await
    }
    async fn revoke_api_key(&self, id: &str) -> StoreResult<bool> {
        keys::revoke_api_key(self, id).await
    }
    async fn rename_api_key(&self, id: &str, name: &str) -> StoreResult<bool> {
        keys::rename_api_key(self, id, name).await
    }
    async fn get_org(&self, id: &str) -> StoreResult<Option<Org>> {
        keys::get_org(self, id).await
    }
    async fn embedding_model(&self) -> StoreResult<Option<ModelInfo>> {
        keys::embedding_model(self).await
    }
    async fn record_embedding_model(&self, model: &ModelInfo) -> StoreResult<ModelInfo> {
        keys::record_embedding_model(self, model).await
    }
    async fn upsert_documents(&self, docs: Vec<NewDocument>) -> StoreResult<Vec<UpsertOutcome>> {
        docs::upsert_documents(self, docs).await
    }
    async fn get_document(&self, org_id: &str, id: &str) -> StoreResult<Option<Document>> {
        docs::get_document(self, org_id, id).await
    }
    async fn update_document(
        &self,
        org_id: &str,
        id: &str,
        patch: DocumentPatch,
    ) -> StoreResult<Option<Document>> {
        docs::update_document(self, org_id, id, patch).await
    }
    async fn delete_document(&self, org_id: &str, id: &str) -> StoreResult<bool> {
        docs::delete_document(self, org_id, id).await
    }
    async fn delete_documents_by_tags(&self, org_id: &str, tags: &[String]) -> StoreResult<u64> {
        docs::delete_by_tags(self, org_id, tags).await
    }
    async fn delete_documents_by_filepath(&self, org_id: &str, path: &str) -> StoreResult<u64> {
        docs::delete_by_filepath(self, org_id, path).await
    }
    async fn list_documents(
        &self,
        org_id: &str,
        q: &ListQuery,
    ) -> StoreResult<(Vec<Document>, u64)> {
        docs::list_documents(self, org_id, q).await
    }
    async fn list_processing(&self, org_id: &str) -> StoreResult<Vec<Document>> {
        docs::list_processing(self, org_id).await
    }
    async fn list_chunks(&self, org_id: &str, document_id: &str) -> StoreResult<Vec<Chunk>> {
        docs::list_chunks(self, org_id, document_id).await
    }
    async fn index_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>> {
        search::changes(self, search::Log::Documents, org_id, after, limit).await
    }
    async fn index_documents(
        &self,
        org_id: &str,
        ids: &[String],
    ) -> StoreResult<Vec<IndexedDocument>> {
        search::index_documents(self, org_id, ids).await
    }
    async fn chunks_at(
        &self,
        org_id: &str,
        document_id: &str,
        positions: &[i64],
    ) -> StoreResult<Vec<Chunk>> {
        search::chunks_at(self, org_id, document_id, positions).await
    }
    async fn documents_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Document>> {
        docs::documents_by_ids(self, org_id, ids).await
    }
    async fn chunks_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Chunk>> {
        search::chunks_by_ids(self, org_id, ids).await
    }
    fn supports_vector_index(&self) -> bool {
        true
    }
    async fn prepare_vector_index(&self, dimension: usize) -> StoreResult<()> {
        self.ensure_vector_index(dimension).await
    }
    async fn nearest_chunks(
        &self,
        org_id: &str,
        scope: &SearchScope,
        embedding: &[f32],
        k: usize,
    ) -> StoreResult<Vec<(String, f32)>> {
        search::nearest_chunks(self, org_id, scope, embedding, k).await
    }
    async fn insert_memories(&self, memories: Vec<NewMemory>) -> StoreResult<Vec<Memory>> {
        memories::insert(self, memories).await
    }
    async fn get_memory(&self, org_id: &str, id: &str) -> StoreResult<Option<Memory>> {
        memories::get(self, org_id, id).await
    }
    async fn find_memory(
        &self,
        org_id: &str,
        container_tag: &str,
        content: &str,
    ) -> StoreResult<Option<Memory>> {
        memories::find(self, org_id, container_tag, content).await
    }
    async fn update_memory(
        &self,
        org_id: &str,
        id: &str,
        update: MemoryUpdate,
    ) -> StoreResult<Option<Memory>> {
        memories::update(self, org_id, id, update).await
    }
    async fn forget_memory(
        &self,
        org_id: &str,
        id: &str,
        reason: Option<&str>,
    ) -> StoreResult<ForgetOutcome> {
        memories::forget(self, org_id, id, reason).await
    }
    async fn list_memories(
        &self,
        org_id: &str,
        q: &MemoryListQuery,
    ) -> StoreResult<(Vec<Memory>, u64)> {
        memories::list(self, org_id, q).await
    }
    async fn memory_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>> {
        search::changes(self, search::Log::Memories, org_id, after, limit).await
    }
    async fn memories_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Memory>> {
        memories::by_ids(self, org_id, ids).await
    }
    async fn memories_relating_to(&self, org_id: &str, id: &str) -> StoreResult<Vec<Memory>> {
        memories::relating_to(self, org_id, id).await
    }
    async fn add_memory_source(
        &self,
        org_id: &str,
        id: &str,
        document_id: Option<&str>,
    ) -> StoreResult<Option<Memory>> {
        memories::add_source(self, org_id, id, document_id).await
    }
    async fn relate_memories(
        &self,
        org_id: &str,
        from: &str,
        to: &str,
        kind: RelationKind,
    ) -> StoreResult<bool> {
        memories::relate(self, org_id, from, to, kind).await
    }
    async fn expire_memories(&self, at: Timestamp) -> StoreResult<u64> {
        memories::expire(self, at).await
    }
    async fn get_settings(&self, org_id: &str) -> StoreResult<engram_core::Metadata> {
        spaces::get_settings(self, org_id).await
    }
    async fn put_settings(
        &self,
        org_id: &str,
        settings: &engram_core::Metadata,
    ) -> StoreResult<()> {
        spaces::put_settings(self, org_id, settings).await
    }
    async fn reset_org(&self, org_id: &str) -> StoreResult<engram_store::OrgReset> {
        spaces::reset_org(self, org_id).await
    }
    async fn list_spaces(&self, org_id: &str) -> StoreResult<Vec<SpaceSummary>> {
        spaces::list(self, org_id, None).await
    }
    async fn get_space(&self, org_id: &str, tag: &str) -> StoreResult<Option<SpaceSummary>> {
        Ok(spaces::list(self, org_id, Some(tag)).await?.pop())
    }
    async fn upsert_space(&self, org_id: &str, tag: &str, patch: SpacePatch) -> StoreResult<Space> {
        spaces::upsert(self, org_id, tag, patch).await
    }
    async fn delete_space(&self, org_id: &str, tag: &str) -> StoreResult<SpaceDeleted> {
        spaces::delete(self, org_id, tag).await
    }
    async fn enqueue_merge(
        &self,
        org_id: &str,
        sources: &[String],
        target: &str,
    ) -> StoreResult<TagMerge> {
        spaces::enqueue_merge(self, org_id, sources, target).await
    }
    async fn get_merge(&self, org_id: &str, id: &str) -> StoreResult<Option<TagMerge>> {
        spaces::get_merge(self, org_id, id).await
    }
    async fn run_merge(&self, id: &str) -> StoreResult<Option<TagMerge>> {
        spaces::run_merge(self, id).await
    }
    async fn insert_connection(&self, c: NewConnection) -> StoreResult<Connection> {
        connections::insert(self, c).await
    }
    async fn get_connection(&self, org_id: &str, id: &str) -> StoreResult<Option<Connection>> {
        connections::get(self, org_id, id).await
    }
    async fn connection_by_state(&self, state: &str) -> StoreResult<Option<Connection>> {
        connections::by_state(self, state).await
    }
    async fn list_connections(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> StoreResult<Vec<Connection>> {
        connections::list(self, org_id, q).await
    }
    async fn update_connection(
        &self,
        org_id: &str,
        id: &str,
        patch: ConnectionPatch,
    ) -> StoreResult<Option<Connection>> {
        connections::update(self, org_id, id, patch).await
    }
    async fn delete_connection(
        &self,
        org_id: &str,
        id: &str,
        delete_documents: bool,
    ) -> StoreResult<bool> {
        connections::delete(self, org_id, id, delete_documents).await
    }
    async fn claim_connection_syncs(
        &self,
        worker: &str,
        at: Timestamp,
        lease: Duration,
        max: usize,
    ) -> StoreResult<Vec<Connection>> {
        connections::claim(self, worker, at, lease, max).await
    }
    async fn renew_connection_lease(
        &self,
        id: &str,
        worker: &str,
        lease: Duration,
    ) -> StoreResult<bool> {
        connections::renew(self, id, worker, lease).await
    }
    async fn connection_documents(
        &self,
        org_id: &str,
        connection_id: &str,
    ) -> StoreResult<Vec<Document>> {
        connections::documents(self, org_id, connection_id).await
    }
    async fn queued_merges(&self) -> StoreResult<Vec<String>> {
        spaces::queued_merges(self).await
    }
    async fn claim_jobs(&self, worker: &str, max: usize, lease: Duration) -> StoreResult<Vec<Job>> {
        jobs::claim(self, worker, max, lease).await
    }
    async fn renew_leases(
        &self,
        worker: &str,
        ids: &[String],
        lease: Duration,
    ) -> StoreResult<Vec<String>> {
        jobs::renew(self, worker, ids, lease).await
    }
    async fn set_jobs_stage(
        &self,
        jobs: &[Job],
        status: engram_core::DocumentStatus,
    ) -> StoreResult<Vec<bool>> {
        jobs::set_stage(self, jobs, status).await
    }
    async fn complete_jobs(&self, done: Vec<(Job, ProcessedDocument)>) -> StoreResult<Vec<bool>> {
        jobs::complete(self, done).await
    }
    async fn complete_dreams(&self, jobs: &[Job]) -> StoreResult<Vec<bool>> {
        jobs::complete_dreams(self, jobs).await
    }
    async fn fail_job(
        &self,
        job: &Job,
        error: &str,
        retry_at: Option<Timestamp>,
    ) -> StoreResult<bool> {
        jobs::fail(self, job, error, retry_at).await
    }
    async fn release_jobs(&self, worker: &str) -> StoreResult<u64> {
        jobs::release(self, worker).await
    }
    async fn record_requests(&self, logs: &[RequestLog]) -> StoreResult<()> {
        analytics::record(self, logs).await
    }
    async fn purge_requests(&self, before: Timestamp) -> StoreResult<u64> {
        analytics::purge(self, before).await
    }
    async fn request_groups(
        &self,
        org_id: &str,
        from: Timestamp,
        to: Timestamp,
        by: GroupBy,
    ) -> StoreResult<Vec<RequestGroup>> {
        analytics::groups(self, org_id, from, to, by).await
    }
    async fn list_requests(
        &self,
        org_id: &str,
        q: &LogQuery,
    ) -> StoreResult<(Vec<RequestLog>, u64)> {
        analytics::list(self, org_id, q).await
    }
    async fn hit_rate_limit(
        &self,
        bucket: &str,
        at: Timestamp,
        window: Duration,
    ) -> StoreResult<RateWindow> {
        analytics::hit(self, bucket, at, window).await
    }
    async fn pending_jobs(&self) -> StoreResult<u64> {
        jobs::pending(self).await
    }
    async fn subscribe_jobs(
        &self,
        on_job: std::sync::Arc<dyn Fn() + Send + Sync>,
    ) -> StoreResult<()> {
        jobs::subscribe(self, on_job).await
    }
    async fn close(&self) {
        PgStore::close(self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn replicas_starting_together_migrate_once() {
        let Ok(server) = std::env::var("ENGRAM_TEST_DATABASE_URL") else {
            return;
        };
        let url = PgStore::create_database(&server).await.unwrap();
        let (a, b, c) = tokio::join!(
            PgStore::connect(&url),
            PgStore::connect(&url),
            PgStore::connect(&url)
        );
        let (a, _b, _c) = (a.unwrap(), b.unwrap(), c.unwrap());
        let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
            .fetch_one(&a.pool)
            .await
            .unwrap();
        let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
            .unwrap()
            .count();
        assert_eq!(applied, files as i64);
    }
}

#[cfg(test)]
mod conformance {
    // Runs when ENGRAM_TEST_DATABASE_URL names a server (scripts/test.sh
    // starts one); each case gets its own database.
    engram_store::conformance_tests!(match crate::PgStore::from_test_env().await {
        Some(s) => s,
        None => {
            eprintln!("ENGRAM_TEST_DATABASE_URL is not set: PostgreSQL conformance skipped");
            return;
        }
    });
}
