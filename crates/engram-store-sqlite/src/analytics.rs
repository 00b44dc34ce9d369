//! Request logs, their aggregates, and rate-limit windows.

use crate::rows::ts;
use crate::{db_err, ms, SqliteStore};
use engram_store::{
    hour_of_millis, ErrorGroup, ErrorStats, HourUsage, KeyUsage, LogQuery, RateWindow, RequestLog,
    StoreResult, Timestamp, TypeUsage, UsageStats,
};
use sqlx::Row;
use std::time::Duration;

pub async fn record(s: &SqliteStore, logs: &[RequestLog]) -> StoreResult<()> {
    if logs.is_empty() {
        return Ok(());
    }
    let mut tx = s.begin_write().await?;
    for l in logs {
        sqlx::query(
            "INSERT OR IGNORE INTO request_logs (id, org_id, key_id, kind, status_code, error_type, \
             duration_ms, input, output, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&l.id)
        .bind(&l.org_id)
        .bind(&l.key_id)
        .bind(&l.kind)
        .bind(l.status_code as i64)
        .bind(&l.error_type)
        .bind(l.duration_ms)
        .bind(l.input.to_string())
        .bind(l.output.to_string())
        .bind(ms(l.created_at))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)
}

pub async fn purge(s: &SqliteStore, before: Timestamp) -> StoreResult<u64> {
    let r = sqlx::query("DELETE FROM request_logs WHERE created_at < ?")
        .bind(ms(before))
        .execute(&s.write)
        .await
        .map_err(db_err)?;
    Ok(r.rows_affected())
}

pub async fn usage(
    s: &SqliteStore,
    org: &str,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<UsageStats> {
    let (from, to) = (ms(from), ms(to));
    let by_type = sqlx::query(
        "SELECT kind, COUNT(*), AVG(duration_ms), MAX(created_at) FROM request_logs \
         WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3 \
         GROUP BY kind ORDER BY COUNT(*) DESC, kind",
    )
    .bind(org)
    .bind(from)
    .bind(to)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?
    .into_iter()
    .map(|r| TypeUsage {
        kind: r.get(0),
        count: r.get::<i64, _>(1) as u64,
        avg_duration_ms: r.get(2),
        last_used: ts(r.get(3)),
    })
    .collect();
    let hourly = sqlx::query(
        "SELECT (created_at / 3600000) * 3600000 AS hour, COUNT(*), AVG(duration_ms) \
         FROM request_logs WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3 \
         GROUP BY hour ORDER BY hour",
    )
    .bind(org)
    .bind(from)
    .bind(to)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?
    .into_iter()
    .map(|r| HourUsage {
        hour: ts(hour_of_millis(r.get(0))),
        count: r.get::<i64, _>(1) as u64,
        avg_duration_ms: r.get(2),
    })
    .collect();
    let by_key = sqlx::query(
        "SELECT l.key_id, MAX(COALESCE(k.name, '')), COUNT(*), AVG(l.duration_ms), MAX(l.created_at) \
         FROM request_logs l LEFT JOIN api_keys k ON k.id = l.key_id \
         WHERE l.org_id = ?1 AND l.created_at >= ?2 AND l.created_at < ?3 \
         GROUP BY l.key_id ORDER BY COUNT(*) DESC, l.key_id",
    )
    .bind(org)
    .bind(from)
    .bind(to)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?
    .into_iter()
    .map(|r| KeyUsage {
        key_id: r.get(0),
        key_name: r.get(1),
        count: r.get::<i64, _>(2) as u64,
        avg_duration_ms: r.get(3),
        last_used: ts(r.get(4)),
    })
    .collect();
    Ok(UsageStats {
        by_type,
        hourly,
        by_key,
    })
}

pub async fn errors(
    s: &SqliteStore,
    org: &str,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<ErrorStats> {
    let (from, to) = (ms(from), ms(to));
    let total: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM request_logs WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3",
    )
    .bind(org)
    .bind(from)
    .bind(to)
    .fetch_one(&s.read)
    .await
    .map_err(db_err)?;
    let groups = sqlx::query(
        "SELECT (created_at / 3600000) * 3600000 AS hour, COALESCE(error_type, 'Error'), \
         status_code, COUNT(*), MAX(created_at) FROM request_logs \
         WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3 AND status_code >= 400 \
         GROUP BY hour, 2, status_code ORDER BY hour, 2, status_code",
    )
    .bind(org)
    .bind(from)
    .bind(to)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?
    .into_iter()
    .map(|r| ErrorGroup {
        hour: ts(hour_of_millis(r.get(0))),
        error_type: r.get(1),
        status_code: r.get::<i64, _>(2) as u16,
        count: r.get::<i64, _>(3) as u64,
        last: ts(r.get(4)),
    })
    .collect();
    Ok(ErrorStats {
        total_requests: total as u64,
        groups,
    })
}

/// The filter of a log listing: organisation, window, type, status, key.
macro_rules! log_filter {
    () => {
        "WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3 \
         AND (?4 IS NULL OR kind = ?4) AND (?5 IS NULL OR status_code = ?5) \
         AND (?6 IS NULL OR key_id = ?6)"
    };
}

pub async fn list(s: &SqliteStore, org: &str, q: &LogQuery) -> StoreResult<(Vec<RequestLog>, u64)> {
    let bind = |sql: &'static str| {
        sqlx::query(sql)
            .bind(org)
            .bind(ms(q.from))
            .bind(ms(q.to))
            .bind(q.kind.as_deref())
            .bind(q.status_code.map(i64::from))
            .bind(q.key_id.as_deref())
    };
    let total: i64 = bind(concat!("SELECT COUNT(*) FROM request_logs ", log_filter!()))
        .fetch_one(&s.read)
        .await
        .map_err(db_err)?
        .get(0);
    let rows = bind(concat!(
        "SELECT * FROM request_logs ",
        log_filter!(),
        " ORDER BY created_at DESC, id DESC LIMIT ?7 OFFSET ?8"
    ))
    .bind(q.limit as i64)
    .bind(q.offset as i64)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    let logs = rows
        .into_iter()
        .map(|r| RequestLog {
            id: r.get("id"),
            org_id: r.get("org_id"),
            key_id: r.get("key_id"),
            kind: r.get("kind"),
            status_code: r.get::<i64, _>("status_code") as u16,
            error_type: r.get("error_type"),
            duration_ms: r.get("duration_ms"),
            input: serde_json::from_str(r.get("input")).unwrap_or_default(),
            output: serde_json::from_str(r.get("output")).unwrap_or_default(),
            created_at: ts(r.get("created_at")),
        })
        .collect();
    Ok((logs, total as u64))
}

pub async fn hit(
    s: &SqliteStore,
    bucket: &str,
    at: Timestamp,
    window: Duration,
) -> StoreResult<RateWindow> {
    let r = sqlx::query(
        "INSERT INTO rate_limits (bucket, window_start, count) VALUES (?1, ?2, 1) \
         ON CONFLICT (bucket) DO UPDATE SET \
           count = CASE WHEN window_start <= ?2 - ?3 THEN 1 ELSE count + 1 END, \
           window_start = CASE WHEN window_start <= ?2 - ?3 THEN ?2 ELSE window_start END \
         RETURNING window_start, count",
    )
    .bind(bucket)
    .bind(ms(at))
    .bind(window.as_millis() as i64)
    .fetch_one(&s.write)
    .await
    .map_err(db_err)?;
    Ok(RateWindow {
        started_at: ts(r.get(0)),
        count: r.get::<i64, _>(1) as u64,
    })
}
