//! Document reads, updates and deletions (inserts: [`crate::upsert`]).
//! Every statement filters by `org_id`.

use crate::filter_sql::{compile, Bind};
use crate::rows::{chunk_row, document, CHUNK_COLUMNS, DOC_COLUMNS};
use crate::upsert::{enqueue, fetch, set_tags};
use crate::{db_err, ms, placeholders, SqliteStore};
use engram_core::{DocumentStatus, SortField, SortOrder};
use engram_store::{now, Chunk, Document, DocumentPatch, ListQuery, SearchScope, StoreResult};
use sqlx::{AssertSqlSafe, Sqlite, SqlitePool, Transaction};

type Tx = Transaction<'static, Sqlite>;

/// Find a document id by id or custom id inside a transaction.
async fn resolve(tx: &mut Tx, org_id: &str, id: &str) -> StoreResult<Option<String>> {
    sqlx::query_scalar(
        "SELECT id FROM documents WHERE org_id = ?1 AND (id = ?2 OR custom_id = ?2) \
         ORDER BY (id = ?2) DESC LIMIT 1",
    )
    .bind(org_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db_err)
}

pub async fn get_document(
    pool: &SqlitePool,
    org_id: &str,
    id: &str,
) -> StoreResult<Option<Document>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE d.org_id = ?1 AND (d.id = ?2 OR d.custom_id = ?2) \
         ORDER BY (d.id = ?2) DESC LIMIT 1"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(pool)
    .await
    .map_err(db_err)?;
    r.as_ref().map(document).transpose()
}

pub async fn documents_by_ids(
    s: &SqliteStore,
    org_id: &str,
    ids: &[String],
) -> StoreResult<Vec<Document>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = placeholders(ids.len());
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE +d.org_id = ? AND d.id IN ({marks})"
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(&s.read).await.map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn small_documents_by_ids(
    s: &SqliteStore,
    org_id: &str,
    ids: &[String],
    max_bytes: usize,
) -> StoreResult<Vec<Document>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // octet_length and length of a blob read the sizes, not the values
    let marks = placeholders(ids.len());
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE +d.org_id = ? AND d.id IN ({marks}) \
         AND octet_length(d.content) + coalesce(length(d.file_bytes), 0) <= ?"
    )))
    .bind(org_id);
    for id in ids {
        q = q.bind(id);
    }
    let rows = q
        .bind(max_bytes as i64)
        .fetch_all(&s.read)
        .await
        .map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn update_document(
    s: &SqliteStore,
    org_id: &str,
    id: &str,
    p: DocumentPatch,
) -> StoreResult<Option<Document>> {
    let mut tx = s.begin_write().await?;
    let Some(doc_id) = resolve(&mut tx, org_id, id).await? else {
        return Ok(None);
    };
    let t = ms(now());
    // absent fields keep their value
    sqlx::query(
        "UPDATE documents SET custom_id = COALESCE(?, custom_id), metadata = COALESCE(?, metadata), \
         task_type = COALESCE(?, task_type), filepath = COALESCE(?, filepath) WHERE id = ?",
    )
    .bind(&p.custom_id)
    .bind(p.metadata.as_ref().map(|m| serde_json::Value::Object(m.clone()).to_string()))
    .bind(p.task_type.map(|t| t.as_str()))
    .bind(&p.filepath)
    .bind(&doc_id)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    if let Some(tags) = &p.container_tags {
        set_tags(&mut tx, org_id, &doc_id, tags).await?;
    }
    if let Some(content) = &p.content {
        let rev: i64 = sqlx::query_scalar(
            "UPDATE documents SET content = ?, text = NULL, url = NULL, file_name = NULL, file_mime = NULL, \
             file_bytes = NULL, status = 'queued', error = NULL, dreaming_status = 'dreaming', \
             revision = revision + 1 WHERE id = ? RETURNING revision",
        )
        .bind(content)
        .bind(&doc_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
        enqueue(&mut tx, org_id, &doc_id, rev).await?;
    }
    sqlx::query("UPDATE documents SET updated_at = ? WHERE id = ?")
        .bind(t)
        .bind(&doc_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let doc = fetch(&mut tx, org_id, &doc_id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(Some(doc))
}

/// Delete documents by id inside a transaction, chunks first (so the
/// full-text trigger sees each chunk row).
pub(crate) async fn delete_ids(tx: &mut Tx, ids: &[String]) -> StoreResult<u64> {
    let mut n = 0;
    for id in ids {
        sqlx::query("DELETE FROM chunks WHERE document_id = ?")
            .bind(id)
            .execute(&mut **tx)
            .await
            .map_err(db_err)?;
        n += sqlx::query("DELETE FROM documents WHERE id = ?")
            .bind(id)
            .execute(&mut **tx)
            .await
            .map_err(db_err)?
            .rows_affected();
    }
    Ok(n)
}

pub async fn delete_document(s: &SqliteStore, org_id: &str, id: &str) -> StoreResult<bool> {
    let mut tx = s.begin_write().await?;
    let Some(doc_id) = resolve(&mut tx, org_id, id).await? else {
        return Ok(false);
    };
    let n = delete_ids(&mut tx, &[doc_id]).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n > 0)
}

pub async fn delete_by_tags(s: &SqliteStore, org_id: &str, tags: &[String]) -> StoreResult<u64> {
    let mut tx = s.begin_write().await?;
    let mut ids: Vec<String> = Vec::new();
    for t in tags {
        let found: Vec<String> = sqlx::query_scalar(
            "SELECT document_id FROM document_tags WHERE org_id = ? AND tag = ?",
        )
        .bind(org_id)
        .bind(t)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?;
        ids.extend(found);
    }
    ids.sort();
    ids.dedup();
    let n = delete_ids(&mut tx, &ids).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n)
}

/// SQL condition and bind value for a filepath match (exact, or prefix when
/// the path ends with `/`).
pub(crate) fn filepath_clause(path: &str) -> (&'static str, String) {
    if path.ends_with('/') {
        let escaped = path
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        ("d.filepath LIKE ? ESCAPE '\\'", format!("{escaped}%"))
    } else {
        ("d.filepath = ?", path.to_string())
    }
}

pub async fn delete_by_filepath(s: &SqliteStore, org_id: &str, path: &str) -> StoreResult<u64> {
    let mut tx = s.begin_write().await?;
    let (cond, val) = filepath_clause(path);
    let ids: Vec<String> = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT d.id FROM documents d WHERE d.org_id = ? AND {cond}"
    )))
    .bind(org_id)
    .bind(val)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    let n = delete_ids(&mut tx, &ids).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n)
}

