//! Document inserts and replacements: a group of new documents is
//! written with one statement per table, the columns as arrays (a
//! statement is a round trip to the server); a document with a custom id
//! is looked up and replaced or inserted on its own, in input order, under
//! its organisation's lock. Also the tag and job rows every document write
//! keeps in step.

use crate::rows::{doc_columns, document};
use crate::{db_err, ms, PgStore, Tx};
use engram_core::DreamingStatus;
use engram_store::{
    now, Document, NewDocument, StoreResult, Timestamp, UpsertGroup, UpsertOutcome,
};
use sqlx::AssertSqlSafe;

pub(crate) async fn set_tags(
    tx: &mut Tx,
    org_id: &str,
    doc_id: &str,
    tags: &[String],
) -> StoreResult<()> {
    sqlx::query("DELETE FROM document_tags WHERE document_id = $1")
        .bind(doc_id)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    insert_tags(tx, org_id, doc_id, tags).await
}

/// Tag a document that has no tags yet (a new one: nothing to delete).
async fn insert_tags(tx: &mut Tx, org_id: &str, doc_id: &str, tags: &[String]) -> StoreResult<()> {
    let rows: Vec<TagRow> = tags
        .iter()
        .enumerate()
        .map(|(i, t)| (doc_id, org_id, t.as_str(), i as i64))
        .collect();
    insert_tag_rows(tx, &rows).await
}

/// A tag row: document, organisation, tag, position.
type TagRow<'a> = (&'a str, &'a str, &'a str, i64);

