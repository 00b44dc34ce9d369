//! Metadata filters and search candidates.

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
    let docs = s
        .documents_by_ids(&org, &[ids[0].clone(), ids[2].clone(), "nope".into()])
        .await
        .unwrap();
    assert_eq!(docs.len(), 2);
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
