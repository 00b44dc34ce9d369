//! Search candidates: BM25 over the FTS5 index, and exact cosine over the
//! stored embeddings, both restricted to the scope (organisation, tags,
//! document, path, metadata filter) inside the query.

use crate::docs::scope_sql;
use crate::filter_sql::Bind;
use crate::rows::{chunk_row, CHUNK_COLUMNS};
use crate::{db_err, placeholders, SqliteStore};
use engram_store::{embedding_from_bytes, Chunk, ChunkHit, SearchScope, StoreResult};
use sqlx::{AssertSqlSafe, Row};
use std::cmp::Ordering;

/// An FTS5 query matching any of the terms (each quoted as a phrase).
fn match_expr(terms: &[String]) -> Option<String> {
    let quoted: Vec<String> = terms
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

pub async fn keyword(
    s: &SqliteStore,
    org_id: &str,
    scope: &SearchScope,
    terms: &[String],
    k: usize,
) -> StoreResult<Vec<ChunkHit>> {
    let Some(expr) = match_expr(terms) else {
        return Ok(Vec::new());
    };
    let mut binds = vec![Bind::Text(expr)];
    let where_ = scope_sql(org_id, scope, &mut binds);
    binds.push(Bind::Int(k as i64));
    // Full-text matching first (materialised), then the scope joins: left
    // to the planner, SQLite may walk the scope's documents and run the
    // MATCH once per chunk, which grows with the organisation.
    let sql = format!(
        "WITH m AS MATERIALIZED (SELECT rowid AS seq, -bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ?) \
         SELECT c.id, c.document_id, c.position, m.score FROM m JOIN chunks c ON c.seq = m.seq \
         JOIN documents d ON d.id = c.document_id WHERE {where_} ORDER BY m.score DESC, c.seq LIMIT ?"
    );
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for b in &binds {
        q = b.bind(q);
    }
    let rows = q.fetch_all(&s.read).await.map_err(db_err)?;
    Ok(rows
        .into_iter()
        .map(|r| ChunkHit {
            chunk_id: r.get(0),
            document_id: r.get(1),
            position: r.get(2),
            score: r.get::<f64, _>(3) as f32,
        })
        .collect())
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub async fn vector(
    s: &SqliteStore,
    org_id: &str,
    scope: &SearchScope,
    embedding: &[f32],
    k: usize,
    also: &[String],
) -> StoreResult<Vec<ChunkHit>> {
    let mut binds = Vec::new();
    let where_ = scope_sql(org_id, scope, &mut binds);
    let sql = format!(
        "SELECT c.id, c.document_id, c.position, c.embedding FROM chunks c JOIN documents d ON d.id = c.document_id \
         WHERE {where_}"
    );
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for b in &binds {
        q = b.bind(q);
    }
    let rows = q.fetch_all(&s.read).await.map_err(db_err)?;
    let mut hits: Vec<ChunkHit> = rows
        .into_iter()
        .map(|r| {
            let e = embedding_from_bytes(r.get::<&[u8], _>(3));
            ChunkHit {
                chunk_id: r.get(0),
                document_id: r.get(1),
                position: r.get(2),
                score: dot(&e, embedding),
            }
        })
        .collect();
    hits.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| a.chunk_id.cmp(&b.chunk_id))
    });
    let (mut top, rest): (Vec<ChunkHit>, Vec<ChunkHit>) = {
        let rest = hits.split_off(k.min(hits.len()));
        (hits, rest)
    };
    if !also.is_empty() {
        let also: std::collections::HashSet<&str> = also.iter().map(String::as_str).collect();
        top.extend(
            rest.into_iter()
                .filter(|h| also.contains(h.chunk_id.as_str())),
        );
    }
    Ok(top)
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
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = ? AND id IN ({marks})"
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
