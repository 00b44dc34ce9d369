//! `GET /v3/analytics/{usage,errors,logs}`: the query parameters, their
//! validation into a time window and a page, and the answers, exactly as
//! the seed (sections 4.2 to 4.4) gives them.
//!
//! Durations (`duration`, `avgDuration`, `processingTime`) are in
//! milliseconds. Without `from`, `to` or `period` the window is the last
//! 24 hours.

use crate::Pagination;
use chrono::{DateTime, Duration, Utc};
use engram_core::ValidationError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The longest window a request may ask for.
pub const MAX_RANGE_DAYS: i64 = 90;
/// Items per page by default, and at most.
pub const DEFAULT_PAGE_SIZE: u64 = 20;
pub const MAX_PAGE_SIZE: u64 = 100;
/// The window when none is given.
pub const DEFAULT_WINDOW_HOURS: i64 = 24;

/// Query parameters of the three analytics routes (`type`, `statusCode`
/// and `keyId` filter the logs only).
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct AnalyticsParams {
    /// Start of the window (ISO 8601 date-time, or a date).
    pub from: Option<String>,
    /// End of the window (ISO 8601; default now).
    pub to: Option<String>,
    /// `1h`, `24h`, `7d` or `30d`, ending at `to`: an alternative to `from`.
    pub period: Option<String>,
    /// Page number, from 1 (default 1).
    #[param(value_type = Option<u64>)]
    pub page: Option<String>,
    /// Items per page, 1 to 100 (default 20).
    #[param(value_type = Option<u64>)]
    pub limit: Option<String>,
    /// Logs only: the request type (`add`, `search`, `update`, `delete`, ...).
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
    /// Logs only: the HTTP status code.
    #[param(value_type = Option<u16>)]
    pub status_code: Option<String>,
    /// Logs only: the API key's id.
    pub key_id: Option<String>,
}

/// A validated window `[from, to)` and page.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyticsWindow {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub page: u64,
    pub limit: u64,
}

impl AnalyticsWindow {
    /// Items to skip for the page.
    pub fn offset(&self) -> u64 {
        (self.page - 1).saturating_mul(self.limit)
    }
}

fn parse_time(field: &str, v: &str) -> Result<DateTime<Utc>, ValidationError> {
    if let Ok(t) = DateTime::parse_from_rfc3339(v) {
        return Ok(t.with_timezone(&Utc));
    }
    if let Ok(d) = chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d") {
        return Ok(d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    Err(ValidationError::new(
        field,
        format!("`{v}` is not an ISO 8601 date-time (e.g. 2026-11-21T10:00:00Z)"),
    ))
}

fn parse_period(v: &str) -> Result<Duration, ValidationError> {
    match v {
        "1h" => Ok(Duration::hours(1)),
        "24h" => Ok(Duration::hours(24)),
        "7d" => Ok(Duration::days(7)),
        "30d" => Ok(Duration::days(30)),
        _ => Err(ValidationError::new(
            "period",
            format!("`{v}` is not a period: use 1h, 24h, 7d or 30d"),
        )),
    }
}

fn parse_count(
    field: &str,
    v: Option<&str>,
    default: u64,
    max: u64,
) -> Result<u64, ValidationError> {
    let Some(v) = v else { return Ok(default) };
    match v.trim().parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ValidationError::new(
            field,
            format!("must be a whole number from 1 to {max}, got `{v}`"),
        )),
    }
}

impl AnalyticsParams {
    /// The window and page these parameters ask for, at `now`: `period`
    /// ends at `to` (default now); `from` alone runs to now; `to` alone
    /// starts 24 hours before it; neither gives the last 24 hours.
    pub fn window(&self, now: DateTime<Utc>) -> Result<AnalyticsWindow, ValidationError> {
        let to = self
            .to
            .as_deref()
            .map(|v| parse_time("to", v))
            .transpose()?;
        let from = self
            .from
            .as_deref()
            .map(|v| parse_time("from", v))
            .transpose()?;
        let period = self.period.as_deref().map(parse_period).transpose()?;
        let (from, to) = match (from, period) {
            (Some(_), Some(_)) => {
                return Err(ValidationError::new(
                    "period",
                    "give either `period` or `from`, not both",
                ))
            }
            (Some(f), None) => (f, to.unwrap_or(now)),
            (None, Some(p)) => {
                let to = to.unwrap_or(now);
                (to - p, to)
            }
            (None, None) => {
                let to = to.unwrap_or(now);
                (to - Duration::hours(DEFAULT_WINDOW_HOURS), to)
            }
        };
        if from > to {
            return Err(ValidationError::new("from", "`from` is after `to`"));
        }
        if to - from > Duration::days(MAX_RANGE_DAYS) {
            return Err(ValidationError::new(
                "from",
                format!("the window is longer than {MAX_RANGE_DAYS} days"),
            ));
        }
        Ok(AnalyticsWindow {
            from,
            to,
            page: parse_count("page", self.page.as_deref(), 1, u32::MAX as u64)?,
            limit: parse_count(
                "limit",
                self.limit.as_deref(),
                DEFAULT_PAGE_SIZE,
                MAX_PAGE_SIZE,
            )?,
        })
    }

    /// The log filter on status code, if any.
    pub fn status_code(&self) -> Result<Option<u16>, ValidationError> {
        self.status_code
            .as_deref()
            .map(|v| match v.trim().parse::<u16>() {
                Ok(n) if (100..=599).contains(&n) => Ok(n),
                _ => Err(ValidationError::new(
                    "statusCode",
                    format!("`{v}` is not an HTTP status code"),
                )),
            })
            .transpose()
    }
}

