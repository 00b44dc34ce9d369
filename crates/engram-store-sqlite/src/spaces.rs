//! Spaces (container tags): settings rows, and the tags documents and
//! live memories use, with their counts. A space exists while it has
//! settings or holds something live.

use crate::{db_err, ms, SqliteStore};
use engram_store::{
    buckets_from_json, from_millis, now, MergeStatus, OrgReset, Space, SpaceColumns, SpaceDeleted,
    SpacePatch, SpaceSummary, StoreError, StoreResult, TagMerge,
};
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Row};

/// Every tag of the organisation with its settings and counts; `?2`
/// narrows to one tag when not NULL.
const SPACES: &str = "WITH tags AS ( \
       SELECT tag FROM container_tags WHERE org_id = ?1 \
       UNION SELECT tag FROM document_tags WHERE org_id = ?1 \
       UNION SELECT container_tag FROM memories WHERE org_id = ?1 AND is_latest = 1 AND is_forgotten = 0) \
     SELECT t.tag, c.name, c.entity_context, c.user_name, c.profile_buckets, c.created_at, c.updated_at, \
       (SELECT COUNT(*) FROM document_tags dt WHERE dt.org_id = ?1 AND dt.tag = t.tag) AS docs, \
       (SELECT COUNT(*) FROM memories m WHERE m.org_id = ?1 AND m.container_tag = t.tag \
          AND m.is_latest = 1 AND m.is_forgotten = 0) AS mems, \
       (SELECT MIN(d.created_at) FROM document_tags dt JOIN documents d ON d.id = dt.document_id \
          WHERE dt.org_id = ?1 AND dt.tag = t.tag) AS first_doc, \
       (SELECT MAX(d.updated_at) FROM document_tags dt JOIN documents d ON d.id = dt.document_id \
          WHERE dt.org_id = ?1 AND dt.tag = t.tag) AS last_doc, \
       (SELECT MIN(m.created_at) FROM memories m WHERE m.org_id = ?1 AND m.container_tag = t.tag) AS first_mem, \
       (SELECT MAX(m.updated_at) FROM memories m WHERE m.org_id = ?1 AND m.container_tag = t.tag) AS last_mem \
     FROM tags t LEFT JOIN container_tags c ON c.org_id = ?1 AND c.tag = t.tag \
     WHERE ?2 IS NULL OR t.tag = ?2 ORDER BY t.tag";

fn summary(r: &SqliteRow) -> SpaceSummary {
    SpaceColumns {
        tag: r.get("tag"),
        name: r.get("name"),
        entity_context: r.get("entity_context"),
        user_name: r.get("user_name"),
        profile_buckets: r.get("profile_buckets"),
        created_at: r.get("created_at"),
        updated_at: r.get("updated_at"),
        documents: r.get("docs"),
        memories: r.get("mems"),
        first_use: [r.get("first_doc"), r.get("first_mem")],
        last_use: [r.get("last_doc"), r.get("last_mem")],
    }
    .into_summary()
}

pub async fn list(
    s: &SqliteStore,
    org_id: &str,
    tag: Option<&str>,
) -> StoreResult<Vec<SpaceSummary>> {
    let rows = sqlx::query(SPACES)
        .bind(org_id)
        .bind(tag)
        .fetch_all(&s.read)
        .await
        .map_err(db_err)?;
    Ok(rows.iter().map(summary).collect())
}

