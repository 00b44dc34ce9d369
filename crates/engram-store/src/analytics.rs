//! Request analytics and rate-limit windows: what the store keeps of every
//! API request (one [`RequestLog`] each, written in batches) and the
//! aggregates the analytics routes read. The store aggregates by request
//! type, hour and key; folding error groups into the seed's shapes is the
//! engine's business.

use crate::Timestamp;
use serde_json::Value;

/// One API request as recorded: never the key, never a whole document.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestLog {
    pub id: String,
    pub org_id: String,
    pub key_id: String,
    /// The request type: `add`, `search`, `update`, `delete`, ...
    pub kind: String,
    pub status_code: u16,
    /// The error kind of a failed request (`ValidationError`, ...).
    pub error_type: Option<String>,
    /// Milliseconds from the request's arrival to its answer.
    pub duration_ms: f64,
    /// A compact form of the request (a JSON object).
    pub input: Value,
    /// A compact form of the answer (a JSON object).
    pub output: Value,
    pub created_at: Timestamp,
}

/// Which logs to list: `from <= created_at < to`, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct LogQuery {
    pub from: Timestamp,
    pub to: Timestamp,
    pub kind: Option<String>,
    pub status_code: Option<u16>,
    pub key_id: Option<String>,
    pub offset: u64,
    pub limit: u64,
}

/// Requests of one type in a window.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeUsage {
    pub kind: String,
    pub count: u64,
    pub avg_duration_ms: f64,
    pub last_used: Timestamp,
}

/// Requests in one hour (the hour's start).
#[derive(Debug, Clone, PartialEq)]
pub struct HourUsage {
    pub hour: Timestamp,
    pub count: u64,
    pub avg_duration_ms: f64,
}

/// Requests made with one key.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyUsage {
    pub key_id: String,
    /// The key's current name (empty if the key is gone).
    pub key_name: String,
    pub count: u64,
    pub avg_duration_ms: f64,
    pub last_used: Timestamp,
}

/// Usage in a window: by type (most used first), by hour (oldest
/// first, hours without requests left out) and by key (most used first).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UsageStats {
    pub by_type: Vec<TypeUsage>,
    pub hourly: Vec<HourUsage>,
    pub by_key: Vec<KeyUsage>,
}

/// Failed requests of one hour, error type and status code.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorGroup {
    pub hour: Timestamp,
    pub error_type: String,
    pub status_code: u16,
    pub count: u64,
    pub last: Timestamp,
}

/// Errors in a window: how many requests there were at all, and the
/// failed ones (status 400 and above) grouped, oldest hour first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ErrorStats {
    pub total_requests: u64,
    pub groups: Vec<ErrorGroup>,
}

/// A rate-limit window after counting one more request in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateWindow {
    /// When the window began (the first request counted in it).
    pub started_at: Timestamp,
    /// Requests counted in the window, this one included.
    pub count: u64,
}

/// The hour `t` falls in, as milliseconds since the epoch.
pub fn hour_of_millis(ms: i64) -> i64 {
    ms.div_euclid(3_600_000) * 3_600_000
}
