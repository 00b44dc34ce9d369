//! With an LLM configured: extraction, rerank and rewrite ask it (here a
//! local stand-in speaking the OpenAI chat API with scripted answers), and
//! a failing model falls back to the offline path.

use crate::support::*;
use axum::routing::post;
use axum::{Json, Router};
use engram_engine::LlmHandle;
use engram_llm::openai::{ChatConfig, OpenAiChat};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
struct Calls {
    extract: AtomicUsize,
    rerank: AtomicUsize,
    rewrite: AtomicUsize,
    aggregate: AtomicUsize,
}

fn completion(content: Value) -> Json<Value> {
    Json(json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content.to_string()}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}
    }))
}

/// Serve a stand-in chat API on a loopback port; its base URL.
async fn chat_endpoint(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

/// A chat endpoint that answers by the task its system prompt names;
/// `broken` answers every call with prose instead of JSON.
async fn stand_in(broken: bool) -> (String, Arc<Calls>) {
    let calls = Arc::new(Calls::default());
    let c = calls.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |Json(req): Json<Value>| {
            let c = c.clone();
            async move {
                let system = req["messages"][0]["content"].as_str().unwrap_or("").to_string();
                if broken {
                    return completion(json!("I cannot help with that."));
                }
                if system.contains("rate how well") {
                    c.rerank.fetch_add(1, Ordering::SeqCst);
                    // the model prefers the passage about tea
                    let user = req["messages"][1]["content"].as_str().unwrap_or("");
                    let scores: Vec<Value> = user
                        .lines()
                        .filter(|l| l.starts_with('['))
                        .enumerate()
                        .map(|(i, l)| json!({"index": i, "score": if l.contains("tea") {1.0} else {0.0}}))
                        .collect();
                    completion(json!({"scores": scores}))
                } else if system.contains("combine memories") {
                    c.aggregate.fetch_add(1, Ordering::SeqCst);
                    completion(json!({"aggregates": [
                        {"content": "Ana's mornings: Pixel the greyhound and oolong tea", "from": [0, 1]}
                    ]}))
                } else if system.contains("should be ingested") {
                    let user = req["messages"][1]["content"].as_str().unwrap_or("");
                    let ingest = !user.contains("casino");
                    completion(json!({"ingest": ingest, "reason": "gambling spam"}))
                } else if system.contains("Rewrite") {
                    c.rewrite.fetch_add(1, Ordering::SeqCst);
                    completion(json!({"query": "greyhound named Pixel"}))
                } else {
                    c.extract.fetch_add(1, Ordering::SeqCst);
                    completion(json!({"memories": [
                        {"content": "Ana adopted a greyhound named Pixel", "subject": "Ana",
                         "isStatic": false, "entities": [{"name": "Pixel", "kind": "other"}]},
                        {"content": "Ana drinks oolong tea every morning", "subject": "Ana",
                         "isStatic": true}
                    ], "inferences": [
                        {"content": "Ana has a calm morning routine with her dog", "from": [0, 1]}
                    ]}))
                }
            }
        }),
    );
    (chat_endpoint(app).await, calls)
}

async fn app_with_llm(base: &str) -> TestApp {
    let mut cfg = ChatConfig::new(base, "stand-in");
    cfg.attempts = 1;
    cfg.timeout = Duration::from_secs(5);
    let mut opts = Options::default();
    opts.engine.llm = Some(LlmHandle(Arc::new(OpenAiChat::new(cfg).unwrap())));
    spawn_app_with(opts).await
}

