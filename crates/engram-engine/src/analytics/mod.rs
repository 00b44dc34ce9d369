//! Request analytics and rate limits.
//!
//! Every API request becomes a [`RequestLog`] through the [`Recorder`]:
//! the HTTP layer hands it a [`PendingRequest`] (raw bodies, status,
//! duration) and returns at once; a background task compacts bodies (see
//! [`compact`]) and writes batches at least once a second, so a crash
//! loses at most the last second. The reports fold the store's aggregates
//! into the seed's usage, errors and logs shapes. Rate limits count in the
//! store, so they hold across replicas.
//!
//! This module knows no HTTP: request types and raw bodies arrive as
//! plain values.

pub mod compact;

use crate::{Engine, EngineError};
use bytes::Bytes;
use engram_store::{
    now, ErrorStats, LogQuery, MemoryListQuery, RequestLog, Store, Timestamp, UsageStats,
};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How long request logs are kept.
pub const RETENTION: chrono::TimeDelta = chrono::TimeDelta::days(90);
/// Longest a recorded request waits before it is written.
pub const FLUSH_EVERY: Duration = Duration::from_millis(500);
/// Most requests written in one batch.
const BATCH: usize = 500;
/// Requests waiting to be written beyond which new ones are dropped
/// (with a warning) rather than grow without bound.
const QUEUE: usize = 20_000;
/// Bodies above this are compacted on the blocking pool.
const BLOCKING_BYTES: usize = 64 * 1024;

/// Analytics requests an organisation may make per minute.
pub const ANALYTICS_PER_MINUTE: u64 = 100;

/// A finished request as the HTTP layer saw it.
#[derive(Debug, Clone)]
pub struct PendingRequest {
    pub org_id: String,
    pub key_id: String,
    pub kind: &'static str,
    pub status_code: u16,
    pub error_type: Option<String>,
    pub duration_ms: f64,
    pub at: Timestamp,
    /// The request body (JSON), empty when none was read.
    pub request_body: Bytes,
    /// Path parameters and query parameters.
    pub params: Map<String, Value>,
    pub query: Map<String, Value>,
    /// The answer's body (JSON).
    pub response_body: Bytes,
}

impl PendingRequest {
    fn into_log(self) -> RequestLog {
        RequestLog {
            id: engram_core::ids::new_id(),
            input: compact::input(&self.request_body, self.params, self.query),
            output: compact::output(&self.response_body),
            org_id: self.org_id,
            key_id: self.key_id,
            kind: self.kind.to_string(),
            status_code: self.status_code,
            error_type: self.error_type,
            duration_ms: self.duration_ms,
            created_at: self.at,
        }
    }

    fn size(&self) -> usize {
        self.request_body.len() + self.response_body.len()
    }
}

enum Msg {
    Pending(Box<PendingRequest>),
    Compacted(RequestLog),
    Flush(oneshot::Sender<()>),
}

/// Hands requests to the background writer.
#[derive(Clone)]
pub struct Recorder {
    tx: mpsc::Sender<Msg>,
}

impl Recorder {
    /// Start the writer on `store`. It runs until every handle is dropped,
    /// writing what it holds before it ends.
    pub fn start(store: Arc<dyn Store>) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(write_loop(store, rx, tx.downgrade()));
        Self { tx }
    }

    /// Record a finished request without waiting.
    pub fn record(&self, req: PendingRequest) {
        if self.tx.try_send(Msg::Pending(Box::new(req))).is_err() {
            tracing::warn!("the analytics queue is full; a request log was dropped");
        }
    }

    /// Write everything recorded so far (reports call this so a caller sees
    /// its own requests; shutdown calls it so nothing recorded is lost).
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Msg::Flush(done)).await.is_ok() {
            let _ = wait.await;
        }
    }
}

async fn write_loop(store: Arc<dyn Store>, mut rx: mpsc::Receiver<Msg>, me: mpsc::WeakSender<Msg>) {
    let mut buf: Vec<RequestLog> = Vec::new();
    let mut tick = tokio::time::interval(FLUSH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Some(Msg::Pending(p)) if p.size() > BLOCKING_BYTES => {
                    // large bodies: compact off the runtime, then come back
                    let back = me.clone();
                    tokio::task::spawn_blocking(move || {
                        let log = p.into_log();
                        if let Some(tx) = back.upgrade() {
                            let _ = tx.try_send(Msg::Compacted(log));
                        }
                    });
                }
                Some(Msg::Pending(p)) => buf.push(p.into_log()),
                Some(Msg::Compacted(log)) => buf.push(log),
                Some(Msg::Flush(done)) => {
                    write(&store, &mut buf).await;
                    let _ = done.send(());
                }
                None => {
                    write(&store, &mut buf).await;
                    return;
                }
            },
            _ = tick.tick() => write(&store, &mut buf).await,
        }
        if buf.len() >= BATCH {
            write(&store, &mut buf).await;
        }
    }
}

