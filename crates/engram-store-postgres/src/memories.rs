//! Memories: first versions, new versions, forgetting, listing, and what
//! the memory search index reads. Every statement filters by `org_id`;
//! every writing transaction locks its organisation first.

use crate::rows::{ts, Bind, Binds};
use crate::{db_err, ms, PgStore, Tx};
use engram_store::{
    now, ForgetOutcome, Memory, MemoryEntity, MemoryListQuery, MemorySource, MemoryUpdate,
    NewMemory, RelationKind, StoreError, StoreResult,
};
use sqlx::postgres::PgRow;
use sqlx::{AssertSqlSafe, Row};

/// The columns [`memory`] reads (over `memories m`).
const COLUMNS: &str = "m.id, m.org_id, m.container_tag, m.content, m.embedding::real[] AS embedding, \
     m.is_static, m.is_inference, m.is_latest, m.is_forgotten, m.forget_after, m.forget_reason, \
     m.version, m.parent_id, m.root_id, m.source_count, m.metadata, m.document_date, m.event_dates, \
     m.entities, m.created_at, m.updated_at, m.source_text, \
     COALESCE((SELECT array_agg(document_id ORDER BY document_id) FROM memory_sources s \
       WHERE s.memory_id = m.id), '{}') AS sources, \
     COALESCE((SELECT array_agg(related_id ORDER BY related_id) FROM memory_relations r \
       WHERE r.memory_id = m.id), '{}') AS related, \
     COALESCE((SELECT array_agg(kind ORDER BY related_id) FROM memory_relations r \
       WHERE r.memory_id = m.id), '{}') AS kinds";

fn json<T: serde::de::DeserializeOwned>(col: &str, v: serde_json::Value) -> StoreResult<T> {
    serde_json::from_value(v).map_err(|e| StoreError::Incompatible(format!("column {col}: {e}")))
}

fn memory(r: &PgRow) -> StoreResult<Memory> {
    let related: Vec<String> = r.get("related");
    let kinds: Vec<String> = r.get("kinds");
    let relations = related
        .into_iter()
        .zip(kinds)
        .map(|(id, k)| {
            Ok((
                id,
                k.parse::<RelationKind>()
                    .map_err(StoreError::Incompatible)?,
            ))
        })
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(Memory {
        id: r.get("id"),
        org_id: r.get("org_id"),
        container_tag: r.get("container_tag"),
        content: r.get("content"),
        embedding: r.get("embedding"),
        is_static: r.get("is_static"),
        is_inference: r.get("is_inference"),
        is_latest: r.get("is_latest"),
        is_forgotten: r.get("is_forgotten"),
        forget_after: r.get::<Option<i64>, _>("forget_after").map(ts),
        forget_reason: r.get("forget_reason"),
        version: r.get("version"),
        parent_id: r.get("parent_id"),
        root_id: r.get("root_id"),
        source_count: r.get("source_count"),
        document_ids: r.get("sources"),
        metadata: json("metadata", r.get("metadata"))?,
        document_date: r.get("document_date"),
        event_dates: json("event_dates", r.get("event_dates"))?,
        entities: json::<Vec<MemoryEntity>>("entities", r.get("entities"))?,
        relations,
        source: r
            .get::<Option<String>, _>("source_text")
            .map(|text| MemorySource { text }),
        created_at: ts(r.get("created_at")),
        updated_at: ts(r.get("updated_at")),
    })
}

/// A memory by id, in a transaction or straight from the pool.
async fn fetch(
    db: impl sqlx::PgExecutor<'_>,
    org_id: &str,
    id: &str,
) -> StoreResult<Option<Memory>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = $1 AND m.id = $2"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(db)
    .await
    .map_err(db_err)?;
    r.as_ref().map(memory).transpose()
}

fn to_json<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

