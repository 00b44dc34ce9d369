//! Talking to the outside world: the SSRF-guarded fetcher, sealing of
//! secrets, OAuth 2.0 (authorization code with PKCE), and the providers
//! a connection syncs from (the web crawler, S3, GitHub, Notion, Google
//! Drive, OneDrive, Gmail), each with its own change mechanism.
//!
//! A provider turns "what changed at the source since this cursor" into
//! [`Item`]s to put and ids to remove, handed to a [`Sink`] that the engine
//! implements over the store; the provider checkpoints its cursor through
//! the sink as it goes, so a sync that dies resumes where it stopped. This
//! crate stores nothing and knows nothing of HTTP serving or SQL.

pub mod api;
pub mod crawler;
pub mod fetch;
pub mod gdrive;
pub mod github;
pub mod gmail;
pub mod notion;
pub mod oauth;
pub mod onedrive;
mod robots;
pub mod s3;
pub mod seal;

use async_trait::async_trait;
use std::time::Duration;

/// Why a sync (or an authorisation) failed. [`ConnectError::code`] is the
/// `errorCode` a connection's `lastSyncRun` shows.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The grant is gone (revoked, expired, refresh refused): the user
    /// must connect again.
    #[error("authorisation expired or revoked: {0}")]
    AuthExpired(String),
    /// The provider asked us to slow down.
    #[error("rate limited by the provider{}", .retry_after.map(|d| format!(" (retry after {}s)", d.as_secs())).unwrap_or_default())]
    RateLimited { retry_after: Option<Duration> },
    /// The provider failed or could not be reached; trying later may work.
    #[error("provider unavailable: {0}")]
    Unavailable(String),
    /// The connection's settings are wrong (a bad start URL, say).
    #[error("{0}")]
    Config(String),
    /// Something unexpected (a malformed answer).
    #[error("{0}")]
    Internal(String),
}

impl ConnectError {
    /// The `lastSyncRun.errorCode` for this failure.
    pub fn code(&self) -> &'static str {
        match self {
            ConnectError::AuthExpired(_) => "auth_expired",
            ConnectError::RateLimited { .. } => "rate_limited",
            ConnectError::Unavailable(_) => "provider_unavailable",
            ConnectError::Config(_) | ConnectError::Internal(_) => "internal",
        }
    }

    /// Read an HTTP status from a provider's API.
    pub fn from_status(status: u16, retry_after: Option<&str>, what: &str) -> Self {
        match status {
            401 => ConnectError::AuthExpired(format!("{what} answered 401")),
            429 => ConnectError::RateLimited {
                retry_after: retry_after.and_then(parse_retry_after),
            },
            s if s >= 500 => ConnectError::Unavailable(format!("{what} answered {s}")),
            s => ConnectError::Internal(format!("{what} answered {s}")),
        }
    }
}

/// `Retry-After` in seconds (the HTTP-date form is read as a minute).
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    v.trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
        .or(Some(Duration::from_secs(60)))
}

/// One object at the source, to become (or update) a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The provider's own id of the object (stable across syncs).
    pub id: String,
    pub title: Option<String>,
    /// Where a person opens it.
    pub url: Option<String>,
    /// The raw content, extracted by the document pipeline like an upload.
    pub bytes: Vec<u8>,
    pub mime_type: Option<String>,
    pub filename: Option<String>,
    /// Provider facts stamped on the document beside the connection's
    /// metadata (`repository`, `path`, ...).
    pub metadata: serde_json::Map<String, serde_json::Value>,
}

/// Where a provider's changes go (the engine, over the store).
#[async_trait]
pub trait Sink: Send {
    /// Create or update documents for these items (an item beyond the
    /// connection's document limit is skipped).
    async fn put(&mut self, items: Vec<Item>) -> Result<(), ConnectError>;
    /// Delete the documents of these provider ids.
    async fn remove(&mut self, ids: Vec<String>) -> Result<(), ConnectError>;
    /// Persist how far the sync got.
    async fn checkpoint(&mut self, cursor: &serde_json::Value) -> Result<(), ConnectError>;
    /// How many more new documents the connection may hold.
    fn room(&self) -> usize;
}

/// The providers Engram knows, with whether each needs OAuth.
pub const PROVIDERS: [(&str, bool); 8] = [
    ("notion", true),
    ("google-drive", true),
    ("onedrive", true),
    ("gmail", true),
    ("github", true),
    ("web-crawler", false),
    ("s3", false),
    ("granola", true),
];

/// Whether `provider` is one of [`PROVIDERS`].
pub fn is_provider(provider: &str) -> bool {
    PROVIDERS.iter().any(|(p, _)| *p == provider)
}