async fn write(store: &Arc<dyn Store>, buf: &mut Vec<RequestLog>) {
    if buf.is_empty() {
        return;
    }
    match store.record_requests(buf).await {
        Ok(()) => buf.clear(),
        Err(e) => {
            // keep them for the next tick (ids make the retry idempotent),
            // but never more than the queue holds
            tracing::warn!(error = %e, pending = buf.len(), "writing request logs failed");
            if buf.len() > QUEUE {
                let drop = buf.len() - QUEUE;
                buf.drain(..drop);
            }
        }
    }
}

/// A time window and page, validated by the caller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub from: Timestamp,
    pub to: Timestamp,
    pub offset: u64,
    pub limit: u64,
}

/// Usage: one page of the by-type rows, how many there are, and the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageReport {
    pub stats: UsageStats,
    pub total_types: u64,
    pub total_memories: u64,
}

/// One error kind over the window.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorKind {
    pub kind: String,
    pub count: u64,
    pub status_codes: Vec<u16>,
    pub last: Timestamp,
}

/// Errors in one hour.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorHour {
    pub hour: Timestamp,
    pub count: u64,
    pub kinds: Vec<String>,
}

/// Errors over a window.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorReport {
    pub total_errors: u64,
    /// Failed over all requests; 0 when there were none.
    pub error_rate: f64,
    /// One page, most frequent first.
    pub top: Vec<ErrorKind>,
    pub timeline: Vec<ErrorHour>,
    pub by_status: BTreeMap<u16, u64>,
}

/// Fold grouped errors into the report (`top` paged by `offset`/`limit`).
pub fn fold_errors(stats: ErrorStats, offset: u64, limit: u64) -> ErrorReport {
    let mut kinds: BTreeMap<String, ErrorKind> = BTreeMap::new();
    let mut hours: BTreeMap<Timestamp, (u64, BTreeSet<String>)> = BTreeMap::new();
    let mut by_status = BTreeMap::new();
    let mut total = 0;
    for g in stats.groups {
        total += g.count;
        *by_status.entry(g.status_code).or_insert(0) += g.count;
        let h = hours.entry(g.hour).or_default();
        h.0 += g.count;
        h.1.insert(g.error_type.clone());
        let k = kinds
            .entry(g.error_type.clone())
            .or_insert_with(|| ErrorKind {
                kind: g.error_type,
                count: 0,
                status_codes: vec![],
                last: g.last,
            });
        k.count += g.count;
        if !k.status_codes.contains(&g.status_code) {
            k.status_codes.push(g.status_code);
            k.status_codes.sort_unstable();
        }
        k.last = k.last.max(g.last);
    }
    let mut top: Vec<ErrorKind> = kinds.into_values().collect();
    top.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)));
    ErrorReport {
        total_errors: total,
        error_rate: if stats.total_requests == 0 {
            0.0
        } else {
            total as f64 / stats.total_requests as f64
        },
        top: top
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .collect(),
        timeline: hours
            .into_iter()
            .map(|(hour, (count, kinds))| ErrorHour {
                hour,
                count,
                kinds: kinds.into_iter().collect(),
            })
            .collect(),
        by_status,
    }
}

/// Filters of a log listing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogFilter {
    pub kind: Option<String>,
    pub status_code: Option<u16>,
    pub key_id: Option<String>,
}

impl Engine {
    /// The recorder requests are logged through.
    pub fn analytics(&self) -> &Recorder {
        &self.recorder
    }