/// SQL conditions (over documents `d`) and binds selecting an
/// organisation's documents within a scope.
pub(crate) fn scope_sql(org_id: &str, scope: &SearchScope, binds: &mut Vec<Bind>) -> String {
    let mut conds = vec!["d.org_id = ?".to_string()];
    binds.push(Bind::Text(org_id.to_string()));
    if let Some(id) = &scope.document_id {
        conds.push("d.id = ?".into());
        binds.push(Bind::Text(id.clone()));
    }
    if !scope.container_tags.is_empty() {
        let marks = placeholders(scope.container_tags.len());
        conds.push(format!(
            "EXISTS (SELECT 1 FROM document_tags t WHERE t.document_id = d.id AND t.tag IN ({marks}))"
        ));
        binds.extend(scope.container_tags.iter().cloned().map(Bind::Text));
    }
    if let Some(p) = &scope.filepath {
        let (cond, val) = filepath_clause(p);
        conds.push(cond.to_string());
        binds.push(Bind::Text(val));
    }
    if let Some(f) = &scope.filter {
        conds.push(compile(f, binds));
    }
    conds.join(" AND ")
}

pub async fn list_documents(
    s: &SqliteStore,
    org_id: &str,
    q: &ListQuery,
) -> StoreResult<(Vec<Document>, u64)> {
    let scope = SearchScope {
        container_tags: q.container_tags.clone(),
        document_id: None,
        filepath: q.filepath.clone(),
        filter: q.filter.clone(),
    };
    let mut binds = Vec::new();
    let where_ = scope_sql(org_id, &scope, &mut binds);
    let sort = match q.sort {
        SortField::CreatedAt => "d.created_at",
        SortField::UpdatedAt => "d.updated_at",
    };
    let order = match q.order {
        SortOrder::Asc => "ASC",
        SortOrder::Desc => "DESC",
    };
    let count_sql = format!("SELECT COUNT(*) FROM documents d WHERE {where_}");
    let mut count = sqlx::query_scalar::<_, i64>(AssertSqlSafe(count_sql));
    for b in &binds {
        count = b.bind_scalar(count);
    }
    let total = count.fetch_one(&s.read).await.map_err(db_err)?;
    let sql = format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE {where_} ORDER BY {sort} {order}, d.id {order} LIMIT ? OFFSET ?"
    );
    binds.push(Bind::Int(q.limit.min(i64::MAX as u64) as i64));
    binds.push(Bind::Int(q.offset.min(i64::MAX as u64) as i64));
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for b in &binds {
        query = b.bind(query);
    }
    let rows = query.fetch_all(&s.read).await.map_err(db_err)?;
    let docs = rows.iter().map(document).collect::<StoreResult<Vec<_>>>()?;
    Ok((docs, total as u64))
}

pub async fn list_processing(s: &SqliteStore, org_id: &str) -> StoreResult<Vec<Document>> {
    let processing: Vec<&str> = [
        DocumentStatus::Queued,
        DocumentStatus::Extracting,
        DocumentStatus::Chunking,
        DocumentStatus::Embedding,
        DocumentStatus::Indexing,
    ]
    .iter()
    .map(|s| s.as_str())
    .collect();
    let marks = placeholders(processing.len());
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE d.org_id = ? AND d.status IN ({marks}) ORDER BY d.created_at, d.id"
    )))
    .bind(org_id);
    for p in processing {
        q = q.bind(p);
    }
    let rows = q.fetch_all(&s.read).await.map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn list_chunks(
    s: &SqliteStore,
    org_id: &str,
    document_id: &str,
) -> StoreResult<Vec<Chunk>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = ? AND document_id = ? ORDER BY position"
    )))
    .bind(org_id)
    .bind(document_id)
    .fetch_all(&s.read)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(chunk_row).collect())
}
