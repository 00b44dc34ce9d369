//! Processing one batch of claimed jobs through the stages. Each stage is
//! recorded for the whole batch in one store transaction, but for stages
//! that would pass unseen (chunking a little text; indexing when no memory
//! forms, which completion does in its own transaction); embedding runs
//! once for all chunks of the batch (the embedder batches internally);
//! completion replaces chunks atomically and is fenced by the lease, so a
//! crash at any point leaves either the old state or the new, never both.

use crate::fetch::FetchError;
use crate::Engine;
use engram_core::{DocumentStatus, Dreaming, TaskType};
use engram_extract::chunk::{chunk_text, ChunkConfig};
use engram_extract::{extract_bytes, extract_text, summary::lead_summary, Extracted};
use engram_store::{now, Document, Job, NewChunk, ProcessedDocument, StoreError};
use std::time::Duration;
use tokio::sync::watch;

/// How one job failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Worth retrying a few times (a flaky fetch, a lost lease).
    Transient(String),
    /// A dependency that is down (the embedding provider: timeouts, 429,
    /// 5xx; the database): retried, with the backoff growing to its cap,
    /// for as long as it takes. The document was acknowledged; giving up
    /// on it because a provider was away for a minute would lose it.
    Unavailable(String),
    Permanent(String),
}

/// Text content up to this many bytes is extracted on the async runtime
/// rather than the blocking pool.
const INLINE_TEXT: usize = 16 * 1024;

/// Bytes of text a batch chunks without recording a `chunking` stage
/// (tokenising this much takes a few milliseconds).
const QUIET_CHUNKING: usize = 64 * 1024;

/// Documents whose content and file take at most this many bytes are read
/// with the rest of their batch, in one query.
const READ_TOGETHER: usize = 256 * 1024;

/// Texts embedded per embedder call (bounds memory and keeps stop checks
/// and lease renewals timely for very large documents).
const EMBED_GROUP: usize = 256;

struct Prepared {
    job: Job,
    extracted: Extracted,
    chunks: Vec<(String, usize)>,
}