#[allow(clippy::too_many_arguments)]
async fn insert_row(
    tx: &mut Tx,
    id: &str,
    m: &NewMemory,
    version: i64,
    parent: Option<&str>,
    root: Option<&str>,
    source_count: i64,
    t: i64,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO memories (id, org_id, container_tag, content, embedding, is_static, is_inference, \
         forget_after, forget_reason, version, parent_id, root_id, source_count, metadata, document_date, \
         event_dates, entities, created_at, updated_at, source_text) \
         VALUES ($1, $2, $3, $4, $5::real[]::vector, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
           $17, $18, $18, $19)",
    )
    .bind(id)
    .bind(&m.org_id)
    .bind(&m.container_tag)
    .bind(&m.content)
    .bind(&m.embedding)
    .bind(m.is_static)
    .bind(m.is_inference)
    .bind(m.forget_after.map(ms))
    .bind(&m.forget_reason)
    .bind(version)
    .bind(parent)
    .bind(root)
    .bind(source_count)
    .bind(serde_json::Value::Object(m.metadata.clone()))
    .bind(&m.document_date)
    .bind(to_json(&m.event_dates))
    .bind(to_json(&m.entities))
    .bind(t)
    .bind(m.source.as_ref().map(|s| s.text.as_str()))
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    if !m.document_ids.is_empty() {
        // only documents of this organisation can be sources
        sqlx::query(
            "INSERT INTO memory_sources (memory_id, document_id) \
             SELECT $1, id FROM documents WHERE id = ANY($2) AND org_id = $3 ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(&m.document_ids)
        .bind(&m.org_id)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

pub async fn insert(s: &PgStore, memories: Vec<NewMemory>) -> StoreResult<Vec<Memory>> {
    let mut tx = s.begin().await?;
    let orgs: Vec<&str> = memories.iter().map(|m| m.org_id.as_str()).collect();
    PgStore::lock_orgs(&mut tx, &orgs).await?;
    let t = ms(now());
    let mut made = Vec::with_capacity(memories.len());
    for m in &memories {
        // formed from documents deleted since: it would outlive them
        if !m.document_ids.is_empty() {
            let any: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM documents WHERE id = ANY($1))")
                    .bind(&m.document_ids)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
            if !any {
                continue;
            }
        }
        let id = engram_core::ids::new_id();
        insert_row(&mut tx, &id, m, 1, None, None, 1, t).await?;
        made.push((m, id));
    }
    let mut out = Vec::with_capacity(made.len());
    for (m, id) in made {
        let id = &id;
        out.push(
            fetch(&mut *tx, &m.org_id, id)
                .await?
                .ok_or_else(|| StoreError::Backend("inserted memory vanished".into()))?,
        );
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
}

pub async fn get(s: &PgStore, org_id: &str, id: &str) -> StoreResult<Option<Memory>> {
    fetch(&s.pool, org_id, id).await
}

pub async fn find(
    s: &PgStore,
    org_id: &str,
    tag: &str,
    content: &str,
) -> StoreResult<Option<Memory>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = $1 AND m.container_tag = $2 \
         AND m.content = $3 AND m.is_latest AND NOT m.is_forgotten \
         ORDER BY m.created_at DESC LIMIT 1"
    )))
    .bind(org_id)
    .bind(tag)
    .bind(content)
    .fetch_optional(&s.pool)
    .await
    .map_err(db_err)?;
    r.as_ref().map(memory).transpose()
}

pub async fn update(
    s: &PgStore,
    org_id: &str,
    id: &str,
    u: MemoryUpdate,
) -> StoreResult<Option<Memory>> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(None);
    };
    let new = u.next_version(&old)?;
    let t = ms(now());
    let new_id = engram_core::ids::new_id();
    let root = old.root_id.clone().unwrap_or_else(|| old.id.clone());
    sqlx::query("UPDATE memories SET is_latest = false, updated_at = $1 WHERE id = $2")
        .bind(t)
        .bind(&old.id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    insert_row(
        &mut tx,
        &new_id,
        &new,
        old.version + 1,
        Some(&old.id),
        Some(&root),
        old.source_count,
        t,
    )
    .await?;
    sqlx::query(
        "INSERT INTO memory_relations (memory_id, related_id, kind) VALUES ($1, $2, 'updates')",
    )
    .bind(&new_id)
    .bind(&old.id)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let m = fetch(&mut *tx, org_id, &new_id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(m)
}

pub async fn forget(
    s: &PgStore,
    org_id: &str,
    id: &str,
    reason: Option<&str>,
) -> StoreResult<ForgetOutcome> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(ForgetOutcome::NotFound);
    };
    if old.is_forgotten {
        return Ok(ForgetOutcome::AlreadyForgotten);
    }
    sqlx::query(
        "UPDATE memories SET is_forgotten = true, forget_reason = COALESCE($1, forget_reason), \
         updated_at = $2 WHERE id = $3",
    )
    .bind(reason)
    .bind(ms(now()))
    .bind(id)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let m = fetch(&mut *tx, org_id, id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(m.map_or(ForgetOutcome::NotFound, |m| {
        ForgetOutcome::Forgotten(Box::new(m))
    }))
}