    /// Usage over the window; by-type rows paged.
    pub async fn usage(&self, org_id: &str, w: Window) -> Result<UsageReport, EngineError> {
        self.recorder.flush().await;
        let mut stats = self.store.usage_stats(org_id, w.from, w.to).await?;
        let total_types = stats.by_type.len() as u64;
        stats.by_type = stats
            .by_type
            .into_iter()
            .skip(w.offset as usize)
            .take(w.limit as usize)
            .collect();
        let q = MemoryListQuery {
            limit: 1,
            ..Default::default()
        };
        let (_, total_memories) = self.store.list_memories(org_id, &q).await?;
        Ok(UsageReport {
            stats,
            total_types,
            total_memories,
        })
    }

    /// Errors over the window; top errors paged.
    pub async fn errors(&self, org_id: &str, w: Window) -> Result<ErrorReport, EngineError> {
        self.recorder.flush().await;
        let stats = self.store.error_stats(org_id, w.from, w.to).await?;
        Ok(fold_errors(stats, w.offset, w.limit))
    }

    /// One page of request logs, newest first, and how many match.
    pub async fn logs(
        &self,
        org_id: &str,
        w: Window,
        f: LogFilter,
    ) -> Result<(Vec<RequestLog>, u64), EngineError> {
        self.recorder.flush().await;
        let q = LogQuery {
            from: w.from,
            to: w.to,
            kind: f.kind,
            status_code: f.status_code,
            key_id: f.key_id,
            offset: w.offset,
            limit: w.limit,
        };
        Ok(self.store.list_requests(org_id, &q).await?)
    }

    /// Count a request against `bucket` (at most `per_minute` a minute,
    /// across every replica): `RateLimited` with the seconds until the
    /// window ends when over.
    pub async fn rate_limit(
        &self,
        bucket: &str,
        per_minute: u64,
        what: &str,
    ) -> Result<(), EngineError> {
        const MINUTE: Duration = Duration::from_secs(60);
        let at = now();
        let w = self.store.hit_rate_limit(bucket, at, MINUTE).await?;
        if w.count <= per_minute {
            return Ok(());
        }
        let ends = w.started_at + chrono::TimeDelta::seconds(60);
        let retry_after = ((ends - at).num_milliseconds().max(0) as u64)
            .div_ceil(1000)
            .max(1);
        Err(EngineError::RateLimited {
            message: format!("{what}: at most {per_minute} requests per minute"),
            retry_after_secs: retry_after,
        })
    }

    /// Delete request logs past retention; returns how many.
    pub async fn purge_request_logs(&self) -> Result<u64, EngineError> {
        Ok(self.store.purge_requests(now() - RETENTION).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_store::{from_millis, ErrorGroup};

    #[test]
    fn errors_fold_into_kinds_hours_and_codes() {
        let h = |n: i64| from_millis(n * 3_600_000);
        let g = |hour: i64, kind: &str, code: u16, count: u64| ErrorGroup {
            hour: h(hour),
            error_type: kind.into(),
            status_code: code,
            count,
            last: h(hour) + chrono::TimeDelta::minutes(5),
        };
        let stats = ErrorStats {
            total_requests: 40,
            groups: vec![
                g(1, "ValidationError", 400, 3),
                g(1, "NotFoundError", 404, 1),
                g(2, "ValidationError", 413, 1),
                g(2, "RateLimitError", 429, 5),
            ],
        };
        let r = fold_errors(stats.clone(), 0, 20);
        assert_eq!(r.total_errors, 10);
        assert!((r.error_rate - 0.25).abs() < 1e-12);
        let top: Vec<_> = r
            .top
            .iter()
            .map(|k| (k.kind.as_str(), k.count, k.status_codes.clone()))
            .collect();
        assert_eq!(
            top,
            [
                ("RateLimitError", 5, vec![429]),
                ("ValidationError", 4, vec![400, 413]),
                ("NotFoundError", 1, vec![404])
            ]
        );
        assert_eq!(r.top[1].last, h(2) + chrono::TimeDelta::minutes(5));
        assert_eq!(r.timeline.len(), 2);
        assert_eq!(r.timeline[0].count, 4);
        assert_eq!(r.timeline[0].kinds, ["NotFoundError", "ValidationError"]);
        assert_eq!(r.by_status.get(&429), Some(&5));
        let page = fold_errors(stats, 1, 1);
        assert_eq!(page.top.len(), 1);
        assert_eq!(page.top[0].kind, "ValidationError");
        assert_eq!(page.total_errors, 10, "paging only cuts topErrors");
        assert_eq!(fold_errors(ErrorStats::default(), 0, 20).error_rate, 0.0);
    }
}
