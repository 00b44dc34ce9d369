//! The durable job queue: lease-based claims and fenced completion.

use crate::{db_err, ms, placeholders, SqliteStore};
use engram_core::DocumentStatus;
use engram_store::{
    embedding_to_bytes, now, Job, JobStage, ProcessedDocument, StoreResult, Timestamp,
};
use sqlx::{AssertSqlSafe, Row, Sqlite, Transaction};
use std::collections::HashSet;
use std::time::Duration;

type Tx = Transaction<'static, Sqlite>;

fn job_row(r: sqlx::sqlite::SqliteRow) -> Job {
    Job {
        id: r.get("id"),
        org_id: r.get("org_id"),
        document_id: r.get("document_id"),
        revision: r.get("revision"),
        attempts: r.get("attempts"),
        lease_owner: r.get("lease_owner"),
        stage: JobStage::parse(r.get::<&str, _>("stage")),
    }
}

pub async fn claim(
    s: &SqliteStore,
    worker: &str,
    max: usize,
    lease: Duration,
) -> StoreResult<Vec<Job>> {
    let t = ms(now());
    let until = t + lease.as_millis() as i64;
    let mut tx = s.begin_write().await?;
    let rows = sqlx::query(
        "UPDATE jobs SET lease_owner = ?1, lease_expires_at = ?2 WHERE id IN ( \
            SELECT id FROM jobs WHERE run_after <= ?3 \
            AND (lease_owner IS NULL OR lease_expires_at <= ?3) \
            ORDER BY run_after, created_at LIMIT ?4) \
         RETURNING id, org_id, document_id, revision, attempts, lease_owner, stage",
    )
    .bind(worker)
    .bind(until)
    .bind(t)
    .bind(max as i64)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    let mut jobs: Vec<Job> = rows.into_iter().map(job_row).collect();
    jobs.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(jobs)
}

pub async fn renew(
    s: &SqliteStore,
    worker: &str,
    ids: &[String],
    lease: Duration,
) -> StoreResult<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let until = ms(now()) + lease.as_millis() as i64;
    let marks = placeholders(ids.len());
    let mut q = sqlx::query_scalar::<_, String>(AssertSqlSafe(format!(
        "UPDATE jobs SET lease_expires_at = ? WHERE lease_owner = ? AND id IN ({marks}) RETURNING id"
    )))
    .bind(until)
    .bind(worker);
    for id in ids {
        q = q.bind(id);
    }
    let mut tx = s.begin_write().await?;
    let held = q.fetch_all(&mut *tx).await.map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(held)
}

/// Whether `job` is still current: its row exists with this id and owner,
/// and the document is still at the job's revision.
async fn still_current(tx: &mut Tx, job: &Job) -> StoreResult<bool> {
    let ok: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM jobs j JOIN documents d ON d.id = j.document_id \
         WHERE j.id = ? AND j.lease_owner = ? AND d.revision = ? AND j.revision = d.revision",
    )
    .bind(&job.id)
    .bind(&job.lease_owner)
    .bind(job.revision)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(ok.is_some())
}

/// Jobs fenced per statement: three variables each, well inside SQLite's
/// limit of 32 766.
const FENCE_GROUP: usize = 500;

/// The ids of those `jobs` still current (as `still_current` decides), in
/// one query per 500 jobs rather than one per job: every statement is a
/// round trip to the connection's thread, and a batch's stages were
/// dozens of them.
async fn current_of(tx: &mut Tx, jobs: &[Job]) -> StoreResult<HashSet<String>> {
    let mut out = HashSet::with_capacity(jobs.len());
    for group in jobs.chunks(FENCE_GROUP) {
        let values = vec!["(?, ?, ?)"; group.len()].join(", ");
        let mut q = sqlx::query_scalar::<_, String>(AssertSqlSafe(format!(
            "WITH want(id, owner, rev) AS (VALUES {values}) \
             SELECT j.id FROM want w JOIN jobs j ON j.id = w.id AND j.lease_owner = w.owner \
             AND j.revision = w.rev JOIN documents d ON d.id = j.document_id AND d.revision = w.rev"
        )));
        for job in group {
            q = q.bind(&job.id).bind(&job.lease_owner).bind(job.revision);
        }
        out.extend(q.fetch_all(&mut **tx).await.map_err(db_err)?);
    }
    Ok(out)
}

