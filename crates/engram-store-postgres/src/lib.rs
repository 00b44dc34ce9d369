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
mod migrations;
mod rows;
mod search;
mod spaces;
mod store;
mod upsert;

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
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            return StoreError::unique_violation(d.message());
        }
        // the server is gone, going, or not taking connections: connection
        // exceptions (08), shutdowns (57P01-57P03), too many connections
        // (53300), a database closed to connections
        sqlx::Error::Database(d)
            if d.code()
                .is_some_and(|c| c.starts_with("08") || c.starts_with("57P") || c == "53300")
                || d.message().contains("not currently accepting connections") =>
        {
            return StoreError::Unavailable(e.to_string());
        }
        // disk full (53100), out of memory (53200)
        sqlx::Error::Database(d) if d.code().is_some_and(|c| c == "53100" || c == "53200") => {
            return StoreError::Full(e.to_string());
        }
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => return StoreError::Unavailable(e.to_string()),
        _ => {}
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
            // while the database is down a request waits this long for a
            // connection, then is answered 503 with Retry-After
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(opts)
            .await
            .map_err(db_err)?;
        // sqlx holds an advisory lock while migrating: replicas starting at
        // once apply each migration exactly once
        migrations::migrator()
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

    /// Drop a database [`Self::create_database`] made, given its URL, once
    /// nothing uses it (a bench run's, so that runs do not pile up
    /// databases on the server). Any other database is refused.
    pub async fn drop_database(database_url: &str) -> StoreResult<()> {
        let bad = |e: String| StoreError::Backend(format!("bad database URL: {e}"));
        let mut url = url::Url::parse(database_url).map_err(|e| bad(e.to_string()))?;
        let name = url.path().trim_start_matches('/').to_string();
        if !name.starts_with("engram_test_")
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(bad(format!("{name} was not made by create_database")));
        }
        url.set_path("/postgres");
        let opts = PgConnectOptions::from_str(url.as_str()).map_err(|e| bad(e.to_string()))?;
        let mut admin = sqlx::PgConnection::connect_with(&opts)
            .await
            .map_err(db_err)?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
        )))
        .execute(&mut admin)
        .await
        .map_err(db_err)?;
        admin.close().await.map_err(db_err)?;
        Ok(())
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
