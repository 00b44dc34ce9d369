//! Running syncs: a background runner claims due connections on a lease
//! (renewed while the sync runs, so a crashed replica's sync is taken over
//! when its lease lapses, and resumes from the last checkpointed cursor),
//! runs the provider into a [`Sink`] that writes documents through the
//! store, and records the outcome as the connection's `lastSyncRun`.
//!
//! After a failure: a revoked grant stops the connection (status
//! `failed`, error `auth_expired`) until it is connected again; a rate
//! limit waits what the provider asked; anything else retries in five
//! minutes.

use crate::{Engine, EngineError};
use async_trait::async_trait;
use engram_connect::{ConnectError, Item, Sink};
use engram_core::{DocumentType, Dreaming, Metadata, TaskType};
use engram_store::{
    now, Connection, ConnectionPatch, ConnectionStatus, NewDocument, StoredFile, Timestamp,
};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Providers whose sync Engram implements.
pub const SYNCED: [&str; 7] = [
    "web-crawler",
    "github",
    "s3",
    "notion",
    "google-drive",
    "onedrive",
    "gmail",
];
/// Retry delay after a failure that is not a rate limit.
const RETRY: Duration = Duration::from_secs(300);

/// A `lastSyncRun` object.
pub fn run_json(
    status: &str,
    code: Option<&str>,
    error: Option<&str>,
    started: Option<Timestamp>,
) -> serde_json::Value {
    let mut v = serde_json::json!({ "status": status, "errorCode": code, "error": error });
    if let Some(t) = started {
        v["startedAt"] = crate::iso(t).into();
    }
    if status != "running" {
        v["completedAt"] = crate::iso(now()).into();
    }
    v
}

/// The custom id of a provider's item: the provider's own id when it is a
/// valid custom id, else a digest of it.
pub fn custom_id(provider: &str, item_id: &str) -> String {
    if engram_core::validate::custom_id("customId", item_id).is_ok() {
        return item_id.to_string();
    }
    let digest = hex::encode(Sha256::digest(item_id.as_bytes()));
    format!("{provider}-{}", &digest[..40])
}

/// Writes a sync's changes as the connection's documents.
struct StoreSink<'a> {
    engine: &'a Engine,
    conn: &'a Connection,
    /// Custom ids of this connection's documents.
    mine: HashSet<String>,
    written: usize,
    removed: usize,
}

#[async_trait]
impl Sink for StoreSink<'_> {
    async fn put(&mut self, items: Vec<Item>) -> Result<(), ConnectError> {
        let mut docs = Vec::new();
        for item in items {
            let cid = custom_id(&self.conn.provider, &item.id);
            if !self.mine.contains(&cid) && self.room() == 0 {
                continue;
            }
            let mut metadata: Metadata = self.conn.metadata.clone();
            for (k, v) in item.metadata {
                metadata.insert(k, v);
            }
            if let Some(t) = item.title.filter(|t| !t.trim().is_empty()) {
                metadata.insert("title".into(), t.into());
            }
            metadata.insert(
                "connectionProvider".into(),
                self.conn.provider.clone().into(),
            );
            let is_pdf = item.mime_type.as_deref() == Some("application/pdf")
                || item
                    .filename
                    .as_deref()
                    .is_some_and(|f| f.ends_with(".pdf"));
            docs.push(NewDocument {
                org_id: self.conn.org_id.clone(),
                custom_id: Some(cid.clone()),
                container_tags: self.conn.container_tags.clone(),
                content: item.url.clone().unwrap_or_else(|| item.id.clone()),
                doc_type: if is_pdf {
                    DocumentType::Pdf
                } else {
                    DocumentType::Text
                },
                url: item.url,
                source: Some(self.conn.provider.clone()),
                task_type: TaskType::Memory,
                dreaming: Dreaming::Instant,
                metadata,
                filepath: None,
                entity_context: None,
                file: Some(StoredFile {
                    filename: item.filename,
                    mime_type: item.mime_type,
                    bytes: item.bytes,
                }),
                connection_id: Some(self.conn.id.clone()),
            });
            self.mine.insert(cid);
        }
        if docs.is_empty() {
            return Ok(());
        }
        self.written += docs.len();
        self.engine
            .store
            .upsert_documents(docs)
            .await
            .map_err(|e| ConnectError::Internal(e.to_string()))?;
        self.engine.notify_workers();
        Ok(())
    }

    async fn remove(&mut self, ids: Vec<String>) -> Result<(), ConnectError> {
        for id in ids {
            let cid = custom_id(&self.conn.provider, &id);
            if !self.mine.remove(&cid) {
                continue;
            }
            // only this connection's own document
            let doc = self
                .engine
                .store
                .get_document(&self.conn.org_id, &cid)
                .await
                .map_err(|e| ConnectError::Internal(e.to_string()))?;
            if let Some(d) = doc.filter(|d| d.connection_id.as_deref() == Some(&self.conn.id)) {
                self.engine
                    .store
                    .delete_document(&self.conn.org_id, &d.id)
                    .await
                    .map_err(|e| ConnectError::Internal(e.to_string()))?;
                self.removed += 1;
            }
        }
        Ok(())
    }

    async fn checkpoint(&mut self, cursor: &serde_json::Value) -> Result<(), ConnectError> {
        self.engine
            .store
            .update_connection(
                &self.conn.org_id,
                &self.conn.id,
                ConnectionPatch {
                    cursor: Some(cursor.clone()),
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| ConnectError::Internal(e.to_string()))?;
        Ok(())
    }

    fn room(&self) -> usize {
        (self.conn.document_limit.max(0) as usize).saturating_sub(self.mine.len())
    }
}

