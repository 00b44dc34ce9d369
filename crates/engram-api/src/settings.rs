//! `/v3/settings`: the organisation's settings. Connector client secrets
//! are write-only: answers show them masked, never in clear.

use engram_core::{Metadata, ValidationError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What answers show instead of a secret that is set.
pub const MASK: &str = "********";

const CONNECTORS: &[&str] = &["googleDrive", "notion", "onedrive", "github"];

/// The kind of value a setting takes.
enum Kind {
    Int,
    Bool,
    Text,
    Items,
    Buckets,
}

fn kind(key: &str) -> Option<Kind> {
    Some(match key {
        "chunkSize" => Kind::Int,
        "shouldLLMFilter" => Kind::Bool,
        "filterPrompt" | "workspacePrompt" => Kind::Text,
        "includeItems" | "excludeItems" => Kind::Items,
        "profileBuckets" => Kind::Buckets,
        _ => {
            let c = CONNECTORS.iter().find(|c| key.starts_with(**c))?;
            match &key[c.len()..] {
                "ClientId" | "ClientSecret" => Kind::Text,
                "CustomKeyEnabled" => Kind::Bool,
                _ => return None,
            }
        }
    })
}

/// Whether a setting is a secret (write-only).
pub fn is_secret(key: &str) -> bool {
    key.ends_with("ClientSecret")
}

/// The settings as answers show them: secrets masked.
pub fn masked(settings: &Metadata) -> Metadata {
    settings
        .iter()
        .map(|(k, v)| {
            let v = if is_secret(k) && !v.is_null() {
                Value::String(MASK.into())
            } else {
                v.clone()
            };
            (k.clone(), v)
        })
        .collect()
}

/// Check a PATCH body: known settings only, each of its type (null clears
/// a setting).
pub fn validate_patch(body: &Metadata) -> Result<(), ValidationError> {
    for (k, v) in body {
        let Some(kind) = kind(k) else {
            return Err(ValidationError::new(k.as_str(), "is not a setting"));
        };
        if v.is_null() {
            continue;
        }
        let ok = match kind {
            Kind::Int => v.as_i64().is_some_and(|n| (16..=8192).contains(&n)),
            Kind::Bool => v.is_boolean(),
            Kind::Text => v.as_str().is_some_and(|s| s.chars().count() <= 10_000),
            Kind::Items => v.is_array() || v.is_object() || v.is_string(),
            Kind::Buckets => serde_json::from_value::<Vec<crate::ProfileBucketDef>>(v.clone())
                .is_ok_and(|b| {
                    crate::PatchContainerTagRequest {
                        profile_buckets: Some(b),
                        ..Default::default()
                    }
                    .validate()
                    .is_ok()
                }),
        };
        if !ok {
            let want = match kind {
                Kind::Int => "must be an integer from 16 to 8192 (tokens)",
                Kind::Bool => "must be a boolean",
                Kind::Text => "must be a string of at most 10000 characters",
                Kind::Items => "must be a list, an object or a string",
                Kind::Buckets => {
                    "must be a list of at most 50 {key, description} buckets with keys matching ^[a-z0-9][a-z0-9_-]*$"
                }
            };
            return Err(ValidationError::new(k.as_str(), want));
        }
    }
    Ok(())
}

/// The organisation's settings (documentation of the shape; every field
/// may be absent or null).
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrgSettingsBody {
    /// Target chunk size in tokens for documents processed from now on
    /// (capped by the embedding model's limit).
    pub chunk_size: Option<i64>,
    /// Ask the LLM whether each new document is worth ingesting.
    #[serde(rename = "shouldLLMFilter")]
    pub should_llm_filter: Option<bool>,
    pub filter_prompt: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub include_items: Option<Value>,
    #[schema(value_type = Option<Object>)]
    pub exclude_items: Option<Value>,
    /// Buckets every profile of the organisation offers besides the defaults.
    pub profile_buckets: Option<Vec<crate::ProfileBucketDef>>,
    /// Instructions memory extraction follows for every document.
    pub workspace_prompt: Option<String>,
    pub google_drive_client_id: Option<String>,
    /// Write-only: shown masked.
    pub google_drive_client_secret: Option<String>,
    pub google_drive_custom_key_enabled: Option<bool>,
    pub notion_client_id: Option<String>,
    /// Write-only: shown masked.
    pub notion_client_secret: Option<String>,
    pub notion_custom_key_enabled: Option<bool>,
    pub onedrive_client_id: Option<String>,
    /// Write-only: shown masked.
    pub onedrive_client_secret: Option<String>,
    pub onedrive_custom_key_enabled: Option<bool>,
    pub github_client_id: Option<String>,
    /// Write-only: shown masked.
    pub github_client_secret: Option<String>,
    pub github_custom_key_enabled: Option<bool>,
}

/// `PATCH /v3/settings` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsUpdated {
    pub org_id: String,
    pub org_slug: String,
    /// The settings the request changed (secrets masked).
    #[schema(value_type = OrgSettingsBody)]
    pub updated: Metadata,
}

/// `POST /v3/settings/reset`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ResetRequest {
    /// The organisation's name, to confirm.
    pub confirmation: String,
}

/// `POST /v3/settings/reset` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetResponse {
    pub success: bool,
    /// Engram has no connections: always 0.
    pub deleted_connections: u64,
    /// Engram deletes in one transaction: 1 when anything was deleted.
    pub deleted_document_batches: u64,
    pub deleted_documents_approx: u64,
    pub deleted_memory_rows: u64,
    /// Spaces whose settings were removed.
    pub deleted_extra_spaces: u64,
    pub cleared_default_space_context: bool,
    pub cleared_brain_memory_registry: bool,
    pub settings_reset: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patches_are_checked_and_secrets_masked() {
        let check = |body: Value, want: Result<(), &str>| {
            let m: Metadata = serde_json::from_value(body.clone()).unwrap();
            assert_eq!(
                validate_patch(&m).map_err(|e| e.field),
                want.map_err(String::from),
                "{body}"
            );
        };
        check(
            json!({"chunkSize": 512, "shouldLLMFilter": false, "workspacePrompt": "x"}),
            Ok(()),
        );
        check(
            json!({"chunkSize": null, "githubClientSecret": "s"}),
            Ok(()),
        );
        check(json!({"chunkSize": 0}), Err("chunkSize"));
        check(json!({"chunkSize": "big"}), Err("chunkSize"));
        check(json!({"shouldLLMFilter": "yes"}), Err("shouldLLMFilter"));
        check(json!({"colour": "blue"}), Err("colour"));
        check(
            json!({"githubClientSecrets": "s"}),
            Err("githubClientSecrets"),
        );
        check(
            json!({"profileBuckets": [{"key": "Bad Key"}]}),
            Err("profileBuckets"),
        );
        let m: Metadata =
            serde_json::from_value(json!({"notionClientSecret": "shh", "notionClientId": "id"}))
                .unwrap();
        let shown = masked(&m);
        assert_eq!(shown["notionClientSecret"], MASK);
        assert_eq!(shown["notionClientId"], "id");
    }
}
