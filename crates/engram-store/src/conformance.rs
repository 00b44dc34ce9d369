//! The behaviour every [`Store`] backend must show, as plain async functions
//! over a fresh store. A backend runs all of them with
//! [`conformance_tests!`](crate::conformance_tests):
//!
//! ```ignore
//! engram_store::conformance_tests!(MyStore::fresh().await.unwrap());
//! ```

use crate::*;
use engram_core::{DocumentStatus, DocumentType, Dreaming, SortField, SortOrder, TaskType};
use serde_json::json;
use std::time::Duration;

/// Generate one `#[tokio::test]` per conformance case; `$make` is an
/// expression (evaluated inside an async test) yielding a fresh store.
#[macro_export]
macro_rules! conformance_tests {
    ($make:expr) => {
        $crate::conformance_tests!(@cases $make;
            orgs_and_keys, model_is_recorded_once, upsert_enqueues_and_custom_id_replaces,
            tenants_are_isolated, leases_fence_workers, completion_replaces_chunks,
            stale_revision_is_fenced, failures_retry_then_fail, delete_cascades,
            list_pages_sorts_and_scopes, release_returns_jobs, patch_in_place_and_reprocess,
            filters_agree_with_the_evaluator, search_candidates_respect_scope);
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

fn new_doc(org: &str, content: &str) -> NewDocument {
    NewDocument {
        org_id: org.to_string(),
        custom_id: None,
        container_tags: vec![],
        content: content.to_string(),
        doc_type: DocumentType::Text,
        url: None,
        source: None,
        task_type: TaskType::Memory,
        dreaming: Dreaming::Dynamic,
        metadata: Default::default(),
        filepath: None,
        entity_context: None,
        file: None,
    }
}

fn processed(n: usize) -> ProcessedDocument {
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
    }
}

async fn add(s: &dyn Store, d: NewDocument) -> Document {
    s.upsert_documents(vec![d])
        .await
        .unwrap()
        .remove(0)
        .document
}

const LEASE: Duration = Duration::from_secs(30);

pub async fn orgs_and_keys(s: &dyn Store) {
    let a = s.ensure_org("acme").await.unwrap();
    assert_eq!(s.ensure_org("acme").await.unwrap().id, a.id);
    let b = s.ensure_org("other").await.unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(s.list_orgs().await.unwrap().len(), 2);
    let k = ApiKeyRecord {
        id: "k1".into(),
        org_id: a.id.clone(),
        name: "default".into(),
        secret_hash: "ab".repeat(32),
        created_at: now(),
        revoked_at: None,
    };
    s.insert_api_key(&k).await.unwrap();
    assert_eq!(s.get_api_key("k1").await.unwrap().unwrap(), k);
    assert!(s.get_api_key("nope").await.unwrap().is_none());
    assert_eq!(s.list_api_keys(Some(&a.id)).await.unwrap().len(), 1);
    assert_eq!(s.list_api_keys(Some(&b.id)).await.unwrap().len(), 0);
    assert!(s.revoke_api_key("k1").await.unwrap());
    assert!(!s.revoke_api_key("k1").await.unwrap());
    assert!(s
        .get_api_key("k1")
        .await
        .unwrap()
        .unwrap()
        .revoked_at
        .is_some());
}

pub async fn model_is_recorded_once(s: &dyn Store) {
    assert!(s.embedding_model().await.unwrap().is_none());
    let m = ModelInfo {
        name: "m1".into(),
        dimension: 384,
    };
    assert_eq!(s.record_embedding_model(&m).await.unwrap(), m);
    let other = ModelInfo {
        name: "m2".into(),
        dimension: 768,
    };
    assert_eq!(s.record_embedding_model(&other).await.unwrap(), m);
    assert_eq!(s.embedding_model().await.unwrap(), Some(m));
}

pub async fn upsert_enqueues_and_custom_id_replaces(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "first");
    d.custom_id = Some("c1".into());
    d.container_tags = vec!["t1".into()];
    d.metadata = json!({"k": "v", "n": 2}).as_object().unwrap().clone();
    let out = s.upsert_documents(vec![d.clone()]).await.unwrap().remove(0);
    assert!(out.created);
    assert_eq!(out.document.status, DocumentStatus::Queued);
    assert_eq!(out.document.revision, 1);
    assert_eq!(out.document.container_tags, vec!["t1"]);
    assert_eq!(out.document.metadata.get("n"), Some(&json!(2)));
    assert_eq!(s.pending_jobs().await.unwrap(), 1);

    d.content = "second".into();
    let again = s.upsert_documents(vec![d]).await.unwrap().remove(0);
    assert!(!again.created);
    assert_eq!(again.document.id, out.document.id);
    assert_eq!(again.document.revision, 2);
    assert_eq!(again.document.content, "second");
    assert_eq!(s.pending_jobs().await.unwrap(), 1, "one job per document");
    let by_custom = s.get_document(&org, "c1").await.unwrap().unwrap();
    assert_eq!(by_custom.id, out.document.id);
    let jobs = s.claim_jobs("w", 10, LEASE).await.unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].revision, 2);
}

