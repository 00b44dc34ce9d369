//! Container tags as spaces: a tag exists once anything uses it (a
//! document, a memory) or a client creates it; its settings row (name,
//! entity context, profile buckets) is optional.

use crate::Timestamp;
use serde::{Deserialize, Serialize};

/// A profile bucket a space adds: a stable key and what belongs in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BucketDef {
    pub key: String,
    #[serde(default)]
    pub description: String,
}

/// A space's settings (defaults where none were set).
#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    pub tag: String,
    pub name: Option<String>,
    /// Guides memory extraction for the space's documents.
    pub entity_context: Option<String>,
    /// The name of the person the space is about, as learned from what
    /// they said or from documents' metadata (memories name them).
    pub user_name: Option<String>,
    pub profile_buckets: Vec<BucketDef>,
    /// When the settings row was made, else when the tag was first used.
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// A space with what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceSummary {
    pub space: Space,
    pub document_count: u64,
    /// Latest, unforgotten memories.
    pub memory_count: u64,
    /// The newest change to its documents or memories.
    pub last_activity_at: Option<Timestamp>,
}

/// Settings to change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpacePatch {
    pub name: Option<String>,
    /// `Some(None)` clears it.
    pub entity_context: Option<Option<String>>,
    pub profile_buckets: Option<Vec<BucketDef>>,
    /// Set when learned (never cleared but by deleting the space).
    pub user_name: Option<String>,
}

/// What deleting a space removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpaceDeleted {
    pub documents: u64,
    /// Its live memories (those only its documents supported go with
    /// them; the rest are forgotten).
    pub memories: u64,
}

/// A space row's columns as both backends read them (milliseconds).
#[derive(Debug, Clone, Default)]
pub struct SpaceColumns {
    pub tag: String,
    pub name: Option<String>,
    pub entity_context: Option<String>,
    pub user_name: Option<String>,
    /// JSON list of [`BucketDef`]s.
    pub profile_buckets: Option<String>,
    /// Of the settings row, when there is one.
    pub created_at: Option<i64>,
    pub updated_at: Option<i64>,
    pub documents: i64,
    pub memories: i64,
    /// Oldest creation and newest change among its documents and memories.
    pub first_use: [Option<i64>; 2],
    pub last_use: [Option<i64>; 2],
}

/// A space's own buckets from their stored JSON (none when unreadable).
pub fn buckets_from_json(json: Option<&str>) -> Vec<BucketDef> {
    json.and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default()
}

impl SpaceColumns {
    /// The summary: settings times, else first and last use (else now).
    pub fn into_summary(self) -> SpaceSummary {
        let first = self.first_use.into_iter().flatten().min();
        let last = self.last_use.into_iter().flatten().max();
        let t = crate::now().timestamp_millis();
        SpaceSummary {
            space: Space {
                profile_buckets: buckets_from_json(self.profile_buckets.as_deref()),
                tag: self.tag,
                name: self.name,
                entity_context: self.entity_context,
                user_name: self.user_name,
                created_at: crate::from_millis(self.created_at.or(first).unwrap_or(t)),
                updated_at: crate::from_millis(self.updated_at.or(last).unwrap_or(t)),
            },
            document_count: self.documents.max(0) as u64,
            memory_count: self.memories.max(0) as u64,
            last_activity_at: last.map(crate::from_millis),
        }
    }
}

/// Where a merge of container tags stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeStatus {
    Queued,
    Done,
}

impl MergeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MergeStatus::Queued => "queued",
            MergeStatus::Done => "done",
        }
    }
}

/// A merge of source tags into a target tag: queued, then done in one
/// transaction (documents retagged, memories moved, the sources' settings
/// dropped).
#[derive(Debug, Clone, PartialEq)]
pub struct TagMerge {
    pub id: String,
    pub org_id: String,
    pub sources: Vec<String>,
    pub target: String,
    pub status: MergeStatus,
    pub moved_documents: u64,
    pub moved_memories: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// What resetting an organisation removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OrgReset {
    pub documents: u64,
    pub memories: u64,
    /// Spaces with settings.
    pub spaces: u64,
    pub settings: bool,
}