/// Requests of one type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageItem {
    /// The request type (`add`, `search`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    pub count: u64,
    /// Milliseconds.
    pub avg_duration: f64,
    pub last_used: String,
}

/// Requests in one hour.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HourlyItem {
    /// The hour's start.
    pub hour: String,
    pub count: u64,
    /// Milliseconds.
    pub avg_duration: f64,
}

/// Requests made with one key.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyUsageItem {
    pub key_id: String,
    pub key_name: String,
    pub count: u64,
    /// Milliseconds.
    pub avg_duration: f64,
    pub last_used: String,
}

/// `GET /v3/analytics/usage`: `usage` is paged (most used type first);
/// `hourly` (oldest first, hours with requests) and `byKey` cover the
/// whole window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageResponse {
    pub usage: Vec<UsageItem>,
    pub hourly: Vec<HourlyItem>,
    pub by_key: Vec<KeyUsageItem>,
    /// The organisation's live memories (latest versions, not forgotten).
    pub total_memories: u64,
    pub pagination: Pagination,
}

/// One kind of error.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopError {
    /// The error kind (`ValidationError`, `NotFoundError`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    pub count: u64,
    pub status_codes: Vec<u16>,
    pub last_occurred: String,
}

/// Errors in one hour.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorTimelineItem {
    /// The hour's start.
    pub time: String,
    pub count: u64,
    /// The error kinds seen in the hour.
    pub types: Vec<String>,
}

/// `GET /v3/analytics/errors`: `topErrors` (most frequent first) is paged
/// by `page` and `limit`; the rest covers the whole window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorsResponse {
    pub total_errors: u64,
    /// Failed requests over all requests (0 to 1).
    pub error_rate: f64,
    pub top_errors: Vec<TopError>,
    pub timeline: Vec<ErrorTimelineItem>,
    /// Count by status code (`"400"`, `"404"`, ...).
    pub by_status_code: BTreeMap<String, u64>,
}

/// One recorded request.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogItem {
    pub id: String,
    pub created_at: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub status_code: u16,
    /// Milliseconds.
    pub duration: f64,
    /// A compact form of the request: its parameters, long text cut short
    /// and secrets left out.
    #[schema(value_type = Object)]
    pub input: serde_json::Value,
    /// A compact form of the answer: result counts, ids, the processing
    /// time (`processingTime`, ms), or the error.
    #[schema(value_type = Object)]
    pub output: serde_json::Value,
}

/// `GET /v3/analytics/logs`: newest first.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct LogsResponse {
    pub logs: Vec<LogItem>,
    pub pagination: Pagination,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        "2026-11-21T12:00:00Z".parse().unwrap()
    }

    fn check(q: &str, expect: Result<(&str, &str, u64, u64), &str>) {
        let p: AnalyticsParams = serde_urlencoded_like(q);
        let got = p.window(now());
        match (got, expect) {
            (Ok(w), Ok((from, to, page, limit))) => {
                assert_eq!(w.from, from.parse::<DateTime<Utc>>().unwrap(), "{q}");
                assert_eq!(w.to, to.parse::<DateTime<Utc>>().unwrap(), "{q}");
                assert_eq!((w.page, w.limit), (page, limit), "{q}");
            }
            (Err(e), Err(field)) => assert_eq!(e.field, field, "{q}: {}", e.message),
            (got, want) => panic!("{q}: got {got:?}, want {want:?}"),
        }
    }

    /// `a=1&b=2` into params (the tests' own tiny decoder).
    fn serde_urlencoded_like(q: &str) -> AnalyticsParams {
        let map: serde_json::Map<String, serde_json::Value> = q
            .split('&')
            .filter(|s| !s.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_string(), serde_json::Value::String(v.to_string()))
            })
            .collect();
        serde_json::from_value(serde_json::Value::Object(map)).unwrap()
    }

    #[test]
    fn windows() {
        let day = "2026-11-20T12:00:00Z";
        let now = "2026-11-21T12:00:00Z";
        check("", Ok((day, now, 1, 20)));
        check("period=1h", Ok(("2026-11-21T11:00:00Z", now, 1, 20)));
        check(
            "period=30d&page=3&limit=100",
            Ok(("2026-10-22T12:00:00Z", now, 3, 100)),
        );
        check(
            "period=7d&to=2026-11-01T00:00:00Z",
            Ok(("2026-10-25T00:00:00Z", "2026-11-01T00:00:00Z", 1, 20)),
        );
        check("from=2026-11-01", Ok(("2026-11-01T00:00:00Z", now, 1, 20)));
        check(
            "from=2026-08-23T12:00:00Z",
            Ok(("2026-08-23T12:00:00Z", now, 1, 20)),
        );
        check("from=2026-08-23T11:59:59Z", Err("from"));
        check("from=2026-11-22T00:00:00Z", Err("from"));
        check("from=2026-11-01&to=2026-10-01", Err("from"));
        check("from=yesterday", Err("from"));
        check("to=soon", Err("to"));
        check("period=2h", Err("period"));
        check("period=24h&from=2026-11-20", Err("period"));
        check("limit=101", Err("limit"));
        check("limit=0", Err("limit"));
        check("limit=ten", Err("limit"));
        check("page=0", Err("page"));
        check("page=-1", Err("page"));
    }

    #[test]
    fn pages() {
        assert_eq!(Pagination::new(1, 20, 0).total_pages, 0);
        assert_eq!(Pagination::new(1, 20, 20).total_pages, 1);
        assert_eq!(Pagination::new(2, 20, 21).total_pages, 2);
    }
}
