//! Memory records: atomic facts with versions, relations, sources and
//! lifetimes (the store's side of `/v4/memories`, `/v4/search` and
//! profiles).

use crate::Timestamp;
use engram_core::Metadata;

/// How one memory relates to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RelationKind {
    /// Supersedes the other (a newer version of the same fact).
    Updates,
    /// Adds detail to the other; both stay valid.
    Extends,
    /// Inferred from the other (with others).
    Derives,
}

impl RelationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RelationKind::Updates => "updates",
            RelationKind::Extends => "extends",
            RelationKind::Derives => "derives",
        }
    }
}

impl std::str::FromStr for RelationKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "updates" => RelationKind::Updates,
            "extends" => RelationKind::Extends,
            "derives" => RelationKind::Derives,
            other => return Err(format!("unknown relation `{other}`")),
        })
    }
}

/// A named thing a memory mentions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemoryEntity {
    pub name: String,
    /// `person`, `place`, `organisation` or `other`.
    pub kind: String,
}

/// A memory as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: String,
    pub org_id: String,
    /// The space it belongs to.
    pub container_tag: String,
    pub content: String,
    pub embedding: Vec<f32>,
    /// A durable trait (feeds the static profile).
    pub is_static: bool,
    /// Inferred from other memories rather than stated.
    pub is_inference: bool,
    /// The newest version of its chain.
    pub is_latest: bool,
    pub is_forgotten: bool,
    /// When it expires (is treated as forgotten).
    pub forget_after: Option<Timestamp>,
    pub forget_reason: Option<String>,
    /// 1 for a new fact; each update adds one.
    pub version: i64,
    /// The version this one updates.
    pub parent_id: Option<String>,
    /// The first version of the chain (None for a first version).
    pub root_id: Option<String>,
    /// How many times the fact was stated (merged near-duplicates).
    pub source_count: i64,
    /// The documents it came from.
    pub document_ids: Vec<String>,
    pub metadata: Metadata,
    /// When the source was said or written (`YYYY-MM-DD` or a timestamp).
    pub document_date: Option<String>,
    /// Dates of the events it mentions.
    pub event_dates: Vec<String>,
    pub entities: Vec<MemoryEntity>,
    /// Relations from this memory to others.
    pub relations: Vec<(String, RelationKind)>,
    /// What it was formed from, for search (none for a memory written
    /// directly).
    pub source: Option<MemorySource>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// The words a memory was formed from: the turn that stated it with the
/// turns around it and the day it was said, which keyword search reads as
/// the memory's context (a question may use the words of the
/// conversation rather than of the fact).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemorySource {
    pub text: String,
}

impl Memory {
    /// Forgotten, or past its expiry at `at`.
    pub fn is_gone(&self, at: Timestamp) -> bool {
        self.is_forgotten || self.forget_after.is_some_and(|t| t <= at)
    }
}

/// A memory to insert (a first version).
#[derive(Debug, Clone, PartialEq)]
pub struct NewMemory {
    pub org_id: String,
    pub container_tag: String,
    pub content: String,
    pub embedding: Vec<f32>,
    pub is_static: bool,
    pub is_inference: bool,
    pub forget_after: Option<Timestamp>,
    pub forget_reason: Option<String>,
    pub document_ids: Vec<String>,
    pub metadata: Metadata,
    pub document_date: Option<String>,
    pub event_dates: Vec<String>,
    pub entities: Vec<MemoryEntity>,
    pub source: Option<MemorySource>,
}

/// A new version of a memory: absent fields are inherited.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryUpdate {
    pub content: String,
    pub embedding: Vec<f32>,
    pub metadata: Option<Metadata>,
    /// `Some(None)` clears the expiry; `None` inherits it.
    pub forget_after: Option<Option<Timestamp>>,
    pub forget_reason: Option<Option<String>>,
    pub is_static: Option<bool>,
    /// The new version's sources (an extracted update comes from the
    /// document that stated it, not from the old fact's).
    pub document_ids: Option<Vec<String>>,
    pub document_date: Option<Option<String>>,
    pub event_dates: Option<Vec<String>>,
    pub entities: Option<Vec<MemoryEntity>>,
    /// `Some(None)` drops the source (new words without one); `None`
    /// inherits it.
    pub source: Option<Option<MemorySource>>,
}

impl MemoryUpdate {
    /// The next version of `old`: what the update sets, the rest
    /// inherited. `Conflict` when `old` is not the latest version or is
    /// forgotten (only the head of a chain takes a new version).
    pub fn next_version(self, old: &Memory) -> Result<NewMemory, crate::StoreError> {
        if !old.is_latest || old.is_forgotten {
            return Err(crate::StoreError::Conflict(format!(
                "memory {} is {}",
                old.id,
                if old.is_forgotten {
                    "forgotten"
                } else {
                    "not the latest version"
                }
            )));
        }
        Ok(NewMemory {
            org_id: old.org_id.clone(),
            container_tag: old.container_tag.clone(),
            content: self.content,
            embedding: self.embedding,
            is_static: self.is_static.unwrap_or(old.is_static),
            is_inference: old.is_inference,
            forget_after: self.forget_after.unwrap_or(old.forget_after),
            forget_reason: match (&self.forget_after, self.forget_reason) {
                // clearing the expiry clears its reason
                (Some(None), _) => None,
                (_, Some(r)) => r,
                (_, None) => old.forget_reason.clone(),
            },
            document_ids: self
                .document_ids
                .unwrap_or_else(|| old.document_ids.clone()),
            metadata: self.metadata.unwrap_or_else(|| old.metadata.clone()),
            document_date: self
                .document_date
                .unwrap_or_else(|| old.document_date.clone()),
            event_dates: self.event_dates.unwrap_or_else(|| old.event_dates.clone()),
            entities: self.entities.unwrap_or_else(|| old.entities.clone()),
            source: self.source.unwrap_or_else(|| old.source.clone()),
        })
    }
}

/// What forgetting a memory did.
#[derive(Debug, Clone, PartialEq)]
pub enum ForgetOutcome {
    Forgotten(Box<Memory>),
    AlreadyForgotten,
    NotFound,
}

/// A page request over memories.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryListQuery {
    /// Memories of these spaces; all when empty.
    pub container_tags: Vec<String>,
    /// Include older versions (not only the latest).
    pub include_history: bool,
    /// Include forgotten and expired memories.
    pub include_forgotten: bool,
    /// Only memories that came from this document.
    pub document_id: Option<String>,
    /// Only memories with exactly this content.
    pub content: Option<String>,
    /// Order by `updated_at` instead of `created_at`.
    pub by_updated: bool,
    /// Oldest first instead of newest first.
    pub ascending: bool,
    pub limit: u64,
    pub offset: u64,
}

/// The SQL `ORDER BY` of a memory page over `memories m` (the same words on
/// every backend).
pub fn memory_order_by(q: &MemoryListQuery) -> &'static str {
    match (q.by_updated, q.ascending) {
        (false, false) => "m.created_at DESC, m.id DESC",
        (false, true) => "m.created_at ASC, m.id ASC",
        (true, false) => "m.updated_at DESC, m.id DESC",
        (true, true) => "m.updated_at ASC, m.id ASC",
    }
}
