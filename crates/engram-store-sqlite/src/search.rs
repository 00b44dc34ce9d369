//! What search reads from the store: the change log and documents as the
//! in-process search index loads them, and the chunks a result shows.

use crate::rows::{chunk_row, metadata, tags, tags_column, CHUNK_COLUMNS};
use crate::{db_err, placeholders, SqliteStore};
use engram_store::{Chunk, IndexChange, IndexedDocument, StoreResult};
use sqlx::{AssertSqlSafe, Row};

/// A change log: documents' (`index_log`) or memories' (`memory_log`).
#[derive(Clone, Copy)]
pub enum Log {
    Documents,
    Memories,
}

/// Entries of a change log past `after`, oldest first.
pub async fn changes(
    s: &SqliteStore,
    log: Log,
    org_id: &str,
    after: i64,
    limit: usize,
) -> StoreResult<Vec<IndexChange>> {
    let (table, id) = match log {
        Log::Documents => ("index_log", "document_id"),
        Log::Memories => ("memory_log", "memory_id"),
    };
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT seq, {id} FROM {table} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ?"
    )))
    .bind(org_id)
    .bind(after)
    .bind(limit as i64)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    Ok(rows
        .into_iter()
        .map(|r| IndexChange {
            seq: r.get(0),
            document_id: r.get(1),
        })
        .collect())
}

pub async fn index_documents(
    s: &SqliteStore,
    org_id: &str,
    ids: &[String],
) -> StoreResult<Vec<IndexedDocument>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = placeholders(ids.len());
    // one read transaction: the documents and their chunks agree
    let mut tx = s.read.begin().await.map_err(db_err)?;
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT d.id, d.rowid, d.metadata, d.filepath, {} \
         FROM documents d WHERE +d.org_id = ? AND d.id IN ({marks})",
        tags_column!()
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    let mut docs: Vec<IndexedDocument> = Vec::new();
    for r in q.fetch_all(&mut *tx).await.map_err(db_err)? {
        docs.push(IndexedDocument {
            id: r.get(0),
            seq: r.get(1),
            metadata: metadata(&r)?,
            filepath: r.get(3),
            container_tags: tags(&r),
            chunks: Vec::new(),
        });
    }
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE +org_id = ? AND document_id IN ({marks}) ORDER BY document_id, position"
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    let mut by_doc: std::collections::HashMap<String, Vec<Chunk>> = Default::default();
    for c in q
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?
        .into_iter()
        .map(chunk_row)
    {
        by_doc.entry(c.document_id.clone()).or_default().push(c);
    }
    tx.commit().await.map_err(db_err)?;
    for d in &mut docs {
        d.chunks = by_doc.remove(&d.id).unwrap_or_default();
    }
    Ok(docs)
}

pub async fn chunks_at(
    s: &SqliteStore,
    org_id: &str,
    document_id: &str,
    positions: &[i64],
) -> StoreResult<Vec<Chunk>> {
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let marks = placeholders(positions.len());
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = ? AND document_id = ? AND position IN ({marks}) ORDER BY position"
    )))
    .bind(org_id)
    .bind(document_id);
    for p in positions {
        q = q.bind(*p);
    }
    Ok(q.fetch_all(&s.read)
        .await
        .map_err(db_err)?
        .into_iter()
        .map(chunk_row)
        .collect())
}

pub async fn chunks_by_ids(
    s: &SqliteStore,
    org_id: &str,
    ids: &[String],
) -> StoreResult<Vec<Chunk>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = placeholders(ids.len());
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE +org_id = ? AND id IN ({marks})"
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(&s.read)
        .await
        .map_err(db_err)?
        .into_iter()
        .map(chunk_row)
        .collect())
}
