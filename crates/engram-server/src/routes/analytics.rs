//! `GET /v3/analytics/{usage,errors,logs}`: an organisation's requests, as
//! the seed gives them (durations in milliseconds; the last 24 hours when
//! no window is given). Any full key of the organisation sees them; the
//! guard limits these routes to 100 requests a minute per organisation.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Query, State};
use axum::Json;
use engram_api::{
    AnalyticsParams, AnalyticsWindow, ErrorBody, ErrorTimelineItem, ErrorsResponse, HourlyItem,
    KeyUsageItem, LogItem, LogsResponse, Pagination, TopError, UsageItem, UsageResponse,
};
use engram_engine::analytics::{LogFilter, Window};

/// Milliseconds to the microsecond.
fn micros(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

fn window(p: &AnalyticsParams) -> Result<(AnalyticsWindow, Window), ApiError> {
    // a filter only logs use is still refused anywhere when it is malformed
    p.status_code()?;
    let w = p.window(chrono::Utc::now())?;
    let engine = Window {
        from: w.from,
        to: w.to,
        offset: w.offset(),
        limit: w.limit,
    };
    Ok((w, engine))
}

#[utoipa::path(
    get,
    path = "/v3/analytics/usage",
    operation_id = "getAnalyticsUsage",
    tag = "analytics",
    params(AnalyticsParams),
    responses(
        (status = 200, description = "Requests by type (paged), by hour and by key", body = UsageResponse),
        (status = 400, description = "Bad window or page (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 429, description = "Over 100 analytics requests this minute (`RateLimitError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Usage of the organisation's API over a window.
pub async fn usage(
    State(s): State<AppState>,
    Caller(who): Caller,
    Query(p): Query<AnalyticsParams>,
) -> Result<Json<UsageResponse>, ApiError> {
    let (w, ew) = window(&p)?;
    let r = s.engine.usage(&who.org_id, ew).await?;
    Ok(Json(UsageResponse {
        usage: r
            .stats
            .by_type
            .into_iter()
            .map(|t| UsageItem {
                kind: t.kind,
                count: t.count,
                avg_duration: micros(t.avg_duration_ms),
                last_used: iso(t.last_used),
            })
            .collect(),
        hourly: r
            .stats
            .hourly
            .into_iter()
            .map(|h| HourlyItem {
                hour: iso(h.hour),
                count: h.count,
                avg_duration: micros(h.avg_duration_ms),
            })
            .collect(),
        by_key: r
            .stats
            .by_key
            .into_iter()
            .map(|k| KeyUsageItem {
                key_id: k.key_id,
                key_name: k.key_name,
                count: k.count,
                avg_duration: micros(k.avg_duration_ms),
                last_used: iso(k.last_used),
            })
            .collect(),
        total_memories: r.total_memories,
        pagination: Pagination::new(w.page, w.limit, r.total_types),
    }))
}

#[utoipa::path(
    get,
    path = "/v3/analytics/errors",
    operation_id = "getAnalyticsErrors",
    tag = "analytics",
    params(AnalyticsParams),
    responses(
        (status = 200, description = "Failed requests: rate, kinds (paged), timeline, status codes", body = ErrorsResponse),
        (status = 400, description = "Bad window or page (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 429, description = "Over 100 analytics requests this minute (`RateLimitError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The organisation's failed requests over a window.
pub async fn errors(
    State(s): State<AppState>,
    Caller(who): Caller,
    Query(p): Query<AnalyticsParams>,
) -> Result<Json<ErrorsResponse>, ApiError> {
    let (_, ew) = window(&p)?;
    let r = s.engine.errors(&who.org_id, ew).await?;
    Ok(Json(ErrorsResponse {
        total_errors: r.total_errors,
        error_rate: r.error_rate,
        top_errors: r
            .top
            .into_iter()
            .map(|k| TopError {
                kind: k.kind,
                count: k.count,
                status_codes: k.status_codes,
                last_occurred: iso(k.last),
            })
            .collect(),
        timeline: r
            .timeline
            .into_iter()
            .map(|h| ErrorTimelineItem {
                time: iso(h.hour),
                count: h.count,
                types: h.kinds,
            })
            .collect(),
        by_status_code: r
            .by_status
            .into_iter()
            .map(|(code, n)| (code.to_string(), n))
            .collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/v3/analytics/logs",
    operation_id = "getAnalyticsLogs",
    tag = "analytics",
    params(AnalyticsParams),
    responses(
        (status = 200, description = "Recorded requests, newest first", body = LogsResponse),
        (status = 400, description = "Bad window, page or filter (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 429, description = "Over 100 analytics requests this minute (`RateLimitError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The organisation's recorded requests, newest first, filtered by type,
/// status code or key.
pub async fn logs(
    State(s): State<AppState>,
    Caller(who): Caller,
    Query(p): Query<AnalyticsParams>,
) -> Result<Json<LogsResponse>, ApiError> {
    let (w, ew) = window(&p)?;
    let filter = LogFilter {
        kind: p.kind.clone().filter(|k| !k.is_empty()),
        status_code: p.status_code()?,
        key_id: p.key_id.clone().filter(|k| !k.is_empty()),
    };
    let (logs, total) = s.engine.logs(&who.org_id, ew, filter).await?;
    Ok(Json(LogsResponse {
        logs: logs
            .into_iter()
            .map(|l| LogItem {
                id: l.id,
                created_at: iso(l.created_at),
                kind: l.kind,
                status_code: l.status_code,
                duration: micros(l.duration_ms),
                input: l.input,
                output: l.output,
            })
            .collect(),
        pagination: Pagination::new(w.page, w.limit, total),
    }))
}