/// Run `sql`, which ends in `IN (`, once per group of ids with their
/// placeholders, after binding `first`.
async fn for_ids(tx: &mut Tx, sql: &str, first: &[i64], ids: &[&str]) -> StoreResult<()> {
    for group in ids.chunks(FENCE_GROUP) {
        let full = format!("{sql}{})", placeholders(group.len()));
        let mut q = sqlx::query(AssertSqlSafe(full));
        for v in first {
            q = q.bind(*v);
        }
        for id in group {
            q = q.bind(*id);
        }
        q.execute(&mut **tx).await.map_err(db_err)?;
    }
    Ok(())
}

pub async fn set_stage(
    s: &SqliteStore,
    jobs: &[Job],
    status: DocumentStatus,
) -> StoreResult<Vec<bool>> {
    let mut tx = s.begin_write().await?;
    let current = current_of(&mut tx, jobs).await?;
    let docs: Vec<&str> = jobs
        .iter()
        .filter(|j| current.contains(&j.id))
        .map(|j| j.document_id.as_str())
        .collect();
    // the status is a literal of the enum, never input
    let sql = format!(
        "UPDATE documents SET status = '{}', updated_at = ? WHERE id IN (",
        status.as_str()
    );
    for_ids(&mut tx, &sql, &[ms(now())], &docs).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(jobs.iter().map(|j| current.contains(&j.id)).collect())
}

/// Chunk rows per INSERT statement (eight variables each).
const CHUNK_ROWS: usize = 200;

/// Documents marked done per UPDATE statement (six variables each).
const DONE_ROWS: usize = 500;

pub async fn complete(
    s: &SqliteStore,
    done: Vec<(Job, ProcessedDocument)>,
) -> StoreResult<Vec<bool>> {
    let mut tx = s.begin_write().await?;
    let jobs: Vec<Job> = done.iter().map(|(j, _)| j.clone()).collect();
    let current = current_of(&mut tx, &jobs).await?;
    let live: Vec<&(Job, ProcessedDocument)> = done
        .iter()
        .filter(|(j, _)| current.contains(&j.id))
        .collect();
    let t = ms(now());
    let docs: Vec<&str> = live.iter().map(|(j, _)| j.document_id.as_str()).collect();
    for_ids(
        &mut tx,
        "DELETE FROM chunks WHERE document_id IN (",
        &[],
        &docs,
    )
    .await?;
    // every chunk of the batch, a few hundred rows per statement
    let rows: Vec<(&Job, &engram_store::NewChunk)> = live
        .iter()
        .flat_map(|(j, r)| r.chunks.iter().map(move |c| (j, c)))
        .collect();
    for group in rows.chunks(CHUNK_ROWS) {
        let values = vec!["(?, ?, ?, ?, ?, ?, ?, ?)"; group.len()].join(", ");
        let mut q = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO chunks (id, document_id, org_id, position, content, token_count, embedding, created_at) \
             VALUES {values}"
        )));
        for (job, c) in group {
            q = q
                .bind(engram_core::ids::new_id())
                .bind(&job.document_id)
                .bind(&job.org_id)
                .bind(c.position)
                .bind(&c.content)
                .bind(c.token_count)
                .bind(embedding_to_bytes(&c.embedding))
                .bind(t);
        }
        q.execute(&mut *tx).await.map_err(db_err)?;
    }
    // every document of the batch marked done in one statement per group
    // (a statement per document was a round trip to the connection's
    // thread each)
    let mut dreaming: HashSet<String> = HashSet::new();
    for group in live.chunks(DONE_ROWS) {
        let values = vec!["(?, ?, ?, ?, ?, ?)"; group.len()].join(", ");
        let mut q = sqlx::query(AssertSqlSafe(format!(
            "WITH v(id, text, title, summary, doc_type, n) AS (VALUES {values}) \
             UPDATE documents SET status = 'done', error = NULL, text = v.text, \
             title = COALESCE(v.title, documents.title), summary = v.summary, doc_type = v.doc_type, \
             chunk_count = v.n, file_bytes = NULL, updated_at = ?, \
             dreaming_status = CASE WHEN task_type = 'memory' AND dreaming = 'dynamic' THEN 'dreaming' ELSE 'done' END \
             FROM v WHERE documents.id = v.id RETURNING documents.id, documents.dreaming_status"
        )));
        for (job, r) in group {
            q = q
                .bind(&job.document_id)
                .bind(&r.text)
                .bind(&r.title)
                .bind(&r.summary)
                .bind(r.doc_type.as_str())
                .bind(r.chunks.len() as i64);
        }
        for row in q.bind(t).fetch_all(&mut *tx).await.map_err(db_err)? {
            if row.get::<&str, _>(1) == "dreaming" {
                dreaming.insert(row.get(0));
            }
        }
    }
    let mut finished: Vec<&str> = Vec::with_capacity(live.len());
    for (job, r) in &live {
        if dreaming.contains(&job.document_id) {
            turn_into_dream(&mut tx, job, r.dream_at).await?;
        } else {
            finished.push(job.id.as_str());
        }
    }
    for_ids(&mut tx, "DELETE FROM jobs WHERE id IN (", &[], &finished).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(done.iter().map(|(j, _)| current.contains(&j.id)).collect())
}

