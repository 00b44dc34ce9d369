//! Request analytics and rate-limit windows: what the store keeps of every
//! API request (one [`RequestLog`] each, written in batches, and hourly
//! rollups kept with them) and the aggregates the analytics routes read.
//!
//! A backend answers [`RequestGroup`]s for a window: whole hours from the
//! rollups, the partial hours at its edges from the logs themselves, so
//! reports are exact to the millisecond yet read a month in a few thousand
//! rows. [`usage_of`] and [`errors_of`] fold groups the same way for every
//! backend.

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

/// Requests of one hour, type, key, status code and error kind.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestGroup {
    pub hour: Timestamp,
    pub kind: String,
    pub key_id: String,
    pub status_code: u16,
    /// Empty for requests that did not fail.
    pub error_type: String,
    pub count: u64,
    /// Sum of the requests' durations, in milliseconds.
    pub total_ms: f64,
    /// The latest request of the group.
    pub last: Timestamp,
}

/// Fold groups into usage: by type and by key (most used first, then by
/// name), by hour (oldest first). `key_names` names keys by id.
pub fn usage_of(
    groups: &[RequestGroup],
    key_names: &std::collections::HashMap<String, String>,
) -> UsageStats {
    use std::collections::BTreeMap;
    // (count, total ms, last)
    type Acc = (u64, f64, Timestamp);
    fn add(acc: &mut Acc, g: &RequestGroup) {
        acc.0 += g.count;
        acc.1 += g.total_ms;
        acc.2 = acc.2.max(g.last);
    }
    let zero = |g: &RequestGroup| (0u64, 0f64, g.last);
    let (mut kinds, mut hours, mut keys) = (
        BTreeMap::<&str, Acc>::new(),
        BTreeMap::<Timestamp, Acc>::new(),
        BTreeMap::<&str, Acc>::new(),
    );
    for g in groups {
        add(kinds.entry(&g.kind).or_insert_with(|| zero(g)), g);
        add(hours.entry(g.hour).or_insert_with(|| zero(g)), g);
        add(keys.entry(&g.key_id).or_insert_with(|| zero(g)), g);
    }
    let avg = |a: &Acc| if a.0 == 0 { 0.0 } else { a.1 / a.0 as f64 };
    let mut by_type: Vec<TypeUsage> = kinds
        .iter()
        .map(|(k, a)| TypeUsage {
            kind: k.to_string(),
            count: a.0,
            avg_duration_ms: avg(a),
            last_used: a.2,
        })
        .collect();
    by_type.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)));
    let mut by_key: Vec<KeyUsage> = keys
        .iter()
        .map(|(k, a)| KeyUsage {
            key_id: k.to_string(),
            key_name: key_names.get(*k).cloned().unwrap_or_default(),
            count: a.0,
            avg_duration_ms: avg(a),
            last_used: a.2,
        })
        .collect();
    by_key.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key_id.cmp(&b.key_id)));
    UsageStats {
        by_type,
        hourly: hours
            .iter()
            .map(|(h, a)| HourUsage {
                hour: *h,
                count: a.0,
                avg_duration_ms: avg(a),
            })
            .collect(),
        by_key,
    }
}

/// Fold groups into errors: every request counted, failed ones (status
/// 400 and above) grouped by hour, kind and status code.
pub fn errors_of(groups: &[RequestGroup]) -> ErrorStats {
    use std::collections::BTreeMap;
    let mut failed: BTreeMap<(Timestamp, &str, u16), (u64, Timestamp)> = BTreeMap::new();
    for g in groups.iter().filter(|g| g.status_code >= 400) {
        let kind = if g.error_type.is_empty() {
            "Error"
        } else {
            &g.error_type
        };
        let e = failed
            .entry((g.hour, kind, g.status_code))
            .or_insert((0, g.last));
        e.0 += g.count;
        e.1 = e.1.max(g.last);
    }
    ErrorStats {
        total_requests: groups.iter().map(|g| g.count).sum(),
        groups: failed
            .into_iter()
            .map(|((hour, kind, status_code), (count, last))| ErrorGroup {
                hour,
                error_type: kind.to_string(),
                status_code,
                count,
                last,
            })
            .collect(),
    }
}

/// Logs grouped as the hourly rollups keep them: `(organisation, group)`.
pub fn rollup<'a>(logs: impl IntoIterator<Item = &'a RequestLog>) -> Vec<(String, RequestGroup)> {
    use std::collections::BTreeMap;
    type Key = (String, i64, String, String, u16, String);
    let mut out: BTreeMap<Key, RequestGroup> = BTreeMap::new();
    for l in logs {
        let hour = hour_of_millis(l.created_at.timestamp_millis());
        let error_type = l.error_type.clone().unwrap_or_default();
        let key = (
            l.org_id.clone(),
            hour,
            l.kind.clone(),
            l.key_id.clone(),
            l.status_code,
            error_type.clone(),
        );
        let g = out.entry(key).or_insert_with(|| RequestGroup {
            hour: crate::from_millis(hour),
            kind: l.kind.clone(),
            key_id: l.key_id.clone(),
            status_code: l.status_code,
            error_type,
            count: 0,
            total_ms: 0.0,
            last: l.created_at,
        });
        g.count += 1;
        g.total_ms += l.duration_ms;
        g.last = g.last.max(l.created_at);
    }
    out.into_iter().map(|(k, g)| (k.0, g)).collect()
}

