//! Connections: settings, sealed secrets, sync cursors and sync leases.
//! Every statement but the OAuth-state lookup and the sync claim filters
//! by `org_id`.

use crate::rows::{document, DOC_COLUMNS};
use crate::{db_err, ms, SqliteStore};
use engram_store::{
    from_millis, now, Connection, ConnectionPatch, ConnectionQuery, Document, NewConnection,
    StoreError, StoreResult, Timestamp,
};
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Row};
use std::time::Duration;

const COLUMNS: &str = "id, org_id, provider, container_tags, document_limit, metadata, secrets, \
    status, email, expires_at, redirect_url, oauth_state, config, cursor, last_sync, next_sync_at, \
    lease_owner, lease_expires_at, created_at, updated_at";

fn json<T: serde::de::DeserializeOwned>(col: &str, raw: &str) -> StoreResult<T> {
    serde_json::from_str(raw).map_err(|e| StoreError::Incompatible(format!("column {col}: {e}")))
}

fn row(r: &SqliteRow) -> StoreResult<Connection> {
    let opt_ts = |c: &str| r.get::<Option<i64>, _>(c).map(from_millis);
    Ok(Connection {
        id: r.get("id"),
        org_id: r.get("org_id"),
        provider: r.get("provider"),
        container_tags: json("container_tags", r.get("container_tags"))?,
        document_limit: r.get("document_limit"),
        metadata: json("metadata", r.get("metadata"))?,
        secrets: r.get("secrets"),
        status: engram_store::parse_column("status", r.get("status"))?,
        email: r.get("email"),
        expires_at: opt_ts("expires_at"),
        redirect_url: r.get("redirect_url"),
        oauth_state: r.get("oauth_state"),
        config: json("config", r.get("config"))?,
        cursor: json("cursor", r.get("cursor"))?,
        last_sync: json("last_sync", r.get("last_sync"))?,
        next_sync_at: opt_ts("next_sync_at"),
        lease_owner: r.get("lease_owner"),
        lease_expires_at: opt_ts("lease_expires_at"),
        created_at: from_millis(r.get("created_at")),
        updated_at: from_millis(r.get("updated_at")),
    })
}

pub async fn insert(s: &SqliteStore, c: NewConnection) -> StoreResult<Connection> {
    let id = engram_core::ids::new_id();
    let t = ms(now());
    let mut tx = s.begin_write().await?;
    sqlx::query(
        "INSERT INTO connections (id, org_id, provider, container_tags, document_limit, metadata, \
         secrets, status, expires_at, redirect_url, oauth_state, next_sync_at, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(&c.org_id)
    .bind(&c.provider)
    .bind(serde_json::to_string(&c.container_tags).unwrap_or_default())
    .bind(c.document_limit)
    .bind(serde_json::Value::Object(c.metadata.clone()).to_string())
    .bind(&c.secrets)
    .bind(c.status.as_str())
    .bind(c.expires_at.map(ms))
    .bind(&c.redirect_url)
    .bind(&c.oauth_state)
    .bind(c.next_sync_at.map(ms))
    .bind(t)
    .bind(t)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE id = ?"
    )))
    .bind(&id)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    row(&r)
}

pub async fn get(s: &SqliteStore, org_id: &str, id: &str) -> StoreResult<Option<Connection>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE org_id = ? AND id = ?"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(&s.read)
    .await
    .map_err(db_err)?;
    r.as_ref().map(row).transpose()
}

pub async fn by_id(s: &SqliteStore, id: &str) -> StoreResult<Option<Connection>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE id = ?"
    )))
    .bind(id)
    .fetch_optional(&s.read)
    .await
    .map_err(db_err)?;
    r.as_ref().map(row).transpose()
}

pub async fn by_state(s: &SqliteStore, state: &str) -> StoreResult<Option<Connection>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE oauth_state = ?"
    )))
    .bind(state)
    .fetch_optional(&s.read)
    .await
    .map_err(db_err)?;
    r.as_ref().map(row).transpose()
}

