//! `POST /v3/search` through the API (hash embedder: similarity follows
//! shared words, which keeps expectations exact).

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn seeded() -> (TestApp, Vec<String>) {
    let app = spawn_app().await;
    let docs = [
        (
            "Rust ownership and borrowing rules keep memory safe",
            "lang",
            json!({"topic": "rust", "year": 2021}),
            "/docs/rust.md",
        ),
        (
            "Python uses garbage collection for memory management",
            "lang",
            json!({"topic": "python", "year": 2019}),
            "/docs/python.md",
        ),
        (
            "Sourdough bread needs a starter and a long proof",
            "food",
            json!({"topic": "baking", "year": 2020}),
            "/recipes/bread.md",
        ),
    ];
    let mut ids = Vec::new();
    for (content, tag, meta, path) in docs {
        ids.push(app.add(json!({"content": content, "containerTag": tag, "metadata": meta, "filepath": path})).await);
    }
    app.wait_idle().await;
    (app, ids)
}

pub(crate) fn doc_ids(v: &Value) -> Vec<String> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["documentId"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn finds_and_ranks_documents() {
    let (app, ids) = seeded().await;
    let (s, v) = app
        .post("/v3/search", json!({"q": "memory safe rust ownership"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(doc_ids(&v)[0], ids[0]);
    let top = &v["results"][0];
    for key in [
        "title",
        "type",
        "score",
        "createdAt",
        "updatedAt",
        "metadata",
        "chunks",
    ] {
        assert!(top.get(key).is_some(), "missing {key}");
    }
    assert!(top.get("summary").is_none() && top.get("content").is_none());
    let score = top["score"].as_f64().unwrap();
    assert!(score > 0.0 && score <= 1.0);
    assert_eq!(top["chunks"][0]["isRelevant"], true);
    assert!(v["timing"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        v["total"].as_u64().unwrap() as usize,
        v["results"].as_array().unwrap().len()
    );
    // scores descend
    let scores: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // an exact repeat of a document scores near 1
    let (_, v) = app.post("/v3/search", json!({"q": "Sourdough bread needs a starter and a long proof", "chunkThreshold": 0.95})).await;
    assert_eq!(doc_ids(&v), vec![ids[2].clone()]);
}

#[tokio::test]
async fn scope_filters_path_and_doc_id() {
    let (app, ids) = seeded().await;
    let (_, v) = app
        .post("/v3/search", json!({"q": "memory", "containerTag": "food"}))
        .await;
    assert!(!doc_ids(&v).contains(&ids[0]) && !doc_ids(&v).contains(&ids[1]));
    let (_, v) = app
        .post(
            "/v3/search",
            json!({"q": "memory", "containerTags": ["lang"]}),
        )
        .await;
    assert!(doc_ids(&v).iter().all(|d| d == &ids[0] || d == &ids[1]));
    let f = json!({"AND": [{"key": "year", "value": "2020", "filterType": "numeric", "numericOperator": "<"}]});
    let (_, v) = app
        .post(
            "/v3/search",
            json!({"q": "memory management", "filters": f}),
        )
        .await;
    assert_eq!(doc_ids(&v), vec![ids[1].clone()]);
    let (_, v) = app
        .post("/v3/search", json!({"q": "memory", "filepath": "/docs/"}))
        .await;
    assert!(doc_ids(&v).iter().all(|d| d == &ids[0] || d == &ids[1]));
    let (_, v) = app
        .post("/v3/search", json!({"q": "memory", "docId": ids[1]}))
        .await;
    assert_eq!(doc_ids(&v), vec![ids[1].clone()]);
    let got = app
        .post("/v3/search", json!({"q": "memory", "docId": "nope"}))
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "not found");
    // other organisations see nothing
    let other = app.other_org_key("x").await;
    let (_, v) = app
        .send(
            "POST",
            "/v3/search",
            Some(&other),
            Some(json!({"q": "memory"})),
        )
        .await;
    assert_eq!(v["total"], 0);
}

#[tokio::test]
async fn limit_threshold_and_extras() {
    let (app, ids) = seeded().await;
    let (_, v) = app
        .post("/v3/search", json!({"q": "memory bread", "limit": 1}))
        .await;
    assert_eq!(v["results"].as_array().unwrap().len(), 1);
    assert!(v["total"].as_u64().unwrap() >= 2);
    let (_, all) = app
        .post("/v3/search", json!({"q": "memory", "chunkThreshold": 0}))
        .await;
    let (_, strict) = app
        .post("/v3/search", json!({"q": "memory", "chunkThreshold": 0.99}))
        .await;
    assert!(all["total"].as_u64() > strict["total"].as_u64());
    let (_, v) = app
        .post("/v3/search", json!({"q": "sourdough", "includeSummary": true, "includeFullDocs": "true", "documentThreshold": 0.5, "rerank": true, "rewriteQuery": true}))
        .await;
    let r = &v["results"][0];
    assert_eq!(r["documentId"], ids[2].as_str());
    assert!(r["summary"].as_str().unwrap().contains("Sourdough"));
    assert_eq!(
        r["content"],
        "Sourdough bread needs a starter and a long proof"
    );
}

#[tokio::test]
async fn context_chunks_when_not_only_matching() {
    let app = spawn_app_with(Options {
        engine: engram_engine::EngineConfig {
            chunk_tokens: Some(16),
            ..Options::default().engine
        },
        ..Default::default()
    })
    .await;
    let text = "Alpha beta gamma delta epsilon zeta eta theta.\n\nThe unicorn appears at midnight near the lake.\n\nIota kappa lambda mu nu xi omicron pi.";
    let id = app.add(json!({"content": text})).await;
    app.wait_done(&id).await;
    let (_, v) = app
        .post(
            "/v3/search",
            json!({"q": "unicorn midnight lake", "onlyMatchingChunks": false}),
        )
        .await;
    let chunks = v["results"][0]["chunks"].as_array().unwrap();
    let relevant: Vec<bool> = chunks
        .iter()
        .map(|c| c["isRelevant"].as_bool().unwrap())
        .collect();
    assert!(relevant.contains(&false) && relevant.contains(&true), "{v}");
    let positions: Vec<u64> = chunks
        .iter()
        .map(|c| c["position"].as_u64().unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    let (_, v) = app
        .post("/v3/search", json!({"q": "unicorn midnight lake"}))
        .await;
    assert!(v["results"][0]["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["isRelevant"] == true));
}

#[tokio::test]
async fn bad_searches_are_400s() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({}), "q"),
        (json!({"q": ""}), "q"),
        (json!({"q": "x", "limit": 0}), "limit"),
        (json!({"q": "x", "limit": 101}), "limit"),
        (json!({"q": "x", "chunkThreshold": 1.01}), "chunkThreshold"),
        (json!({"q": "x", "chunkThreshold": -1}), "chunkThreshold"),
        (
            json!({"q": "x", "documentThreshold": 7}),
            "documentThreshold",
        ),
        (json!({"q": "x", "docId": "d".repeat(256)}), "docId"),
        (
            json!({"q": "x", "containerTag": "t".repeat(101)}),
            "containerTag",
        ),
        (
            json!({"q": "x", "filters": {"AND": [{"key": "k"}]}}),
            "filters.AND[0].value",
        ),
        (json!({"q": "x", "filters": "{oops"}), "filters"),
        (json!({"q": 3}), "q"),
    ] {
        let got = app.post("/v3/search", body.clone()).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
}

/// `/v4/search` lists each matching passage of a long document as a result
/// of its own, and in hybrid a memory and its passage are one result,
/// scores staying in descending order.
#[tokio::test]
async fn v4_lists_every_matching_passage_and_merges_a_memory_with_its_own() {
    let app = spawn_app().await;
    let (s, _) = app.patch("/v3/settings", json!({"chunkSize": 40})).await;
    assert_eq!(s, StatusCode::OK);
    let filler = "The weather was mild and the meeting ran long as usual that week. ".repeat(6);
    let text = format!(
        "Dora plays the oboe in the city orchestra every Friday evening. {filler}\n\n\
         {filler}\n\nDora bought a new oboe reed case in Vienna last spring."
    );
    let id = app
        .add(json!({"content": text, "containerTag": "dora"}))
        .await;
    app.wait_idle().await;
    let (_, chunks) = app.get(&format!("/v3/documents/{id}/chunks")).await;
    assert!(chunks["chunks"].as_array().unwrap().len() >= 3, "{chunks}");

    let (s, v) = app
        .post(
            "/v4/search",
            json!({"q": "Dora oboe", "containerTag": "dora", "searchMode": "documents", "threshold": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let results = v["results"].as_array().unwrap();
    let passages: Vec<&str> = results.iter().filter_map(|r| r["chunk"].as_str()).collect();
    assert!(
        passages.iter().any(|p| p.contains("orchestra"))
            && passages.iter().any(|p| p.contains("reed case")),
        "both passages of the one document: {passages:#?}"
    );
    assert!(results
        .iter()
        .all(|r| r["documents"][0]["id"] == id.as_str() || r["documents"].is_null()));

    let (_, hy) = app
        .post(
            "/v4/search",
            json!({"q": "Dora oboe orchestra Friday", "containerTag": "dora", "searchMode": "hybrid", "threshold": 0}),
        )
        .await;
    let results = hy["results"].as_array().unwrap();
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["similarity"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(
        results
            .iter()
            .any(|r| r.get("chunk").is_some() || r.get("chunks").is_some()),
        "a passage, listed or carried: {hy}"
    );

    // a question worded like the passage: the memory and its passage are
    // one result, at the better of their two scores, carrying the passage;
    // the passage is not listed again
    let q = "Dora oboe orchestra Friday weather mild meeting week";
    let ask = |mode: &'static str| {
        app.post(
            "/v4/search",
            json!({"q": q, "containerTag": "dora", "searchMode": mode, "threshold": 0}),
        )
    };
    let ((_, alone), (_, docs), (_, hy)) = (
        ask("memories").await,
        ask("documents").await,
        ask("hybrid").await,
    );
    let find = |v: &Value, field: &str, needle: &str| -> Option<Value> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r[field].as_str().is_some_and(|m| m.contains(needle)))
            .cloned()
    };
    let a = find(&alone, "memory", "orchestra").expect("the memory alone")["similarity"]
        .as_f64()
        .unwrap();
    let p = find(&docs, "chunk", "orchestra").expect("the passage alone")["similarity"]
        .as_f64()
        .unwrap();
    let merged = find(&hy, "memory", "orchestra").expect("the memory in hybrid");
    assert!(
        (merged["similarity"].as_f64().unwrap() - a.max(p)).abs() < 1e-3,
        "memory {a}, passage {p}: {hy}"
    );
    let carried = merged["chunks"].as_array().expect("it carries its passage");
    assert_eq!(carried.len(), 1, "{merged}");
    assert!(carried[0]["content"]
        .as_str()
        .unwrap()
        .contains("city orchestra"));
    assert_eq!(carried[0]["documentId"], id.as_str());
    assert!((carried[0]["score"].as_f64().unwrap() - p).abs() < 1e-3);
    assert!(
        find(&hy, "chunk", "city orchestra").is_none(),
        "the passage is not listed twice: {hy}"
    );
    assert!(
        alone["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("chunks").is_none()),
        "memories mode carries no passages: {alone}"
    );
}