#[tokio::test]
async fn the_llm_extracts_reranks_and_rewrites() {
    let (base, calls) = stand_in(false).await;
    let app = app_with_llm(&base).await;
    let (st, v) = app
        .post(
            "/v4/conversations",
            json!({"conversationId": "c1", "containerTags": ["ana"], "messages": [
                {"role": "user", "content": "We got a greyhound! His name is Pixel. Also I have oolong every morning."}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    app.wait_done(v["id"].as_str().unwrap()).await;
    assert_eq!(calls.extract.load(Ordering::SeqCst), 1);
    let (_, list) = app
        .post("/v4/memories/list", json!({"containerTags": ["ana"]}))
        .await;
    let mut got: Vec<&str> = list["memoryEntries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["memory"].as_str().unwrap())
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            "Ana adopted a greyhound named Pixel",
            "Ana drinks oolong tea every morning",
            "Ana has a calm morning routine with her dog"
        ]
    );
    // the inference derives from both facts it rests on
    let entries = list["memoryEntries"].as_array().unwrap();
    let inferred = entries
        .iter()
        .find(|m| m["isInference"] == true)
        .expect("an inference");
    let rel = inferred["memoryRelations"].as_object().unwrap();
    assert_eq!(rel.len(), 2, "{inferred}");
    assert!(rel.values().all(|k| k == "derives"));
    for m in entries.iter().filter(|m| m["isInference"] == false) {
        assert!(rel.contains_key(m["id"].as_str().unwrap()));
    }

    let q = json!({"q": "Ana's greyhound Pixel", "containerTag": "ana", "threshold": 0});
    let (_, plain) = app.post("/v4/search", q.clone()).await;
    assert_eq!(
        plain["results"][0]["memory"],
        "Ana adopted a greyhound named Pixel"
    );
    let mut reranked = q.clone();
    reranked["rerank"] = json!(true);
    let (_, r) = app.post("/v4/search", reranked).await;
    assert_eq!(calls.rerank.load(Ordering::SeqCst), 1);
    assert_eq!(
        r["results"][0]["memory"], "Ana drinks oolong tea every morning",
        "the model's judgement reorders: {r}"
    );
    let mut rewritten = q;
    rewritten["rewriteQuery"] = json!(true);
    let (st, _) = app.post("/v4/search", rewritten).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(calls.rewrite.load(Ordering::SeqCst), 1);
    let (_, agg) = app
        .post(
            "/v4/search",
            json!({"q": "Ana's mornings", "containerTag": "ana", "threshold": 0, "aggregate": true}),
        )
        .await;
    assert_eq!(calls.aggregate.load(Ordering::SeqCst), 1);
    let made: Vec<&Value> = agg["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["isAggregated"] == true)
        .collect();
    assert_eq!(made.len(), 1, "{agg}");
    assert_eq!(
        made[0]["memory"],
        "Ana's mornings: Pixel the greyhound and oolong tea"
    );
}

#[tokio::test]
async fn a_failing_llm_falls_back_to_the_offline_path() {
    let (base, _) = stand_in(true).await;
    let app = app_with_llm(&base).await;
    let (_, v) = app
        .post(
            "/v4/conversations",
            json!({"conversationId": "c1", "containerTags": ["ben"], "messages": [
                {"role": "user", "content": "I started learning the cello in March."}
            ]}),
        )
        .await;
    app.wait_done(v["id"].as_str().unwrap()).await;
    let (_, list) = app
        .post("/v4/memories/list", json!({"containerTags": ["ben"]}))
        .await;
    let got = list["memoryEntries"][0]["memory"].as_str().unwrap_or("");
    assert!(got.contains("cello"), "offline extraction: {list}");
    for flags in [json!({"rerank": true}), json!({"rewriteQuery": true})] {
        let mut q = json!({"q": "When did the user start the cello?", "containerTag": "ben", "threshold": 0});
        for (k, val) in flags.as_object().unwrap() {
            q[k] = val.clone();
        }
        let (st, r) = app.post("/v4/search", q).await;
        assert_eq!(st, StatusCode::OK, "{r}");
        assert!(r["results"][0]["memory"]
            .as_str()
            .unwrap()
            .contains("cello"));
    }
}

/// A chat endpoint that answers every call with `answer` and keeps what
/// it was asked (the user message).
async fn scripted_chat(answer: Value) -> (String, Arc<std::sync::Mutex<Vec<String>>>) {
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let a = asked.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |Json(req): Json<Value>| {
            let a = a.clone();
            let answer = answer.clone();
            async move {
                let user = req["messages"][1]["content"].as_str().unwrap_or("");
                a.lock().unwrap().push(user.to_string());
                completion(answer)
            }
        }),
    );
    (chat_endpoint(app).await, asked)
}

/// `dreaming: dynamic` (the default): documents are `done` first and
/// dream a little later; related documents due together (one space)
/// form as one group: one model call, each memory from its own
/// document, inferences across them.
#[tokio::test]
async fn dynamic_dreaming_groups_related_documents() {
    let (base, asked) = scripted_chat(json!({"memories": [
        {"content": "Mia moved to Oslo", "document": 1},
        {"content": "Mia works at a fjord ferry company", "document": 2}
    ], "inferences": [
        {"content": "Mia commutes by ferry in Oslo", "from": [0, 1]}
    ]}))
    .await;
    let mut cfg = ChatConfig::new(&base, "stand-in");
    cfg.attempts = 1;
    let mut opts = Options::default();
    opts.engine.llm = Some(LlmHandle(Arc::new(OpenAiChat::new(cfg).unwrap())));
    opts.engine.dream_delay = Duration::from_millis(1500);
    let app = spawn_app_with(opts).await;
    // the space's entity context guides extraction
    let (st, _) = app
        .patch(
            "/v3/container-tags/mia",
            json!({"entityContext": "Mia is the user; she talks about moving and work."}),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    // and the organisation's instructions too
    let (st, _) = app
        .patch(
            "/v3/settings",
            json!({"workspacePrompt": "Prefer facts about places."}),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let (st, r) = app
        .post(
            "/v3/documents/batch",
            json!({"containerTag": "mia", "documents": [
                {"content": "user: I moved to Oslo in May.", "metadata": {"date": "2024-05-02"}},
                {"content": "user: I just got a job at the ferry company.", "metadata": {"date": "2024-05-20"}}
            ]}),
        )
        .await;
    assert!(st.is_success(), "{r}");
    let ids: Vec<String> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    // processed: done, but still dreaming, and no memories yet
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    for id in &ids {
        loop {
            let (_, d) = app.get(&format!("/v3/documents/{id}")).await;
            if d["status"] == "done" {
                assert_eq!(d["dreamingStatus"], "dreaming", "{d}");
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "{d}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let (_, none) = app
        .post("/v4/memories/list", json!({"containerTags": ["mia"]}))
        .await;
    assert_eq!(none["memoryEntries"], json!([]), "{none}");
    assert!(asked.lock().unwrap().is_empty());

    for id in &ids {
        let d = app.wait_done(id).await;
        assert_eq!(d["dreamingStatus"], "done");
    }
    {
        let asked = asked.lock().unwrap();
        assert_eq!(asked.len(), 1, "one call for the group: {asked:?}");
        // the space's context names the user: the transcript says who speaks
        assert!(
            asked[0].contains("Context about this space: Mia is the user;")
                && asked[0].contains("Instructions for this workspace: Prefer facts about places."),
            "{}",
            asked[0]
        );
        assert!(
            asked[0].contains("## Document 1\n[2024-05-02] Mia: I moved to Oslo"),
            "{}",
            asked[0]
        );
        assert!(
            asked[0].contains("## Document 2\n[2024-05-20] Mia: I just got a job"),
            "{}",
            asked[0]
        );
    }
    let (_, list) = app
        .post("/v4/memories/list", json!({"containerTags": ["mia"]}))
        .await;
    let entries = list["memoryEntries"].as_array().unwrap();
    let by_text = |t: &str| {
        entries
            .iter()
            .find(|m| m["memory"] == t)
            .unwrap_or_else(|| panic!("{t}: {list}"))
    };
    assert_eq!(by_text("Mia moved to Oslo")["documentIds"], json!([ids[0]]));
    assert_eq!(
        by_text("Mia works at a fjord ferry company")["documentIds"],
        json!([ids[1]])
    );
    let inferred = by_text("Mia commutes by ferry in Oslo");
    assert_eq!(inferred["isInference"], true);
    assert_eq!(inferred["documentIds"], json!([ids[1]]));
    let rel = inferred["memoryRelations"].as_object().unwrap();
    assert_eq!(
        rel.len(),
        2,
        "derives from facts of both documents: {inferred}"
    );
}

/// The organisation's ingestion filter: the offline rule (excludeItems) and,
/// with `shouldLLMFilter`, the model's judgement by `filterPrompt`.
#[tokio::test]
async fn the_ingestion_filter_leaves_documents_out() {
    let (base, _) = stand_in(false).await;
    let app = app_with_llm(&base).await;
    let (st, _) = app
        .patch(
            "/v3/settings",
            json!({"excludeItems": ["unsubscribe"], "shouldLLMFilter": true,
                   "filterPrompt": "skip gambling spam"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let news = app
        .add(json!({"content": "Big sale! Click here to unsubscribe."}))
        .await;
    let d = app.wait_processed(&news).await;
    assert_eq!(d["status"], "failed");
    assert!(d["error"].as_str().unwrap().contains("unsubscribe"), "{d}");
    let spam = app
        .add(json!({"content": "Win big at the casino tonight, free chips for everyone."}))
        .await;
    let d = app.wait_processed(&spam).await;
    assert_eq!(d["status"], "failed");
    assert!(d["error"].as_str().unwrap().contains("LLM filter"), "{d}");
    let fine = app
        .add(json!({"content": "Ana adopted a greyhound named Pixel."}))
        .await;
    app.wait_done(&fine).await;
}

/// A chat model that answers only after a long while: searches that
/// would ask it (rerank, rewrite, aggregation) wait at most the engine's
/// budget, then answer by the offline path; never a 5xx, never a request
/// held for the model's whole timeout.
#[tokio::test]
async fn a_slow_llm_does_not_make_searches_slow() {
    let app = Router::new().route(
        "/v1/chat/completions",
        post(|| async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            completion(json!({"query": "too late"}))
        }),
    );
    let mut cfg = ChatConfig::new(chat_endpoint(app).await, "slow");
    cfg.timeout = Duration::from_secs(60);
    let mut opts = Options::default();
    opts.engine.llm = Some(LlmHandle(Arc::new(OpenAiChat::new(cfg).unwrap())));
    opts.engine.llm_budget = Duration::from_millis(700);
    let app = spawn_app_with(opts).await;
    let (st, v) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "ola", "memories": [
                {"content": "Ola plays the cello every Sunday"},
                {"content": "Ola lives in Bergen"}
            ]}),
        )
        .await;
    assert!(st.is_success(), "{v}");
    for flags in [
        json!({"rerank": true}),
        json!({"rewriteQuery": true}),
        json!({"rerank": true, "rewriteQuery": true, "aggregate": true}),
    ] {
        let mut q =
            json!({"q": "Which instrument does Ola play?", "containerTag": "ola", "threshold": 0});
        for (k, val) in flags.as_object().unwrap() {
            q[k] = val.clone();
        }
        let started = std::time::Instant::now();
        let (st, r) = app.post("/v4/search", q).await;
        let took = started.elapsed();
        assert_eq!(st, StatusCode::OK, "{flags}: {r}");
        assert!(
            took < Duration::from_secs(5),
            "{flags}: held {took:?} for a slow model"
        );
        assert!(
            r["results"][0]["memory"]
                .as_str()
                .unwrap_or_default()
                .contains("cello"),
            "{flags}: {r}"
        );
    }
}