pub async fn list(
    s: &SqliteStore,
    org_id: &str,
    q: &ConnectionQuery,
) -> StoreResult<Vec<Connection>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE org_id = ?1 AND (?2 IS NULL OR provider = ?2) \
         ORDER BY created_at, id"
    )))
    .bind(org_id)
    .bind(&q.provider)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let c = row(r)?;
        if q.matches(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

pub async fn update(
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    p: ConnectionPatch,
) -> StoreResult<Option<Connection>> {
    let mut tx = s.begin_write().await?;
    let Some(r) = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM connections WHERE org_id = ? AND id = ?"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await
    .map_err(db_err)?
    else {
        return Ok(None);
    };
    let c = engram_store::apply_connection_patch(row(&r)?, p);
    sqlx::query(
        "UPDATE connections SET secrets = ?, status = ?, email = ?, expires_at = ?, oauth_state = ?, \
         config = ?, cursor = ?, last_sync = ?, next_sync_at = ?, lease_owner = ?, \
         lease_expires_at = ?, updated_at = ? WHERE id = ?",
    )
    .bind(&c.secrets)
    .bind(c.status.as_str())
    .bind(&c.email)
    .bind(c.expires_at.map(ms))
    .bind(&c.oauth_state)
    .bind(c.config.to_string())
    .bind(c.cursor.to_string())
    .bind(c.last_sync.to_string())
    .bind(c.next_sync_at.map(ms))
    .bind(&c.lease_owner)
    .bind(c.lease_expires_at.map(ms))
    .bind(ms(c.updated_at))
    .bind(id)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(Some(c))
}

pub async fn delete(
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    delete_documents: bool,
) -> StoreResult<bool> {
    let mut tx = s.begin_write().await?;
    let n = sqlx::query("DELETE FROM connections WHERE org_id = ? AND id = ?")
        .bind(org_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?
        .rows_affected();
    if n == 0 {
        return Ok(false);
    }
    if delete_documents {
        let ids: Vec<String> =
            sqlx::query_scalar("SELECT id FROM documents WHERE org_id = ? AND connection_id = ?")
                .bind(org_id)
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?;
        crate::docs::delete_ids(&mut tx, &ids).await?;
    } else {
        sqlx::query(
            "UPDATE documents SET connection_id = NULL WHERE org_id = ? AND connection_id = ?",
        )
        .bind(org_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(true)
}

pub async fn claim(
    s: &SqliteStore,
    worker: &str,
    at: Timestamp,
    lease: Duration,
    max: usize,
) -> StoreResult<Vec<Connection>> {
    let until = ms(at) + lease.as_millis() as i64;
    let mut tx = s.begin_write().await?;
    let ids: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM connections WHERE status = 'active' AND next_sync_at IS NOT NULL \
         AND next_sync_at <= ?1 AND (lease_expires_at IS NULL OR lease_expires_at <= ?1) \
         ORDER BY next_sync_at LIMIT ?2",
    )
    .bind(ms(at))
    .bind(max as i64)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let r = sqlx::query(AssertSqlSafe(format!(
            "UPDATE connections SET lease_owner = ?, lease_expires_at = ? WHERE id = ? RETURNING {COLUMNS}"
        )))
        .bind(worker)
        .bind(until)
        .bind(&id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
        out.push(row(&r)?);
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
}

pub async fn renew(s: &SqliteStore, id: &str, worker: &str, lease: Duration) -> StoreResult<bool> {
    let until = ms(now()) + lease.as_millis() as i64;
    let mut tx = s.begin_write().await?;
    let n =
        sqlx::query("UPDATE connections SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?")
            .bind(until)
            .bind(id)
            .bind(worker)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
    tx.commit().await.map_err(db_err)?;
    Ok(n > 0)
}

pub async fn documents(
    s: &SqliteStore,
    org_id: &str,
    connection_id: &str,
) -> StoreResult<Vec<Document>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE d.org_id = ? AND d.connection_id = ? \
         ORDER BY d.created_at, d.id"
    )))
    .bind(org_id)
    .bind(connection_id)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    rows.iter().map(document).collect()
}