pub async fn list(
    s: &PgStore,
    org_id: &str,
    q: &MemoryListQuery,
) -> StoreResult<(Vec<Memory>, u64)> {
    let mut binds = Binds::default();
    let mut conds = vec![format!("m.org_id = {}", binds.text(org_id))];
    if !q.container_tags.is_empty() {
        let tags = binds.arg(Bind::Texts(q.container_tags.clone()));
        conds.push(format!("m.container_tag = ANY({tags})"));
    }
    if !q.include_history {
        conds.push("m.is_latest".into());
    }
    if !q.include_forgotten {
        let t = binds.arg(Bind::Int(ms(now())));
        conds.push(format!(
            "NOT m.is_forgotten AND (m.forget_after IS NULL OR m.forget_after > {t})"
        ));
    }
    if let Some(c) = &q.content {
        let c = binds.text(c);
        conds.push(format!("m.content = {c}"));
    }
    if let Some(d) = &q.document_id {
        let d = binds.text(d);
        conds.push(format!(
            "EXISTS (SELECT 1 FROM memory_sources s WHERE s.memory_id = m.id AND s.document_id = {d})"
        ));
    }
    let where_ = conds.join(" AND ");
    let count = sqlx::query_scalar::<_, i64>(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM memories m WHERE {where_}"
    )));
    let total = binds
        .apply_scalar(count)
        .fetch_one(&s.pool)
        .await
        .map_err(db_err)?;
    let limit = binds.arg(Bind::Int(q.limit.min(i64::MAX as u64) as i64));
    let offset = binds.arg(Bind::Int(q.offset.min(i64::MAX as u64) as i64));
    let rows = binds
        .apply(sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM memories m WHERE {where_} \
             ORDER BY {order} LIMIT {limit} OFFSET {offset}",
            order = engram_store::memory_order_by(q)
        ))))
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    let memories = rows.iter().map(memory).collect::<StoreResult<Vec<_>>>()?;
    Ok((memories, total as u64))
}

pub async fn by_ids(s: &PgStore, org_id: &str, ids: &[String]) -> StoreResult<Vec<Memory>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = $1 AND m.id = ANY($2)"
    )))
    .bind(org_id)
    .bind(ids)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(memory).collect()
}

pub async fn add_source(
    s: &PgStore,
    org_id: &str,
    id: &str,
    document_id: Option<&str>,
) -> StoreResult<Option<Memory>> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(None);
    };
    if let Some(d) = document_id {
        if old.document_ids.iter().any(|x| x == d) {
            return Ok(Some(old));
        }
        sqlx::query(
            "INSERT INTO memory_sources (memory_id, document_id) \
             SELECT $1, id FROM documents WHERE id = $2 AND org_id = $3 ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(d)
        .bind(org_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    sqlx::query(
        "UPDATE memories SET source_count = source_count + 1, updated_at = $1 WHERE id = $2",
    )
    .bind(ms(now()))
    .bind(id)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let m = fetch(&mut *tx, org_id, id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(m)
}

pub async fn relate(
    s: &PgStore,
    org_id: &str,
    from: &str,
    to: &str,
    kind: RelationKind,
) -> StoreResult<bool> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let n = sqlx::query(
        "INSERT INTO memory_relations (memory_id, related_id, kind) \
         SELECT a.id, b.id, $1 FROM memories a, memories b \
         WHERE a.org_id = $2 AND a.id = $3 AND b.org_id = $2 AND b.id = $4 \
         ON CONFLICT DO NOTHING",
    )
    .bind(kind.as_str())
    .bind(org_id)
    .bind(from)
    .bind(to)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?
    .rows_affected();
    let exists: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM memory_relations r JOIN memories a ON a.id = r.memory_id \
         WHERE a.org_id = $1 AND r.memory_id = $2 AND r.related_id = $3)",
    )
    .bind(org_id)
    .bind(from)
    .bind(to)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    if n > 0 {
        // the relation shows in the memory as read: the change log learns of it
        sqlx::query("UPDATE memories SET updated_at = $1 WHERE id = $2")
            .bind(ms(now()))
            .bind(from)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(exists)
}

pub async fn expire(s: &PgStore, at: engram_store::Timestamp) -> StoreResult<u64> {
    let mut tx = s.begin().await?;
    let orgs: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT org_id FROM memories \
         WHERE NOT is_forgotten AND forget_after IS NOT NULL AND forget_after <= $1",
    )
    .bind(ms(at))
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    if orgs.is_empty() {
        return Ok(0);
    }
    let refs: Vec<&str> = orgs.iter().map(String::as_str).collect();
    PgStore::lock_orgs(&mut tx, &refs).await?;
    let n = sqlx::query(
        "UPDATE memories SET is_forgotten = true, \
         forget_reason = COALESCE(forget_reason, 'expired'), updated_at = $1 \
         WHERE NOT is_forgotten AND forget_after IS NOT NULL AND forget_after <= $2",
    )
    .bind(ms(now()))
    .bind(ms(at))
    .execute(&mut *tx)
    .await
    .map_err(db_err)?
    .rows_affected();
    tx.commit().await.map_err(db_err)?;
    Ok(n)
}

pub async fn relating_to(s: &PgStore, org_id: &str, id: &str) -> StoreResult<Vec<Memory>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = $1 AND m.id IN \
         (SELECT memory_id FROM memory_relations WHERE related_id = $2) \
         ORDER BY m.created_at, m.id"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(memory).collect()
}
