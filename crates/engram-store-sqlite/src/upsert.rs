//! Document inserts and replacements: a group of new documents is
//! written with a few multi-row statements (a statement is a round trip
//! to the connection's thread); a document with a custom id is looked up
//! and replaced or inserted on its own, in input order, so two writes of
//! one custom id in a group apply one after the other. Also the tag and
//! job rows every document write keeps in step.

use crate::rows::{document, DOC_COLUMNS};
use crate::{db_err, ms, SqliteStore};
use engram_core::DreamingStatus;
use engram_store::{
    now, Document, NewDocument, StoreResult, Timestamp, UpsertGroup, UpsertOutcome,
};
use sqlx::{AssertSqlSafe, Sqlite, Transaction};

type Tx = Transaction<'static, Sqlite>;

pub(crate) async fn set_tags(
    tx: &mut Tx,
    org_id: &str,
    doc_id: &str,
    tags: &[String],
) -> StoreResult<()> {
    sqlx::query("DELETE FROM document_tags WHERE document_id = ?")
        .bind(doc_id)
        .execute(&mut **tx)
        .await
        .map_err(db_err)?;
    insert_tags(tx, org_id, doc_id, tags).await
}

/// Tag rows per INSERT statement (four variables each; SQLite allows
/// 32 766).
const TAG_ROWS: usize = 1000;

/// Tag a document that has no tags yet, a statement per thousand tags
/// rather than one per tag.
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

/// Insert tag rows, a statement per thousand.
async fn insert_tag_rows(tx: &mut Tx, rows: &[TagRow<'_>]) -> StoreResult<()> {
    for group in rows.chunks(TAG_ROWS) {
        let values = vec!["(?, ?, ?, ?)"; group.len()].join(", ");
        let mut q = sqlx::query(AssertSqlSafe(format!(
            "INSERT OR IGNORE INTO document_tags (document_id, org_id, tag, position) VALUES {values}"
        )));
        for (id, org, tag, position) in group {
            q = q.bind(*id).bind(*org).bind(*tag).bind(*position);
        }
        q.execute(&mut **tx).await.map_err(db_err)?;
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
    let t = ms(now());
    sqlx::query(
        "INSERT INTO jobs (id, org_id, document_id, revision, attempts, run_after, created_at) \
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5) \
         ON CONFLICT (document_id) DO UPDATE SET id = excluded.id, revision = excluded.revision, \
         attempts = 0, run_after = excluded.run_after, lease_owner = NULL, lease_expires_at = NULL, \
         stage = 'process'",
    )
    .bind(engram_core::ids::new_id())
    .bind(org_id)
    .bind(doc_id)
    .bind(revision)
    .bind(t)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

pub(crate) async fn fetch(tx: &mut Tx, org_id: &str, id: &str) -> StoreResult<Document> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "SELECT {DOC_COLUMNS} FROM documents d WHERE d.org_id = ? AND d.id = ?"
    )))
    .bind(org_id)
    .bind(id)
    .fetch_one(&mut **tx)
    .await
    .map_err(db_err)?;
    document(&r)
}

pub async fn upsert_documents(
    s: &SqliteStore,
    docs: Vec<NewDocument>,
) -> StoreResult<Vec<UpsertOutcome>> {
    let mut tx = s.begin_write().await?;
    let mut group = UpsertGroup::default();
    for d in docs {
        let Some((d, custom_id)) = group.defer(d) else {
            continue;
        };
        let at = now();
        let existing: Option<(String, i64)> =
            sqlx::query_as("SELECT id, revision FROM documents WHERE org_id = ? AND custom_id = ?")
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
    // the new documents together: a few statements for the group rather
    // than three a document (each a round trip to the connection's thread)
    insert_new(&mut tx, &group.fresh()).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(group.finish())
}

/// Replace a document's content and settings by custom id, at `revision`.
async fn replace(tx: &mut Tx, d: &NewDocument, id: &str, revision: i64, t: i64) -> StoreResult<()> {
    let metadata = serde_json::Value::Object(d.metadata.clone()).to_string();
    let (file_name, file_mime, file_bytes) = file_columns(d);
    sqlx::query(
        "UPDATE documents SET content = ?, text = NULL, url = ?, source = ?, doc_type = ?, \
         status = 'queued', error = NULL, task_type = ?, dreaming = ?, dreaming_status = 'dreaming', \
         metadata = ?, filepath = ?, entity_context = ?, revision = ?, file_name = ?, \
         file_mime = ?, file_bytes = ?, updated_at = ?, connection_id = ? WHERE id = ?",
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
    .bind(&d.connection_id)
    .bind(id)
    .execute(&mut **tx)
    .await
    .map_err(db_err)?;
    Ok(())
}

fn file_columns(d: &NewDocument) -> (Option<&str>, Option<&str>, Option<&[u8]>) {
    match &d.file {
        Some(f) => (
            f.filename.as_deref(),
            f.mime_type.as_deref(),
            Some(f.bytes.as_slice()),
        ),
        None => (None, None, None),
    }
}

/// New document rows per INSERT statement (nineteen variables each).
const DOC_ROWS: usize = 100;

/// Insert new documents (`id`, creation time, what was sent) with their
/// tags and jobs: a statement per table and hundred documents.
async fn insert_new(tx: &mut Tx, rows: &[(&str, Timestamp, &NewDocument)]) -> StoreResult<()> {
    for group in rows.chunks(DOC_ROWS) {
        let values = vec![
            "(?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)";
            group.len()
        ]
        .join(", ");
        let mut q = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO documents (id, org_id, custom_id, content, url, source, doc_type, status, \
             task_type, dreaming, dreaming_status, metadata, filepath, entity_context, revision, \
             file_name, file_mime, file_bytes, created_at, updated_at, connection_id) VALUES {values}"
        )));
        for (id, at, d) in group {
            let t = ms(*at);
            let (file_name, file_mime, file_bytes) = file_columns(d);
            q = q
                .bind(*id)
                .bind(&d.org_id)
                .bind(&d.custom_id)
                .bind(&d.content)
                .bind(&d.url)
                .bind(&d.source)
                .bind(d.doc_type.as_str())
                .bind(d.task_type.as_str())
                .bind(d.dreaming.as_str())
                .bind(DreamingStatus::Dreaming.as_str())
                .bind(serde_json::Value::Object(d.metadata.clone()).to_string())
                .bind(&d.filepath)
                .bind(&d.entity_context)
                .bind(file_name)
                .bind(file_mime)
                .bind(file_bytes)
                .bind(t)
                .bind(t)
                .bind(&d.connection_id);
        }
        q.execute(&mut **tx).await.map_err(db_err)?;
    }
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
    let t = ms(now());
    for group in rows.chunks(DOC_ROWS) {
        let values = vec!["(?, ?, ?, 1, 0, ?, ?)"; group.len()].join(", ");
        let mut q = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO jobs (id, org_id, document_id, revision, attempts, run_after, created_at) \
             VALUES {values}"
        )));
        for (id, _, d) in group {
            q = q
                .bind(engram_core::ids::new_id())
                .bind(&d.org_id)
                .bind(*id)
                .bind(t)
                .bind(t);
        }
        q.execute(&mut **tx).await.map_err(db_err)?;
    }
    Ok(())
}
