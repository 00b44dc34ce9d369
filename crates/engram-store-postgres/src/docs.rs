//! Document reads, updates and deletions (inserts: [`crate::upsert`]).
//! Every statement filters by `org_id`; every transaction that writes
//! documents locks their organisation first.

use crate::filter_sql::compile;
use crate::rows::{chunk_row, doc_columns, document, Bind, Binds, CHUNK_COLUMNS};
use crate::upsert::{enqueue, fetch, set_tags};
use crate::{db_err, ms, PgStore, Tx};
use engram_core::{DocumentStatus, SortField, SortOrder};
use engram_store::{now, Chunk, Document, DocumentPatch, ListQuery, SearchScope, StoreResult};
use sqlx::AssertSqlSafe;

/// Find a document id by id or custom id inside a transaction.
async fn resolve(tx: &mut Tx, org_id: &str, id: &str) -> StoreResult<Option<String>> {
    sqlx::query_scalar(
        "SELECT id FROM documents WHERE org_id = $1 AND (id = $2 OR custom_id = $2) \
         ORDER BY (id = $2) DESC LIMIT 1",
    )
    .bind(org_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db_err)
}

pub async fn get_document(s: &PgStore, org_id: &str, id: &str) -> StoreResult<Option<Document>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {} FROM documents d WHERE d.org_id = $1 AND (d.id = $2 OR d.custom_id = $2) \
         ORDER BY (d.id = $2) DESC LIMIT 1",
        doc_columns()
    )))
    .bind(org_id)
    .bind(id)
    .fetch_optional(&s.pool)
    .await
    .map_err(db_err)?;
    r.as_ref().map(document).transpose()
}

pub async fn documents_by_ids(
    s: &PgStore,
    org_id: &str,
    ids: &[String],
) -> StoreResult<Vec<Document>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {} FROM documents d WHERE d.org_id = $1 AND d.id = ANY($2)",
        doc_columns()
    )))
    .bind(org_id)
    .bind(ids)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn small_documents_by_ids(
    s: &PgStore,
    org_id: &str,
    ids: &[String],
    max_bytes: usize,
) -> StoreResult<Vec<Document>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // octet_length of a stored value reads its size, not the value
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {} FROM documents d WHERE d.org_id = $1 AND d.id = ANY($2) \
         AND octet_length(d.content) + coalesce(octet_length(d.file_bytes), 0) <= $3",
        doc_columns()
    )))
    .bind(org_id)
    .bind(ids)
    .bind(max_bytes as i64)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn update_document(
    s: &PgStore,
    org_id: &str,
    id: &str,
    p: DocumentPatch,
) -> StoreResult<Option<Document>> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let Some(doc_id) = resolve(&mut tx, org_id, id).await? else {
        return Ok(None);
    };
    // absent fields keep their value
    sqlx::query(
        "UPDATE documents SET custom_id = COALESCE($1, custom_id), metadata = COALESCE($2, metadata), \
         task_type = COALESCE($3, task_type), filepath = COALESCE($4, filepath) WHERE id = $5",
    )
    .bind(&p.custom_id)
    .bind(p.metadata.as_ref().map(|m| serde_json::Value::Object(m.clone())))
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
            "UPDATE documents SET content = $1, text = NULL, url = NULL, file_name = NULL, file_mime = NULL, \
             file_bytes = NULL, status = 'queued', error = NULL, dreaming_status = 'dreaming', \
             revision = revision + 1 WHERE id = $2 RETURNING revision",
        )
        .bind(content)
        .bind(&doc_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
        enqueue(&mut tx, org_id, &doc_id, rev).await?;
    }
    sqlx::query("UPDATE documents SET updated_at = $1 WHERE id = $2")
        .bind(ms(now()))
        .bind(&doc_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let doc = fetch(&mut tx, org_id, &doc_id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(Some(doc))
}

/// Delete documents by id (chunks, tags and jobs cascade).
pub(crate) async fn delete_ids(tx: &mut Tx, org_id: &str, ids: &[String]) -> StoreResult<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    Ok(
        sqlx::query("DELETE FROM documents WHERE org_id = $1 AND id = ANY($2)")
            .bind(org_id)
            .bind(ids)
            .execute(&mut **tx)
            .await
            .map_err(db_err)?
            .rows_affected(),
    )
}

pub async fn delete_document(s: &PgStore, org_id: &str, id: &str) -> StoreResult<bool> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let Some(doc_id) = resolve(&mut tx, org_id, id).await? else {
        return Ok(false);
    };
    let n = delete_ids(&mut tx, org_id, &[doc_id]).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n > 0)
}

pub async fn delete_by_tags(s: &PgStore, org_id: &str, tags: &[String]) -> StoreResult<u64> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let ids: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT document_id FROM document_tags WHERE org_id = $1 AND tag = ANY($2)",
    )
    .bind(org_id)
    .bind(tags)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    let n = delete_ids(&mut tx, org_id, &ids).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n)
}

