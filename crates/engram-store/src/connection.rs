//! Connections: an organisation's links to an outside source (a website,
//! an S3 bucket, a GitHub account, ...) that keep a space in sync. The
//! store keeps each connection's settings, its sealed secrets (opaque
//! bytes: the store never sees a token in the clear), where its last sync
//! got to, and a lease so that one replica at a time syncs it.

use crate::Timestamp;
use engram_core::Metadata;

/// Where a connection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectionStatus {
    /// Waiting for the user to finish the provider's authorisation.
    Pending,
    /// Authorised (or needing none); synced on schedule.
    Active,
    /// Stopped by an error a sync cannot get past by itself (a revoked
    /// token, say); `last_sync` says which.
    Failed,
}

impl ConnectionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Failed => "failed",
        }
    }
}

impl std::str::FromStr for ConnectionStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pending" => Ok(Self::Pending),
            "active" => Ok(Self::Active),
            "failed" => Ok(Self::Failed),
            o => Err(format!("unknown connection status `{o}`")),
        }
    }
}

/// A connection as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Connection {
    pub id: String,
    pub org_id: String,
    /// `web-crawler`, `s3`, `github`, `notion`, ...
    pub provider: String,
    pub container_tags: Vec<String>,
    pub document_limit: i64,
    /// What the client set (minus secrets): stamped on every synced
    /// document.
    pub metadata: Metadata,
    /// Sealed (encrypted) secrets: tokens, access keys. Opaque here.
    pub secrets: Option<Vec<u8>>,
    pub status: ConnectionStatus,
    /// The account the provider said it authorised.
    pub email: Option<String>,
    /// When the authorisation link (pending) or the grant expires.
    pub expires_at: Option<Timestamp>,
    /// Where the OAuth callback sends the user's browser afterwards.
    pub redirect_url: Option<String>,
    /// The random `state` of a pending authorisation (unique).
    pub oauth_state: Option<String>,
    /// What the user chose to sync (provider-specific JSON).
    pub config: serde_json::Value,
    /// How far syncing got (provider-specific JSON), checkpointed as a
    /// sync goes so a crash resumes rather than restarts.
    pub cursor: serde_json::Value,
    /// The last sync run (JSON: status, errorCode, error, startedAt,
    /// completedAt), or null.
    pub last_sync: serde_json::Value,
    /// When the next scheduled sync is due (none: not scheduled).
    pub next_sync_at: Option<Timestamp>,
    /// The replica syncing it now, and until when.
    pub lease_owner: Option<String>,
    pub lease_expires_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// A connection to insert.
#[derive(Debug, Clone, PartialEq)]
pub struct NewConnection {
    pub org_id: String,
    pub provider: String,
    pub container_tags: Vec<String>,
    pub document_limit: i64,
    pub metadata: Metadata,
    pub secrets: Option<Vec<u8>>,
    pub status: ConnectionStatus,
    pub expires_at: Option<Timestamp>,
    pub redirect_url: Option<String>,
    pub oauth_state: Option<String>,
    pub next_sync_at: Option<Timestamp>,
}

/// A change to a connection: `None` keeps a field; `Some(None)` clears
/// an optional one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConnectionPatch {
    pub secrets: Option<Option<Vec<u8>>>,
    pub status: Option<ConnectionStatus>,
    pub email: Option<Option<String>>,
    pub expires_at: Option<Option<Timestamp>>,
    pub oauth_state: Option<Option<String>>,
    pub config: Option<serde_json::Value>,
    pub cursor: Option<serde_json::Value>,
    pub last_sync: Option<serde_json::Value>,
    pub next_sync_at: Option<Option<Timestamp>>,
    /// Apply `next_sync_at` only if the stored one is still this (what the
    /// sync run read when it claimed the connection): a sync asked for
    /// while the run went on (configure, import, a webhook) keeps its due
    /// time. Checked in the same transaction as the write.
    pub next_sync_if_still: Option<Option<Timestamp>>,
    /// Give up the sync lease (after a run).
    pub release_lease: bool,
}

/// Which connections a list names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConnectionQuery {
    pub provider: Option<String>,
    /// Connections carrying any of these tags; all when empty.
    pub container_tags: Vec<String>,
}

impl ConnectionQuery {
    /// Whether `c` is one of them (the rule every backend applies).
    pub fn matches(&self, c: &Connection) -> bool {
        self.provider.as_deref().is_none_or(|p| p == c.provider)
            && (self.container_tags.is_empty()
                || c.container_tags
                    .iter()
                    .any(|t| self.container_tags.contains(t)))
    }
}

/// `c` with `p` applied (and `updated_at` now): the one reading of a
/// patch, shared by the backends.
pub fn apply_connection_patch(mut c: Connection, p: ConnectionPatch) -> Connection {
    if let Some(v) = p.secrets {
        c.secrets = v;
    }
    if let Some(v) = p.status {
        c.status = v;
    }
    if let Some(v) = p.email {
        c.email = v;
    }
    if let Some(v) = p.expires_at {
        c.expires_at = v;
    }
    if let Some(v) = p.oauth_state {
        c.oauth_state = v;
    }
    if let Some(v) = p.config {
        c.config = v;
    }
    if let Some(v) = p.cursor {
        c.cursor = v;
    }
    if let Some(v) = p.last_sync {
        c.last_sync = v;
    }
    if let Some(v) = p.next_sync_at {
        if p.next_sync_if_still.is_none_or(|was| was == c.next_sync_at) {
            c.next_sync_at = v;
        }
    }
    if p.release_lease {
        c.lease_owner = None;
        c.lease_expires_at = None;
    }
    c.updated_at = crate::now();
    c
}
