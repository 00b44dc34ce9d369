//! Request logs, their aggregates, and rate-limit windows.

use crate::rows::ts;
use crate::{db_err, ms, SqliteStore};
use engram_store::{
    log_count_sql, log_filter_sql, request_groups_sql, rollup, whole_hours, GroupBy, LogQuery,
    RateWindow, RequestGroup, RequestLog, StoreResult, Timestamp,
};
use sqlx::{AssertSqlSafe, Row};
use std::time::Duration;

pub async fn record(s: &SqliteStore, logs: &[RequestLog]) -> StoreResult<()> {
    if logs.is_empty() {
        return Ok(());
    }
    let mut tx = s.begin_write().await?;
    // many rows a statement; the ids that come back are the new ones
    let mut inserted = std::collections::HashSet::new();
    for chunk in logs.chunks(90) {
        let mut qb = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT OR IGNORE INTO request_logs (id, org_id, key_id, kind, status_code, error_type, \
             duration_ms, input, output, created_at) ",
        );
        qb.push_values(chunk, |mut b, l| {
            b.push_bind(l.id.clone())
                .push_bind(l.org_id.clone())
                .push_bind(l.key_id.clone())
                .push_bind(l.kind.clone())
                .push_bind(l.status_code as i64)
                .push_bind(l.error_type.clone())
                .push_bind(l.duration_ms)
                .push_bind(l.input.to_string())
                .push_bind(l.output.to_string())
                .push_bind(ms(l.created_at));
        });
        qb.push(" RETURNING id");
        let ids: Vec<String> = qb
            .build_query_scalar()
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
        inserted.extend(ids);
    }
    let fresh = logs.iter().filter(|l| inserted.contains(&l.id));
    for (org, g) in rollup(fresh) {
        sqlx::query(
            "INSERT INTO request_rollups (org_id, hour, kind, key_id, status_code, error_type, \
             count, total_ms, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (org_id, hour, kind, key_id, status_code, error_type) DO UPDATE SET \
             count = count + excluded.count, total_ms = total_ms + excluded.total_ms, \
             last_at = MAX(last_at, excluded.last_at)",
        )
        .bind(org)
        .bind(ms(g.hour))
        .bind(g.kind)
        .bind(g.key_id)
        .bind(g.status_code as i64)
        .bind(g.error_type)
        .bind(g.count as i64)
        .bind(g.total_ms)
        .bind(ms(g.last))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)
}

pub async fn purge(s: &SqliteStore, before: Timestamp) -> StoreResult<u64> {
    let mut tx = s.begin_write().await?;
    let r = sqlx::query("DELETE FROM request_logs WHERE created_at < ?")
        .bind(ms(before))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    // hours wholly before the cutoff
    sqlx::query("DELETE FROM request_rollups WHERE hour + 3600000 <= ?")
        .bind(ms(before))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(r.rows_affected())
}

fn group_row(r: sqlx::sqlite::SqliteRow) -> RequestGroup {
    RequestGroup {
        hour: ts(r.get(0)),
        kind: r.get(1),
        key_id: r.get(2),
        status_code: r.get::<i64, _>(3) as u16,
        error_type: r.get(4),
        count: r.get::<i64, _>(5) as u64,
        total_ms: r.get(6),
        last: ts(r.get(7)),
    }
}

pub async fn groups(
    s: &SqliteStore,
    org: &str,
    from: Timestamp,
    to: Timestamp,
    by: GroupBy,
) -> StoreResult<Vec<RequestGroup>> {
    let (first, last) = whole_hours(from, to);
    let rows = sqlx::query(AssertSqlSafe(request_groups_sql(by, '?')))
        .bind(org)
        .bind(first)
        .bind(last)
        .bind(ms(from))
        .bind(ms(to))
        .fetch_all(&s.read)
        .await
        .map_err(db_err)?;
    Ok(rows.into_iter().map(group_row).collect())
}

pub async fn list(s: &SqliteStore, org: &str, q: &LogQuery) -> StoreResult<(Vec<RequestLog>, u64)> {
    let (filter, n) = log_filter_sql(q, '?');
    // the organisation, then `times`, then the filters that are set
    let bind = |sql: String, times: &[i64]| {
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(org.to_string());
        for t in times {
            query = query.bind(*t);
        }
        if let Some(k) = &q.kind {
            query = query.bind(k.clone());
        }
        if let Some(c) = q.status_code {
            query = query.bind(i64::from(c));
        }
        if let Some(k) = &q.key_id {
            query = query.bind(k.clone());
        }
        query
    };
    let (from, to) = (ms(q.from), ms(q.to));
    let (first, last) = whole_hours(q.from, q.to);
    let total: i64 = bind(log_count_sql(q, '?'), &[first, last, from, to])
        .fetch_one(&s.read)
        .await
        .map_err(db_err)?
        .get(0);
    let rows = bind(
        format!(
            "SELECT * FROM request_logs {filter} ORDER BY created_at DESC, id DESC LIMIT ?{} OFFSET ?{}",
            n,
            n + 1
        ),
        &[from, to],
    )
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
