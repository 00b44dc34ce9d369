//! Memories: first versions, new versions, forgetting, listing, and what
//! the memory search index reads. Every statement filters by `org_id`.

use crate::rows::ts;
use crate::{db_err, ms, placeholders, SqliteStore};
use engram_store::{
    embedding_from_bytes, embedding_to_bytes, now, ForgetOutcome, Memory, MemoryEntity,
    MemoryListQuery, MemorySource, MemoryUpdate, NewMemory, RelationKind, StoreError, StoreResult,
};
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Row, Sqlite, Transaction};

type Tx = Transaction<'static, Sqlite>;

/// The columns [`memory`] reads (over `memories m`).
const COLUMNS: &str = "m.id, m.org_id, m.container_tag, m.content, m.embedding, m.is_static, \
     m.is_inference, m.is_latest, m.is_forgotten, m.forget_after, m.forget_reason, m.version, \
     m.parent_id, m.root_id, m.source_count, m.metadata, m.document_date, m.event_dates, \
     m.entities, m.created_at, m.updated_at, m.source_text, \
     (SELECT group_concat(document_id, char(31)) FROM (SELECT document_id FROM memory_sources s \
       WHERE s.memory_id = m.id ORDER BY document_id)) AS sources, \
     (SELECT group_concat(related_id || char(30) || kind, char(31)) FROM (SELECT related_id, kind \
       FROM memory_relations r WHERE r.memory_id = m.id ORDER BY related_id)) AS relations";

fn json<T: serde::de::DeserializeOwned>(col: &str, raw: &str) -> StoreResult<T> {
    serde_json::from_str(raw).map_err(|e| StoreError::Incompatible(format!("column {col}: {e}")))
}

