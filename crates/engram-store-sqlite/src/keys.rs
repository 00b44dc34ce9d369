//! Organisations, API keys and the recorded embedding model.

use crate::rows::ts;
use crate::{db_err, ms, SqliteStore};
use engram_store::{now, ApiKeyRecord, ModelInfo, Org, StoreResult};
use sqlx::Row;

pub async fn ensure_org(s: &SqliteStore, name: &str) -> StoreResult<Org> {
    let mut tx = s.begin_write().await?;
    if let Some(r) = sqlx::query("SELECT id, name, created_at FROM orgs WHERE name = ?")
        .bind(name)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db_err)?
    {
        return Ok(Org {
            id: r.get(0),
            name: r.get(1),
            created_at: ts(r.get(2)),
        });
    }
    let org = Org {
        id: engram_core::ids::new_id(),
        name: name.to_string(),
        created_at: now(),
    };
    sqlx::query("INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)")
        .bind(&org.id)
        .bind(&org.name)
        .bind(ms(org.created_at))
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(org)
}

pub async fn list_orgs(s: &SqliteStore) -> StoreResult<Vec<Org>> {
    let rows = sqlx::query("SELECT id, name, created_at FROM orgs ORDER BY created_at, id")
        .fetch_all(&s.read)
        .await
        .map_err(db_err)?;
    Ok(rows
        .into_iter()
        .map(|r| Org {
            id: r.get(0),
            name: r.get(1),
            created_at: ts(r.get(2)),
        })
        .collect())
}

pub async fn insert_api_key(s: &SqliteStore, k: &ApiKeyRecord) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO api_keys (id, org_id, name, secret_hash, created_at, revoked_at, container_tag, expires_at, rate_limit) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&k.id)
    .bind(&k.org_id)
    .bind(&k.name)
    .bind(&k.secret_hash)
    .bind(ms(k.created_at))
    .bind(k.revoked_at.map(ms))
    .bind(&k.container_tag)
    .bind(k.expires_at.map(ms))
    .bind(k.rate_limit.map(|n| n as i64))
    .execute(&s.write)
    .await
    .map_err(db_err)?;
    Ok(())
}

fn key_row(r: sqlx::sqlite::SqliteRow) -> ApiKeyRecord {
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
            .get::<Option<i64>, _>("rate_limit")
            .map(|n| n.clamp(0, u32::MAX as i64) as u32),
    }
}

pub async fn get_api_key(s: &SqliteStore, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
    let r = sqlx::query("SELECT * FROM api_keys WHERE id = ?")
        .bind(id)
        .fetch_optional(&s.read)
        .await
        .map_err(db_err)?;
    Ok(r.map(key_row))
}

pub async fn list_api_keys(
    s: &SqliteStore,
    org_id: Option<&str>,
) -> StoreResult<Vec<ApiKeyRecord>> {
    let rows = sqlx::query(
        "SELECT * FROM api_keys WHERE (?1 IS NULL OR org_id = ?1) ORDER BY created_at, id",
    )
    .bind(org_id)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(key_row).collect())
}

pub async fn revoke_api_key(s: &SqliteStore, id: &str) -> StoreResult<bool> {
    let r = sqlx::query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
        .bind(ms(now()))
        .bind(id)
        .execute(&s.write)
        .await
        .map_err(db_err)?;
    Ok(r.rows_affected() > 0)
}

pub async fn rename_api_key(s: &SqliteStore, id: &str, name: &str) -> StoreResult<bool> {
    let r = sqlx::query("UPDATE api_keys SET name = ? WHERE id = ?")
        .bind(name)
        .bind(id)
        .execute(&s.write)
        .await
        .map_err(db_err)?;
    Ok(r.rows_affected() > 0)
}

pub async fn get_org(s: &SqliteStore, id: &str) -> StoreResult<Option<Org>> {
    let r = sqlx::query("SELECT id, name, created_at FROM orgs WHERE id = ?")
        .bind(id)
        .fetch_optional(&s.read)
        .await
        .map_err(db_err)?;
    Ok(r.map(|r| Org {
        id: r.get(0),
        name: r.get(1),
        created_at: ts(r.get(2)),
    }))
}

pub async fn embedding_model(s: &SqliteStore) -> StoreResult<Option<ModelInfo>> {
    let v: Option<String> =
        sqlx::query_scalar("SELECT value FROM meta WHERE key = 'embedding_model'")
            .fetch_optional(&s.read)
            .await
            .map_err(db_err)?;
    v.as_deref().map(ModelInfo::from_record).transpose()
}

pub async fn record_embedding_model(s: &SqliteStore, m: &ModelInfo) -> StoreResult<ModelInfo> {
    let mut tx = s.begin_write().await?;
    sqlx::query("INSERT OR IGNORE INTO meta (key, value) VALUES ('embedding_model', ?)")
        .bind(m.to_record())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let v: String = sqlx::query_scalar("SELECT value FROM meta WHERE key = 'embedding_model'")
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    ModelInfo::from_record(&v)
}
