//! What search reads from the store: the change log and documents as the
//! in-process search index loads them, and the chunks a result shows.

use crate::docs::scope_sql;
use crate::rows::{chunk_row, metadata, Bind, Binds, CHUNK_COLUMNS, TAGS_COLUMN};
use crate::{db_err, PgStore};
use engram_store::{Chunk, IndexChange, IndexedDocument, SearchScope, StoreResult};
use sqlx::{AssertSqlSafe, Row};

/// A change log: documents' (`index_log`) or memories' (`memory_log`).
#[derive(Clone, Copy)]
pub enum Log {
    Documents,
    Memories,
}

/// Entries of a change log past `after`, oldest first.
pub async fn changes(
    s: &PgStore,
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
        "SELECT seq, {id} FROM {table} WHERE org_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"
    )))
    .bind(org_id)
    .bind(after)
    .bind(limit as i64)
    .fetch_all(&s.pool)
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
    s: &PgStore,
    org_id: &str,
    ids: &[String],
) -> StoreResult<Vec<IndexedDocument>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // one snapshot: the documents and their chunks agree
    let mut tx = s.begin().await?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT d.id, d.seq, d.metadata, d.filepath, {TAGS_COLUMN} \
         FROM documents d WHERE d.org_id = $1 AND d.id = ANY($2)"
    )))
    .bind(org_id)
    .bind(ids)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    let mut docs: Vec<IndexedDocument> = Vec::with_capacity(rows.len());
    for r in rows {
        docs.push(IndexedDocument {
            id: r.get(0),
            seq: r.get(1),
            metadata: metadata(&r)?,
            filepath: r.get(3),
            container_tags: r.get("tags"),
            chunks: Vec::new(),
        });
    }
    let chunks = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = $1 AND document_id = ANY($2) \
         ORDER BY document_id, position"
    )))
    .bind(org_id)
    .bind(ids)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    let mut by_doc: std::collections::HashMap<String, Vec<Chunk>> = Default::default();
    for c in chunks.into_iter().map(chunk_row) {
        by_doc.entry(c.document_id.clone()).or_default().push(c);
    }
    for d in &mut docs {
        d.chunks = by_doc.remove(&d.id).unwrap_or_default();
    }
    Ok(docs)
}

pub async fn chunks_at(
    s: &PgStore,
    org_id: &str,
    document_id: &str,
    positions: &[i64],
) -> StoreResult<Vec<Chunk>> {
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = $1 AND document_id = $2 \
         AND position = ANY($3) ORDER BY position"
    )))
    .bind(org_id)
    .bind(document_id)
    .bind(positions)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(chunk_row).collect())
}

pub async fn chunks_by_ids(s: &PgStore, org_id: &str, ids: &[String]) -> StoreResult<Vec<Chunk>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = $1 AND id = ANY($2)"
    )))
    .bind(org_id)
    .bind(ids)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(chunk_row).collect())
}

/// The scope's nearest chunks through the HNSW index on the embeddings
/// (see [`crate::PgStore::ensure_vector_index`]). The scope's conditions are
/// checked on the rows the graph walk yields; with pgvector's iterative
/// scans the walk goes on until `k` rows pass them.
pub async fn nearest_chunks(
    s: &PgStore,
    org_id: &str,
    scope: &SearchScope,
    embedding: &[f32],
    k: usize,
) -> StoreResult<Vec<(String, f32)>> {
    let dim = embedding.len();
    if dim == 0 || k == 0 {
        return Ok(Vec::new());
    }
    let mut binds = Binds::default();
    let where_ = scope_sql(org_id, scope, &mut binds);
    let q = binds.arg(Bind::Reals(embedding.to_vec()));
    let limit = binds.arg(Bind::Int(k as i64));
    // the same expression as the index's, or the planner cannot use it
    let distance = format!("(c.embedding::vector({dim}) <=> {q}::real[]::vector({dim}))");
    let sql = format!(
        "SELECT c.id, (1 - {distance})::real FROM chunks c JOIN documents d ON d.id = c.document_id \
         WHERE {where_} ORDER BY {distance} LIMIT {limit}"
    );
    let rows = binds
        .apply(sqlx::query(AssertSqlSafe(sql)))
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(rows.into_iter().map(|r| (r.get(0), r.get(1))).collect())
}