impl Engine {
    /// Wake the sync runner (a sync became due).
    pub fn wake_syncs(&self) {
        self.sync_wake.notify_waiters();
    }

    /// Run one connection's sync now (the runner's step; also for tests).
    pub async fn sync_connection(&self, c: &Connection) -> Result<(usize, usize), EngineError> {
        let mine = self
            .store
            .connection_documents(&c.org_id, &c.id)
            .await?
            .into_iter()
            .filter_map(|d| d.custom_id)
            .collect();
        let mut sink = StoreSink {
            engine: self,
            conn: c,
            mine,
            written: 0,
            removed: 0,
        };
        let limit = c.document_limit.max(0) as usize;
        let result: Result<(), ConnectError> = match c.provider.as_str() {
            "web-crawler" => {
                let start = c
                    .metadata
                    .get("startUrl")
                    .and_then(|v| v.as_str())
                    .unwrap_or_default();
                let crawler = engram_connect::crawler::Crawler {
                    fetcher: &self.fetcher,
                    delay: self.config.connect.crawl_delay,
                    limit,
                };
                crawler
                    .crawl(start, c.cursor.clone(), &mut sink)
                    .await
                    .map(|(_, stats)| tracing::info!(connection = %c.id, ?stats, "crawled"))
            }
            "github" => match self.fresh_token(c).await {
                Ok((token, ep)) => {
                    let gh = engram_connect::github::GitHub {
                        http: &self.api_http,
                        api: &ep.api,
                        token: &token,
                    };
                    let repos = super::github::chosen_repos(c);
                    gh.sync(&repos, c.cursor.clone(), &mut sink)
                        .await
                        .map(|_| ())
                }
                Err(e) => Err(e),
            },
            "s3" => match self.s3_of(c) {
                Ok(bucket) => {
                    let prefixes = s3_prefixes(c);
                    bucket
                        .sync(&prefixes, c.cursor.clone(), &mut sink)
                        .await
                        .map(|_| ())
                }
                Err(e) => Err(e),
            },
            "notion" | "google-drive" | "onedrive" | "gmail" => match self.fresh_token(c).await {
                Ok((token, ep)) => {
                    use engram_connect::{gdrive, gmail, notion, onedrive};
                    let (http, api, cur) = (&self.api_http, ep.api.as_str(), c.cursor.clone());
                    match c.provider.as_str() {
                        "notion" => {
                            notion::Notion::new(http, api, &token)
                                .sync(cur, &mut sink)
                                .await
                        }
                        "google-drive" => {
                            gdrive::Drive::new(http, api, &token)
                                .sync(cur, &mut sink)
                                .await
                        }
                        "onedrive" => {
                            onedrive::OneDrive::new(http, api, &token)
                                .sync(cur, &mut sink)
                                .await
                        }
                        _ => {
                            gmail::Gmail::new(http, api, &token)
                                .sync(cur, &mut sink)
                                .await
                        }
                    }
                    .map(|_| ())
                }
                Err(e) => Err(e),
            },
            p => Err(ConnectError::Config(format!(
                "{p} connections cannot sync in this build"
            ))),
        };
        let (written, removed) = (sink.written, sink.removed);
        match result {
            Ok(()) => Ok((written, removed)),
            Err(e) => Err(EngineError::Sync(e)),
        }
    }

