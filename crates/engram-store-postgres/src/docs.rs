//! Document writes and reads. Every statement filters by `org_id`; every
//! transaction that writes documents locks their organisation first.

use crate::filter_sql::compile;
use crate::rows::{chunk_row, doc_columns, document, Bind, Binds, CHUNK_COLUMNS};
use crate::{db_err, ms, PgStore, Tx};
use engram_core::{DocumentStatus, DreamingStatus, SortField, SortOrder};
use engram_store::{
    now, Chunk, Document, DocumentPatch, ListQuery, NewDocument, SearchScope, StoreResult,
    UpsertOutcome,
};
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

async fn set_tags(tx: &mut Tx, org_id: &str, doc_id: &str, tags: &[String]) -> StoreResult<()> {
    sqlx::query("DELETE FROM document_tags WHERE document_id = $1")
        .bind(doc_id)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    insert_tags(tx, org_id, doc_id, tags).await
}

/// Tag a document that has no tags yet (a new one: nothing to delete).
async fn insert_tags(tx: &mut Tx, org_id: &str, doc_id: &str, tags: &[String]) -> StoreResult<()> {
    if !tags.is_empty() {
        sqlx::query(
            "INSERT INTO document_tags (document_id, org_id, tag, position) \
             SELECT $1, $2, t, o - 1 FROM unnest($3::text[]) WITH ORDINALITY AS u(t, o) \
             ON CONFLICT DO NOTHING",
        )
        .bind(doc_id)
        .bind(org_id)
        .bind(tags)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

/// Replace the document's job with a fresh one for `revision`.
pub(crate) async fn enqueue(
    tx: &mut Tx,
    org_id: &str,
    doc_id: &str,
    revision: i64,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO jobs (id, org_id, document_id, revision, attempts, run_after, created_at) \
         VALUES ($1, $2, $3, $4, 0, $5, $5) \
         ON CONFLICT (document_id) DO UPDATE SET id = excluded.id, revision = excluded.revision, \
         attempts = 0, run_after = excluded.run_after, lease_owner = NULL, lease_expires_at = NULL, \
         stage = 'process'",
    )
    .bind(engram_core::ids::new_id())
    .bind(org_id)
    .bind(doc_id)
    .bind(revision)
    .bind(ms(now()))
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

async fn fetch(tx: &mut Tx, org_id: &str, id: &str) -> StoreResult<Document> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {} FROM documents d WHERE d.org_id = $1 AND d.id = $2",
        doc_columns()
    )))
    .bind(org_id)
    .bind(id)
    .fetch_one(&mut **tx)
    .await
    .map_err(db_err)?;
    document(&r)
}

pub async fn upsert_documents(
    s: &PgStore,
    docs: Vec<NewDocument>,
) -> StoreResult<Vec<UpsertOutcome>> {
    let mut tx = s.begin().await?;
    let orgs: Vec<&str> = docs.iter().map(|d| d.org_id.as_str()).collect();
    PgStore::lock_orgs(&mut tx, &orgs).await?;
    let mut out = Vec::with_capacity(docs.len());
    for d in docs {
        let at = now();
        let t = ms(at);
        let metadata = serde_json::Value::Object(d.metadata.clone());
        let (file_name, file_mime, file_bytes) = match &d.file {
            Some(f) => (
                f.filename.as_deref(),
                f.mime_type.as_deref(),
                Some(f.bytes.as_slice()),
            ),
            None => (None, None, None),
        };
        // the organisation's lock is held, so no other transaction can
        // create this custom id between this read and the insert
        let existing: Option<(String, i64)> = match &d.custom_id {
            Some(c) => sqlx::query_as(
                "SELECT id, revision FROM documents WHERE org_id = $1 AND custom_id = $2",
            )
            .bind(&d.org_id)
            .bind(c)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?,
            None => None,
        };
        let (id, revision, created) = match existing {
            Some((id, rev)) => {
                sqlx::query(
                    "UPDATE documents SET content = $1, text = NULL, url = $2, source = $3, doc_type = $4, \
                     status = 'queued', error = NULL, task_type = $5, dreaming = $6, dreaming_status = 'dreaming', \
                     metadata = $7, filepath = $8, entity_context = $9, revision = $10, file_name = $11, \
                     file_mime = $12, file_bytes = $13, updated_at = $14, connection_id = $16 WHERE id = $15",
                )
                .bind(&d.content)
                .bind(&d.url)
                .bind(&d.source)
                .bind(d.doc_type.as_str())
                .bind(d.task_type.as_str())
                .bind(d.dreaming.as_str())
                .bind(&metadata)
                .bind(&d.filepath)
                .bind(&d.entity_context)
                .bind(rev + 1)
                .bind(file_name)
                .bind(file_mime)
                .bind(file_bytes)
                .bind(t)
                .bind(&id)
                .bind(&d.connection_id)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                (id, rev + 1, false)
            }
            None => {
                let id = engram_core::ids::new_id();
                sqlx::query(
                    "INSERT INTO documents (id, org_id, custom_id, content, url, source, doc_type, status, \
                     task_type, dreaming, dreaming_status, metadata, filepath, entity_context, revision, \
                     file_name, file_mime, file_bytes, created_at, updated_at, connection_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $10, $11, $12, $13, 1, $14, $15, $16, $17, $17, $18)",
                )
                .bind(&id)
                .bind(&d.org_id)
                .bind(&d.custom_id)
                .bind(&d.content)
                .bind(&d.url)
                .bind(&d.source)
                .bind(d.doc_type.as_str())
                .bind(d.task_type.as_str())
                .bind(d.dreaming.as_str())
                .bind(DreamingStatus::Dreaming.as_str())
                .bind(&metadata)
                .bind(&d.filepath)
                .bind(&d.entity_context)
                .bind(file_name)
                .bind(file_mime)
                .bind(file_bytes)
                .bind(t)
                .bind(&d.connection_id)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                (id, 1, true)
            }
        };
        if created {
            insert_tags(&mut tx, &d.org_id, &id, &d.container_tags).await?;
        } else {
            set_tags(&mut tx, &d.org_id, &id, &d.container_tags).await?;
        }
        enqueue(&mut tx, &d.org_id, &id, revision).await?;
        // a new row is known without reading it back; a replaced one keeps
        // columns (created_at, title, chunk count) only the row has
        let document = if created {
            d.into_inserted(id, at)
        } else {
            fetch(&mut tx, &d.org_id, &id).await?
        };
        out.push(UpsertOutcome { document, created });
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
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