pub async fn tenants_are_isolated(s: &dyn Store) {
    let a = s.ensure_org("a").await.unwrap().id;
    let b = s.ensure_org("b").await.unwrap().id;
    let mut d = new_doc(&a, "secret");
    d.custom_id = Some("shared".into());
    let doc = add(s, d).await;
    assert!(s.get_document(&b, &doc.id).await.unwrap().is_none());
    assert!(s.get_document(&b, "shared").await.unwrap().is_none());
    let patch = DocumentPatch {
        content: Some("x".into()),
        ..Default::default()
    };
    assert!(s
        .update_document(&b, &doc.id, patch)
        .await
        .unwrap()
        .is_none());
    assert!(!s.delete_document(&b, &doc.id).await.unwrap());
    let q = ListQuery {
        container_tags: vec![],
        filepath: None,
        filter: None,
        sort: SortField::CreatedAt,
        order: SortOrder::Desc,
        limit: 10,
        offset: 0,
    };
    assert_eq!(s.list_documents(&b, &q).await.unwrap().1, 0);
    assert!(s.list_processing(&b).await.unwrap().is_empty());
    // the same custom id in another org is another document
    let mut d2 = new_doc(&b, "mine");
    d2.custom_id = Some("shared".into());
    let other = add(s, d2).await;
    assert_ne!(other.id, doc.id);
    assert_eq!(
        s.get_document(&a, "shared").await.unwrap().unwrap().content,
        "secret"
    );
}

pub async fn leases_fence_workers(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    add(s, new_doc(&org, "x")).await;
    let j1 = s
        .claim_jobs("w1", 5, Duration::from_millis(1))
        .await
        .unwrap();
    assert_eq!(j1.len(), 1);
    tokio::time::sleep(Duration::from_millis(20)).await;
    // the lease expired: another worker reclaims the job
    let j2 = s.claim_jobs("w2", 5, LEASE).await.unwrap();
    assert_eq!(j2.len(), 1);
    assert!(s.claim_jobs("w3", 5, LEASE).await.unwrap().is_empty());
    // the first worker is fenced out
    assert!(!s
        .set_job_stage(&j1[0], DocumentStatus::Chunking)
        .await
        .unwrap());
    assert!(!s.complete_job(&j1[0], processed(2)).await.unwrap());
    assert!(s
        .renew_leases("w1", &[j1[0].id.clone()], LEASE)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        s.renew_leases("w2", &[j2[0].id.clone()], LEASE)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(s.complete_job(&j2[0], processed(2)).await.unwrap());
    assert_eq!(
        s.list_chunks(&org, &j2[0].document_id).await.unwrap().len(),
        2
    );
}

pub async fn completion_replaces_chunks(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "v1");
    d.custom_id = Some("c".into());
    add(s, d.clone()).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s
        .set_job_stage(&j, DocumentStatus::Embedding)
        .await
        .unwrap());
    assert_eq!(
        s.get_document(&org, "c").await.unwrap().unwrap().status,
        DocumentStatus::Embedding
    );
    assert_eq!(s.list_processing(&org).await.unwrap().len(), 1);
    assert!(s.complete_job(&j, processed(3)).await.unwrap());
    assert!(
        !s.complete_job(&j, processed(3)).await.unwrap(),
        "a job completes once"
    );
    let doc = s.get_document(&org, "c").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Done);
    assert_eq!(doc.chunk_count, 3);
    assert_eq!(doc.title.as_deref(), Some("Title"));
    assert!(s.list_processing(&org).await.unwrap().is_empty());
    let chunks = s.list_chunks(&org, &doc.id).await.unwrap();
    assert_eq!(
        chunks.iter().map(|c| c.position).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert_eq!(chunks[1].embedding, vec![1.0, 1.0, -0.5]);
    // reprocessing replaces, never appends
    d.content = "v2".into();
    add(s, d).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(1)).await.unwrap());
    assert_eq!(s.list_chunks(&org, &doc.id).await.unwrap().len(), 1);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn stale_revision_is_fenced(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "v1");
    d.custom_id = Some("c".into());
    add(s, d.clone()).await;
    let old = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    d.content = "v2".into();
    add(s, d).await;
    assert!(!s.complete_job(&old, processed(5)).await.unwrap());
    let doc = s.get_document(&org, "c").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Queued);
    assert!(s.list_chunks(&org, &doc.id).await.unwrap().is_empty());
    let new = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert_eq!(new.revision, 2);
}

