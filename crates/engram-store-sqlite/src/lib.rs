//! The embedded default backend: [`engram_store::Store`] on one SQLite file
//! (WAL journal, `synchronous=FULL`, foreign keys on), with FTS5 (porter
//! stemming) beside the chunk table for the keyword side of search.
//!
//! Writes go through a single-connection pool, so they serialise inside the
//! process and every write transaction starts `IMMEDIATE` (no lock-upgrade
//! deadlocks against other processes such as `engram keys`); reads use a
//! separate pool and see committed data only. This crate is the only place
//! that knows this schema.

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
    ProcessedDocument, RateWindow, RelationKind, RequestGroup, RequestLog, Space, SpaceDeleted,
    SpacePatch, SpaceSummary, Store, StoreError, StoreResult, TagMerge, Timestamp, UpsertOutcome,
};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// A SQLite-backed store.
#[derive(Clone)]
pub struct SqliteStore {
    read: SqlitePool,
    write: SqlitePool,
}

pub(crate) fn db_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(d) = &e {
        if d.is_unique_violation() {
            return StoreError::unique_violation(d.message());
        }
        // SQLITE_FULL (13, and its extended codes): the disk is full
        if d.code()
            .and_then(|c| c.parse::<i32>().ok())
            .is_some_and(|c| c & 0xff == 13)
        {
            return StoreError::Full(e.to_string());
        }
    }
    StoreError::Backend(e.to_string())
}

impl SqliteStore {
    /// Open (creating if needed) the database at `path` and migrate it.
    pub async fn open(path: &Path) -> StoreResult<Self> {
        let opts = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(15))
            .pragma("temp_store", "memory")
            .pragma("cache_size", "-65536");
        Self::with_options(opts).await
    }

    /// A private in-memory database (for tests and benches).
    pub async fn in_memory() -> StoreResult<Self> {
        // A named shared-cache memory database so both pools see one database.
        let name = format!(
            "file:engram-{}?mode=memory&cache=shared",
            engram_core::ids::new_id()
        );
        let opts = SqliteConnectOptions::from_str(&name)
            .map_err(db_err)?
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(15));
        Self::with_options(opts).await
    }

    async fn with_options(opts: SqliteConnectOptions) -> StoreResult<Self> {
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            // A COMMIT that fails (a full disk) may leave the connection
            // counting a transaction SQLite already rolled back, and every
            // later BEGIN would fail: such a connection is closed and a
            // fresh one opened, so writes resume once there is space.
            .after_release(|conn, _| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            .before_acquire(|conn, _| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            .connect_with(opts.clone())
            .await
            .map_err(db_err)?;
        migrations::migrator()
            .run(&write)
            .await
            .map_err(|e| StoreError::Incompatible(format!("migration failed: {e}")))?;
        // no ping before each use: a local file does not drop connections,
        // and the ping is a round trip to the connection's thread per query
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .min_connections(2)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await
            .map_err(db_err)?;
        Ok(Self { read, write })
    }

    pub(crate) async fn begin_write(
        &self,
    ) -> StoreResult<sqlx::Transaction<'static, sqlx::Sqlite>> {
        self.write
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(db_err)
    }

    /// Close both pools, waiting for in-flight statements.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }
}

/// `?, ?, ?` — `n` placeholders for an `IN (...)` list.
///
/// Lookups by an id list write the organisation test as `+org_id = ?`: the
/// unary plus keeps SQLite from choosing the organisation index, which
/// would walk every row of a large organisation instead of seeking the ids.
pub(crate) fn placeholders(n: usize) -> String {
    vec!["?"; n].join(", ")
}

pub(crate) fn ms(t: Timestamp) -> i64 {
    t.timestamp_millis()
}

#[cfg(test)]
mod conformance {
    engram_store::conformance_tests!(crate::SqliteStore::in_memory().await.unwrap());
}
