//! Builders of stored records for the unit tests of this module: a
//! document and a memory with every field set to something plain.

use engram_core::{Dreaming, TaskType};
use engram_store::{Document, Memory};

/// A done text document `id` of `org` in space `tag`, created at `at`.
pub(crate) fn document(id: &str, org: &str, tag: &str, at: engram_store::Timestamp) -> Document {
    Document {
        id: id.into(),
        org_id: org.into(),
        custom_id: None,
        container_tags: vec![tag.into()],
        content: String::new(),
        text: None,
        title: None,
        summary: None,
        url: None,
        source: None,
        doc_type: engram_core::DocumentType::Text,
        status: engram_core::DocumentStatus::Done,
        error: None,
        task_type: TaskType::Memory,
        dreaming: Dreaming::Dynamic,
        dreaming_status: engram_core::DreamingStatus::Dreaming,
        metadata: Default::default(),
        filepath: None,
        entity_context: None,
        connection_id: None,
        revision: 1,
        chunk_count: 1,
        file: None,
        created_at: at,
        updated_at: at,
    }
}

/// A latest memory `id` saying `content`, formed from `docs` at `at`.
pub(crate) fn memory(
    id: &str,
    content: &str,
    docs: &[&str],
    at: engram_store::Timestamp,
) -> Memory {
    Memory {
        id: id.into(),
        org_id: "o".into(),
        container_tag: "t".into(),
        content: content.into(),
        embedding: vec![],
        is_static: false,
        is_inference: false,
        is_latest: true,
        is_forgotten: false,
        forget_after: None,
        forget_reason: None,
        version: 1,
        parent_id: None,
        root_id: None,
        source_count: 1,
        document_ids: docs.iter().map(|d| d.to_string()).collect(),
        metadata: Default::default(),
        document_date: None,
        event_dates: vec![],
        entities: vec![],
        source: None,
        relations: vec![],
        created_at: at,
        updated_at: at,
    }
}
