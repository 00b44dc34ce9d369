//! Background workers: each claims a batch of jobs, renews their leases
//! while it works, and processes them. On shutdown a worker stops at the
//! next stage boundary and releases its jobs so that another worker (or the
//! next start) takes them at once instead of waiting for the lease to lapse.
//! A batch that panics (a bug) does not take its worker with it: its
//! processing jobs fail as a transient failure (retried with backoff, then
//! given up), its memory formation ends without memories, and the worker
//! claims the next batch.

use crate::dreams::dream_batch;
use crate::pipeline::{fail, process_batch, Failure};
use crate::Engine;
use engram_store::{Job, JobStage};
use futures::FutureExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Running workers.
pub struct WorkerPool {
    stop: watch::Sender<bool>,
    handles: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// Start `n` workers on `engine`.
    pub fn start(engine: Arc<Engine>, n: usize) -> Self {
        let (stop, rx) = watch::channel(false);
        let base = format!(
            "{}-{}",
            std::process::id(),
            engram_core::ids::random_base62(6)
        );
        let mut handles: Vec<JoinHandle<()>> = (0..n.max(1))
            .map(|i| {
                let id = format!("worker-{base}-{i}");
                tokio::spawn(run(engine.clone(), id, rx.clone()))
            })
            .collect();
        handles.push(tokio::spawn(crate::connections::sync::runner(
            engine.clone(),
            format!("sync-{base}"),
            rx.clone(),
        )));
        handles.push(tokio::spawn(sweep(engine, rx)));
        Self { stop, handles }
    }

    /// Kill the workers where they stand, releasing nothing: what a crash
    /// does. Their jobs come back when the leases lapse. (For tests.)
    pub fn abort(self) {
        for h in self.handles {
            h.abort();
        }
    }

    /// Stop claiming, finish or abandon the current stage, release held jobs,
    /// and wait for every worker to exit.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for h in self.handles {
            let _ = h.await;
        }
    }
}

async fn run(engine: Arc<Engine>, id: String, mut stop: watch::Receiver<bool>) {
    tracing::debug!(worker = %id, "worker started");
    let cfg = engine.config.clone();
    loop {
        if *stop.borrow() {
            break;
        }
        // register interest before claiming so a wake-up between an empty
        // claim and the wait is not lost
        let woken = engine.wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        let jobs = match engine
            .store
            .claim_jobs(&id, cfg.batch_size, cfg.lease)
            .await
        {
            Ok(j) => j,
            Err(e) => {
                tracing::error!(worker = %id, error = %e, "claiming jobs failed");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                    _ = stop.changed() => {}
                }
                continue;
            }
        };
        if jobs.is_empty() {
            tokio::select! {
                _ = &mut woken => {}
                _ = tokio::time::sleep(cfg.poll_interval) => {}
                _ = stop.changed() => {}
            }
            continue;
        }
        tracing::debug!(worker = %id, jobs = jobs.len(), "claimed");
        let ids: Vec<String> = jobs.iter().map(|j| j.id.clone()).collect();
        // Lease renewal runs inside this task (not a spawned one), so it can
        // never outlive the worker: if the worker dies, its leases lapse.
        let renew = async {
            loop {
                tokio::time::sleep(cfg.lease / 3).await;
                if let Err(e) = engine.store.renew_leases(&id, &ids, cfg.lease).await {
                    tracing::warn!(worker = %id, error = %e, "lease renewal failed");
                }
            }
        };
        let claimed = jobs.clone();
        let (dreams, jobs): (Vec<Job>, Vec<Job>) =
            jobs.into_iter().partition(|j| j.stage == JobStage::Dream);
        let work = async {
            if !jobs.is_empty() {
                process_batch(&engine, jobs, &stop).await?;
            }
            if !dreams.is_empty() && !*stop.borrow() {
                dream_batch(&engine, dreams, &stop).await?;
            }
            Ok::<_, engram_store::StoreError>(())
        };
        let result = tokio::select! {
            r = std::panic::AssertUnwindSafe(work).catch_unwind() => r,
            _ = renew => unreachable!("lease renewal never ends"),
        };
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::error!(worker = %id, error = %e, "batch failed; its jobs will be retried");
                let _ = engine.store.release_jobs(&id).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            // (memory formation that panicked leaves its documents without
            // memories, as a formation error does; processing is retried)
            Err(_) => {
                tracing::error!(worker = %id, jobs = claimed.len(), "batch panicked; its jobs fail");
                let (dreams, jobs): (Vec<Job>, Vec<Job>) = claimed
                    .into_iter()
                    .partition(|j| j.stage == JobStage::Dream);
                for job in &jobs {
                    let f = Failure::Transient("processing panicked".into());
                    if let Err(e) = fail(&engine, job, f).await {
                        tracing::warn!(worker = %id, error = %e, "could not record the failure");
                    }
                }
                if let Err(e) = engine.store.complete_dreams(&dreams).await {
                    tracing::warn!(worker = %id, error = %e, "could not record the failure");
                }
            }
        }
    }
    match engine.store.release_jobs(&id).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(worker = %id, jobs = n, "released jobs on shutdown"),
        Err(e) => {
            tracing::warn!(worker = %id, error = %e, "could not release jobs; their leases will lapse")
        }
    }
    tracing::debug!(worker = %id, "worker stopped");
}

/// Forget expired memories periodically (readers already hide them; the
/// sweep makes them forgotten for good, so lists and profiles agree), run
/// tag merges a crash left queued, and purge request logs past retention.
async fn sweep(engine: Arc<Engine>, mut stop: watch::Receiver<bool>) {
    let every = engine.config.sweep_interval;
    loop {
        match engine.sweep_expired().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(memories = n, "expired memories forgotten"),
            Err(e) => tracing::warn!(error = %e, "memory expiry sweep failed"),
        }
        match engine.run_queued_merges().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(merges = n, "queued tag merges run"),
            Err(e) => tracing::warn!(error = %e, "running queued tag merges failed"),
        }
        match engine.purge_request_logs().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(logs = n, "request logs past retention purged"),
            Err(e) => tracing::warn!(error = %e, "purging request logs failed"),
        }
        tokio::select! {
            _ = stop.changed() => break,
            _ = tokio::time::sleep(every) => {}
        }
        if *stop.borrow() {
            break;
        }
    }
}
