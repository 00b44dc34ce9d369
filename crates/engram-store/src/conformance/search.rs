//! Metadata filters, and what the search index reads from the store.

use super::*;

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

async fn index_head(s: &dyn Store, org: &str) -> i64 {
    s.index_changes(org, 0, 100_000)
        .await
        .unwrap()
        .last()
        .map_or(0, |c| c.seq)
}

async fn changed_since(s: &dyn Store, org: &str, after: i64) -> Vec<String> {
    s.index_changes(org, after, 100_000)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.document_id)
        .collect()
}

/// The change log the search index follows, and documents as it loads
/// them: ordered, per organisation, covering every searchable change.
pub async fn index_log_and_loading(s: &dyn Store) {
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
        d.metadata = json!({"speaker": "Ann"}).as_object().unwrap().clone();
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
    let d = add(s, new_doc(&other, "red fox")).await;

    // every document of the organisation is in the log, once, in order
    let log = s.index_changes(&org, 0, 100).await.unwrap();
    assert!(log.windows(2).all(|w| w[0].seq < w[1].seq));
    let mut logged: Vec<String> = log.iter().map(|c| c.document_id.clone()).collect();
    logged.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(logged, want, "one entry per document, none of another org");
    assert_eq!(s.index_changes(&org, 0, 2).await.unwrap().len(), 2);
    assert!(changed_since(s, &other, 0).await.contains(&d.id));

    // loading: creation order, tags, metadata, chunks with embeddings
    let loaded = s
        .index_documents(&org, &[ids[2].clone(), ids[0].clone(), "nope".into()])
        .await
        .unwrap();
    assert_eq!(loaded.len(), 2);
    let first = loaded.iter().find(|x| x.id == ids[0]).unwrap();
    let third = loaded.iter().find(|x| x.id == ids[2]).unwrap();
    assert!(first.seq < third.seq, "seq follows creation order");
    assert_eq!(first.container_tags, vec!["t1".to_string()]);
    assert_eq!(first.metadata.get("speaker"), Some(&json!("Ann")));
    assert_eq!(first.chunks.len(), 1);
    assert_eq!(first.chunks[0].content, "the red fox jumps");
    assert_eq!(first.chunks[0].embedding, vec![1.0, 0.0, 0.0]);
    assert!(s
        .index_documents(&other, &[ids[0].clone()])
        .await
        .unwrap()
        .is_empty());

    // each kind of change moves the document to the head of the log
    let head = index_head(s, &org).await;
    let patch = DocumentPatch {
        metadata: Some(json!({"speaker": "Bo"}).as_object().unwrap().clone()),
        ..Default::default()
    };
    s.update_document(&org, &ids[1], patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(changed_since(s, &org, head).await, vec![ids[1].clone()]);
    let head = index_head(s, &org).await;
    let patch = DocumentPatch {
        container_tags: Some(vec!["t3".into()]),
        ..Default::default()
    };
    s.update_document(&org, &ids[0], patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(changed_since(s, &org, head).await, vec![ids[0].clone()]);
    let head = index_head(s, &org).await;
    assert!(s.delete_document(&org, &ids[2]).await.unwrap());
    assert_eq!(changed_since(s, &org, head).await, vec![ids[2].clone()]);
    assert!(s
        .index_documents(&org, &[ids[2].clone()])
        .await
        .unwrap()
        .is_empty());
    let head = index_head(s, &org).await;
    assert_eq!(
        s.delete_documents_by_tags(&org, &["t3".into()])
            .await
            .unwrap(),
        1
    );
    assert_eq!(changed_since(s, &org, head).await, vec![ids[0].clone()]);
    assert!(changed_since(s, &org, index_head(s, &org).await)
        .await
        .is_empty());

    // a document's processing stages are invisible to the index: only
    // its completion (new chunks) is logged
    let doc = add(s, new_doc(&org, "green hills")).await;
    let head = index_head(s, &org).await;
    // (the other organisation's document is still queued too)
    let j: Vec<Job> = s
        .claim_jobs("w", 10, LEASE)
        .await
        .unwrap()
        .into_iter()
        .filter(|j| j.document_id == doc.id)
        .collect();
    for status in [
        engram_core::DocumentStatus::Extracting,
        engram_core::DocumentStatus::Chunking,
        engram_core::DocumentStatus::Embedding,
        engram_core::DocumentStatus::Indexing,
    ] {
        assert_eq!(s.set_jobs_stage(&j, status).await.unwrap(), vec![true]);
    }
    assert!(changed_since(s, &org, head).await.is_empty());
    assert!(s.complete_job(&j[0], processed(1)).await.unwrap());
    assert_eq!(changed_since(s, &org, head).await, vec![doc.id.clone()]);

    // the rest of the search reads
    let ids = [ids[1].clone()];
    let c = s.chunks_at(&org, &ids[0], &[0, 1, 7]).await.unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].content, "a red red apple");
    assert!(s.chunks_at(&other, &ids[0], &[0]).await.unwrap().is_empty());
    let docs = s
        .documents_by_ids(&org, &[ids[0].clone(), "nope".into()])
        .await
        .unwrap();
    assert_eq!(docs.len(), 1);
    assert!(s
        .documents_by_ids(&other, &[ids[0].clone()])
        .await
        .unwrap()
        .is_empty());
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

/// A store with a vector index answers nearest-chunk queries inside the
/// scope, with true cosines, best first. (Stores without one skip this.)
pub async fn nearest_chunks_respect_the_scope(s: &dyn Store) {
    if !s.supports_vector_index() {
        return;
    }
    s.prepare_vector_index(3).await.unwrap();
    s.prepare_vector_index(3).await.unwrap();
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    let items = [
        (&org, "t1", [1.0f32, 0.0, 0.0]),
        (&org, "t1", [0.6, 0.8, 0.0]),
        (&org, "t2", [0.99, 0.141, 0.0]),
        (&org, "t1", [0.0, 0.0, 1.0]),
        (&other, "t1", [1.0, 0.0, 0.0]),
    ];
    let mut chunk_of = Vec::new();
    for (o, tag, emb) in items {
        let mut d = new_doc(o, "text");
        d.container_tags = vec![tag.into()];
        let doc = add(s, d).await;
        let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
        let mut p = processed(0);
        p.chunks = vec![NewChunk {
            position: 0,
            content: "text".into(),
            token_count: 1,
            embedding: emb.to_vec(),
        }];
        assert!(s.complete_job(&j, p).await.unwrap());
        chunk_of.push(s.list_chunks(o, &doc.id).await.unwrap()[0].id.clone());
    }
    let q = [1.0f32, 0.0, 0.0];
    let t1 = SearchScope {
        container_tags: vec!["t1".into()],
        ..Default::default()
    };
    let got = s.nearest_chunks(&org, &t1, &q, 2).await.unwrap();
    let ids: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(ids, [chunk_of[0].as_str(), chunk_of[1].as_str()]);
    assert!(
        (got[0].1 - 1.0).abs() < 1e-4 && (got[1].1 - 0.6).abs() < 1e-4,
        "{got:?}"
    );
    let all = s
        .nearest_chunks(&org, &SearchScope::default(), &q, 10)
        .await
        .unwrap();
    assert_eq!(all.len(), 4, "never another organisation's chunks");
    assert_eq!(all[1].0, chunk_of[2]);
}
