//! Group commit of concurrent document writes. Each write is durable
//! before it is answered, and a transaction's commit (the log write, the
//! fsync, on PostgreSQL a round trip and the organisation's lock) costs
//! about as much as the inserts in it. Writes that arrive while one is
//! being committed wait for it and are then committed together, in one
//! [`Store::upsert_documents`] call, each answered with its own outcomes.
//! A lone write goes straight through, so nothing waits that did not have
//! to. If a group's transaction fails, each write of it is retried alone,
//! so one bad write cannot fail the others.
//!
//! The group runs in its own task: a request that is cancelled (its client
//! went away) cannot abandon the writes of the others halfway.

use engram_store::{NewDocument, Store, StoreError, UpsertOutcome};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

type Reply = oneshot::Sender<Result<Vec<UpsertOutcome>, StoreError>>;

/// Writes waiting for the group in progress, shared by every request.
#[derive(Default)]
pub(crate) struct WriteGroups {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    waiting: Vec<(Vec<NewDocument>, Reply)>,
    /// A task is committing groups.
    running: bool,
}

impl WriteGroups {
    /// Upsert `docs` (one request's documents, in one transaction with
    /// whatever else is waiting); returns when they are committed.
    pub(crate) async fn upsert(
        &self,
        store: &Arc<dyn Store>,
        docs: Vec<NewDocument>,
    ) -> Result<Vec<UpsertOutcome>, StoreError> {
        let (tx, rx) = oneshot::channel();
        let start = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            s.waiting.push((docs, tx));
            !std::mem::replace(&mut s.running, true)
        };
        if start {
            tokio::spawn(commit_groups(self.state.clone(), store.clone()));
        }
        rx.await
            .unwrap_or_else(|_| Err(StoreError::Backend("the write was abandoned".into())))
    }
}

/// If the committing task panics, clears `running` so that the next write
/// starts a new one, and answers the writes still waiting with an error
/// rather than leaving them hanging.
struct Running(Arc<Mutex<State>>);

impl Drop for Running {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner());
            s.running = false;
            s.waiting.clear();
        }
    }
}

async fn commit_groups(state: Arc<Mutex<State>>, store: Arc<dyn Store>) {
    let guard = Running(state);
    loop {
        let group = {
            let mut s = guard.0.lock().unwrap_or_else(|e| e.into_inner());
            if s.waiting.is_empty() {
                // `running` is cleared under the same lock a writer checks
                // it under, so no write is left without a committer
                s.running = false;
                return;
            }
            std::mem::take(&mut s.waiting)
        };
        commit(store.as_ref(), group).await;
    }
}

async fn commit(store: &dyn Store, mut group: Vec<(Vec<NewDocument>, Reply)>) {
    if group.len() == 1 {
        let (docs, reply) = group.remove(0);
        let _ = reply.send(store.upsert_documents(docs).await);
        return;
    }
    let all: Vec<NewDocument> = group.iter().flat_map(|(d, _)| d.iter().cloned()).collect();
    match store.upsert_documents(all).await {
        Ok(outcomes) => {
            let mut outcomes = outcomes.into_iter();
            for (docs, reply) in group {
                let _ = reply.send(Ok(outcomes.by_ref().take(docs.len()).collect()));
            }
        }
        Err(e) => {
            tracing::debug!(writes = group.len(), error = %e, "a write group failed; writing each alone");
            for (docs, reply) in group {
                let _ = reply.send(store.upsert_documents(docs).await);
            }
        }
    }
}
