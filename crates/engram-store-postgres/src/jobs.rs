//! The durable job queue: claims with `FOR UPDATE SKIP LOCKED` under
//! leases, and fenced completion (the job and document rows are locked and
//! the lease and revision re-checked inside the completing transaction).

use crate::{db_err, ms, PgStore, Tx};
use engram_core::DocumentStatus;
use engram_store::{
    now, Job, JobStage, NewChunk, ProcessedDocument, StoreError, StoreResult, Timestamp,
};
use sqlx::postgres::PgRow;
use sqlx::Row;
use std::collections::HashSet;
use std::time::Duration;

fn job_row(r: PgRow) -> Job {
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
    s: &PgStore,
    worker: &str,
    max: usize,
    lease: Duration,
) -> StoreResult<Vec<Job>> {
    let t = ms(now());
    let until = t + lease.as_millis() as i64;
    // rows another replica is claiming right now are skipped, not waited on
    let rows = sqlx::query(
        "UPDATE jobs SET lease_owner = $1, lease_expires_at = $2 WHERE id IN ( \
            SELECT id FROM jobs WHERE run_after <= $3 \
            AND (lease_owner IS NULL OR lease_expires_at <= $3) \
            ORDER BY run_after, created_at LIMIT $4 FOR UPDATE SKIP LOCKED) \
         RETURNING id, org_id, document_id, revision, attempts, lease_owner, stage",
    )
    .bind(worker)
    .bind(until)
    .bind(t)
    .bind(max as i64)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    let mut jobs: Vec<Job> = rows.into_iter().map(job_row).collect();
    jobs.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(jobs)
}

pub async fn renew(
    s: &PgStore,
    worker: &str,
    ids: &[String],
    lease: Duration,
) -> StoreResult<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let until = ms(now()) + lease.as_millis() as i64;
    sqlx::query_scalar(
        "UPDATE jobs SET lease_expires_at = $1 WHERE lease_owner = $2 AND id = ANY($3) RETURNING id",
    )
    .bind(until)
    .bind(worker)
    .bind(ids)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)
}

/// Whether `job` is still current (its row exists with this id and owner,
/// and the document is still at the job's revision), locking both rows
/// for the rest of the transaction.
async fn still_current(tx: &mut Tx, job: &Job) -> StoreResult<bool> {
    let ok: Option<i32> = sqlx::query_scalar(
        "SELECT 1 FROM jobs j JOIN documents d ON d.id = j.document_id \
         WHERE j.id = $1 AND j.lease_owner = $2 AND d.revision = $3 AND j.revision = d.revision \
         FOR UPDATE OF j, d",
    )
    .bind(&job.id)
    .bind(&job.lease_owner)
    .bind(job.revision)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(ok.is_some())
}

async fn begin_for(s: &PgStore, jobs: &[&Job]) -> StoreResult<Tx> {
    let mut tx = s.begin().await?;
    let orgs: Vec<&str> = jobs.iter().map(|j| j.org_id.as_str()).collect();
    PgStore::lock_orgs(&mut tx, &orgs).await?;
    Ok(tx)
}

/// The ids of those `jobs` still current (as `still_current` decides),
/// their job and document rows locked, in one query instead of one per
/// job. Rows are locked in job id order, as everywhere else.
async fn current_of(tx: &mut Tx, jobs: &[Job]) -> StoreResult<HashSet<String>> {
    if jobs.is_empty() {
        return Ok(HashSet::new());
    }
    let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
    let owners: Vec<&str> = jobs.iter().map(|j| j.lease_owner.as_str()).collect();
    let revs: Vec<i64> = jobs.iter().map(|j| j.revision).collect();
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT j.id FROM unnest($1::text[], $2::text[], $3::bigint[]) AS w(id, owner, rev) \
         JOIN jobs j ON j.id = w.id AND j.lease_owner = w.owner AND j.revision = w.rev \
         JOIN documents d ON d.id = j.document_id AND d.revision = w.rev \
         ORDER BY j.id FOR UPDATE OF j, d",
    )
    .bind(&ids)
    .bind(&owners)
    .bind(&revs)
    .fetch_all(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().collect())
}