pub async fn upsert(s: &SqliteStore, org_id: &str, tag: &str, p: SpacePatch) -> StoreResult<Space> {
    let t = ms(now());
    let buckets = p
        .profile_buckets
        .as_ref()
        .map(|b| serde_json::to_string(b).unwrap_or_else(|_| "[]".into()));
    let (set_context, context) = match p.entity_context {
        Some(c) => (true, c),
        None => (false, None),
    };
    let mut tx = s.begin_write().await?;
    let r = sqlx::query(
        "INSERT INTO container_tags (org_id, tag, name, entity_context, user_name, profile_buckets, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?5, ?8, COALESCE(?6, '[]'), ?7, ?7) \
         ON CONFLICT (org_id, tag) DO UPDATE SET name = COALESCE(?3, name), \
           entity_context = CASE WHEN ?4 THEN ?5 ELSE entity_context END, \
           user_name = COALESCE(?8, user_name), \
           profile_buckets = COALESCE(?6, profile_buckets), updated_at = ?7 \
         RETURNING tag, name, entity_context, user_name, profile_buckets, created_at, updated_at",
    )
    .bind(org_id)
    .bind(tag)
    .bind(&p.name)
    .bind(set_context)
    .bind(&context)
    .bind(&buckets)
    .bind(t)
    .bind(&p.user_name)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(Space {
        tag: r.get("tag"),
        name: r.get("name"),
        entity_context: r.get("entity_context"),
        user_name: r.get("user_name"),
        profile_buckets: buckets_from_json(r.get("profile_buckets")),
        created_at: from_millis(r.get("created_at")),
        updated_at: from_millis(r.get("updated_at")),
    })
}

pub async fn delete(s: &SqliteStore, org_id: &str, tag: &str) -> StoreResult<SpaceDeleted> {
    let mut tx = s.begin_write().await?;
    let live: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM memories WHERE org_id = ? AND container_tag = ? \
         AND is_latest = 1 AND is_forgotten = 0",
    )
    .bind(org_id)
    .bind(tag)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    let ids: Vec<String> =
        sqlx::query_scalar("SELECT document_id FROM document_tags WHERE org_id = ? AND tag = ?")
            .bind(org_id)
            .bind(tag)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
    let documents = crate::docs::delete_ids(&mut tx, &ids).await?;
    let t = ms(now());
    sqlx::query(
        "UPDATE memories SET is_forgotten = 1, forget_reason = 'space deleted', updated_at = ? \
         WHERE org_id = ? AND container_tag = ? AND is_forgotten = 0",
    )
    .bind(t)
    .bind(org_id)
    .bind(tag)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    sqlx::query("DELETE FROM container_tags WHERE org_id = ? AND tag = ?")
        .bind(org_id)
        .bind(tag)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(SpaceDeleted {
        documents,
        memories: live as u64,
    })
}

const MERGE_COLUMNS: &str =
    "id, org_id, sources, target, status, moved_documents, moved_memories, created_at, updated_at";

fn merge_row(r: &SqliteRow) -> TagMerge {
    let sources: String = r.get("sources");
    let status: String = r.get("status");
    TagMerge {
        id: r.get("id"),
        org_id: r.get("org_id"),
        sources: serde_json::from_str(&sources).unwrap_or_default(),
        target: r.get("target"),
        status: if status == "done" {
            MergeStatus::Done
        } else {
            MergeStatus::Queued
        },
        moved_documents: r.get::<i64, _>("moved_documents") as u64,
        moved_memories: r.get::<i64, _>("moved_memories") as u64,
        created_at: from_millis(r.get("created_at")),
        updated_at: from_millis(r.get("updated_at")),
    }
}

pub async fn enqueue_merge(
    s: &SqliteStore,
    org_id: &str,
    sources: &[String],
    target: &str,
) -> StoreResult<TagMerge> {
    let t = ms(now());
    let mut tx = s.begin_write().await?;
    let r = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO tag_merges (id, org_id, sources, target, status, created_at, updated_at) \
         VALUES (?, ?, ?, ?, 'queued', ?, ?) RETURNING {MERGE_COLUMNS}"
    )))
    .bind(format!("merge_{}", engram_core::ids::new_id()))
    .bind(org_id)
    .bind(serde_json::to_string(sources).unwrap_or_else(|_| "[]".into()))
    .bind(target)
    .bind(t)
    .bind(t)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(merge_row(&r))
}

pub async fn get_merge(s: &SqliteStore, org_id: &str, id: &str) -> StoreResult<Option<TagMerge>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {MERGE_COLUMNS} FROM tag_merges WHERE org_id = ? AND id = ?"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(&s.read)
    .await
    .map_err(db_err)?;
    Ok(r.as_ref().map(merge_row))
}

