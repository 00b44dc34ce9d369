//! The behaviour every [`Store`] backend must show, as plain async functions
//! over a fresh store. A backend runs all of them with
//! [`conformance_tests!`](crate::conformance_tests):
//!
//! ```ignore
//! engram_store::conformance_tests!(MyStore::fresh().await.unwrap());
//! ```

mod analytics;
mod connections;
mod documents;
mod jobs;
mod keys;
mod memories;
mod search;
mod spaces;

pub use analytics::*;
pub use connections::*;
pub use documents::*;
pub use jobs::*;
pub use keys::*;
pub use memories::*;
pub use search::*;
pub use spaces::*;

use crate::*;
use engram_core::{
    DocumentStatus, DocumentType, Dreaming, DreamingStatus, SortField, SortOrder, TaskType,
};
use serde_json::json;
use std::time::Duration;

/// Generate one `#[tokio::test]` per conformance case; `$make` is an
/// expression (evaluated inside an async test) yielding a fresh store.
#[macro_export]
macro_rules! conformance_tests {
    ($make:expr) => {
        $crate::conformance_tests!(@cases $make;
            orgs_and_keys, model_is_recorded_once, upsert_enqueues_and_custom_id_replaces, tags_keep_their_order, insert_answers_what_a_read_returns, small_documents_leave_large_ones_out,
            tenants_are_isolated, leases_fence_workers, completion_replaces_chunks, batch_completion_keeps_documents_apart, dynamic_dreams_wait_their_turn,
            stale_revision_is_fenced, failures_retry_then_fail, delete_cascades,
            list_pages_sorts_and_scopes, release_returns_jobs, patch_in_place_and_reprocess,
            filters_agree_with_the_evaluator, index_log_and_loading,
            concurrent_claims_are_exclusive, nearest_chunks_respect_the_scope,
            memories_versions_forgetting_and_sources, spaces_settings_counts_and_deletion,
            tag_merges_move_documents_and_memories, settings_and_reset,
            request_logs_aggregate_and_purge, rate_windows_count_and_reset,
            connections_leases_and_documents);
    };
    (@cases $make:expr; $($case:ident),+) => {
        $(
            #[tokio::test]
            async fn $case() {
                let store = $make;
                $crate::conformance::$case(&store).await;
            }
        )+
    };
}

pub(crate) fn new_doc(org: &str, content: &str) -> NewDocument {
    NewDocument {
        org_id: org.to_string(),
        custom_id: None,
        container_tags: vec![],
        content: content.to_string(),
        doc_type: DocumentType::Text,
        url: None,
        source: None,
        task_type: TaskType::Memory,
        dreaming: Dreaming::Instant,
        metadata: Default::default(),
        filepath: None,
        entity_context: None,
        file: None,
        connection_id: None,
    }
}

pub(crate) fn processed(n: usize) -> ProcessedDocument {
    ProcessedDocument {
        text: "text".into(),
        title: Some("Title".into()),
        summary: Some("summary".into()),
        doc_type: DocumentType::Text,
        chunks: (0..n)
            .map(|i| NewChunk {
                position: i as i64,
                content: format!("chunk {i}"),
                token_count: 2,
                embedding: vec![i as f32, 1.0, -0.5],
            })
            .collect(),
        dream_at: crate::now(),
    }
}

pub(crate) async fn add(s: &dyn Store, d: NewDocument) -> Document {
    s.upsert_documents(vec![d])
        .await
        .unwrap()
        .remove(0)
        .document
}

pub(crate) const LEASE: Duration = Duration::from_secs(30);