pub async fn failures_retry_then_fail(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    let later = now() + chrono::Duration::milliseconds(200);
    assert!(s.fail_job(&j, "transient", Some(later)).await.unwrap());
    assert!(
        s.claim_jobs("w", 1, LEASE).await.unwrap().is_empty(),
        "not due yet"
    );
    tokio::time::sleep(Duration::from_millis(250)).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert_eq!(j.attempts, 1);
    assert!(s.fail_job(&j, "permanent", None).await.unwrap());
    let d = s.get_document(&org, &doc.id).await.unwrap().unwrap();
    assert_eq!(d.status, DocumentStatus::Failed);
    assert_eq!(d.error.as_deref(), Some("permanent"));
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn delete_cascades(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "x");
    d.container_tags = vec!["t1".into()];
    d.filepath = Some("/docs/a.md".into());
    let a = add(s, d.clone()).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(2)).await.unwrap());
    assert!(s.delete_document(&org, &a.id).await.unwrap());
    assert!(s.get_document(&org, &a.id).await.unwrap().is_none());
    assert!(s.list_chunks(&org, &a.id).await.unwrap().is_empty());
    assert!(!s.delete_document(&org, &a.id).await.unwrap());
    // by tag and by path; pending jobs go with their documents
    add(s, d.clone()).await;
    d.container_tags = vec!["t2".into()];
    add(s, d.clone()).await;
    assert_eq!(
        s.delete_documents_by_tags(&org, &["t1".into()])
            .await
            .unwrap(),
        1
    );
    d.filepath = Some("/docs/sub/b.md".into());
    add(s, d.clone()).await;
    d.filepath = Some("/other/c.md".into());
    add(s, d).await;
    assert_eq!(
        s.delete_documents_by_filepath(&org, "/docs/")
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        s.delete_documents_by_filepath(&org, "/other/c.md")
            .await
            .unwrap(),
        1
    );
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn list_pages_sorts_and_scopes(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut ids = Vec::new();
    for i in 0..5 {
        let mut d = new_doc(&org, &format!("doc {i}"));
        d.container_tags = vec![if i % 2 == 0 { "even" } else { "odd" }.into()];
        d.filepath = Some(format!("/p/{i}.txt"));
        ids.push(add(s, d).await.id);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let mut q = ListQuery {
        container_tags: vec![],
        filepath: None,
        filter: None,
        sort: SortField::CreatedAt,
        order: SortOrder::Desc,
        limit: 2,
        offset: 0,
    };
    let (page, total) = s.list_documents(&org, &q).await.unwrap();
    assert_eq!(total, 5);
    assert_eq!(
        page.iter().map(|d| d.id.clone()).collect::<Vec<_>>(),
        vec![ids[4].clone(), ids[3].clone()]
    );
    q.offset = 4;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[0]);
    q.offset = 0;
    q.order = SortOrder::Asc;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[0]);
    q.container_tags = vec!["even".into()];
    q.limit = 10;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 3);
    q.container_tags = vec![];
    q.filepath = Some("/p/3.txt".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[3]);
    q.filepath = Some("/p/".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 5);
    q.filepath = Some("/p_".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 0);
}

pub async fn release_returns_jobs(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w1", 1, LEASE).await.unwrap().remove(0);
    assert!(s
        .set_job_stage(&j, DocumentStatus::Embedding)
        .await
        .unwrap());
    assert!(s.claim_jobs("w2", 1, LEASE).await.unwrap().is_empty());
    assert_eq!(s.release_jobs("w1").await.unwrap(), 1);
    assert_eq!(
        s.get_document(&org, &doc.id).await.unwrap().unwrap().status,
        DocumentStatus::Queued
    );
    assert_eq!(s.claim_jobs("w2", 1, LEASE).await.unwrap().len(), 1);
}