/// How a window splits for [`RequestGroup`] queries: the whole hours
/// `[first, last)`, read from rollups; the rest of `[from, to)` is read
/// from logs. Without a whole hour, `first == last == to`.
pub fn whole_hours(from: Timestamp, to: Timestamp) -> (i64, i64) {
    let (f, t) = (from.timestamp_millis(), to.timestamp_millis());
    let first = hour_of_millis(f + 3_599_999);
    let last = hour_of_millis(t);
    if first < last {
        (first, last)
    } else {
        (t, t)
    }
}

/// What a [`RequestGroup`] query groups by; the other fields read empty
/// (hour 0, kind, key and error kind `""`, status 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Kind,
    Hour,
    Key,
    /// Hour, status code and error kind.
    Outcome,
}

/// The SQL of a [`RequestGroup`] query, for a backend whose numbered
/// parameters start with `p` (`?` or `$`): `1` the organisation, `2..3`
/// the whole hours (rollups), `4..5` the window (logs at its edges).
/// Columns: hour, kind, key, status, error kind, count, total ms, last.
pub fn request_groups_sql(by: GroupBy, p: char) -> String {
    let (columns, group) = match by {
        GroupBy::Kind => ("CAST(0 AS BIGINT), kind, '', 0, ''", "2"),
        GroupBy::Hour => ("hour, '', '', 0, ''", "1"),
        GroupBy::Key => ("CAST(0 AS BIGINT), '', key_id, 0, ''", "3"),
        GroupBy::Outcome => ("hour, '', '', status_code, error_type", "1, 4, 5"),
    };
    let logs = |from: u8, to: u8| {
        format!(
            "SELECT (created_at / 3600000) * 3600000 AS hour, kind, key_id, status_code, \
             COALESCE(error_type, '') AS error_type, 1 AS n, duration_ms AS total_ms, \
             created_at AS last_at FROM request_logs \
             WHERE org_id = {p}1 AND created_at >= {p}{from} AND created_at < {p}{to}"
        )
    };
    format!(
        "SELECT {columns}, CAST(SUM(n) AS BIGINT), SUM(total_ms), MAX(last_at) FROM ( \
         SELECT hour, kind, key_id, status_code, error_type, count AS n, total_ms, last_at \
         FROM request_rollups WHERE org_id = {p}1 AND hour >= {p}2 AND hour < {p}3 \
         UNION ALL {} UNION ALL {}) g GROUP BY {group}",
        logs(4, 2),
        logs(3, 5)
    )
}

/// ` AND <column> = <p><n>` for each of the type, status and key filters
/// that are set, in that order, numbered from `start` (only those, so
/// that the `(org_id, kind, created_at)` index serves a type filter);
/// and the number after the last.
fn filter_terms(q: &LogQuery, p: char, start: usize) -> (String, usize) {
    let mut sql = String::new();
    let mut n = start;
    for (set, column) in [
        (q.kind.is_some(), "kind"),
        (q.status_code.is_some(), "status_code"),
        (q.key_id.is_some(), "key_id"),
    ] {
        if set {
            sql.push_str(&format!(" AND {column} = {p}{n}"));
            n += 1;
        }
    }
    (sql, n)
}

/// The `WHERE` clause of a log listing, for a backend whose numbered
/// parameters start with `p`: `1` the organisation, `2..3` the window,
/// then the filters that are set (type, status, key). Returns the clause
/// and the number of the next parameter.
pub fn log_filter_sql(q: &LogQuery, p: char) -> (String, usize) {
    let (terms, n) = filter_terms(q, p, 4);
    (
        format!("WHERE org_id = {p}1 AND created_at >= {p}2 AND created_at < {p}3{terms}"),
        n,
    )
}

/// How many logs a listing matches, counted as reports are (whole hours
/// from the rollups, the edges from the logs): `1` the organisation,
/// `2..3` the whole hours, `4..5` the window, then the filters that are set.
pub fn log_count_sql(q: &LogQuery, p: char) -> String {
    let (terms, _) = filter_terms(q, p, 6);
    format!(
        "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM ( \
         SELECT count AS n FROM request_rollups \
         WHERE org_id = {p}1 AND hour >= {p}2 AND hour < {p}3{terms} \
         UNION ALL SELECT 1 AS n FROM request_logs \
         WHERE org_id = {p}1 AND created_at >= {p}4 AND created_at < {p}2{terms} \
         UNION ALL SELECT 1 AS n FROM request_logs \
         WHERE org_id = {p}1 AND created_at >= {p}3 AND created_at < {p}5{terms}) g"
    )
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