    /// Claim and run due syncs once; how many ran.
    pub async fn run_due_syncs(&self, worker: &str) -> Result<usize, EngineError> {
        let cfg = &self.config.connect;
        let due = self
            .store
            .claim_connection_syncs(worker, now(), cfg.lease, 4)
            .await?;
        let n = due.len();
        for c in due {
            let started = now();
            self.store
                .update_connection(
                    &c.org_id,
                    &c.id,
                    ConnectionPatch {
                        last_sync: Some(run_json("running", None, None, Some(started))),
                        ..Default::default()
                    },
                )
                .await?;
            // keep the lease while the sync runs
            let (stop, mut stopped) = watch::channel(false);
            let renew = {
                let store = self.store.clone();
                let (id, worker, lease) = (c.id.clone(), worker.to_string(), cfg.lease);
                tokio::spawn(async move {
                    loop {
                        tokio::select! {
                            _ = tokio::time::sleep(lease / 3) => {}
                            _ = stopped.changed() => return,
                        }
                        if !matches!(
                            store.renew_connection_lease(&id, &worker, lease).await,
                            Ok(true)
                        ) {
                            return;
                        }
                    }
                })
            };
            let outcome = self.sync_connection(&c).await;
            let _ = stop.send(true);
            let _ = renew.await;
            let mut patch = ConnectionPatch {
                release_lease: true,
                ..Default::default()
            };
            match outcome {
                Ok((written, removed)) => {
                    tracing::info!(connection = %c.id, provider = %c.provider, written, removed, "sync done");
                    patch.last_sync = Some(run_json("completed", None, None, Some(started)));
                    patch.next_sync_at = Some(Some(now() + chrono_of(cfg.sync_interval)));
                }
                Err(EngineError::Sync(e)) => {
                    tracing::warn!(connection = %c.id, provider = %c.provider, error = %e, "sync failed");
                    let msg = e.to_string();
                    patch.last_sync = Some(run_json(
                        "failed",
                        Some(e.code()),
                        Some(&msg),
                        Some(started),
                    ));
                    match &e {
                        ConnectError::AuthExpired(_) => {
                            patch.status = Some(ConnectionStatus::Failed);
                            patch.next_sync_at = Some(None);
                        }
                        ConnectError::RateLimited { retry_after } => {
                            let wait = retry_after.unwrap_or(Duration::from_secs(60));
                            patch.next_sync_at = Some(Some(now() + chrono_of(wait)));
                        }
                        _ => patch.next_sync_at = Some(Some(now() + chrono_of(RETRY))),
                    }
                }
                Err(other) => {
                    tracing::error!(connection = %c.id, error = %other, "sync could not run");
                    patch.last_sync = Some(run_json(
                        "failed",
                        Some("internal"),
                        Some(&other.to_string()),
                        Some(started),
                    ));
                    patch.next_sync_at = Some(Some(now() + chrono_of(RETRY)));
                }
            }
            // a sync asked for while this one ran (import, configure) is
            // not lost: its due time stays (checked where the write is, so
            // one asked for a moment before it is kept too)
            if patch.status.is_none() {
                patch.next_sync_if_still = Some(c.next_sync_at);
            }
            self.store
                .update_connection(&c.org_id, &c.id, patch)
                .await?;
        }
        Ok(n)
    }
}

/// The prefixes an S3 connection syncs: those chosen with `configure`,
/// else `metadata.prefix`, else the whole bucket.
fn s3_prefixes(c: &Connection) -> Vec<String> {
    let chosen: Vec<String> = c.config["prefixes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_str().map(str::to_string))
        .collect();
    if !chosen.is_empty() {
        return chosen;
    }
    c.metadata
        .get("prefix")
        .and_then(|p| p.as_str())
        .filter(|p| !p.trim_matches('/').is_empty())
        .map(|p| vec![p.to_string()])
        .unwrap_or_default()
}

fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::milliseconds(d.as_millis() as i64)
}

/// The background loop: run due syncs, then sleep until woken or the poll
/// interval passes.
pub(crate) async fn runner(engine: Arc<Engine>, id: String, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            break;
        }
        let woken = engine.sync_wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        match engine.run_due_syncs(&id).await {
            Ok(n) if n > 0 => continue,
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "sync runner"),
        }
        tokio::select! {
            _ = &mut woken => {}
            _ = tokio::time::sleep(engine.config.connect.poll_interval) => {}
            _ = stop.changed() => {}
        }
    }
}
