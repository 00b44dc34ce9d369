//! Spaces (container tags) as first-class things: their settings take
//! effect here. A space's `entityContext` guides memory extraction for its
//! documents (a document's own context wins), and its `profileBuckets` add
//! to the default buckets its profile files facts into.
//!
//! Merging tags is a background job: the request queues it (a row in the
//! store) and a task runs it at once, in one store transaction; the
//! periodic sweep runs any merge a crash left queued.

use crate::memories::DEFAULT_BUCKETS;
use crate::{Engine, EngineError};
use engram_store::{Space, SpaceDeleted, SpacePatch, SpaceSummary, TagMerge};
use std::sync::Arc;

impl Engine {
    /// Every space of the organisation, by tag.
    pub async fn list_spaces(&self, org_id: &str) -> Result<Vec<SpaceSummary>, EngineError> {
        Ok(self.store.list_spaces(org_id).await?)
    }

    /// One space; `NotFound` when the tag is neither set up nor in use.
    pub async fn space(&self, org_id: &str, tag: &str) -> Result<SpaceSummary, EngineError> {
        self.store
            .get_space(org_id, tag)
            .await?
            .ok_or_else(|| EngineError::NotFound {
                what: format!("container tag `{tag}`"),
            })
    }

    /// Create or change a space's settings.
    pub async fn set_space(
        &self,
        org_id: &str,
        tag: &str,
        patch: SpacePatch,
    ) -> Result<Space, EngineError> {
        Ok(self.store.upsert_space(org_id, tag, patch).await?)
    }

    /// Delete a space and everything in it; `NotFound` when unknown.
    pub async fn delete_space(&self, org_id: &str, tag: &str) -> Result<SpaceDeleted, EngineError> {
        self.space(org_id, tag).await?;
        Ok(self.store.delete_space(org_id, tag).await?)
    }

    /// Queue a merge of `sources` into `target` and start it in the
    /// background. Every source must be a known space (`NotFound`).
    pub async fn merge_spaces(
        self: &Arc<Self>,
        org_id: &str,
        sources: &[String],
        target: &str,
    ) -> Result<TagMerge, EngineError> {
        for tag in sources {
            self.space(org_id, tag).await?;
        }
        let merge = self.store.enqueue_merge(org_id, sources, target).await?;
        let engine = self.clone();
        let id = merge.id.clone();
        tokio::spawn(async move {
            if let Err(e) = engine.store.run_merge(&id).await {
                tracing::warn!(merge = %id, error = %e, "tag merge failed; the sweep retries it");
            }
        });
        Ok(merge)
    }

    /// A merge of the organisation's.
    pub async fn merge_status(&self, org_id: &str, id: &str) -> Result<TagMerge, EngineError> {
        self.store
            .get_merge(org_id, id)
            .await?
            .ok_or_else(|| EngineError::NotFound {
                what: format!("merge `{id}`"),
            })
    }

    /// Run merges left queued (by a crash, or a failed first attempt).
    pub(crate) async fn run_queued_merges(&self) -> Result<usize, EngineError> {
        let mut n = 0;
        for id in self.store.queued_merges().await? {
            if self.store.run_merge(&id).await?.is_some() {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The buckets a space's profile offers: the defaults, then the
    /// organisation's (settings), then the space's own (a later bucket
    /// never replaces an earlier one of the same key).
    pub async fn buckets_of(
        &self,
        org_id: &str,
        tag: &str,
    ) -> Result<Vec<(String, String)>, EngineError> {
        let mut out: Vec<(String, String)> = DEFAULT_BUCKETS
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string()))
            .collect();
        let org = self.effective_settings(org_id).await?.profile_buckets;
        let space = self
            .store
            .get_space(org_id, tag)
            .await?
            .map(|s| s.space.profile_buckets)
            .unwrap_or_default();
        for b in org.into_iter().chain(space) {
            if out.iter().any(|(k, _)| *k == b.key) {
                continue;
            }
            let description = if b.description.trim().is_empty() {
                b.key.replace(['_', '-'], " ")
            } else {
                b.description
            };
            out.push((b.key, description));
        }
        Ok(out)
    }
}