pub async fn patch_in_place_and_reprocess(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(1)).await.unwrap());
    let meta = json!({"a": true}).as_object().unwrap().clone();
    let patch = DocumentPatch {
        metadata: Some(meta.clone()),
        container_tags: Some(vec!["n".into()]),
        ..Default::default()
    };
    let d = s
        .update_document(&org, &doc.id, patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.status, DocumentStatus::Done, "metadata changes in place");
    assert_eq!(d.metadata, meta);
    assert_eq!(d.container_tags, vec!["n"]);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
    let patch = DocumentPatch {
        content: Some("new".into()),
        ..Default::default()
    };
    let d = s
        .update_document(&org, &doc.id, patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.status, DocumentStatus::Queued);
    assert_eq!(d.revision, 2);
    assert_eq!(s.pending_jobs().await.unwrap(), 1);
    // a custom id taken by another document is a conflict
    let mut other = new_doc(&org, "y");
    other.custom_id = Some("taken".into());
    add(s, other).await;
    let patch = DocumentPatch {
        custom_id: Some("taken".into()),
        ..Default::default()
    };
    assert!(matches!(
        s.update_document(&org, &doc.id, patch).await,
        Err(StoreError::Conflict(_))
    ));
}

/// Random filters over random metadata: the store's compiled query selects
/// exactly the documents the in-memory evaluator accepts.
pub async fn filters_agree_with_the_evaluator(s: &dyn Store) {
    use engram_core::filter::Filter;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use serde_json::Value;

    const KEYS: &[&str] = &["a", "b", "c.d", "e-f"];
    const STRINGS: &[&str] = &[
        "x",
        "X",
        "xy",
        "Hello",
        "hello world",
        "",
        "É",
        "é",
        "2",
        "true",
    ];
    let string = || prop::sample::select(STRINGS).prop_map(|s| s.to_string());
    let scalar = prop_oneof![
        string().prop_map(Value::from),
        (-3i64..4).prop_map(Value::from),
        prop::sample::select(&[1.5f64, -0.5, 2.0][..]).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        prop::collection::vec(string(), 0..4)
            .prop_map(|v| Value::Array(v.into_iter().map(Value::from).collect())),
    ];
    let metadata = prop::collection::btree_map(prop::sample::select(KEYS), scalar, 0..4);
    let value = prop_oneof![
        string(),
        (-3i64..4).prop_map(|n| n.to_string()),
        Just("1.5".to_string()),
        Just("false".to_string()),
    ];
    let cond = (
        prop::sample::select(&["a", "b", "c.d", "e-f", "zz"][..]),
        value,
        0usize..4,
        prop::sample::select(&[">", "<", ">=", "<=", "="][..]),
        any::<bool>(),
        any::<bool>(),
        (-3i64..4),
    )
        .prop_map(|(key, value, kind, op, negate, ignore_case, n)| {
            let kinds = ["metadata", "numeric", "array_contains", "string_contains"];
            let value = if kind == 1 { n.to_string() } else { value };
            json!({"key": key, "value": value, "filterType": kinds[kind], "numericOperator": op,
                   "negate": negate, "ignoreCase": ignore_case})
        });
    let filter = cond.prop_recursive(3, 12, 3, |inner| {
        (any::<bool>(), prop::collection::vec(inner, 1..4)).prop_map(|(and, items)| {
            if and {
                json!({"AND": items})
            } else {
                json!({"OR": items})
            }
        })
    });

    let org = s.ensure_org("filters").await.unwrap().id;
    let mut runner = TestRunner::deterministic();
    let mut docs = Vec::new();
    for _ in 0..40 {
        let m = metadata.new_tree(&mut runner).unwrap().current();
        let mut d = new_doc(&org, "x");
        d.metadata = m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        docs.push(add(s, d).await);
    }
    let mut discriminating = 0;
    for _ in 0..300 {
        let raw = json!({"AND": [filter.new_tree(&mut runner).unwrap().current()]});
        let f: Filter = engram_core::filter::parse("filters", &raw).unwrap();
        let mut want: Vec<String> = docs
            .iter()
            .filter(|d| f.matches(&d.metadata))
            .map(|d| d.id.clone())
            .collect();
        want.sort();
        let q = ListQuery {
            container_tags: vec![],
            filepath: None,
            filter: Some(f),
            sort: SortField::CreatedAt,
            order: SortOrder::Asc,
            limit: 1000,
            offset: 0,
        };
        let (got, total) = s.list_documents(&org, &q).await.unwrap();
        let mut got: Vec<String> = got.into_iter().map(|d| d.id).collect();
        got.sort();
        assert_eq!(got, want, "filter {raw}");
        assert_eq!(total as usize, want.len());
        if !want.is_empty() && want.len() < docs.len() {
            discriminating += 1;
        }
    }
    // the generated filters must actually tell documents apart
    assert!(
        discriminating > 50,
        "only {discriminating} of 300 filters were selective"
    );
}

