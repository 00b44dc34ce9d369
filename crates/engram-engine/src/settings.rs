//! The organisation's settings, and where they take effect: `chunkSize` in
//! the chunking of documents processed from then on, `profileBuckets` in
//! every profile (after the defaults, before a space's own), and
//! `workspacePrompt` in memory extraction. The store keeps the settings as
//! one JSON document; a PATCH merges into it (null removes a setting).

use crate::{Engine, EngineError};
use engram_core::Metadata;
use engram_store::{BucketDef, OrgReset};

/// The settings that change what the engine does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Effective {
    pub chunk_size: Option<usize>,
    pub profile_buckets: Vec<BucketDef>,
    pub workspace_prompt: Option<String>,
}

impl Effective {
    pub fn from_document(s: &Metadata) -> Self {
        Self {
            chunk_size: s
                .get("chunkSize")
                .and_then(serde_json::Value::as_u64)
                .map(|n| n as usize),
            profile_buckets: s
                .get("profileBuckets")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .unwrap_or_default(),
            workspace_prompt: s
                .get("workspacePrompt")
                .and_then(serde_json::Value::as_str)
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string),
        }
    }
}

impl Engine {
    /// The organisation's settings document.
    pub async fn settings(&self, org_id: &str) -> Result<Metadata, EngineError> {
        Ok(self.store.get_settings(org_id).await?)
    }

    /// Merge `changes` into the settings (a null removes a setting);
    /// returns the settings as they are now.
    pub async fn update_settings(
        &self,
        org_id: &str,
        changes: &Metadata,
    ) -> Result<Metadata, EngineError> {
        let mut now = self.store.get_settings(org_id).await?;
        for (k, v) in changes {
            if v.is_null() {
                now.remove(k);
            } else {
                now.insert(k.clone(), v.clone());
            }
        }
        self.store.put_settings(org_id, &now).await?;
        Ok(now)
    }

    /// What the settings change in the engine's behaviour.
    pub(crate) async fn effective_settings(&self, org_id: &str) -> Result<Effective, EngineError> {
        Ok(Effective::from_document(
            &self.store.get_settings(org_id).await?,
        ))
    }

    /// Delete everything the organisation holds but itself and its keys.
    pub async fn reset_org(&self, org_id: &str) -> Result<OrgReset, EngineError> {
        Ok(self.store.reset_org(org_id).await?)
    }
}
