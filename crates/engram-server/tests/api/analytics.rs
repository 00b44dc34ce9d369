//! Analytics: every request is recorded (type, status, duration, compact
//! input and output, never the key or a whole document), reported through
//! usage, errors and logs over validated windows, kept per organisation,
//! written within a second, and rate-limited per organisation across
//! replicas.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
async fn requests_are_recorded_and_reported() {
    let app = spawn_app().await;
    let long = "Ana keeps bees on the roof of her building in Lisbon. ".repeat(40);
    let id = app
        .add(json!({"content": long, "containerTag": "ana"}))
        .await;
    app.wait_done(&id).await;
    let (st, _) = app
        .post("/v3/search", json!({"q": "bees", "limit": 3}))
        .await;
    assert_eq!(st, StatusCode::OK);
    app.post("/v4/search", json!({"q": "bees", "containerTag": "ana"}))
        .await;
    let (st, _) = app.get("/v3/documents/nope").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = app
        .post("/v3/search", json!({"q": "x", "chunkThreshold": 3}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);

    // usage: by type, most used first; by key; the window's hours
    let (st, u) = app.get("/v3/analytics/usage").await;
    assert_eq!(st, StatusCode::OK, "{u}");
    let types: Vec<(&str, u64)> = u["usage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["type"].as_str().unwrap(), t["count"].as_u64().unwrap()))
        .collect();
    assert!(types.contains(&("search", 3)), "{u}");
    assert!(types.contains(&("add", 1)), "{u}");
    // waiting for processing polls the document: one `get` or more
    assert!(types.iter().any(|(t, n)| *t == "get" && *n >= 2), "{u}");
    assert!(
        types.windows(2).all(|w| w[0].1 >= w[1].1),
        "most used first: {u}"
    );
    for t in u["usage"].as_array().unwrap() {
        assert!(t["avgDuration"].as_f64().unwrap() >= 0.0);
        assert!(t["lastUsed"].as_str().unwrap().ends_with('Z'));
    }
    let by_key = &u["byKey"][0];
    assert_eq!(by_key["keyName"], "default");
    assert!(by_key["keyId"]
        .as_str()
        .is_some_and(|k| app.key.contains(k)));
    let total: u64 = u["hourly"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, by_key["count"].as_u64().unwrap(), "{u}");
    assert!(u["hourly"][0]["hour"]
        .as_str()
        .unwrap()
        .ends_with(":00:00.000Z"));
    assert!(u["totalMemories"].is_u64());
    assert_eq!(u["pagination"]["currentPage"], 1);
    assert_eq!(u["pagination"]["limit"], 20);
    assert_eq!(
        u["pagination"]["totalItems"].as_u64().unwrap(),
        types.len() as u64
    );
    let (_, paged) = app.get("/v3/analytics/usage?limit=1&page=2").await;
    assert_eq!(paged["usage"].as_array().unwrap().len(), 1);
    assert_eq!(paged["usage"][0]["type"], u["usage"][1]["type"]);
    // the first usage request is an `analytics` row by now
    assert_eq!(paged["pagination"]["totalItems"], types.len() + 1);
    assert_eq!(paged["pagination"]["totalPages"], types.len() + 1);

    // logs: newest first, compact, filterable
    let (st, l) = app.get("/v3/analytics/logs?type=search").await;
    assert_eq!(st, StatusCode::OK, "{l}");
    let logs = l["logs"].as_array().unwrap();
    assert_eq!(logs.len(), 3, "{l}");
    assert_eq!(l["pagination"]["totalItems"], 3);
    let bad = &logs[0];
    assert_eq!(bad["statusCode"], 400);
    assert_eq!(bad["input"]["chunkThreshold"], 3);
    assert_eq!(bad["output"]["type"], "ValidationError");
    let v3 = &logs[2];
    assert_eq!(v3["input"], json!({"q": "bees", "limit": 3}));
    assert!(v3["output"]["resultCount"].is_u64(), "{v3}");
    assert!(v3["output"]["processingTime"].is_number(), "{v3}");
    assert!(v3["duration"].as_f64().unwrap() > 0.0);
    let t0 = logs[0]["createdAt"].as_str().unwrap();
    let t2 = logs[2]["createdAt"].as_str().unwrap();
    assert!(t0 >= t2);
    let (_, adds) = app.get("/v3/analytics/logs?type=add").await;
    let content = adds["logs"][0]["input"]["content"].as_str().unwrap();
    assert!(
        content.len() < 400 && content.contains("chars)"),
        "{content}"
    );
    assert_eq!(adds["logs"][0]["input"]["containerTag"], "ana");
    let (_, by_status) = app.get("/v3/analytics/logs?statusCode=404").await;
    assert_eq!(by_status["logs"].as_array().unwrap().len(), 1);
    assert_eq!(by_status["logs"][0]["input"]["params"]["id"], "nope");
    let key_id = by_key["keyId"].as_str().unwrap();
    let (_, mine) = app.get(&format!("/v3/analytics/logs?keyId={key_id}")).await;
    assert!(mine["pagination"]["totalItems"].as_u64().unwrap() >= 6);
    let (_, none) = app.get("/v3/analytics/logs?keyId=someone-else").await;
    assert_eq!(none["logs"], json!([]));
    // the key is never recorded
    let (_, all) = app.get("/v3/analytics/logs?limit=100").await;
    assert!(!all.to_string().contains(&app.key));

    // errors: kinds, rate, timeline, status codes
    let (st, e) = app.get("/v3/analytics/errors?period=1h").await;
    assert_eq!(st, StatusCode::OK, "{e}");
    assert_eq!(e["totalErrors"], 2, "{e}");
    assert_eq!(e["byStatusCode"], json!({"400": 1, "404": 1}));
    let kinds: Vec<&str> = e["topErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["NotFoundError", "ValidationError"]);
    assert_eq!(e["topErrors"][0]["statusCodes"], json!([404]));
    let rate = e["errorRate"].as_f64().unwrap();
    assert!(rate > 0.0 && rate < 1.0, "{e}");
    assert_eq!(e["timeline"][0]["count"], 2);
    assert_eq!(
        e["timeline"][0]["types"],
        json!(["NotFoundError", "ValidationError"])
    );
}

#[tokio::test]
async fn bad_windows_and_pages_are_validation_errors() {
    let app = spawn_app().await;
    let ninety_one = (chrono::Utc::now() - chrono::Duration::days(91)).to_rfc3339();
    let ninety = (chrono::Utc::now() - chrono::Duration::days(89)).to_rfc3339();
    for (route, query, field) in [
        ("usage", "period=2h".to_string(), "period"),
        ("errors", "period=".to_string(), "period"),
        (
            "logs",
            format!("from={}", ninety_one.replace('+', "%2B")),
            "from",
        ),
        ("usage", "from=2026-01-10&to=2026-01-01".to_string(), "from"),
        ("usage", "from=last-tuesday".to_string(), "from"),
        ("usage", "limit=101".to_string(), "limit"),
        ("logs", "limit=0".to_string(), "limit"),
        ("errors", "page=0".to_string(), "page"),
        ("logs", "statusCode=abc".to_string(), "statusCode"),
        ("usage", "period=7d&from=2026-01-01".to_string(), "period"),
    ] {
        let got = app.get(&format!("/v3/analytics/{route}?{query}")).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
    for query in [
        format!("from={}", ninety.replace('+', "%2B")),
        "period=30d&limit=100".into(),
        "from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z".into(),
    ] {
        let (st, v) = app.get(&format!("/v3/analytics/usage?{query}")).await;
        assert_eq!(st, StatusCode::OK, "{query}: {v}");
    }
}

#[tokio::test]
async fn organisations_see_only_their_own_requests() {
    let app = spawn_app().await;
    app.post("/v3/search", json!({"q": "private"})).await;
    // any full key of the organisation sees them
    let (_, second) = app.post("/v3/auth/keys", json!({"name": "second"})).await;
    let second = second["key"].as_str().unwrap().to_string();
    let (st, l) = app
        .send("GET", "/v3/analytics/logs?type=search", Some(&second), None)
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(l["logs"][0]["input"]["q"], "private", "{l}");
    let other = app.other_org_key("other").await;
    let (st, l) = app
        .send("GET", "/v3/analytics/logs", Some(&other), None)
        .await;
    assert_eq!(st, StatusCode::OK);
    // only the other org's own call to /logs could be there, and it is
    // recorded after it answers
    assert_eq!(l["logs"], json!([]), "{l}");
    let (_, u) = app
        .send("GET", "/v3/analytics/usage", Some(&other), None)
        .await;
    assert_eq!(u["usage"][0]["type"], "analytics", "{u}");
    assert_eq!(u["usage"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn records_reach_the_store_within_a_second_without_a_flush() {
    let app = spawn_app().await;
    app.post("/v3/search", json!({"q": "durable"})).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // read the store directly: nothing asked the recorder to flush
    let q = engram_store::LogQuery {
        from: engram_store::now() - chrono::Duration::minutes(1),
        to: engram_store::now() + chrono::Duration::minutes(1),
        kind: Some("search".into()),
        status_code: None,
        key_id: None,
        offset: 0,
        limit: 10,
    };
    let (logs, total) = app.store.list_requests(&app.org_id, &q).await.unwrap();
    assert_eq!(total, 1);
    assert_eq!(logs[0].input, json!({"q": "durable"}));
}

#[tokio::test]
async fn logs_past_retention_are_purged() {
    // no workers: their sweep purges too, and would race this test's call
    let app = spawn_app_with(Options {
        workers: 0,
        ..Options::default()
    })
    .await;
    let old = engram_store::RequestLog {
        id: "old".into(),
        org_id: app.org_id.clone(),
        key_id: "k".into(),
        kind: "search".into(),
        status_code: 200,
        error_type: None,
        duration_ms: 1.0,
        input: json!({}),
        output: json!({}),
        created_at: engram_store::now() - chrono::Duration::days(91),
    };
    let recent = engram_store::RequestLog {
        id: "recent".into(),
        created_at: engram_store::now() - chrono::Duration::days(89),
        ..old.clone()
    };
    app.store.record_requests(&[old, recent]).await.unwrap();
    assert_eq!(app.engine.purge_request_logs().await.unwrap(), 1);
    let q = engram_store::LogQuery {
        from: engram_store::now() - chrono::Duration::days(100),
        to: engram_store::now(),
        kind: None,
        status_code: None,
        key_id: Some("k".into()),
        offset: 0,
        limit: 10,
    };
    let (logs, _) = app.store.list_requests(&app.org_id, &q).await.unwrap();
    assert_eq!(
        logs.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["recent"]
    );
}

async fn get_status(app: &TestApp, path: &str) -> (StatusCode, Option<String>, Value) {
    let resp = app
        .client
        .get(format!("{}{path}", app.base))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let retry = resp
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (status, retry, resp.json().await.unwrap())
}

#[tokio::test]
async fn analytics_are_limited_to_100_a_minute_per_organisation_across_replicas() {
    let app = spawn_app().await;
    let other = replica_of(&app, Options::default()).await;
    for i in 0..100 {
        let on = if i % 2 == 0 { &app } else { &other };
        let route = ["usage", "errors", "logs"][i % 3];
        let (st, _, v) = get_status(on, &format!("/v3/analytics/{route}?period=1h")).await;
        assert_eq!(st, StatusCode::OK, "request {}: {v}", i + 1);
    }
    for on in [&app, &other] {
        let (st, retry, v) = get_status(on, "/v3/analytics/usage").await;
        assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
        assert_eq!(v["type"], "RateLimitError");
        let secs = v["retryAfterSeconds"].as_u64().unwrap();
        assert!((1..=60).contains(&secs), "{v}");
        assert_eq!(retry.as_deref(), Some(secs.to_string().as_str()));
    }
    // other routes are not limited, and another organisation has its own
    let (st, _) = app.post("/v3/search", json!({"q": "still fine"})).await;
    assert_eq!(st, StatusCode::OK);
    let key = app.other_org_key("other").await;
    let (st, _) = app
        .send("GET", "/v3/analytics/usage", Some(&key), None)
        .await;
    assert_eq!(st, StatusCode::OK);
    // the rejections are recorded too
    app.engine.analytics().flush().await;
    let q = engram_store::LogQuery {
        from: engram_store::now() - chrono::Duration::minutes(5),
        to: engram_store::now() + chrono::Duration::minutes(1),
        kind: Some("analytics".into()),
        status_code: Some(429),
        key_id: None,
        offset: 0,
        limit: 10,
    };
    other.engine.analytics().flush().await;
    let (_, limited) = app.store.list_requests(&app.org_id, &q).await.unwrap();
    assert_eq!(limited, 2);
}