/// SQL condition for a filepath match (exact, or prefix when the path ends
/// with `/`).
pub(crate) fn filepath_clause(path: &str, binds: &mut Binds) -> String {
    if path.ends_with('/') {
        let escaped = path
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!(
            "d.filepath LIKE {} ESCAPE '\\'",
            binds.text(format!("{escaped}%"))
        )
    } else {
        format!("d.filepath = {}", binds.text(path))
    }
}

pub async fn delete_by_filepath(s: &PgStore, org_id: &str, path: &str) -> StoreResult<u64> {
    let mut tx = s.begin().await?;
    PgStore::lock_orgs(&mut tx, &[org_id]).await?;
    let mut binds = Binds::default();
    let org = binds.text(org_id);
    let cond = filepath_clause(path, &mut binds);
    let sql = format!("SELECT d.id FROM documents d WHERE d.org_id = {org} AND {cond}");
    let mut q = sqlx::query_scalar::<_, String>(AssertSqlSafe(sql));
    q = binds.apply_scalar(q);
    let ids = q.fetch_all(&mut *tx).await.map_err(db_err)?;
    let n = delete_ids(&mut tx, org_id, &ids).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(n)
}

/// SQL conditions (over documents `d`) selecting an organisation's
/// documents within a scope.
pub(crate) fn scope_sql(org_id: &str, scope: &SearchScope, binds: &mut Binds) -> String {
    let mut conds = vec![format!("d.org_id = {}", binds.text(org_id))];
    if let Some(id) = &scope.document_id {
        conds.push(format!("d.id = {}", binds.text(id.clone())));
    }
    if !scope.container_tags.is_empty() {
        let tags = binds.arg(Bind::Texts(scope.container_tags.clone()));
        conds.push(format!(
            "EXISTS (SELECT 1 FROM document_tags t WHERE t.document_id = d.id AND t.tag = ANY({tags}))"
        ));
    }
    if let Some(p) = &scope.filepath {
        conds.push(filepath_clause(p, binds));
    }
    if let Some(f) = &scope.filter {
        conds.push(compile(f, binds));
    }
    conds.join(" AND ")
}

pub async fn list_documents(
    s: &PgStore,
    org_id: &str,
    q: &ListQuery,
) -> StoreResult<(Vec<Document>, u64)> {
    let scope = SearchScope {
        container_tags: q.container_tags.clone(),
        document_id: None,
        filepath: q.filepath.clone(),
        filter: q.filter.clone(),
    };
    let mut binds = Binds::default();
    let where_ = scope_sql(org_id, &scope, &mut binds);
    let sort = match q.sort {
        SortField::CreatedAt => "d.created_at",
        SortField::UpdatedAt => "d.updated_at",
    };
    let order = match q.order {
        SortOrder::Asc => "ASC",
        SortOrder::Desc => "DESC",
    };
    let count = sqlx::query_scalar::<_, i64>(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM documents d WHERE {where_}"
    )));
    let total = binds
        .apply_scalar(count)
        .fetch_one(&s.pool)
        .await
        .map_err(db_err)?;
    let limit = binds.arg(Bind::Int(q.limit.min(i64::MAX as u64) as i64));
    let offset = binds.arg(Bind::Int(q.offset.min(i64::MAX as u64) as i64));
    let sql = format!(
        "SELECT {} FROM documents d WHERE {where_} ORDER BY {sort} {order}, d.id {order} LIMIT {limit} OFFSET {offset}",
        doc_columns()
    );
    let rows = binds
        .apply(sqlx::query(AssertSqlSafe(sql)))
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    let docs = rows.iter().map(document).collect::<StoreResult<Vec<_>>>()?;
    Ok((docs, total as u64))
}

pub async fn list_processing(s: &PgStore, org_id: &str) -> StoreResult<Vec<Document>> {
    let processing: Vec<String> = [
        DocumentStatus::Queued,
        DocumentStatus::Extracting,
        DocumentStatus::Chunking,
        DocumentStatus::Embedding,
        DocumentStatus::Indexing,
    ]
    .iter()
    .map(|s| s.as_str().to_string())
    .collect();
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {} FROM documents d WHERE d.org_id = $1 AND d.status = ANY($2) ORDER BY d.created_at, d.id",
        doc_columns()
    )))
    .bind(org_id)
    .bind(processing)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(document).collect()
}

pub async fn list_chunks(s: &PgStore, org_id: &str, document_id: &str) -> StoreResult<Vec<Chunk>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {CHUNK_COLUMNS} FROM chunks WHERE org_id = $1 AND document_id = $2 ORDER BY position"
    )))
    .bind(org_id)
    .bind(document_id)
    .fetch_all(&s.pool)
    .await
    .map_err(db_err)?;
    Ok(rows.into_iter().map(chunk_row).collect())
}
