//! The index through its public API: scope, reading context, updates.

use engram_index::{IndexChunk, IndexDocument, OrgIndex, Query, Scope, Subject};
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
            subject: None,
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
            subject: None,
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

/// Documents of several chunks over a few tags, some replaced and some
/// removed, so that free slots, links and postings all have history.
fn churned(n: usize, dim: usize) -> OrgIndex {
    let mut index = OrgIndex::new(dim);
    let words = [
        "puppy", "lisbon", "tea", "garden", "chess", "violin", "oslo",
    ];
    let vector = |i: usize| -> Vec<f32> {
        let v: Vec<f32> = (0..dim).map(|d| ((i * 7 + d * 3) as f32).sin()).collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / norm).collect()
    };
    let make = |i: usize, version: usize| IndexDocument {
        context: String::new(),
        id: format!("d{i}"),
        seq: i as i64,
        container_tags: vec![format!("t{}", i % 3)],
        metadata: json!({"n": i, "v": version}).as_object().unwrap().clone(),
        filepath: i.is_multiple_of(2).then(|| format!("/p/{i}.md")),
        chunks: (0..1 + i % 3)
            .map(|c| IndexChunk {
                id: format!("d{i}-{c}-{version}"),
                position: c as i64,
                text: format!(
                    "{} {} note {i} part {c}",
                    words[(i + c) % words.len()],
                    words[(i * 3 + version) % words.len()]
                ),
                embedding: vector(i * 5 + c + version),
            })
            .collect(),
    };
    index.upsert_many((0..n).map(|i| make(i, 0)));
    for i in (0..n).step_by(5) {
        index.remove(&format!("d{i}"));
    }
    index.upsert_many((0..n).step_by(7).map(|i| make(i, 1)));
    index
}

fn answers(index: &OrgIndex, dim: usize) -> Vec<Vec<(String, String, u32)>> {
    let scopes = [
        Scope::default(),
        Scope {
            container_tags: vec!["t1".into()],
            ..Default::default()
        },
        Scope {
            filepath: Some("/p/".into()),
            ..Default::default()
        },
    ];
    let mut out = Vec::new();
    for (qi, q) in ["puppy tea", "oslo chess note", "violin part 2"]
        .iter()
        .enumerate()
    {
        let v: Vec<f32> = (0..dim).map(|d| ((qi + d) as f32).cos()).collect();
        for scope in &scopes {
            let hits = index.search(&Query {
                text: q,
                embedding: &v,
                scope,
                limit: 20,
                nearest: None,
                subject: None,
            });
            out.push(
                hits.into_iter()
                    .map(|h| (h.document_id, h.chunk_id, (h.score * 1e5).round() as u32))
                    .collect(),
            );
        }
    }
    out
}

fn round_trip(index: &OrgIndex, dir: &std::path::Path) -> OrgIndex {
    let graph = dir.join("graph");
    let mut bytes = Vec::new();
    index.encode(&mut bytes, &graph).unwrap();
    OrgIndex::decode(&mut bytes.as_slice(), bytes.len() as u64, &graph).unwrap()
}

#[test]
fn an_index_read_back_answers_and_changes_as_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = churned(400, 8);
    let mut b = round_trip(&a, dir.path());
    assert_eq!((b.documents(), b.chunks()), (a.documents(), a.chunks()));
    assert_eq!(answers(&b, 8), answers(&a, 8));
    assert!(!answers(&a, 8)[0].is_empty());
    // both go on changing alike: free slots, links and postings came back
    for index in [&mut a, &mut b] {
        index.remove("d3");
        index.remove("d14");
        index.upsert(doc(
            "new",
            999,
            "t1",
            "a violin in oslo",
            [0.5, 0.5, 0.5, 0.5],
        ));
    }
    assert_eq!(answers(&b, 8), answers(&a, 8));
}

#[test]
fn a_large_index_keeps_its_graph() {
    let dir = tempfile::tempdir().unwrap();
    let n = engram_index::ANN_MIN_CHUNKS / 2 + 100; // about two chunks each
    let a = churned(n, 4);
    assert!(a.has_ann(), "{} chunks", a.chunks());
    let b = round_trip(&a, dir.path());
    assert!(b.has_ann());
    let q = [0.3, -0.2, 0.9, 0.1];
    let all = Scope::default();
    assert_eq!(
        b.vector_top(&q, &all, 10, true),
        a.vector_top(&q, &all, 10, true)
    );
    assert_eq!(answers(&b, 4), answers(&a, 4));
}

#[test]
fn a_truncated_encoding_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("graph");
    let a = churned(60, 8);
    let mut bytes = Vec::new();
    a.encode(&mut bytes, &graph).unwrap();
    for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
        let part = &bytes[..cut];
        assert!(
            OrgIndex::decode(&mut &part[..], part.len() as u64, &graph).is_err(),
            "cut at {cut} of {}",
            bytes.len()
        );
    }
    // a length claiming more than the input holds is refused before
    // anything is allocated for it
    let mut lying = bytes.clone();
    lying[10..18].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(OrgIndex::decode(&mut lying.as_slice(), lying.len() as u64, &graph).is_err());
}

/// Facts about one person: a short one that is mostly the name, and a
/// longer one about a pet; a question names the person and asks about
/// pets. The name direction is `X`.
#[test]
fn facts_naming_the_subject_rank_by_what_else_they_say() {
    let mut index = OrgIndex::new(4);
    let mut add = |id: &str, seq: i64, text: &str, v: [f32; 4]| {
        index.upsert(doc(id, seq, "omar", text, v));
    };
    add("age", 1, "Omar is 41 years old.", [0.95, 0.312, 0.0, 0.0]);
    add("cat", 2, "Omar's cat Pixel died.", [0.45, 0.8, 0.397, 0.0]);
    add("tea", 3, "Sara drinks tea.", [0.0, 0.6, 0.8, 0.0]);
    let q = [0.7, 0.0, 0.714, 0.0];
    let scope = Scope {
        container_tags: vec!["omar".into()],
        ..Scope::default()
    };
    // (id, cosine) best first
    let run = |subject: Option<Subject>| -> Vec<(String, f32)> {
        index
            .search(&Query {
                text: "does Omar have a pet?",
                embedding: &q,
                scope: &scope,
                limit: 10,
                nearest: None,
                subject,
            })
            .into_iter()
            .map(|h| (h.document_id, h.cosine))
            .collect()
    };
    let plain = run(None);
    assert_eq!(plain[0].0, "age", "{plain:?}");
    let named = run(Some(Subject {
        name: "Omar",
        embedding: &X,
    }));
    assert_eq!(named[0].0, "cat", "{named:?}");
    // a fact that does not name the subject keeps its cosine
    assert_eq!(score_of(&plain, "tea"), score_of(&named, "tea"));
    // the facts naming the subject lean on it as much as they did on
    // average: their cosines move around the same level
    let mean =
        |h: &[(String, f32)]| (score_of(h, "age").unwrap() + score_of(h, "cat").unwrap()) / 2.0;
    assert!(
        (mean(&plain) - mean(&named)).abs() < 0.05,
        "{plain:?} {named:?}"
    );
    // a name no fact holds changes nothing
    let other = run(Some(Subject {
        name: "Lena",
        embedding: &X,
    }));
    assert_eq!(other, plain);
}
