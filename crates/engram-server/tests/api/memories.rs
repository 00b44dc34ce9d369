//! `/v4/memories`, `/v4/search`, `/v4/profile` and `/v4/conversations`:
//! what a client sees, on either backend. Knowledge-update cases run on
//! the real embedding model, since whether a new fact supersedes an old
//! one is judged partly by meaning.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;

async fn real_app() -> TestApp {
    let embedder = real_embedder().await;
    let mut opts = Options {
        embedder,
        ..Default::default()
    };
    opts.engine.sweep_interval = Duration::from_millis(200);
    spawn_app_with(opts).await
}

fn texts(results: &Value, key: &str) -> Vec<String> {
    results
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r[key].as_str().map(str::to_string))
        .collect()
}

async fn search(app: &TestApp, body: Value) -> Vec<String> {
    let (st, v) = app.post("/v4/search", body).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    texts(&v["results"], "memory")
}

async fn profile(app: &TestApp, tag: &str) -> (Vec<String>, Vec<String>) {
    let (st, v) = app.post("/v4/profile", json!({"containerTag": tag})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let list = |k: &str| {
        v["profile"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    (list("static"), list("dynamic"))
}

#[tokio::test]
async fn memories_are_created_versioned_listed_and_forgotten() {
    let app = spawn_app().await;
    let (st, v) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "u1", "memories": [
                {"content": "Ana likes green tea", "metadata": {"source": "chat"}},
                {"content": "Ana has a cat named Miso", "isStatic": true,
                 "temporalContext": {"documentDate": "2024-05-01", "eventDate": ["2024-04"]}}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["documentId"], Value::Null);
    let tea = v["memories"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(v["memories"][1]["isStatic"], true);
    assert_eq!(v["memories"][0]["metadata"]["source"], "chat");
    for key in ["createdAt", "forgetAfter", "forgetReason"] {
        assert!(v["memories"][0].get(key).is_some(), "{key}");
    }

    // immediately searchable, in its space only
    let found = search(
        &app,
        json!({"q": "green tea", "containerTag": "u1", "threshold": 0}),
    )
    .await;
    assert_eq!(found[0], "Ana likes green tea");
    let elsewhere = search(
        &app,
        json!({"q": "green tea", "containerTag": "u2", "threshold": 0}),
    )
    .await;
    assert!(elsewhere.is_empty());

    // a new version keeps the chain
    let (st, v2) = app
        .patch(
            "/v4/memories",
            json!({"containerTag": "u1", "id": tea, "newContent": "Ana likes jasmine tea"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v2}");
    assert_eq!(v2["version"], 2);
    assert_eq!(v2["parentMemoryId"], tea.as_str());
    assert_eq!(v2["rootMemoryId"], tea.as_str());
    assert_eq!(v2["metadata"]["source"], "chat", "inherited");
    let (st, again) = app
        .patch(
            "/v4/memories",
            json!({"containerTag": "u1", "id": tea, "newContent": "x"}),
        )
        .await;
    assert_eq!(
        st,
        StatusCode::CONFLICT,
        "an old version takes no update: {again}"
    );
    let found = search(
        &app,
        json!({"q": "tea", "containerTag": "u1", "threshold": 0}),
    )
    .await;
    assert!(found.contains(&"Ana likes jasmine tea".to_string()));
    let (_, rel) = app
        .post(
            "/v4/search",
            json!({"q": "jasmine tea", "containerTag": "u1", "threshold": 0,
                   "include": {"relatedMemories": true}}),
        )
        .await;
    let parents = &rel["results"][0]["context"]["parents"];
    assert_eq!(parents[0]["relation"], "updates", "{rel}");
    assert_eq!(parents[0]["memory"], "Ana likes green tea");
    assert!(
        !found.contains(&"Ana likes green tea".to_string()),
        "{found:?}"
    );

    // the list shows latest versions with their history
    let (st, list) = app
        .post("/v4/memories/list", json!({"containerTags": ["u1"]}))
        .await;
    assert_eq!(st, StatusCode::OK, "{list}");
    let entries = list["memoryEntries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(list["pagination"]["totalItems"], 2);
    let latest = entries
        .iter()
        .find(|e| e["memory"] == "Ana likes jasmine tea")
        .unwrap();
    assert_eq!(latest["history"][0]["memory"], "Ana likes green tea");
    assert_eq!(latest["history"][0]["isLatest"], false);
    assert_eq!(latest["memoryRelations"][tea.as_str()], "updates");
    assert_eq!(latest["spaceId"], "u1");
    let cat = entries
        .iter()
        .find(|e| e["memory"] == "Ana has a cat named Miso")
        .unwrap();
    assert_eq!(cat["isStatic"], true);
    assert_eq!(cat["temporalContext"]["documentDate"], "2024-05-01");

    // forgetting by exact content; a second time is a conflict
    let body =
        json!({"containerTag": "u1", "content": "Ana has a cat named Miso", "reason": "moved out"});
    let (st, f) = app.delete("/v4/memories", Some(body.clone())).await;
    assert_eq!(st, StatusCode::OK, "{f}");
    assert_eq!(f["forgotten"], true);
    let (st, f2) = app.delete("/v4/memories", Some(body)).await;
    assert_error(
        &(st, f2),
        StatusCode::CONFLICT,
        "ConflictError",
        "already forgotten",
    );
    let found = search(
        &app,
        json!({"q": "cat Miso", "containerTag": "u1", "threshold": 0}),
    )
    .await;
    assert!(!found.iter().any(|m| m.contains("Miso")), "{found:?}");
    let found = search(
        &app,
        json!({"q": "cat Miso", "containerTag": "u1", "threshold": 0,
               "include": {"forgottenMemories": true}}),
    )
    .await;
    assert_eq!(found[0], "Ana has a cat named Miso");
    let (st, nf) = app
        .delete(
            "/v4/memories",
            Some(json!({"containerTag": "u1", "id": "nope"})),
        )
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{nf}");

    // forget-matching: a dry run changes nothing
    let (st, dry) = app
        .post(
            "/v4/memories/forget-matching",
            json!({"containerTag": "u1", "query": "jasmine tea", "dryRun": true, "threshold": 0.1}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{dry}");
    assert_eq!(
        (dry["dryRun"].clone(), dry["count"].clone()),
        (json!(true), json!(1))
    );
    assert_eq!(dry["forgetBatchId"], Value::Null);
    let (_, real) = app
        .post(
            "/v4/memories/forget-matching",
            json!({"containerTag": "u1", "query": "jasmine tea", "threshold": 0.1}),
        )
        .await;
    assert_eq!(real["count"], 1);
    assert_eq!(real["forgotten"][0]["memory"], "Ana likes jasmine tea");
    assert!(search(
        &app,
        json!({"q": "tea", "containerTag": "u1", "threshold": 0})
    )
    .await
    .is_empty());
}

#[tokio::test]
async fn aggregate_adds_a_synthesised_memory() {
    let app = spawn_app().await;
    let (st, v) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "agg", "memories": [
                {"content": "Priya adopted a cat from the Lisbon shelter"},
                {"content": "Priya volunteers at the Lisbon shelter on Sundays"},
                {"content": "Tom collects vinyl records"}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let q = json!({"q": "Priya shelter", "containerTag": "agg", "threshold": 0, "aggregate": true});
    let (st, r) = app.post("/v4/search", q).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    let results = r["results"].as_array().unwrap();
    let agg: Vec<&Value> = results
        .iter()
        .filter(|x| x["isAggregated"] == true)
        .collect();
    assert_eq!(agg.len(), 1, "{r}");
    let text = agg[0]["memory"].as_str().unwrap();
    assert!(
        text.contains("adopted a cat") && text.contains("volunteers"),
        "{text}"
    );
    assert!(
        results.iter().any(|x| x["isAggregated"] == false),
        "a mix: {r}"
    );
    let (_, plain) = app
        .post(
            "/v4/search",
            json!({"q": "Priya shelter", "containerTag": "agg", "threshold": 0}),
        )
        .await;
    assert!(plain["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("isAggregated") != Some(&json!(true))));
}

#[tokio::test]
async fn memory_requests_are_validated() {
    let app = spawn_app().await;
    let many: Vec<Value> = (0..101)
        .map(|i| json!({"content": format!("fact {i}")}))
        .collect();
    for (path, body, field) in [
        (
            "/v4/memories",
            json!({"containerTag": "u", "memories": []}),
            "memories",
        ),
        (
            "/v4/memories",
            json!({"containerTag": "u", "memories": many}),
            "memories",
        ),
        (
            "/v4/memories",
            json!({"containerTag": "bad tag!", "memories": [{"content": "x"}]}),
            "containerTag",
        ),
        (
            "/v4/memories",
            json!({"containerTag": "u", "memories": [{"content": " "}]}),
            "content",
        ),
        (
            "/v4/memories",
            json!({"containerTag": "u", "memories": [{"content": "x", "forgetAfter": "soon"}]}),
            "forgetAfter",
        ),
        (
            "/v4/memories/list",
            json!({"containerTags": []}),
            "containerTags",
        ),
        (
            "/v4/memories/list",
            json!({"containerTags": ["u"], "sort": "size"}),
            "sort",
        ),
        (
            "/v4/memories/forget-matching",
            json!({"containerTag": "u"}),
            "query",
        ),
        (
            "/v4/memories/forget-matching",
            json!({"containerTag": "u", "query": "x", "maxForget": 501}),
            "maxForget",
        ),
        ("/v4/search", json!({"q": "x", "threshold": 2}), "threshold"),
        (
            "/v4/search",
            json!({"q": "x", "searchMode": "all"}),
            "searchMode",
        ),
        ("/v4/search", json!({"q": ""}), "q"),
        (
            "/v4/profile",
            json!({"containerTag": "u", "include": ["everything"]}),
            "include",
        ),
        (
            "/v4/conversations",
            json!({"conversationId": "c", "messages": []}),
            "messages",
        ),
        (
            "/v4/conversations",
            json!({"conversationId": "c", "messages": [{"role": "robot", "content": "x"}]}),
            "role",
        ),
    ] {
        let got = app.post(path, body).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
    let (st, v) = app
        .patch(
            "/v4/memories",
            json!({"containerTag": "u", "newContent": "x"}),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn conversations_append_turns_and_form_memories() {
    let app = real_app().await;
    let first = json!({"conversationId": "chat-1", "containerTags": ["ana"],
    "metadata": {"date": "2024-03-04"},
    "messages": [
        {"role": "user", "content": "Hi! I just adopted a golden retriever named Biscuit."},
        {"role": "assistant", "content": "Congratulations! How is Biscuit settling in?"}
    ]});
    let (st, v) = app.post("/v4/conversations", first).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    app.wait_done(&id).await;
    // the whole conversation sent again with one new turn, with an image part
    let (st, v2) = app
        .post(
            "/v4/conversations",
            json!({"conversationId": "chat-1", "containerTags": ["ana"],
            "metadata": {"date": "2024-03-04"},
            "messages": [
                {"role": "user", "content": "Hi! I just adopted a golden retriever named Biscuit."},
                {"role": "assistant", "content": "Congratulations! How is Biscuit settling in?"},
                {"role": "user", "content": [
                    {"type": "text", "text": "I work as a veterinary nurse in Lisbon."},
                    {"type": "image_url", "image_url": {"url": "https://example.com/biscuit.png"}}
                ]}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v2}");
    assert_eq!(v2["id"], id.as_str(), "the conversation is one document");
    let doc = app.wait_done(&id).await;
    let content = doc["content"].as_str().unwrap();
    assert_eq!(content.matches("golden retriever").count(), 1, "{content}");
    assert!(content.contains("veterinary nurse"));
    assert!(content.contains("https://example.com/biscuit.png"));

    let (_, doc) = app.get(&format!("/v3/documents/{id}")).await;
    let memories = texts(&doc["memories"], "memory");
    assert!(
        memories
            .iter()
            .any(|m| m.contains("golden retriever named Biscuit")),
        "{memories:?}"
    );
    assert!(
        memories.iter().any(|m| m.contains("veterinary nurse")),
        "{memories:?}"
    );
    assert!(
        !memories.iter().any(|m| m.contains("Congratulations")),
        "assistant turns give no facts: {memories:?}"
    );
    for m in doc["memories"].as_array().unwrap() {
        assert_eq!(m["sourceCount"], 1, "reprocessing did not count twice: {m}");
        assert_eq!(m["documentIds"], json!([id]));
    }

    // hybrid search merges memories and chunks in one list; the memory
    // formed from the one passage carries it
    let (_, hy) = app
        .post(
            "/v4/search",
            json!({"q": "What is the name of the dog?", "containerTag": "ana",
                   "searchMode": "hybrid", "threshold": 0, "limit": 10}),
        )
        .await;
    let results = hy["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r.get("memory").is_some()), "{hy}");
    assert!(
        results.iter().any(|r| r["chunks"][0]["content"]
            .as_str()
            .is_some_and(|c| c.contains("Biscuit"))),
        "{hy}"
    );
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["similarity"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");

    // the graph: memories, their source document and entities, typed edges
    let (st, g) = app.get("/v3/graph?containerTag=ana").await;
    assert_eq!(st, StatusCode::OK, "{g}");
    let nodes = g["nodes"].as_array().unwrap();
    let of = |t: &str| nodes.iter().filter(|n| n["type"] == t).count();
    assert_eq!(of("memory"), memories.len());
    assert_eq!(of("document"), 1);
    assert!(of("entity") >= 1, "Biscuit or Lisbon: {g}");
    let edges = g["edges"].as_array().unwrap();
    assert!(edges
        .iter()
        .any(|e| e["type"] == "source" && e["target"] == id.as_str()));
    assert!(edges.iter().any(|e| e["type"] == "mentions"));
    let bad = app.get("/v3/graph?limit=0").await;
    assert_error(&bad, StatusCode::BAD_REQUEST, "ValidationError", "limit");
    let (_, other) = app.get("/v3/graph?containerTag=nobody").await;
    assert_eq!(other["nodes"], json!([]));

    // deleting the document removes the memories only it supported
    let (st, _) = app.delete(&format!("/v3/documents/{id}"), None).await;
    assert_eq!(st, StatusCode::NO_CONTENT);
    let (_, list) = app
        .post("/v4/memories/list", json!({"containerTags": ["ana"]}))
        .await;
    assert_eq!(list["memoryEntries"], json!([]));
}

/// A fact and a later one that supersedes it: search and the profile show
/// the latest, the history keeps the old one.
async fn check_update(app: &TestApp, tag: &str, old: &str, new: &str, query: &str) {
    for (i, said) in [old, new].iter().enumerate() {
        let (st, v) = app
            .post(
                "/v4/conversations",
                json!({"conversationId": format!("{tag}-{i}"), "containerTags": [tag],
                       "messages": [{"role": "user", "content": said}]}),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        app.wait_done(v["id"].as_str().unwrap()).await;
    }
    let found = search(
        app,
        json!({"q": query, "containerTag": tag, "threshold": 0}),
    )
    .await;
    let (stat, _) = profile(app, tag).await;
    let (_, list) = app
        .post("/v4/memories/list", json!({"containerTags": [tag]}))
        .await;
    let entries = list["memoryEntries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{tag}: one latest fact: {list}");
    let e = &entries[0];
    assert_eq!(e["version"], 2, "{tag}: {e}");
    let latest = e["memory"].as_str().unwrap();
    let before = e["history"][0]["memory"].as_str().unwrap();
    assert!(
        found[0] == latest,
        "{tag}: search shows the latest: {found:?}"
    );
    assert!(stat.contains(&latest.to_string()), "{tag}: {stat:?}");
    assert!(!stat.contains(&before.to_string()), "{tag}: {stat:?}");
    assert!(!found.contains(&before.to_string()), "{tag}: {found:?}");
}

#[tokio::test]
async fn knowledge_updates_show_the_latest_fact_and_keep_history() {
    let app = real_app().await;
    check_update(
        &app,
        "move",
        "I live in Paris.",
        "I moved to Berlin last month.",
        "Where does the user live?",
    )
    .await;
    check_update(
        &app,
        "job",
        "I work at Google as an engineer.",
        "I work at Stripe now.",
        "Where does the user work?",
    )
    .await;
    check_update(
        &app,
        "colour",
        "My favourite colour is blue.",
        "My favourite colour is green these days.",
        "favourite colour",
    )
    .await;
}

#[tokio::test]
async fn expired_memories_are_never_returned() {
    let app = real_app().await;
    let soon = (chrono::Utc::now() + chrono::Duration::milliseconds(1500)).to_rfc3339();
    let (st, v) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "ttl", "memories": [
                {"content": "Ana is on a work trip in Tokyo this week", "forgetAfter": soon,
                 "forgetReason": "trip ends"},
                {"content": "Ana lives in Lisbon", "isStatic": true}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let q = json!({"q": "Where is Ana this week?", "containerTag": "ttl", "threshold": 0});
    assert!(search(&app, q.clone())
        .await
        .iter()
        .any(|m| m.contains("Tokyo")));
    let (_, dynamic) = profile(&app, "ttl").await;
    assert!(dynamic.iter().any(|m| m.contains("Tokyo")), "{dynamic:?}");
    tokio::time::sleep(Duration::from_millis(1800)).await;
    assert!(!search(&app, q).await.iter().any(|m| m.contains("Tokyo")));
    let (stat, dynamic) = profile(&app, "ttl").await;
    assert!(!dynamic.iter().any(|m| m.contains("Tokyo")), "{dynamic:?}");
    assert_eq!(stat, vec!["Ana lives in Lisbon".to_string()]);
    // the sweep marks it forgotten, keeping it for history
    let mut swept = Value::Null;
    for _ in 0..50 {
        let id = v["memories"][0]["id"].as_str().unwrap();
        let m = app
            .engine
            .store
            .get_memory(&app.org_id, id)
            .await
            .unwrap()
            .unwrap();
        if m.is_forgotten {
            swept = json!(m.forget_reason);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(swept, json!("trip ends"));
}