/// Run `jobs` to completion (or failure). Returns early, leaving the jobs
/// leased to be released by the caller, when `stop` is raised.
pub(crate) async fn process_batch(
    engine: &Engine,
    jobs: Vec<Job>,
    stop: &watch::Receiver<bool>,
) -> Result<(), StoreError> {
    let store = &engine.store;
    let jobs = advance(engine, jobs, DocumentStatus::Extracting).await?;
    let mut extracted = Vec::with_capacity(jobs.len());
    let mut settings_of: std::collections::HashMap<String, crate::settings::Effective> =
        std::collections::HashMap::new();
    // the documents that form memories now, as read (without their raw
    // content), by id, for memory formation at the end
    let mut forming: std::collections::HashMap<String, Document> = std::collections::HashMap::new();
    let mut read = read_small(engine, &jobs).await;
    for job in jobs {
        if *stop.borrow() {
            return Ok(());
        }
        let e = match extract(engine, &job, read.remove(&job.document_id)).await {
            Ok(Some((e, mut doc))) => {
                if doc.dreaming == Dreaming::Instant && doc.task_type == TaskType::Memory {
                    doc.content = String::new();
                    forming.insert(job.document_id.clone(), doc);
                }
                e
            }
            Ok(None) => continue, // the document is gone
            Err(f) => {
                fail(engine, &job, f).await?;
                continue;
            }
        };
        // the organisation's settings: its ingestion filter now, its
        // chunk size below (read once per organisation and batch)
        let settings = match settings_of.get(&job.org_id) {
            Some(s) => s.clone(),
            None => match engine.effective_settings(&job.org_id).await {
                Ok(s) => {
                    settings_of.insert(job.org_id.clone(), s.clone());
                    s
                }
                Err(err) => {
                    fail(engine, &job, Failure::Transient(err.to_string())).await?;
                    continue;
                }
            },
        };
        match engine.admit(&settings, &e.text).await {
            Ok(()) => extracted.push((job, e, settings.chunk_size)),
            Err(why) => {
                let f = Failure::Permanent(format!("not ingested: {why}"));
                fail(engine, &job, f).await?
            }
        }
    }
    // chunking a batch of short texts takes a millisecond or two: a
    // `chunking` status nobody could see is a transaction saved; a batch
    // with much text to chunk records it
    let text_bytes: usize = extracted.iter().map(|(_, e, _)| e.text.len()).sum();
    let alive = if text_bytes > QUIET_CHUNKING {
        let jobs: Vec<Job> = extracted.iter().map(|(j, _, _)| j.clone()).collect();
        store
            .set_jobs_stage(&jobs, DocumentStatus::Chunking)
            .await?
    } else {
        vec![true; extracted.len()]
    };
    // every document of the batch is chunked in one blocking task (a task
    // per document cost more in thread hand-offs than a short document's
    // chunking itself)
    let todo: Vec<(Job, Extracted, ChunkConfig)> = extracted
        .into_iter()
        .zip(alive)
        .filter(|(_, ok)| *ok)
        .map(|((job, ex, chunk_size), _)| {
            // the organisation's chunkSize, else the configured size
            let chunk_tokens = chunk_size.or(engine.config.chunk_tokens);
            let cfg = ChunkConfig::for_model(chunk_tokens, engine.embedder.max_tokens());
            (job, ex, cfg)
        })
        .collect();
    let counter = engine.embedder.token_counter();
    let chunked = tokio::task::spawn_blocking(move || {
        todo.into_iter()
            .map(|(job, ex, cfg)| {
                let chunks = chunk_text(&ex.text, counter.as_ref(), cfg);
                (job, ex, chunks)
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| StoreError::Backend(format!("chunking task failed: {e}")))?;
    let mut prepared = Vec::new();
    for (job, ex, chunks) in chunked {
        if chunks.is_empty() {
            fail(
                engine,
                &job,
                Failure::Permanent("the content holds no text".into()),
            )
            .await?;
            continue;
        }
        let chunks = chunks
            .into_iter()
            .map(|c| (c.content, c.token_count))
            .collect();
        prepared.push(Prepared {
            job,
            extracted: ex,
            chunks,
        });
    }
    if *stop.borrow() {
        return Ok(());
    }
    let jobs: Vec<Job> = prepared.iter().map(|p| p.job.clone()).collect();
    let alive = store
        .set_jobs_stage(&jobs, DocumentStatus::Embedding)
        .await?;
    let prepared: Vec<Prepared> = prepared
        .into_iter()
        .zip(alive)
        .filter(|(_, ok)| *ok)
        .map(|(p, _)| p)
        .collect();
    let texts: Vec<String> = prepared
        .iter()
        .flat_map(|p| p.chunks.iter().map(|(c, _)| c.clone()))
        .collect();
    let mut vectors: Vec<Vec<f32>> = Vec::with_capacity(texts.len());
    for group in texts.chunks(EMBED_GROUP) {
        if *stop.borrow() {
            return Ok(());
        }
        match engine.embedder.embed(group.to_vec()).await {
            Ok(v) => vectors.extend(v),
            Err(e) => {
                let f = if e.is_transient() {
                    Failure::Unavailable(e.to_string())
                } else {
                    Failure::Permanent(e.to_string())
                };
                for p in &prepared {
                    fail(engine, &p.job, clone_failure(&f)).await?;
                }
                return Ok(());
            }
        }
    }
    // `indexing` is seen only while memories form: otherwise completion,
    // which writes the index and `done` in one transaction, follows at once
    let forms = prepared
        .iter()
        .any(|p| forming.contains_key(&p.job.document_id));
    let alive = if forms {
        let jobs: Vec<Job> = prepared.iter().map(|p| p.job.clone()).collect();
        store
            .set_jobs_stage(&jobs, DocumentStatus::Indexing)
            .await?
    } else {
        vec![true; prepared.len()]
    };
    let mut vectors = vectors.into_iter();
    let mut done = Vec::with_capacity(prepared.len());
    for (p, ok) in prepared.into_iter().zip(alive) {
        let chunks: Vec<NewChunk> = p
            .chunks
            .into_iter()
            .enumerate()
            .map(|(i, (content, tokens))| NewChunk {
                position: i as i64,
                content,
                token_count: tokens as i64,
                embedding: vectors.next().unwrap_or_default(),
            })
            .collect();
        if !ok {
            continue;
        }
        let summary = lead_summary(&p.extracted.text);
        done.push((
            p.job,
            ProcessedDocument {
                text: p.extracted.text,
                title: p.extracted.title,
                summary,
                doc_type: p.extracted.doc_type,
                chunks,
                dream_at: dream_at(engine),
            },
        ));
    }
    // `dreaming: instant`: memories form before the document is done, so
    // a client that sees `done` finds them; `dynamic` documents dream
    // later, grouped with related ones (crate::dreams)
    for (job, p) in &done {
        if *stop.borrow() {
            return Ok(());
        }
        let Some(doc) = forming.remove(&job.document_id) else {
            continue;
        };
        if let Err(e) = engine.form_instant(&job.org_id, doc, &p.text).await {
            tracing::warn!(document = %job.document_id, error = %e, "memory formation failed");
        }
    }
    let n = done.len();
    let results = store.complete_jobs(done).await?;
    // documents that dream dynamically are due after the delay: wake the
    // workers then rather than at their next poll
    if results.iter().any(|ok| *ok) {
        let wake = engine.wake.clone();
        let delay = engine.config.dream_delay;
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            wake.notify_waiters();
        });
    }
    let fenced = results.iter().filter(|ok| !**ok).count();
    tracing::debug!(completed = n - fenced, fenced, "batch indexed");
    Ok(())
}

/// When a document completed now may start dreaming.
fn dream_at(engine: &Engine) -> engram_store::Timestamp {
    now() + chrono::Duration::from_std(engine.config.dream_delay).unwrap_or_default()
}

fn clone_failure(f: &Failure) -> Failure {
    match f {
        Failure::Transient(m) => Failure::Transient(m.clone()),
        Failure::Unavailable(m) => Failure::Unavailable(m.clone()),
        Failure::Permanent(m) => Failure::Permanent(m.clone()),
    }
}

/// Record `status` for all jobs; keep those still current.
async fn advance(
    engine: &Engine,
    jobs: Vec<Job>,
    status: DocumentStatus,
) -> Result<Vec<Job>, StoreError> {
    let alive = engine.store.set_jobs_stage(&jobs, status).await?;
    Ok(jobs
        .into_iter()
        .zip(alive)
        .filter(|(_, ok)| *ok)
        .map(|(j, _)| j)
        .collect())
}

/// The batch's short documents by id, read in one query per organisation
/// (a read per document was a round trip each). A document missing here
/// (large, gone, or the read failed) is read alone by [`extract`].
async fn read_small(engine: &Engine, jobs: &[Job]) -> std::collections::HashMap<String, Document> {
    let mut by_org: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for job in jobs {
        by_org
            .entry(job.org_id.as_str())
            .or_default()
            .push(job.document_id.clone());
    }
    let mut out = std::collections::HashMap::with_capacity(jobs.len());
    for (org, ids) in by_org {
        match engine
            .store
            .small_documents_by_ids(org, &ids, READ_TOGETHER)
            .await
        {
            Ok(docs) => out.extend(docs.into_iter().map(|d| (d.id.clone(), d))),
            Err(e) => tracing::debug!(error = %e, "reading a batch's documents together failed"),
        }
    }
    out
}

/// Extract the job's document; returns the text and the document as read
/// (without its file's bytes), which memory formation uses later.
async fn extract(
    engine: &Engine,
    job: &Job,
    read: Option<Document>,
) -> Result<Option<(Extracted, Document)>, Failure> {
    // a document not read with the batch is read alone: a file may be
    // 50 MB, and a batch of them read together would hold every file's
    // bytes at once
    let mut doc = match read {
        Some(d) => d,
        None => match engine
            .store
            .get_document(&job.org_id, &job.document_id)
            .await
        {
            Ok(Some(d)) => d,
            Ok(None) => return Ok(None),
            Err(e) => return Err(Failure::Transient(e.to_string())),
        },
    };
    // a page from the web is a webpage; a file that merely has a URL (a
    // synced GitHub or S3 object) keeps the kind its content has
    let html_file = doc.file.as_ref().map(|f| {
        f.mime_type
            .as_deref()
            .is_some_and(|m| m.starts_with("text/html") || m.starts_with("application/xhtml"))
    });
    let web = doc
        .url
        .as_deref()
        .is_some_and(|u| u.starts_with("http://") || u.starts_with("https://"))
        && html_file.unwrap_or(true);
    let result = if let Some(file) = doc.file.take() {
        tokio::task::spawn_blocking(move || {
            extract_bytes(
                &file.bytes,
                file.mime_type.as_deref(),
                file.filename.as_deref(),
                false,
            )
        })
        .await
    } else if let Some(url) = doc.url.clone() {
        let fetched = engine.fetcher.fetch(&url).await.map_err(|e| match &e {
            FetchError::Refused(_) | FetchError::TooLarge(_) => {
                Failure::Permanent(format!("URL fetch failed: {e}"))
            }
            _ if e.is_transient() => Failure::Transient(format!("URL fetch failed: {e}")),
            _ => Failure::Permanent(format!("URL fetch failed: {e}")),
        })?;
        let filename = fetched.final_url.rsplit('/').next().map(str::to_string);
        tokio::task::spawn_blocking(move || {
            extract_bytes(
                &fetched.bytes,
                fetched.content_type.as_deref(),
                filename.as_deref(),
                true,
            )
        })
        .await
    } else if doc.content.len() <= INLINE_TEXT {
        // a short text is read in microseconds: less than handing it to
        // the blocking pool and back
        Ok(Ok(extract_text(&doc.content)))
    } else {
        let content = doc.content.clone();
        tokio::task::spawn_blocking(move || Ok(extract_text(&content))).await
    };
    match result {
        Ok(Ok(mut e)) => {
            if e.text.trim().is_empty() {
                return Err(Failure::Permanent("the content holds no text".into()));
            }
            if web && e.doc_type == engram_core::DocumentType::Text {
                e.doc_type = engram_core::DocumentType::Webpage;
            }
            // a title given with the document (a synced page's, an email's
            // subject) wins over one guessed from the content
            if let Some(t) = doc.metadata.get("title").and_then(|t| t.as_str()) {
                if !t.trim().is_empty() {
                    e.title = Some(t.trim().chars().take(300).collect());
                }
            }
            Ok(Some((e, doc)))
        }
        Ok(Err(e)) => Err(Failure::Permanent(e.to_string())),
        Err(e) => Err(Failure::Permanent(format!("extraction crashed: {e}"))),
    }
}

/// Record a failure: transient ones retry with exponential backoff until
/// `max_attempts`, then become permanent; a dependency that is down is
/// waited for without a limit (the backoff caps at five minutes).
pub(crate) async fn fail(engine: &Engine, job: &Job, f: Failure) -> Result<(), StoreError> {
    let cfg = &engine.config;
    match f {
        Failure::Transient(msg) if job.attempts + 1 < cfg.max_attempts => {
            let delay = backoff(cfg.retry_base, job.attempts);
            tracing::warn!(document = %job.document_id, attempt = job.attempts + 1, ?delay, error = %msg, "retrying");
            let at = now() + chrono::Duration::from_std(delay).unwrap_or_default();
            engine.store.fail_job(job, &msg, Some(at)).await?;
        }
        Failure::Unavailable(msg) => {
            let delay = backoff(cfg.retry_base, job.attempts);
            tracing::warn!(document = %job.document_id, attempt = job.attempts + 1, ?delay, error = %msg, "a dependency is down; waiting for it");
            let at = now() + chrono::Duration::from_std(delay).unwrap_or_default();
            engine.store.fail_job(job, &msg, Some(at)).await?;
        }
        Failure::Transient(msg) => {
            let msg = format!("{msg} (gave up after {} attempts)", job.attempts + 1);
            tracing::warn!(document = %job.document_id, error = %msg, "processing failed");
            engine.store.fail_job(job, &msg, None).await?;
        }
        Failure::Permanent(msg) => {
            tracing::info!(document = %job.document_id, error = %msg, "processing failed");
            engine.store.fail_job(job, &msg, None).await?;
        }
    }
    Ok(())
}

/// `base * 2^attempts`, capped at five minutes, with ±20% jitter.
fn backoff(base: Duration, attempts: i64) -> Duration {
    let exp = base.saturating_mul(1u32 << attempts.clamp(0, 16) as u32);
    let capped = exp.min(Duration::from_secs(300));
    let jitter = 0.8 + rand::random::<f64>() * 0.4;
    capped.mul_f64(jitter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_caps() {
        let b = Duration::from_secs(2);
        let d0 = backoff(b, 0);
        assert!(d0 >= Duration::from_millis(1600) && d0 <= Duration::from_millis(2400));
        let d3 = backoff(b, 3);
        assert!(d3 >= Duration::from_millis(12800) && d3 <= Duration::from_millis(19200));
        assert!(backoff(b, 40) <= Duration::from_secs(360));
    }
}
