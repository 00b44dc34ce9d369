//! Deferred memory formation (`dreaming: dynamic`). A processed `memory`
//! document that dreams dynamically is `done` at once and keeps a dream
//! job, due [`crate::EngineConfig::dream_delay`] later. A worker that
//! claims dream jobs reads their documents, groups them by organisation and
//! space ((`memories::form::dream_groups`)) and forms each group's
//! memories together, then marks them dreamt. The job row is the durable
//! record: a crash mid-dream leaves the job to be claimed again when its
//! lease lapses, and forming again merges what was already remembered.

use crate::memories::form::dream_groups;
use crate::Engine;
use engram_store::{Job, StoreError};
use std::collections::BTreeMap;
use tokio::sync::watch;

/// Form the memories of claimed dream jobs and complete them. Returns
/// early, leaving the rest leased, when `stop` is raised.
pub(crate) async fn dream_batch(
    engine: &Engine,
    jobs: Vec<Job>,
    stop: &watch::Receiver<bool>,
) -> Result<(), StoreError> {
    let mut by_org: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for j in &jobs {
        by_org
            .entry(j.org_id.as_str())
            .or_default()
            .push(j.document_id.clone());
    }
    let mut docs = Vec::with_capacity(jobs.len());
    for (org, ids) in by_org {
        docs.extend(engine.store.documents_by_ids(org, &ids).await?);
    }
    // a document deleted meanwhile took its job with it
    for group in dream_groups(docs) {
        if *stop.borrow() {
            return Ok(());
        }
        let org = group[0].org_id.clone();
        match engine.form_memories(&org, &group).await {
            Ok(n) => tracing::debug!(documents = group.len(), facts = n, "dreamt"),
            // like instant formation: a failure leaves the documents
            // without memories rather than retrying forever
            Err(e) => {
                tracing::warn!(documents = group.len(), error = %e, "memory formation failed")
            }
        }
        let held: Vec<Job> = jobs
            .iter()
            .filter(|j| group.iter().any(|d| d.id == j.document_id))
            .cloned()
            .collect();
        engine.store.complete_dreams(&held).await?;
    }
    Ok(())
}