pub async fn set_stage(
    s: &PgStore,
    jobs: &[Job],
    status: DocumentStatus,
) -> StoreResult<Vec<bool>> {
    let mut tx = begin_for(s, &jobs.iter().collect::<Vec<_>>()).await?;
    let current = current_of(&mut tx, jobs).await?;
    let docs: Vec<&str> = jobs
        .iter()
        .filter(|j| current.contains(&j.id))
        .map(|j| j.document_id.as_str())
        .collect();
    if !docs.is_empty() {
        sqlx::query("UPDATE documents SET status = $1, updated_at = $2 WHERE id = ANY($3)")
            .bind(status.as_str())
            .bind(ms(now()))
            .bind(&docs)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(jobs.iter().map(|j| current.contains(&j.id)).collect())
}

pub async fn complete(s: &PgStore, done: Vec<(Job, ProcessedDocument)>) -> StoreResult<Vec<bool>> {
    let mut tx = begin_for(s, &done.iter().map(|d| &d.0).collect::<Vec<_>>()).await?;
    let jobs: Vec<Job> = done.iter().map(|(j, _)| j.clone()).collect();
    let current = current_of(&mut tx, &jobs).await?;
    let live: Vec<&(Job, ProcessedDocument)> = done
        .iter()
        .filter(|(j, _)| current.contains(&j.id))
        .collect();
    if !live.is_empty() {
        complete_live(&mut tx, &live).await?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(jobs.iter().map(|j| current.contains(&j.id)).collect())
}

/// Complete the jobs whose rows `current_of` has locked and found
/// current: a statement per table for the whole batch (a statement per
/// chunk and three per document were a round trip to the server each).
async fn complete_live(tx: &mut Tx, live: &[&(Job, ProcessedDocument)]) -> StoreResult<()> {
    let t = ms(now());
    let docs: Vec<&str> = live.iter().map(|(j, _)| j.document_id.as_str()).collect();
    sqlx::query("DELETE FROM chunks WHERE document_id = ANY($1)")
        .bind(&docs)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    insert_chunks(tx, live, t).await?;
    let rows = sqlx::query(
        "UPDATE documents d SET status = 'done', error = NULL, text = v.text, title = COALESCE(v.title, d.title), \
         summary = v.summary, doc_type = v.doc_type, chunk_count = v.n, file_bytes = NULL, updated_at = $7, \
         dreaming_status = CASE WHEN d.task_type = 'memory' AND d.dreaming = 'dynamic' THEN 'dreaming' ELSE 'done' END \
         FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) \
         AS v(id, text, title, summary, doc_type, n) \
         WHERE d.id = v.id RETURNING d.id, d.dreaming_status",
    )
    .bind(&docs)
    .bind(live.iter().map(|(_, r)| r.text.as_str()).collect::<Vec<_>>())
    .bind(live.iter().map(|(_, r)| r.title.as_deref()).collect::<Vec<_>>())
    .bind(live.iter().map(|(_, r)| r.summary.as_deref()).collect::<Vec<_>>())
    .bind(live.iter().map(|(_, r)| r.doc_type.as_str()).collect::<Vec<_>>())
    .bind(live.iter().map(|(_, r)| r.chunks.len() as i64).collect::<Vec<_>>())
    .bind(t)
    .fetch_all(&mut **tx)
    .await
    .map_err(db_err)?;
    let dreaming: HashSet<String> = rows
        .iter()
        .filter(|r| r.get::<&str, _>(1) == "dreaming")
        .map(|r| r.get(0))
        .collect();
    let mut finished: Vec<&str> = Vec::with_capacity(live.len());
    for (job, r) in live {
        if dreaming.contains(&job.document_id) {
            turn_into_dream(tx, job, r.dream_at).await?;
        } else {
            finished.push(job.id.as_str());
        }
    }
    sqlx::query("DELETE FROM jobs WHERE id = ANY($1)")
        .bind(&finished)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    Ok(())
}

/// Every chunk of the batch in one statement: columns as arrays, the
/// embeddings as one flat array cut per row (all have the model's
/// dimension).
async fn insert_chunks(tx: &mut Tx, live: &[&(Job, ProcessedDocument)], t: i64) -> StoreResult<()> {
    let rows: Vec<(&Job, &NewChunk)> = live
        .iter()
        .flat_map(|(j, r)| r.chunks.iter().map(move |c| (j, c)))
        .collect();
    let Some(dim) = rows.first().map(|(_, c)| c.embedding.len()) else {
        return Ok(());
    };
    if dim == 0 || rows.iter().any(|(_, c)| c.embedding.len() != dim) {
        // one embedder call gives every chunk of a batch its vector, all
        // of the model's dimension: anything else is a bug upstream
        return Err(StoreError::Backend(
            "a batch's chunk embeddings are missing or differ in length".into(),
        ));
    }
    let flat: Vec<f32> = rows
        .iter()
        .flat_map(|(_, c)| c.embedding.iter().copied())
        .collect();
    sqlx::query(
        "INSERT INTO chunks (id, document_id, org_id, position, content, token_count, embedding, created_at) \
         SELECT u.id, u.doc, u.org, u.pos, u.content, u.tokens, \
         ($7::real[])[(u.n - 1) * $8 + 1 : u.n * $8]::vector, $9 \
         FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[]) \
         WITH ORDINALITY AS u(id, doc, org, pos, content, tokens, n)",
    )
    .bind(
        rows.iter()
            .map(|_| engram_core::ids::new_id())
            .collect::<Vec<_>>(),
    )
    .bind(rows.iter().map(|(j, _)| j.document_id.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|(j, _)| j.org_id.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|(_, c)| c.position).collect::<Vec<_>>())
    .bind(rows.iter().map(|(_, c)| c.content.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|(_, c)| c.token_count).collect::<Vec<_>>())
    .bind(&flat)
    .bind(dim as i64)
    .bind(t)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

/// Keep the job of a document that dreams later: stage `dream`, due at
/// `at`, unleased.
async fn turn_into_dream(tx: &mut Tx, job: &Job, at: Timestamp) -> StoreResult<()> {
    sqlx::query(
        "UPDATE jobs SET stage = 'dream', attempts = 0, run_after = $1, lease_owner = NULL, \
         lease_expires_at = NULL WHERE id = $2",
    )
    .bind(ms(at))
    .bind(&job.id)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

pub async fn complete_dreams(s: &PgStore, jobs: &[Job]) -> StoreResult<Vec<bool>> {
    let mut tx = begin_for(s, &jobs.iter().collect::<Vec<_>>()).await?;
    let current = current_of(&mut tx, jobs).await?;
    let live: Vec<&Job> = jobs.iter().filter(|j| current.contains(&j.id)).collect();
    if !live.is_empty() {
        let docs: Vec<&str> = live.iter().map(|j| j.document_id.as_str()).collect();
        let ids: Vec<&str> = live.iter().map(|j| j.id.as_str()).collect();
        sqlx::query(
            "UPDATE documents SET dreaming_status = 'done', updated_at = $1 WHERE id = ANY($2)",
        )
        .bind(ms(now()))
        .bind(&docs)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        sqlx::query("DELETE FROM jobs WHERE id = ANY($1)")
            .bind(&ids)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(jobs.iter().map(|j| current.contains(&j.id)).collect())
}

pub async fn fail(
    s: &PgStore,
    job: &Job,
    error: &str,
    retry_at: Option<Timestamp>,
) -> StoreResult<bool> {
    let mut tx = begin_for(s, &[job]).await?;
    if !still_current(&mut tx, job).await? {
        return Ok(false);
    }
    let t = ms(now());
    match retry_at {
        Some(at) => {
            sqlx::query(
                "UPDATE jobs SET attempts = attempts + 1, run_after = $1, lease_owner = NULL, \
                 lease_expires_at = NULL WHERE id = $2",
            )
            .bind(ms(at))
            .bind(&job.id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "UPDATE documents SET status = 'queued', error = $1, updated_at = $2 WHERE id = $3",
            )
            .bind(error)
            .bind(t)
            .bind(&job.document_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        None => {
            sqlx::query("DELETE FROM jobs WHERE id = $1")
                .bind(&job.id)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "UPDATE documents SET status = 'failed', error = $1, dreaming_status = 'done', \
                 updated_at = $2 WHERE id = $3",
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

pub async fn release(s: &PgStore, worker: &str) -> StoreResult<u64> {
    let mut tx = s.begin().await?;
    let orgs: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT org_id FROM jobs WHERE lease_owner = $1")
            .bind(worker)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
    PgStore::lock_orgs(
        &mut tx,
        &orgs.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .await?;
    sqlx::query(
        "UPDATE documents SET status = 'queued' WHERE id IN (SELECT document_id FROM jobs WHERE lease_owner = $1) \
         AND status IN ('extracting', 'chunking', 'embedding', 'indexing')",
    )
    .bind(worker)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let r = sqlx::query(
        "UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1",
    )
    .bind(worker)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(r.rows_affected())
}

pub async fn pending(s: &PgStore) -> StoreResult<u64> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs")
        .fetch_one(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(n as u64)
}

/// Listen on `engram_jobs` (see the migration) and call `on_job` for each
/// notification, until the pool closes. The listener reconnects by itself
/// after a lost connection; a wake-up lost meanwhile only costs a poll.
pub async fn subscribe(
    s: &PgStore,
    on_job: std::sync::Arc<dyn Fn() + Send + Sync>,
) -> StoreResult<()> {
    let mut listener = sqlx::postgres::PgListener::connect_with(&s.pool)
        .await
        .map_err(db_err)?;
    listener.listen("engram_jobs").await.map_err(db_err)?;
    tokio::spawn(async move {
        loop {
            match listener.recv().await {
                Ok(_) => on_job(),
                Err(sqlx::Error::PoolClosed) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "job notifications: listening failed; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(())
}
