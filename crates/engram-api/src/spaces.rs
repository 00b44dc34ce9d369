//! `/v3/container-tags*`: spaces, their settings and what they hold.

use engram_core::ValidationError;
use serde::{Deserialize, Deserializer, Serialize};

/// A profile bucket a space adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ProfileBucketDef {
    /// A stable slug: `^[a-z0-9][a-z0-9_-]*$`, 1 to 64 characters.
    pub key: String,
    /// What belongs in it (up to 2000 characters).
    #[serde(default)]
    pub description: String,
}

/// One entry of `GET /v3/container-tags/list`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerTagListItem {
    /// The tag itself (a space is identified by its tag).
    pub id: String,
    /// The display name (the tag when none was set).
    pub name: String,
    pub container_tag: String,
    /// Not maintained by Engram: always null.
    pub description: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub is_experimental: bool,
    /// A project space (`sm_project_*`).
    pub is_nova: bool,
    pub document_count: u64,
    /// Latest, unforgotten memories.
    pub memory_count: u64,
    /// The newest change to its documents or memories.
    pub last_activity_at: Option<String>,
}

/// `GET|PATCH /v3/container-tags/{containerTag}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerTagSettings {
    pub container_tag: String,
    pub name: Option<String>,
    /// Guides memory extraction for the space's documents.
    pub entity_context: Option<String>,
    /// Not used by Engram: always null.
    pub memory_filesystem_paths: Option<Vec<String>>,
    /// Buckets added to the default ones for this space's profile.
    pub profile_buckets: Vec<ProfileBucketDef>,
    pub created_at: String,
    pub updated_at: String,
}

/// `Some(None)` for an explicit null, `None` when absent.
fn nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// `PATCH /v3/container-tags/{containerTag}` (creates the space when new).
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchContainerTagRequest {
    /// 1 to 100 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Up to 1500 characters; null clears it.
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub entity_context: Option<Option<String>>,
    /// Accepted and ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_filesystem_paths: Option<Vec<String>>,
    /// Replaces the space's own buckets (at most 50).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_buckets: Option<Vec<ProfileBucketDef>>,
}

impl PatchContainerTagRequest {
    /// Check limits and shapes.
    pub fn validate(&self) -> Result<(), ValidationError> {
        if let Some(n) = &self.name {
            let len = n.chars().count();
            if !(1..=100).contains(&len) {
                return Err(ValidationError::new("name", "must be 1 to 100 characters"));
            }
        }
        if let Some(Some(c)) = &self.entity_context {
            if c.chars().count() > 1500 {
                return Err(ValidationError::new(
                    "entityContext",
                    "must be at most 1500 characters",
                ));
            }
        }
        if let Some(b) = &self.profile_buckets {
            if b.len() > 50 {
                return Err(ValidationError::new("profileBuckets", "at most 50 buckets"));
            }
            for (i, bucket) in b.iter().enumerate() {
                let k = &bucket.key;
                let ok = (1..=64).contains(&k.len())
                    && k.bytes()
                        .next()
                        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && k.bytes().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-'
                    });
                if !ok {
                    return Err(ValidationError::new(
                        format!("profileBuckets[{i}].key"),
                        "must match ^[a-z0-9][a-z0-9_-]*$ (1 to 64 characters)",
                    ));
                }
                if bucket.description.chars().count() > 2000 {
                    return Err(ValidationError::new(
                        format!("profileBuckets[{i}].description"),
                        "must be at most 2000 characters",
                    ));
                }
                if b[..i].iter().any(|o| o.key == *k) {
                    return Err(ValidationError::new(
                        format!("profileBuckets[{i}].key"),
                        format!("`{k}` is listed twice"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `DELETE /v3/container-tags/{containerTag}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteContainerTagResponse {
    pub success: bool,
    pub container_tag: String,
    pub deleted_documents_count: u64,
    /// Its live memories: those only its documents supported were
    /// deleted with them, the rest forgotten.
    pub deleted_memories_count: u64,
}

/// `POST /v3/container-tags/merge`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeContainerTagsRequest {
    /// The tags to merge (the target may be among them).
    pub container_tags: Vec<String>,
    pub target_container_tag: String,
}

impl MergeContainerTagsRequest {
    /// The source tags (without the target), checked.
    pub fn sources(&self) -> Result<Vec<String>, ValidationError> {
        engram_core::validate::container_tag("targetContainerTag", &self.target_container_tag)?;
        if !(1..=50).contains(&self.container_tags.len()) {
            return Err(ValidationError::new(
                "containerTags",
                "must list 1 to 50 tags",
            ));
        }
        let mut out: Vec<String> = Vec::new();
        for (i, t) in self.container_tags.iter().enumerate() {
            engram_core::validate::container_tag(&format!("containerTags[{i}]"), t)?;
            if *t != self.target_container_tag && !out.contains(t) {
                out.push(t.clone());
            }
        }
        if out.is_empty() {
            return Err(ValidationError::new(
                "containerTags",
                "must name at least one tag other than the target",
            ));
        }
        Ok(out)
    }
}

/// `POST /v3/container-tags/merge` answer (202).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeQueuedResponse {
    pub success: bool,
    /// `queued`.
    pub status: String,
    pub merge_id: String,
    pub target_tag: String,
    pub source_tags: Vec<String>,
}

/// `GET /v3/container-tags/merge/{mergeId}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MergeStatusResponse {
    pub id: String,
    /// `queued` or `done`.
    pub status: String,
    pub target_tag: String,
    pub source_tags: Vec<String>,
    /// Documents that now carry the target tag instead of a source.
    pub moved_documents: u64,
    /// Memories moved into the target space.
    pub moved_memories: u64,
    pub created_at: String,
    pub updated_at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_are_checked() {
        let check = |body: serde_json::Value, want: Result<(), &str>| {
            let r: PatchContainerTagRequest = serde_json::from_value(body.clone()).unwrap();
            assert_eq!(
                r.validate().map_err(|e| e.field),
                want.map_err(String::from),
                "{body}"
            );
        };
        use serde_json::json;
        check(json!({"name": "Research"}), Ok(()));
        check(json!({"name": ""}), Err("name"));
        check(
            json!({"entityContext": "x".repeat(1501)}),
            Err("entityContext"),
        );
        check(
            json!({"profileBuckets": [{"key": "pets"}, {"key": "Work"}]}),
            Err("profileBuckets[1].key"),
        );
        check(
            json!({"profileBuckets": [{"key": "a"}, {"key": "a"}]}),
            Err("profileBuckets[1].key"),
        );
        let r: PatchContainerTagRequest =
            serde_json::from_value(json!({"entityContext": null})).unwrap();
        assert_eq!(r.entity_context, Some(None));
        let r: PatchContainerTagRequest = serde_json::from_value(json!({})).unwrap();
        assert_eq!(r.entity_context, None);
    }
}