/// Keep the job of a document that dreams later: stage `dream`, due at
/// `at`, unleased.
async fn turn_into_dream(tx: &mut Tx, job: &Job, at: Timestamp) -> StoreResult<()> {
    sqlx::query(
        "UPDATE jobs SET stage = 'dream', attempts = 0, run_after = ?, lease_owner = NULL, \
         lease_expires_at = NULL WHERE id = ?",
    )
    .bind(ms(at))
    .bind(&job.id)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

pub async fn complete_dreams(s: &SqliteStore, jobs: &[Job]) -> StoreResult<Vec<bool>> {
    let mut tx = s.begin_write().await?;
    let current = current_of(&mut tx, jobs).await?;
    let live: Vec<&Job> = jobs.iter().filter(|j| current.contains(&j.id)).collect();
    let docs: Vec<&str> = live.iter().map(|j| j.document_id.as_str()).collect();
    let ids: Vec<&str> = live.iter().map(|j| j.id.as_str()).collect();
    let sql = "UPDATE documents SET dreaming_status = 'done', updated_at = ? WHERE id IN (";
    for_ids(&mut tx, sql, &[ms(now())], &docs).await?;
    for_ids(&mut tx, "DELETE FROM jobs WHERE id IN (", &[], &ids).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(jobs.iter().map(|j| current.contains(&j.id)).collect())
}

pub async fn fail(
    s: &SqliteStore,
    job: &Job,
    error: &str,
    retry_at: Option<Timestamp>,
) -> StoreResult<bool> {
    let mut tx = s.begin_write().await?;
    if !still_current(&mut tx, job).await? {
        return Ok(false);
    }
    let t = ms(now());
    match retry_at {
        Some(at) => {
            sqlx::query(
                "UPDATE jobs SET attempts = attempts + 1, run_after = ?, lease_owner = NULL, \
                 lease_expires_at = NULL WHERE id = ?",
            )
            .bind(ms(at))
            .bind(&job.id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "UPDATE documents SET status = 'queued', error = ?, updated_at = ? WHERE id = ?",
            )
            .bind(error)
            .bind(t)
            .bind(&job.document_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        None => {
            sqlx::query("DELETE FROM jobs WHERE id = ?")
                .bind(&job.id)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "UPDATE documents SET status = 'failed', error = ?, dreaming_status = 'done', updated_at = ? WHERE id = ?",
            )
            .bind(error)
            .bind(t)
            .bind(&job.document_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
    }
    tx.commit().await.map_err(db_err)?;
    Ok(true)
}

pub async fn release(s: &SqliteStore, worker: &str) -> StoreResult<u64> {
    let mut tx = s.begin_write().await?;
    sqlx::query(
        "UPDATE documents SET status = 'queued' WHERE id IN (SELECT document_id FROM jobs WHERE lease_owner = ?) \
         AND status IN ('extracting', 'chunking', 'embedding', 'indexing')",
    )
    .bind(worker)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let r = sqlx::query(
        "UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ?",
    )
    .bind(worker)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(r.rows_affected())
}

pub async fn pending(s: &SqliteStore) -> StoreResult<u64> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs")
        .fetch_one(&s.read)
        .await
        .map_err(db_err)?;
    Ok(n as u64)
}
