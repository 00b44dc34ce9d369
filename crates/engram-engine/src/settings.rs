//! The organisation's settings, and where they take effect: `chunkSize` in
//! the chunking of documents processed from then on, `profileBuckets` in
//! every profile (after the defaults, before a space's own),
//! `workspacePrompt` in memory extraction, and the ingestion filter
//! ([`Effective::admits`], then the LLM with `shouldLLMFilter`). The store keeps the settings as
//! one JSON document; a PATCH merges into it (null removes a setting).
//! Connector client secrets (`*ClientSecret`) are sealed like connection
//! tokens before they reach the store, bound to the organisation and the
//! setting's name; [`Engine::setting_secret`] opens them.

use crate::{Engine, EngineError};
use engram_core::Metadata;
use engram_store::{BucketDef, OrgReset};

/// The settings that change what the engine does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Effective {
    pub chunk_size: Option<usize>,
    pub profile_buckets: Vec<BucketDef>,
    pub workspace_prompt: Option<String>,
    /// Phrases of which a document must mention one (when any are set).
    pub include_items: Vec<String>,
    /// Phrases a document must not mention.
    pub exclude_items: Vec<String>,
    /// Ask the LLM (when one is configured) whether to ingest, by
    /// `filter_prompt`.
    pub should_llm_filter: bool,
    pub filter_prompt: Option<String>,
}

/// The phrases of an `includeItems`/`excludeItems` setting: a list of
/// strings (or of objects with a `name`, `value` or `text`), an object's
/// keys, or one comma-separated string.
fn phrases(v: Option<&serde_json::Value>) -> Vec<String> {
    use serde_json::Value;
    let items: Vec<String> = match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| match x {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => ["name", "value", "text"]
                    .iter()
                    .find_map(|k| o.get(*k).and_then(Value::as_str).map(str::to_string)),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        Some(Value::Object(o)) => o.keys().cloned().collect(),
        Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

impl Effective {
    /// The offline ingestion rule: `Err(reason)` when the text mentions an
    /// excluded phrase, or none of the included ones (case-insensitive).
    pub fn admits(&self, text: &str) -> Result<(), String> {
        let lower = text.to_lowercase();
        if let Some(x) = self
            .exclude_items
            .iter()
            .find(|x| lower.contains(x.as_str()))
        {
            return Err(format!(
                "it mentions `{x}`, which the organisation's excludeItems leave out"
            ));
        }
        if !self.include_items.is_empty()
            && !self
                .include_items
                .iter()
                .any(|x| lower.contains(x.as_str()))
        {
            return Err(format!(
                "it mentions none of the organisation's includeItems ({})",
                self.include_items.join(", ")
            ));
        }
        Ok(())
    }
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
            include_items: phrases(s.get("includeItems")),
            exclude_items: phrases(s.get("excludeItems")),
            should_llm_filter: s
                .get("shouldLLMFilter")
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false),
            filter_prompt: s
                .get("filterPrompt")
                .and_then(serde_json::Value::as_str)
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
            match v {
                serde_json::Value::Null => {
                    now.remove(k);
                }
                serde_json::Value::String(secret) if is_secret(k) && !secret.is_empty() => {
                    let sealed = self
                        .config
                        .connect
                        .sealer
                        .seal(secret.as_bytes(), &secret_context(org_id, k));
                    now.insert(
                        k.clone(),
                        format!("{SEALED}{}", hex::encode(&sealed)).into(),
                    );
                }
                _ => {
                    now.insert(k.clone(), v.clone());
                }
            }
        }
        self.store.put_settings(org_id, &now).await?;
        Ok(now)
    }

    /// A secret setting's value, opened (one stored before secrets were
    /// sealed is taken as it is). None when unset or when it cannot be
    /// opened (a key no longer configured).
    pub(crate) fn setting_secret(&self, org_id: &str, key: &str, v: &str) -> Option<String> {
        let Some(hexed) = v.strip_prefix(SEALED) else {
            return Some(v.to_string()).filter(|v| !v.is_empty());
        };
        let sealed = hex::decode(hexed).ok()?;
        match self
            .config
            .connect
            .sealer
            .open(&sealed, &secret_context(org_id, key))
        {
            Ok(plain) => String::from_utf8(plain).ok(),
            Err(e) => {
                tracing::warn!(org = %org_id, setting = %key, "cannot open a sealed setting: {e}");
                None
            }
        }
    }

    /// What the settings change in the engine's behaviour.
    pub(crate) async fn effective_settings(&self, org_id: &str) -> Result<Effective, EngineError> {
        Ok(Effective::from_document(
            &self.store.get_settings(org_id).await?,
        ))
    }

    /// Whether a document's text may be ingested under the organisation's
    /// settings `s`: the offline rule first, then (with `shouldLLMFilter` and a
    /// model configured) the model's judgement by `filterPrompt`. A model
    /// that fails lets the document through.
    pub(crate) async fn admit(&self, s: &Effective, text: &str) -> Result<(), String> {
        s.admits(text)?;
        let (true, Some(llm)) = (s.should_llm_filter, self.llm.as_deref()) else {
            return Ok(());
        };
        #[derive(serde::Deserialize)]
        struct Verdict {
            ingest: bool,
            #[serde(default)]
            reason: String,
        }
        let excerpt: String = text.chars().take(4000).collect();
        let req = engram_llm::ChatRequest::new(
            format!(
                "You decide whether a document should be ingested into an organisation's memory. \
                 The organisation's rule: {}\nAnswer JSON only: {{\"ingest\": true|false, \"reason\": \"...\"}}.",
                s.filter_prompt.as_deref().unwrap_or("ingest content worth remembering; skip spam and boilerplate")
            ),
            excerpt,
        );
        match engram_llm::complete_json::<Verdict>(llm, req).await {
            Ok((v, _)) if !v.ingest => Err(format!("the LLM filter left it out: {}", v.reason)),
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!(error = %e, "LLM filter failed; ingesting");
                Ok(())
            }
        }
    }

    /// Delete everything the organisation holds but itself and its keys.
    pub async fn reset_org(&self, org_id: &str) -> Result<OrgReset, EngineError> {
        Ok(self.store.reset_org(org_id).await?)
    }
}

/// The prefix of a sealed setting's stored value.
const SEALED: &str = "sealed:v1:";

/// Settings whose values are sealed at rest.
fn is_secret(key: &str) -> bool {
    key.ends_with("ClientSecret")
}

fn secret_context(org_id: &str, key: &str) -> String {
    format!("settings/{org_id}/{key}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_offline_rule() {
        let check = |settings: serde_json::Value, text: &str, admitted: bool| {
            let m: Metadata = serde_json::from_value(settings.clone()).unwrap();
            assert_eq!(
                Effective::from_document(&m).admits(text).is_ok(),
                admitted,
                "{settings} {text}"
            );
        };
        check(json!({}), "anything", true);
        check(
            json!({"excludeItems": ["Newsletter"]}),
            "Weekly newsletter #3",
            false,
        );
        check(json!({"excludeItems": "spam, ads"}), "Buy ads now", false);
        check(
            json!({"includeItems": [{"name": "Rust"}, "Go"]}),
            "Notes on rust lifetimes",
            true,
        );
        check(json!({"includeItems": ["rust"]}), "Notes on python", false);
        check(json!({"includeItems": {"rust": true}}), "rust", true);
    }
}
