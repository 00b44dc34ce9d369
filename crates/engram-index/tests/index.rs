//! The index through its public API: scope, reading context, updates.

use engram_index::{IndexChunk, IndexDocument, OrgIndex, Query, Scope};
use serde_json::json;

fn doc(id: &str, seq: i64, tag: &str, text: &str, v: [f32; 4]) -> IndexDocument {
    IndexDocument {
        context: String::new(),
        id: id.into(),
        seq,
        container_tags: vec![tag.into()],
        metadata: json!({"speaker": "Ann", "n": seq})
            .as_object()
            .unwrap()
            .clone(),
        filepath: Some(format!("/notes/{id}.md")),
        chunks: vec![IndexChunk {
            id: format!("{id}-0"),
            position: 0,
            text: text.into(),
            embedding: v.to_vec(),
        }],
    }
}

fn search(index: &OrgIndex, q: &str, v: [f32; 4], scope: &Scope) -> Vec<(String, f32)> {
    index
        .search(&Query {
            text: q,
            embedding: &v,
            scope,
            limit: 10,
            nearest: None,
        })
        .into_iter()
        .map(|h| (h.document_id, h.score))
        .collect()
}

fn score_of(hits: &[(String, f32)], id: &str) -> Option<f32> {
    hits.iter().find(|h| h.0 == id).map(|h| h.1)
}

const X: [f32; 4] = [1.0, 0.0, 0.0, 0.0];
const Y: [f32; 4] = [0.0, 1.0, 0.0, 0.0];
const Z: [f32; 4] = [0.0, 0.0, 1.0, 0.0];

fn conversation() -> OrgIndex {
    let mut index = OrgIndex::new(4);
    index.upsert(doc("a", 1, "chat", "Did you adopt the puppy?", Y));
    index.upsert(doc("b", 2, "chat", "Yes, last week!", Z));
    index.upsert(doc("c", 3, "chat", "The weather is lovely today.", Z));
    index.upsert(doc("d", 4, "other", "Yes, last week!", Z));
    index
}

#[test]
fn an_answer_is_found_through_its_reading_context() {
    let index = conversation();
    let hits = search(&index, "puppy adoption", X, &Scope::default());
    let a = score_of(&hits, "a").expect("the question itself");
    let b = score_of(&hits, "b").expect("the answer, through its context");
    assert!(a > b, "{hits:?}");
    // the same words in another stream have no such context
    let d = score_of(&hits, "d").unwrap_or(0.0);
    assert!(b > d, "{hits:?}");
    assert!(hits.iter().all(|h| (0.0..=1.0).contains(&h.1)));
}

#[test]
fn a_near_identical_chunk_scores_near_one() {
    let mut index = OrgIndex::new(4);
    index.upsert(doc("a", 1, "t", "rate limits per organisation", X));
    index.upsert(doc("b", 2, "t", "unrelated gardening notes", Y));
    let hits = search(&index, "rate limits per organisation", X, &Scope::default());
    assert_eq!(hits[0].0, "a");
    assert!(hits[0].1 > 0.9, "{hits:?}");
    // its neighbour holds every query word, yet it stays below the line
    // that means "relevant"
    let b = score_of(&hits, "b").unwrap_or(0.0);
    assert!(b < engram_index::fusion::RELEVANT_CALIBRATED, "{hits:?}");
}

#[test]
fn scope_restricts_before_ranking() {
    let index = conversation();
    let check = |scope: Scope, want: &[&str]| {
        let hits = search(&index, "yes week puppy weather", Z, &scope);
        let mut got: Vec<&str> = hits.iter().map(|h| h.0.as_str()).collect();
        got.sort();
        assert_eq!(got, want, "{scope:?}");
    };
    check(
        Scope {
            container_tags: vec!["other".into()],
            ..Default::default()
        },
        &["d"],
    );
    check(
        Scope {
            document_id: Some("b".into()),
            ..Default::default()
        },
        &["b"],
    );
    check(
        Scope {
            filepath: Some("/notes/c.md".into()),
            ..Default::default()
        },
        &["c"],
    );
    check(
        Scope {
            filepath: Some("/notes/".into()),
            ..Default::default()
        },
        &["a", "b", "c", "d"],
    );
    let filter = engram_core::filter::parse(
        "filters",
        &json!({"AND": [{"key": "n", "value": "3", "filterType": "numeric", "numericOperator": ">="}]}),
    )
    .unwrap();
    check(
        Scope {
            filter: Some(filter),
            ..Default::default()
        },
        &["c", "d"],
    );
    check(
        Scope {
            container_tags: vec!["nope".into()],
            ..Default::default()
        },
        &[],
    );
}

