//! Organisations, API keys and the recorded embedding model.

use crate::rows::ts;
use crate::{db_err, ms, PgStore};
use engram_store::{now, ApiKeyRecord, ModelInfo, Org, StoreResult};
use sqlx::postgres::PgRow;
use sqlx::Row;

fn org_row(r: PgRow) -> Org {
    Org {
        id: r.get(0),
        name: r.get(1),
        created_at: ts(r.get(2)),
    }
}

pub async fn ensure_org(s: &PgStore, name: &str) -> StoreResult<Org> {
    // two replicas may create the same organisation at once: one insert wins
    sqlx::query(
        "INSERT INTO orgs (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
    )
    .bind(engram_core::ids::new_id())
    .bind(name)
    .bind(ms(now()))
    .execute(&s.pool)
    .await
    .map_err(db_err)?;
    let r = sqlx::query("SELECT id, name, created_at FROM orgs WHERE name = $1")
        .bind(name)
        .fetch_one(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(org_row(r))
}

pub async fn list_orgs(s: &PgStore) -> StoreResult<Vec<Org>> {
    let rows = sqlx::query("SELECT id, name, created_at FROM orgs ORDER BY created_at, id")
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(rows.into_iter().map(org_row).collect())
}

pub async fn insert_api_key(s: &PgStore, k: &ApiKeyRecord) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO api_keys (id, org_id, name, secret_hash, created_at, revoked_at, container_tag, expires_at, rate_limit) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&k.id)
    .bind(&k.org_id)
    .bind(&k.name)
    .bind(&k.secret_hash)
    .bind(ms(k.created_at))
    .bind(k.revoked_at.map(ms))
    .bind(&k.container_tag)
    .bind(k.expires_at.map(ms))
    .bind(k.rate_limit.map(|n| n.min(i32::MAX as u32) as i32))
    .execute(&s.pool)
    .await
    .map_err(db_err)?;
    Ok(())
}

fn key_row(r: PgRow) -> ApiKeyRecord {
    ApiKeyRecord {
        id: r.get("id"),
        org_id: r.get("org_id"),
        name: r.get("name"),
        secret_hash: r.get("secret_hash"),
        created_at: ts(r.get("created_at")),
        revoked_at: r.get::<Option<i64>, _>("revoked_at").map(ts),
        container_tag: r.get("container_tag"),
        expires_at: r.get::<Option<i64>, _>("expires_at").map(ts),
        rate_limit: r
            .get::<Option<i32>, _>("rate_limit")
            .map(|n| n.max(0) as u32),
    }
}

pub async fn get_api_key(s: &PgStore, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
    let r = sqlx::query("SELECT * FROM api_keys WHERE id = $1")
        .bind(id)
        .fetch_optional(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(r.map(key_row))
}

pub async fn list_api_keys(s: &PgStore, org_id: Option<&str>) -> StoreResult<Vec<ApiKeyRecord>> {
    let rows = sqlx::query(
        "SELECT * FROM api_keys WHERE ($1::text IS NULL OR org_id = $1) ORDER BY created_at, id",
    )
    .bind(org_id)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(key_row).collect())
}

pub async fn revoke_api_key(s: &PgStore, id: &str) -> StoreResult<bool> {
    let r = sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(ms(now()))
        .bind(id)
        .execute(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(r.rows_affected() > 0)
}

pub async fn rename_api_key(s: &PgStore, id: &str, name: &str) -> StoreResult<bool> {
    let r = sqlx::query("UPDATE api_keys SET name = $1 WHERE id = $2")
        .bind(name)
        .bind(id)
        .execute(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(r.rows_affected() > 0)
}

pub async fn get_org(s: &PgStore, id: &str) -> StoreResult<Option<Org>> {
    let r = sqlx::query("SELECT id, name, created_at FROM orgs WHERE id = $1")
        .bind(id)
        .fetch_optional(&s.pool)
        .await
        .map_err(db_err)?;
    Ok(r.map(|r| Org {
        id: r.get(0),
        name: r.get(1),
        created_at: ts(r.get(2)),
    }))
}

pub async fn embedding_model(s: &PgStore) -> StoreResult<Option<ModelInfo>> {
    let v: Option<String> =
        sqlx::query_scalar("SELECT value FROM meta WHERE key = 'embedding_model'")
            .fetch_optional(&s.pool)
            .await
            .map_err(db_err)?;
    v.as_deref().map(ModelInfo::from_record).transpose()
}

pub async fn record_embedding_model(s: &PgStore, m: &ModelInfo) -> StoreResult<ModelInfo> {
    sqlx::query(
        "INSERT INTO meta (key, value) VALUES ('embedding_model', $1) ON CONFLICT (key) DO NOTHING",
    )
    .bind(m.to_record())
    .execute(&s.pool)
    .await
    .map_err(db_err)?;
    let v: String = sqlx::query_scalar("SELECT value FROM meta WHERE key = 'embedding_model'")
        .fetch_one(&s.pool)
        .await
        .map_err(db_err)?;
    ModelInfo::from_record(&v)
}