pub async fn queued_merges(s: &SqliteStore) -> StoreResult<Vec<String>> {
    sqlx::query_scalar("SELECT id FROM tag_merges WHERE status = 'queued' ORDER BY created_at")
        .fetch_all(&s.read)
        .await
        .map_err(db_err)
}

pub async fn run_merge(s: &SqliteStore, id: &str) -> StoreResult<Option<TagMerge>> {
    let mut tx = s.begin_write().await?;
    let Some(r) = sqlx::query(AssertSqlSafe(format!(
        "SELECT {MERGE_COLUMNS} FROM tag_merges WHERE id = ? AND status = 'queued'"
    )))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await
    .map_err(db_err)?
    else {
        return Ok(None);
    };
    let m = merge_row(&r);
    let t = ms(now());
    let (mut documents, mut memories) = (0u64, 0u64);
    for source in m.sources.iter().filter(|x| **x != m.target) {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT document_id FROM document_tags WHERE org_id = ? AND tag = ?",
        )
        .bind(&m.org_id)
        .bind(source)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?;
        for doc in &ids {
            // the target takes the source's place in the document's order
            sqlx::query(
                "INSERT OR IGNORE INTO document_tags (document_id, org_id, tag, position) \
                 SELECT document_id, org_id, ?, position FROM document_tags \
                 WHERE document_id = ? AND tag = ?",
            )
            .bind(&m.target)
            .bind(doc)
            .bind(source)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query("DELETE FROM document_tags WHERE document_id = ? AND tag = ?")
                .bind(doc)
                .bind(source)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
        }
        documents += ids.len() as u64;
        memories += sqlx::query(
            "UPDATE memories SET container_tag = ?, updated_at = ? WHERE org_id = ? AND container_tag = ?",
        )
        .bind(&m.target)
        .bind(t)
        .bind(&m.org_id)
        .bind(source)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?
        .rows_affected();
        sqlx::query("DELETE FROM container_tags WHERE org_id = ? AND tag = ?")
            .bind(&m.org_id)
            .bind(source)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
    }
    let done = sqlx::query(AssertSqlSafe(format!(
        "UPDATE tag_merges SET status = 'done', moved_documents = ?, moved_memories = ?, updated_at = ? \
         WHERE id = ? RETURNING {MERGE_COLUMNS}"
    )))
    .bind(documents as i64)
    .bind(memories as i64)
    .bind(t)
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(Some(merge_row(&done)))
}

pub async fn get_settings(s: &SqliteStore, org_id: &str) -> StoreResult<engram_core::Metadata> {
    let v: Option<String> =
        sqlx::query_scalar("SELECT settings FROM org_settings WHERE org_id = ?")
            .bind(org_id)
            .fetch_optional(&s.read)
            .await
            .map_err(db_err)?;
    Ok(v.and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default())
}

pub async fn put_settings(
    s: &SqliteStore,
    org_id: &str,
    settings: &engram_core::Metadata,
) -> StoreResult<()> {
    let json = serde_json::to_string(settings).map_err(|e| StoreError::Backend(e.to_string()))?;
    let mut tx = s.begin_write().await?;
    sqlx::query("INSERT INTO org_settings (org_id, settings, updated_at) VALUES (?, ?, ?) \
         ON CONFLICT (org_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at")
    .bind(org_id)
    .bind(json)
    .bind(ms(now()))
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(())
}

pub async fn reset_org(s: &SqliteStore, org_id: &str) -> StoreResult<OrgReset> {
    let mut tx = s.begin_write().await?;
    let memories: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM memories WHERE org_id = ?")
        .bind(org_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM documents WHERE org_id = ?")
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?;
    let documents = crate::docs::delete_ids(&mut tx, &ids).await?;
    let mut counts = Vec::new();
    for table in ["memories", "container_tags", "tag_merges", "org_settings"] {
        let r = sqlx::query(AssertSqlSafe(format!(
            "DELETE FROM {table} WHERE org_id = ?"
        )))
        .bind(org_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        counts.push(r.rows_affected());
    }
    tx.commit().await.map_err(db_err)?;
    Ok(OrgReset {
        documents,
        memories: memories as u64,
        spaces: counts[1],
        settings: counts[3] > 0,
    })
}