/// Insert tag rows in one statement, the columns as arrays.
async fn insert_tag_rows(tx: &mut Tx, rows: &[TagRow<'_>]) -> StoreResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO document_tags (document_id, org_id, tag, position) \
         SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[]) \
         ON CONFLICT DO NOTHING",
    )
    .bind(rows.iter().map(|t| t.0).collect::<Vec<_>>())
    .bind(rows.iter().map(|t| t.1).collect::<Vec<_>>())
    .bind(rows.iter().map(|t| t.2).collect::<Vec<_>>())
    .bind(rows.iter().map(|t| t.3).collect::<Vec<_>>())
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
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

pub(crate) async fn fetch(tx: &mut Tx, org_id: &str, id: &str) -> StoreResult<Document> {
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
    let mut group = UpsertGroup::default();
    for d in docs {
        let Some((d, custom_id)) = group.defer(d) else {
            continue;
        };
        let at = now();
        // the organisation's lock is held, so no other transaction can
        // create this custom id between this read and the insert
        let existing: Option<(String, i64)> = sqlx::query_as(
            "SELECT id, revision FROM documents WHERE org_id = $1 AND custom_id = $2",
        )
        .bind(&d.org_id)
        .bind(&custom_id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db_err)?;
        group.answered(match existing {
            Some((id, rev)) => {
                replace(&mut tx, &d, &id, rev + 1, ms(at)).await?;
                set_tags(&mut tx, &d.org_id, &id, &d.container_tags).await?;
                enqueue(&mut tx, &d.org_id, &id, rev + 1).await?;
                // a replaced row keeps columns (created_at, title, chunk
                // count) only the row has
                UpsertOutcome {
                    document: fetch(&mut tx, &d.org_id, &id).await?,
                    created: false,
                }
            }
            None => {
                let id = engram_core::ids::new_id();
                insert_new(&mut tx, &[(id.as_str(), at, &d)]).await?;
                UpsertOutcome {
                    document: d.into_inserted(id, at),
                    created: true,
                }
            }
        });
    }
    // the new documents together: a statement per table for the group
    // rather than three a document (each a round trip to the server)
    insert_new(&mut tx, &group.fresh()).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(group.finish())
}

/// Replace a document's content and settings by custom id, at `revision`.
async fn replace(tx: &mut Tx, d: &NewDocument, id: &str, revision: i64, t: i64) -> StoreResult<()> {
    let metadata = serde_json::Value::Object(d.metadata.clone());
    let (file_name, file_mime, file_bytes) = match &d.file {
        Some(f) => (
            f.filename.as_deref(),
            f.mime_type.as_deref(),
            Some(f.bytes.as_slice()),
        ),
        None => (None, None, None),
    };
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
    .bind(revision)
    .bind(file_name)
    .bind(file_mime)
    .bind(file_bytes)
    .bind(t)
    .bind(id)
    .bind(&d.connection_id)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

/// Insert new documents (`id`, creation time, what was sent) with their
/// tags and jobs: one statement per table, the columns as arrays.
async fn insert_new(tx: &mut Tx, rows: &[(&str, Timestamp, &NewDocument)]) -> StoreResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let text =
        |f: fn(&NewDocument) -> &str| -> Vec<&str> { rows.iter().map(|(_, _, d)| f(d)).collect() };
    let opt = |f: fn(&NewDocument) -> Option<&str>| -> Vec<Option<&str>> {
        rows.iter().map(|(_, _, d)| f(d)).collect()
    };
    sqlx::query(
        "INSERT INTO documents (id, org_id, custom_id, content, url, source, doc_type, status, \
         task_type, dreaming, dreaming_status, metadata, filepath, entity_context, revision, \
         file_name, file_mime, file_bytes, created_at, updated_at, connection_id) \
         SELECT u.id, u.org, u.custom_id, u.content, u.url, u.source, u.doc_type, 'queued', u.task_type, \
         u.dreaming, $17, u.metadata, u.filepath, u.entity_context, 1, u.file_name, u.file_mime, \
         u.file_bytes, u.t, u.t, u.connection_id \
         FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], \
         $7::text[], $8::text[], $9::jsonb[], $10::text[], $11::text[], $12::text[], $13::text[], \
         $14::bytea[], $15::bigint[], $16::text[], $18::text[]) \
         AS u(id, org, content, url, source, doc_type, task_type, dreaming, metadata, filepath, \
         entity_context, file_name, file_mime, file_bytes, t, connection_id, custom_id)",
    )
    .bind(rows.iter().map(|(id, _, _)| *id).collect::<Vec<_>>())
    .bind(text(|d| &d.org_id))
    .bind(text(|d| &d.content))
    .bind(opt(|d| d.url.as_deref()))
    .bind(opt(|d| d.source.as_deref()))
    .bind(text(|d| d.doc_type.as_str()))
    .bind(text(|d| d.task_type.as_str()))
    .bind(text(|d| d.dreaming.as_str()))
    .bind(
        rows.iter()
            .map(|(_, _, d)| serde_json::Value::Object(d.metadata.clone()))
            .collect::<Vec<_>>(),
    )
    .bind(opt(|d| d.filepath.as_deref()))
    .bind(opt(|d| d.entity_context.as_deref()))
    .bind(opt(|d| d.file.as_ref().and_then(|f| f.filename.as_deref())))
    .bind(opt(|d| {
        d.file.as_ref().and_then(|f| f.mime_type.as_deref())
    }))
    .bind(
        rows.iter()
            .map(|(_, _, d)| d.file.as_ref().map(|f| f.bytes.as_slice()))
            .collect::<Vec<_>>(),
    )
    .bind(rows.iter().map(|(_, at, _)| ms(*at)).collect::<Vec<_>>())
    .bind(opt(|d| d.connection_id.as_deref()))
    .bind(DreamingStatus::Dreaming.as_str())
    .bind(opt(|d| d.custom_id.as_deref()))
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    let tags: Vec<TagRow> = rows
        .iter()
        .flat_map(|(id, _, d)| {
            d.container_tags
                .iter()
                .enumerate()
                .map(move |(i, t)| (*id, d.org_id.as_str(), t.as_str(), i as i64))
        })
        .collect();
    insert_tag_rows(tx, &tags).await?;
    sqlx::query(
        "INSERT INTO jobs (id, org_id, document_id, revision, attempts, run_after, created_at) \
         SELECT j, o, d, 1, 0, $4, $4 FROM UNNEST($1::text[], $2::text[], $3::text[]) AS u(j, o, d)",
    )
    .bind(
        rows.iter()
            .map(|_| engram_core::ids::new_id())
            .collect::<Vec<_>>(),
    )
    .bind(rows.iter().map(|(_, _, d)| d.org_id.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|(id, _, _)| *id).collect::<Vec<_>>())
    .bind(ms(now()))
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}