/// Keyword and vector candidates: ranked, scoped, tenant-isolated.
pub async fn search_candidates_respect_scope(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    let texts = [
        ("the red fox jumps", [1.0f32, 0.0, 0.0], "t1"),
        ("a red red apple", [0.8, 0.6, 0.0], "t2"),
        ("blue ocean waves", [0.0, 0.0, 1.0], "t1"),
    ];
    let mut ids = Vec::new();
    for (text, emb, tag) in texts {
        let mut d = new_doc(&org, text);
        d.container_tags = vec![tag.into()];
        let doc = add(s, d).await;
        let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
        let mut p = processed(0);
        p.chunks = vec![NewChunk {
            position: 0,
            content: text.into(),
            token_count: 4,
            embedding: emb.to_vec(),
        }];
        assert!(s.complete_job(&j, p).await.unwrap());
        ids.push(doc.id);
    }
    // a same-text document in another organisation must never show up
    let d = add(s, new_doc(&other, "red fox")).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    let mut p = processed(0);
    p.chunks = vec![NewChunk {
        position: 0,
        content: "red fox".into(),
        token_count: 2,
        embedding: vec![1.0, 0.0, 0.0],
    }];
    assert!(s.complete_job(&j, p).await.unwrap());

    let all = SearchScope::default();
    let kw = s
        .keyword_search(&org, &all, &["red".into()], 10)
        .await
        .unwrap();
    let kw_docs: Vec<&str> = kw.iter().map(|h| h.document_id.as_str()).collect();
    assert_eq!(kw_docs.len(), 2);
    assert!(!kw_docs.contains(&d.id.as_str()));
    assert!(kw.iter().all(|h| h.score > 0.0));
    assert_eq!(
        kw[0].document_id, ids[1],
        "two occurrences of `red` rank first"
    );
    // porter stemming: `jumping` finds `jumps`
    let kw = s
        .keyword_search(&org, &all, &["jumping".into()], 10)
        .await
        .unwrap();
    assert_eq!(kw.len(), 1);
    assert!(s
        .keyword_search(&org, &all, &[], 10)
        .await
        .unwrap()
        .is_empty());
    // quotes in terms are data, not syntax
    assert!(s
        .keyword_search(&org, &all, &["re\"d OR x".into()], 10)
        .await
        .unwrap()
        .is_empty());

    let v = s
        .vector_search(&org, &all, &[1.0, 0.0, 0.0], 2, &[])
        .await
        .unwrap();
    assert_eq!(
        v.iter().map(|h| h.document_id.clone()).collect::<Vec<_>>(),
        vec![ids[0].clone(), ids[1].clone()]
    );
    assert!((v[0].score - 1.0).abs() < 1e-6 && (v[1].score - 0.8).abs() < 1e-6);
    let blue_chunk = s.list_chunks(&org, &ids[2]).await.unwrap()[0].id.clone();
    let v = s
        .vector_search(
            &org,
            &all,
            &[1.0, 0.0, 0.0],
            1,
            std::slice::from_ref(&blue_chunk),
        )
        .await
        .unwrap();
    assert_eq!(v.len(), 2, "the named chunk is scored too");
    assert_eq!(v[1].chunk_id, blue_chunk);

    let t1 = SearchScope {
        container_tags: vec!["t1".into()],
        ..Default::default()
    };
    let v = s
        .vector_search(&org, &t1, &[0.8, 0.6, 0.0], 10, &[])
        .await
        .unwrap();
    assert!(v.iter().all(|h| h.document_id != ids[1]));
    let one = SearchScope {
        document_id: Some(ids[1].clone()),
        ..Default::default()
    };
    assert_eq!(
        s.keyword_search(&org, &one, &["red".into(), "fox".into()], 10)
            .await
            .unwrap()
            .len(),
        1
    );

    let c = s.chunks_at(&org, &ids[0], &[0, 1, 7]).await.unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].content, "the red fox jumps");
    assert!(s.chunks_at(&other, &ids[0], &[0]).await.unwrap().is_empty());
    let got = s
        .chunks_by_ids(&org, &[c[0].id.clone(), "nope".into()])
        .await
        .unwrap();
    assert_eq!(got.len(), 1);
    assert!(s
        .chunks_by_ids(&other, &[c[0].id.clone()])
        .await
        .unwrap()
        .is_empty());
}
