//! The document service: the operations behind the `/v3/documents*` routes,
//! expressed over the store. Writes are durable (document and job in one
//! transaction) before they return; processing is left to the workers.

use crate::{Engine, EngineError};
pub use engram_core::DocumentInput;
use engram_core::DocumentType;
use engram_store::{
    Chunk, Document, DocumentPatch, ListQuery, NewDocument, StoredFile, UpsertOutcome,
};

/// An uploaded file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileInput {
    pub filename: Option<String>,
    pub mime_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// Whether inline content is a URL to fetch rather than text to index.
pub fn as_url(content: &str) -> Option<&str> {
    let t = content.trim();
    let lower = t.get(..8).unwrap_or(t).to_ascii_lowercase();
    let is_http = lower.starts_with("http://") || lower.starts_with("https://");
    (is_http && !t.contains(char::is_whitespace) && url::Url::parse(t).is_ok()).then_some(t)
}

fn new_document(org_id: &str, input: DocumentInput, file: Option<FileInput>) -> NewDocument {
    let url = if file.is_none() {
        as_url(&input.content).map(str::to_string)
    } else {
        None
    };
    let (doc_type, source) = match (&file, &url) {
        (Some(f), _) if f.mime_type.as_deref() == Some("application/pdf") => {
            (DocumentType::Pdf, "file")
        }
        (Some(_), _) => (DocumentType::Text, "file"),
        (None, Some(_)) => (DocumentType::Webpage, "url"),
        (None, None) => (DocumentType::Text, "text"),
    };
    NewDocument {
        org_id: org_id.to_string(),
        custom_id: input.custom_id,
        container_tags: input.container_tags,
        content: input.content,
        doc_type,
        url,
        source: Some(source.to_string()),
        task_type: input.task_type,
        dreaming: input.dreaming,
        metadata: input.metadata,
        filepath: input.filepath,
        entity_context: input.entity_context,
        file: file.map(|f| StoredFile {
            filename: f.filename,
            mime_type: f.mime_type,
            bytes: f.bytes,
        }),
        connection_id: None,
    }
}

impl Engine {
    /// Ingest documents (one transaction, shared with concurrent writes:
    /// [`crate::write_groups`]) and wake the workers.
    pub async fn add_documents(
        &self,
        org_id: &str,
        inputs: Vec<DocumentInput>,
    ) -> Result<Vec<UpsertOutcome>, EngineError> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let docs = inputs
            .into_iter()
            .map(|i| new_document(org_id, i, None))
            .collect();
        let out = self.write_groups.upsert(&self.store, docs).await?;
        self.notify_workers();
        Ok(out)
    }

    /// Ingest an uploaded file; its bytes are kept with the document until
    /// the pipeline has extracted them.
    pub async fn add_file(
        &self,
        org_id: &str,
        input: DocumentInput,
        file: FileInput,
    ) -> Result<UpsertOutcome, EngineError> {
        let doc = new_document(org_id, input, Some(file));
        let mut out = self.store.upsert_documents(vec![doc]).await?;
        self.notify_workers();
        Ok(out.remove(0))
    }

    /// A document by id or custom id.
    pub async fn get_document(&self, org_id: &str, id: &str) -> Result<Document, EngineError> {
        self.store
            .get_document(org_id, id)
            .await?
            .ok_or_else(|| not_found(id))
    }

    /// Patch a document; a content change reprocesses it.
    pub async fn update_document(
        &self,
        org_id: &str,
        id: &str,
        patch: DocumentPatch,
    ) -> Result<Document, EngineError> {
        let reprocess = patch.content.is_some();
        let doc = self
            .store
            .update_document(org_id, id, patch)
            .await?
            .ok_or_else(|| not_found(id))?;
        if reprocess {
            self.notify_workers();
        }
        Ok(doc)
    }

    /// Delete a document with its chunks and vectors.
    pub async fn delete_document(&self, org_id: &str, id: &str) -> Result<(), EngineError> {
        if self.store.delete_document(org_id, id).await? {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }

    /// Delete by ids: `(deleted, [(id, error)])`.
    pub async fn delete_by_ids(
        &self,
        org_id: &str,
        ids: &[String],
    ) -> Result<(u64, Vec<(String, String)>), EngineError> {
        let mut deleted = 0;
        let mut errors = Vec::new();
        for id in ids {
            if self.store.delete_document(org_id, id).await? {
                deleted += 1;
            } else {
                errors.push((id.clone(), "document not found".to_string()));
            }
        }
        Ok((deleted, errors))
    }

    /// Delete every document carrying any of `tags`.
    pub async fn delete_by_tags(&self, org_id: &str, tags: &[String]) -> Result<u64, EngineError> {
        Ok(self.store.delete_documents_by_tags(org_id, tags).await?)
    }

    /// Delete by file path (exact, or prefix ending in `/`).
    pub async fn delete_by_filepath(&self, org_id: &str, path: &str) -> Result<u64, EngineError> {
        Ok(self
            .store
            .delete_documents_by_filepath(org_id, path)
            .await?)
    }

    /// One page of documents and the total.
    pub async fn list_documents(
        &self,
        org_id: &str,
        q: &ListQuery,
    ) -> Result<(Vec<Document>, u64), EngineError> {
        Ok(self.store.list_documents(org_id, q).await?)
    }

    /// Documents still in the pipeline.
    pub async fn list_processing(&self, org_id: &str) -> Result<Vec<Document>, EngineError> {
        Ok(self.store.list_processing(org_id).await?)
    }

    /// A document's chunks in order (404 when the document does not exist).
    pub async fn document_chunks(
        &self,
        org_id: &str,
        id: &str,
    ) -> Result<(Document, Vec<Chunk>), EngineError> {
        let doc = self.get_document(org_id, id).await?;
        let chunks = self.store.list_chunks(org_id, &doc.id).await?;
        Ok((doc, chunks))
    }
}

fn not_found(id: &str) -> EngineError {
    EngineError::NotFound {
        what: format!("document `{id}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_recognised() {
        assert_eq!(
            as_url(" https://example.com/a?b=1 "),
            Some("https://example.com/a?b=1")
        );
        assert_eq!(as_url("HTTP://EXAMPLE.COM"), Some("HTTP://EXAMPLE.COM"));
        assert_eq!(as_url("see https://example.com"), None);
        assert_eq!(as_url("https://example.com and more"), None);
        assert_eq!(as_url("ftp://example.com"), None);
        assert_eq!(as_url("plain text"), None);
    }
}