fn memory(r: &SqliteRow) -> StoreResult<Memory> {
    let split = |col: &str| -> Vec<String> {
        r.get::<Option<String>, _>(col)
            .map(|s| s.split('\u{1f}').map(str::to_string).collect())
            .unwrap_or_default()
    };
    let relations = split("relations")
        .into_iter()
        .map(|x| {
            let (id, kind) = x.split_once('\u{1e}').unwrap_or((&x, ""));
            Ok((
                id.to_string(),
                kind.parse::<RelationKind>()
                    .map_err(StoreError::Incompatible)?,
            ))
        })
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(Memory {
        id: r.get("id"),
        org_id: r.get("org_id"),
        container_tag: r.get("container_tag"),
        content: r.get("content"),
        embedding: embedding_from_bytes(r.get::<&[u8], _>("embedding")),
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
        document_ids: split("sources"),
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
    db: impl sqlx::SqliteExecutor<'_>,
    org_id: &str,
    id: &str,
) -> StoreResult<Option<Memory>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = ? AND m.id = ?"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(db)
    .await
    .map_err(db_err)?;
    r.as_ref().map(memory).transpose()
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
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
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(&m.org_id)
    .bind(&m.container_tag)
    .bind(&m.content)
    .bind(embedding_to_bytes(&m.embedding))
    .bind(m.is_static)
    .bind(m.is_inference)
    .bind(m.forget_after.map(ms))
    .bind(&m.forget_reason)
    .bind(version)
    .bind(parent)
    .bind(root)
    .bind(source_count)
    .bind(to_json(&serde_json::Value::Object(m.metadata.clone())))
    .bind(&m.document_date)
    .bind(to_json(&m.event_dates))
    .bind(to_json(&m.entities))
    .bind(t)
    .bind(t)
    .bind(m.source.as_ref().map(|s| s.text.as_str()))
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    for d in &m.document_ids {
        // only documents of this organisation can be sources
        sqlx::query(
            "INSERT OR IGNORE INTO memory_sources (memory_id, document_id) \
             SELECT ?, id FROM documents WHERE id = ? AND org_id = ?",
        )
        .bind(id)
        .bind(d)
        .bind(&m.org_id)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

pub async fn insert(s: &SqliteStore, memories: Vec<NewMemory>) -> StoreResult<Vec<Memory>> {
    let mut tx = s.begin_write().await?;
    let t = ms(now());
    let mut made = Vec::with_capacity(memories.len());
    for m in &memories {
        // formed from documents deleted since: it would outlive them
        if !m.document_ids.is_empty() && !any_document(&mut tx, &m.document_ids).await? {
            continue;
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

/// Whether any of `ids` is a document (of any organisation).
async fn any_document(tx: &mut Tx, ids: &[String]) -> StoreResult<bool> {
    for id in ids {
        let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM documents WHERE id = ?")
            .bind(id)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db_err)?;
        if found.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

pub async fn get(s: &SqliteStore, org_id: &str, id: &str) -> StoreResult<Option<Memory>> {
    fetch(&s.read, org_id, id).await
}

pub async fn find(
    s: &SqliteStore,
    org_id: &str,
    tag: &str,
    content: &str,
) -> StoreResult<Option<Memory>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = ? AND m.container_tag = ? \
         AND m.content = ? AND m.is_latest = 1 AND m.is_forgotten = 0 \
         ORDER BY m.created_at DESC LIMIT 1"
    )))
    .bind(org_id)
    .bind(tag)
    .bind(content)
    .fetch_optional(&s.read)
    .await
    .map_err(db_err)?;
    r.as_ref().map(memory).transpose()
}

pub async fn update(
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    u: MemoryUpdate,
) -> StoreResult<Option<Memory>> {
    let mut tx = s.begin_write().await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(None);
    };
    let new = u.next_version(&old)?;
    let t = ms(now());
    let new_id = engram_core::ids::new_id();
    let root = old.root_id.clone().unwrap_or_else(|| old.id.clone());
    sqlx::query("UPDATE memories SET is_latest = 0, updated_at = ? WHERE id = ?")
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
        "INSERT INTO memory_relations (memory_id, related_id, kind) VALUES (?, ?, 'updates')",
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
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    reason: Option<&str>,
) -> StoreResult<ForgetOutcome> {
    let mut tx = s.begin_write().await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(ForgetOutcome::NotFound);
    };
    if old.is_forgotten {
        return Ok(ForgetOutcome::AlreadyForgotten);
    }
    sqlx::query(
        "UPDATE memories SET is_forgotten = 1, forget_reason = COALESCE(?, forget_reason), \
         updated_at = ? WHERE id = ?",
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
    s: &SqliteStore,
    org_id: &str,
    q: &MemoryListQuery,
) -> StoreResult<(Vec<Memory>, u64)> {
    let mut conds = vec!["m.org_id = ?".to_string()];
    if !q.container_tags.is_empty() {
        conds.push(format!(
            "m.container_tag IN ({})",
            placeholders(q.container_tags.len())
        ));
    }
    if !q.include_history {
        conds.push("m.is_latest = 1".into());
    }
    if !q.include_forgotten {
        conds.push("m.is_forgotten = 0 AND (m.forget_after IS NULL OR m.forget_after > ?)".into());
    }
    if q.content.is_some() {
        conds.push("m.content = ?".into());
    }
    if q.document_id.is_some() {
        conds.push(
            "EXISTS (SELECT 1 FROM memory_sources s WHERE s.memory_id = m.id AND s.document_id = ?)"
                .into(),
        );
    }
    let where_ = conds.join(" AND ");
    let bind_all = |sql: String| {
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(org_id.to_string());
        for t in &q.container_tags {
            query = query.bind(t.clone());
        }
        if !q.include_forgotten {
            query = query.bind(ms(now()));
        }
        if let Some(c) = &q.content {
            query = query.bind(c.clone());
        }
        if let Some(d) = &q.document_id {
            query = query.bind(d.clone());
        }
        query
    };
    let total: i64 = bind_all(format!("SELECT COUNT(*) FROM memories m WHERE {where_}"))
        .fetch_one(&s.read)
        .await
        .map_err(db_err)?
        .get(0);
    let rows = bind_all(format!(
        "SELECT {COLUMNS} FROM memories m WHERE {where_} \
         ORDER BY {order} LIMIT ? OFFSET ?",
        order = engram_store::memory_order_by(q)
    ))
    .bind(q.limit.min(i64::MAX as u64) as i64)
    .bind(q.offset.min(i64::MAX as u64) as i64)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    let memories = rows.iter().map(memory).collect::<StoreResult<Vec<_>>>()?;
    Ok((memories, total as u64))
}

pub async fn by_ids(s: &SqliteStore, org_id: &str, ids: &[String]) -> StoreResult<Vec<Memory>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE +m.org_id = ? AND m.id IN ({})",
        placeholders(ids.len())
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(&s.read).await.map_err(db_err)?;
    rows.iter().map(memory).collect()
}

pub async fn add_source(
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    document_id: Option<&str>,
) -> StoreResult<Option<Memory>> {
    let mut tx = s.begin_write().await?;
    let Some(old) = fetch(&mut *tx, org_id, id).await? else {
        return Ok(None);
    };
    if let Some(d) = document_id {
        if old.document_ids.iter().any(|x| x == d) {
            return Ok(Some(old));
        }
        sqlx::query(
            "INSERT OR IGNORE INTO memory_sources (memory_id, document_id) \
             SELECT ?, id FROM documents WHERE id = ? AND org_id = ?",
        )
        .bind(id)
        .bind(d)
        .bind(org_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    sqlx::query("UPDATE memories SET source_count = source_count + 1, updated_at = ? WHERE id = ?")
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
    s: &SqliteStore,
    org_id: &str,
    from: &str,
    to: &str,
    kind: RelationKind,
) -> StoreResult<bool> {
    let mut tx = s.begin_write().await?;
    let n = sqlx::query(
        "INSERT OR IGNORE INTO memory_relations (memory_id, related_id, kind) \
         SELECT a.id, b.id, ? FROM memories a, memories b \
         WHERE a.org_id = ? AND a.id = ? AND b.org_id = ? AND b.id = ?",
    )
    .bind(kind.as_str())
    .bind(org_id)
    .bind(from)
    .bind(org_id)
    .bind(to)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?
    .rows_affected();
    let exists: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM memory_relations r JOIN memories a ON a.id = r.memory_id \
         WHERE a.org_id = ? AND r.memory_id = ? AND r.related_id = ?)",
    )
    .bind(org_id)
    .bind(from)
    .bind(to)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    if n > 0 {
        // the relation shows in the memory as read: the change log learns of it
        sqlx::query("UPDATE memories SET updated_at = ? WHERE id = ?")
            .bind(ms(now()))
            .bind(from)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(exists)
}

pub async fn expire(s: &SqliteStore, at: engram_store::Timestamp) -> StoreResult<u64> {
    let mut tx = s.begin_write().await?;
    let n = sqlx::query(
        "UPDATE memories SET is_forgotten = 1, forget_reason = COALESCE(forget_reason, 'expired'), \
         updated_at = ? WHERE is_forgotten = 0 AND forget_after IS NOT NULL AND forget_after <= ?",
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

pub async fn relating_to(s: &SqliteStore, org_id: &str, id: &str) -> StoreResult<Vec<Memory>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.org_id = ? AND m.id IN \
         (SELECT memory_id FROM memory_relations WHERE related_id = ?) \
         ORDER BY m.created_at, m.id"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    rows.iter().map(memory).collect()
}