#[test]
fn removal_and_replacement_relink_the_reading_order() {
    let mut index = conversation();
    assert_eq!((index.documents(), index.chunks()), (4, 4));
    // without its question, the answer loses its context
    assert!(index.remove("a"));
    assert!(!index.remove("a"));
    let hits = search(&index, "puppy adoption", X, &Scope::default());
    assert!(score_of(&hits, "b").unwrap_or(0.0) < 0.05, "{hits:?}");
    // the question comes back (same creation order): context again
    index.upsert(doc("a", 1, "chat", "Did you adopt the puppy?", Y));
    let hits = search(&index, "puppy adoption", X, &Scope::default());
    assert!(score_of(&hits, "b").unwrap_or(0.0) > 0.05, "{hits:?}");
    // replacing a document keeps one copy
    index.upsert(doc("b", 2, "chat", "No, not yet.", Z));
    assert_eq!((index.documents(), index.chunks()), (4, 4));
    let hits = search(&index, "last week", Z, &Scope::default());
    assert!(score_of(&hits, "d").is_some());
    assert!(index.memory_bytes() > 0);
}

#[test]
fn empty_queries_and_scopes_are_harmless() {
    let index = conversation();
    assert!(search(&index, "", X, &Scope::default()).len() <= 4);
    assert!(search(&OrgIndex::new(4), "anything", X, &Scope::default()).is_empty());
}

#[test]
fn queries_on_one_thread_do_not_leak_into_each_other() {
    // queries reuse per-thread buffers: any order of scopes, indexes and
    // queries must give what a first query on a fresh thread gives
    let big = conversation();
    let mut small = OrgIndex::new(4);
    small.upsert(doc("s", 1, "chat", "puppy training tips", X));
    let chat = Scope {
        container_tags: vec!["chat".into()],
        ..Scope::default()
    };
    let all = Scope::default();
    let fresh = |f: fn() -> Vec<(String, f32)>| std::thread::spawn(f).join().unwrap();
    let big_chat = fresh(|| {
        search(
            &conversation(),
            "puppy last week",
            Y,
            &Scope {
                container_tags: vec!["chat".into()],
                ..Scope::default()
            },
        )
    });
    let big_all = fresh(|| search(&conversation(), "weather", Z, &Scope::default()));
    for _ in 0..3 {
        assert_eq!(search(&big, "puppy last week", Y, &chat), big_chat);
        assert_eq!(search(&small, "puppy", X, &all).len(), 1);
        assert_eq!(search(&big, "weather", Z, &all), big_all);
        assert!(search(&small, "puppy", X, &chat)[0].1 > 0.5);
        let other = Scope {
            container_tags: vec!["other".into()],
            ..Scope::default()
        };
        let only_d: Vec<String> = search(&big, "puppy last week", Y, &other)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(only_d, ["d"]);
    }
}

#[test]
fn large_scopes_take_vector_candidates_from_outside_when_told() {
    // a store's vector index answers for large scopes: this index builds
    // no graph, trusts the cosines it is given, and skips ids it lacks
    let mut index = OrgIndex::without_graph(4);
    let n = engram_index::ANN_MIN_CHUNKS + 10;
    index.upsert_many((0..n).map(|i| {
        let tag = if i < 5 { "small" } else { "big" };
        doc(&format!("d{i}"), i as i64, tag, "plain filler words", Y)
    }));
    assert!(!index.has_ann());
    let nearest = vec![
        ("gone-0".to_string(), 0.99),
        ("d42-0".to_string(), 0.97),
        ("d3-0".to_string(), 0.95),
    ];
    let query = |scope: &Scope| {
        index.search(&Query {
            text: "unrelated",
            embedding: &X,
            scope,
            limit: 3,
            nearest: Some(&nearest),
        })
    };
    let hits = query(&Scope::default());
    assert_eq!(hits[0].document_id, "d42");
    assert!((hits[0].cosine - 0.97).abs() < 1e-6, "{hits:?}");
    assert!(hits.iter().all(|h| h.document_id != "gone"));
    // a small scope is scanned exactly (the true cosine of X and Y is 0)
    let small = Scope {
        container_tags: vec!["small".into()],
        ..Scope::default()
    };
    let hits = query(&small);
    assert!(hits.iter().all(|h| h.cosine.abs() < 1e-6), "{hits:?}");
}
