//! Scoped keys: one container tag, only the document, memory, search and
//! profile routes (403 elsewhere), an optional expiry (401 after it) and
//! an optional rate of their own (429 over it); deleted, they get 401.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn scoped_key(app: &TestApp, body: Value) -> (String, String) {
    let (st, v) = app.post("/v3/auth/scoped-key", body).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["key"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_scoped_key_reaches_only_its_tag() {
    let app = spawn_app().await;
    let theirs = app
        .add(
            json!({"content": "Bea's secret: she plays the oboe.", "containerTag": "bea",
                    "customId": "bea-notes"}),
        )
        .await;
    let (_, key) = scoped_key(&app, json!({"containerTag": "ana", "name": "ana's app"})).await;
    let as_ana = |method: &'static str, path: String, body: Option<Value>| {
        let key = key.clone();
        let app = &app;
        async move { app.send(method, &path, Some(&key), body).await }
    };

    // its session says what it is
    let (st, me) = as_ana("GET", "/v3/session".into(), None).await;
    assert_eq!(st, StatusCode::OK, "{me}");
    assert_eq!(me["scope"]["type"], "scoped");
    assert_eq!(me["scope"]["containerTag"], "ana");
    assert_eq!(me["user"]["name"], "ana's app");

    // writes land in its tag; naming another is refused
    let (st, added) = as_ana(
        "POST",
        "/v3/documents".into(),
        Some(json!({"content": "Ana's cat is called Miso."})),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{added}");
    let mine = added["id"].as_str().unwrap().to_string();
    app.wait_done(&mine).await;
    app.wait_done(&theirs).await;
    let (_, d) = app.get(&format!("/v3/documents/{mine}")).await;
    assert_eq!(d["containerTags"], json!(["ana"]));
    let got = as_ana(
        "POST",
        "/v3/documents".into(),
        Some(json!({"content": "x", "containerTag": "bea"})),
    )
    .await;
    assert_error(&got, StatusCode::FORBIDDEN, "PermissionError", "`ana`");
    let got = as_ana(
        "POST",
        "/v3/documents/batch".into(),
        Some(json!({"documents": [{"content": "x", "containerTags": ["ana", "bea"]}]})),
    )
    .await;
    assert_error(&got, StatusCode::FORBIDDEN, "PermissionError", "scoped");
    // nor may it overwrite another tag's document through its custom id
    let got = as_ana(
        "POST",
        "/v3/documents".into(),
        Some(json!({"content": "overwritten", "customId": "bea-notes"})),
    )
    .await;
    assert_error(&got, StatusCode::FORBIDDEN, "PermissionError", "customId");

    // reads see only its tag; another tag's document does not exist for it
    for (method, path) in [
        ("GET", format!("/v3/documents/{theirs}")),
        ("GET", "/v3/documents/bea-notes".to_string()),
        ("GET", format!("/v3/documents/{theirs}/chunks")),
        ("DELETE", format!("/v3/documents/{theirs}")),
    ] {
        let (st, v) = as_ana(method, path.clone(), None).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{method} {path}: {v}");
    }
    let (st, v) = as_ana(
        "PATCH",
        format!("/v3/documents/{theirs}"),
        Some(json!({"content": "changed"})),
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{v}");
    let (_, d) = app.get(&format!("/v3/documents/{theirs}")).await;
    assert!(d["content"].as_str().unwrap().contains("oboe"), "untouched");
    let (st, v) = as_ana("GET", format!("/v3/documents/{mine}"), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (_, list) = as_ana("POST", "/v3/documents/list".into(), Some(json!({}))).await;
    let ids: Vec<&str> = list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [mine.as_str()]);
    let got = as_ana(
        "POST",
        "/v3/documents/list".into(),
        Some(json!({"containerTags": ["bea"]})),
    )
    .await;
    assert_eq!(got.0, StatusCode::FORBIDDEN);

    // search: its tag by default, never another's
    for body in [
        json!({"q": "oboe cat"}),
        json!({"q": "oboe cat", "chunkThreshold": 0}),
    ] {
        let (st, s) = as_ana("POST", "/v3/search".into(), Some(body)).await;
        assert_eq!(st, StatusCode::OK, "{s}");
        assert!(!s.to_string().contains("oboe"), "{s}");
    }
    let (_, s) = as_ana(
        "POST",
        "/v4/search".into(),
        Some(json!({"q": "oboe", "threshold": 0, "searchMode": "hybrid"})),
    )
    .await;
    assert!(!s.to_string().contains("oboe"), "{s}");
    for (path, body) in [
        ("/v3/search", json!({"q": "oboe", "containerTags": ["bea"]})),
        ("/v4/search", json!({"q": "oboe", "containerTag": "bea"})),
        ("/v4/profile", json!({"containerTag": "bea"})),
        ("/v4/profile/buckets", json!({"containerTag": "bea"})),
        (
            "/v4/memories",
            json!({"containerTag": "bea", "memories": [{"content": "x"}]}),
        ),
        ("/v4/memories/list", json!({"containerTags": ["bea"]})),
        (
            "/v4/conversations",
            json!({"conversationId": "bea-notes", "messages": [{"role": "user", "content": "hi"}]}),
        ),
    ] {
        let got = as_ana("POST", path.into(), Some(body)).await;
        assert_error(
            &got,
            StatusCode::FORBIDDEN,
            "PermissionError",
            "container tag",
        );
    }
    let (st, p) = as_ana(
        "POST",
        "/v4/profile".into(),
        Some(json!({"containerTag": "ana"})),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{p}");

    // memories: its own, by id; another tag's memory is not found
    let (st, m) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "bea", "memories": [{"content": "Bea likes figs"}]}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{m}");
    let bea_memory = m["memories"][0]["id"].as_str().unwrap().to_string();
    let (st, v) = as_ana(
        "DELETE",
        "/v4/memories".into(),
        Some(json!({"id": bea_memory, "containerTag": "ana"})),
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{v}");
    let (st, m) = as_ana(
        "POST",
        "/v4/memories".into(),
        Some(json!({"containerTag": "ana", "memories": [{"content": "Ana likes tea"}]})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{m}");
    let (st, v) = as_ana(
        "PATCH",
        "/v4/memories".into(),
        Some(json!({"id": m["memories"][0]["id"], "containerTag": "ana", "newContent": "Ana likes green tea"})),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");

    // bulk deletion stays inside its tag
    let got = as_ana(
        "DELETE",
        "/v3/documents/bulk".into(),
        Some(json!({"containerTags": ["bea"]})),
    )
    .await;
    assert_eq!(got.0, StatusCode::FORBIDDEN, "{}", got.1);
    let (st, v) = as_ana(
        "DELETE",
        "/v3/documents/bulk".into(),
        Some(json!({"ids": [theirs.clone()]})),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["deletedCount"], 0);
    assert_eq!(
        app.get(&format!("/v3/documents/{theirs}")).await.0,
        StatusCode::OK
    );

    // everything else is out of reach
    for (method, path) in [
        ("GET", "/v3/analytics/usage"),
        ("GET", "/v3/settings"),
        ("PATCH", "/v3/settings"),
        ("GET", "/v3/container-tags/list"),
        ("GET", "/v3/container-tags/ana"),
        ("GET", "/v3/graph"),
        ("GET", "/v3/auth/keys"),
        ("POST", "/v3/auth/keys"),
        ("POST", "/v3/auth/scoped-key"),
    ] {
        let got = as_ana(
            method,
            path.into(),
            Some(json!({"name": "x", "containerTag": "ana"})),
        )
        .await;
        assert_error(&got, StatusCode::FORBIDDEN, "PermissionError", "scoped");
    }

    // its requests are in the organisation's analytics, under its key
    let (_, u) = app.get("/v3/analytics/usage").await;
    assert!(
        u["byKey"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["keyName"] == "ana's app"),
        "{u}"
    );
}

#[tokio::test]
async fn scoped_keys_expire_are_deleted_and_keep_their_own_rate() {
    let app = spawn_app().await;
    // expiry
    let (_, key) = scoped_key(&app, json!({"containerTag": "ana", "expiresIn": 1})).await;
    let (st, _) = app.send("GET", "/v3/session", Some(&key), None).await;
    assert_eq!(st, StatusCode::OK);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let got = app.send("GET", "/v3/session", Some(&key), None).await;
    assert_error(
        &got,
        StatusCode::UNAUTHORIZED,
        "AuthenticationError",
        "expired",
    );

    // deletion: then 401; twice is a conflict; a full key is not a scoped one
    let (id, key) = scoped_key(&app, json!({"containerTag": "ana"})).await;
    let (st, v) = app.delete(&format!("/v3/auth/scoped-key/{id}"), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["containerTag"], "ana");
    assert!(v["revokedAt"].is_string());
    let got = app
        .send("POST", "/v3/search", Some(&key), Some(json!({"q": "x"})))
        .await;
    assert_error(
        &got,
        StatusCode::UNAUTHORIZED,
        "AuthenticationError",
        "revoked",
    );
    let got = app.delete(&format!("/v3/auth/scoped-key/{id}"), None).await;
    assert_eq!(got.0, StatusCode::CONFLICT);
    let (_, keys) = app.get("/v3/auth/keys").await;
    let full = keys["keys"][0]["id"].as_str().unwrap().to_string();
    let got = app
        .delete(&format!("/v3/auth/scoped-key/{full}"), None)
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "Scoped key");
    let other = app.other_org_key("other").await;
    let (other_id, _) = {
        let (st, v) = app
            .send(
                "POST",
                "/v3/auth/scoped-key",
                Some(&other),
                Some(json!({"containerTag": "x"})),
            )
            .await;
        assert_eq!(st, StatusCode::CREATED);
        (v["id"].as_str().unwrap().to_string(), ())
    };
    let got = app
        .delete(&format!("/v3/auth/scoped-key/{other_id}"), None)
        .await;
    assert_eq!(got.0, StatusCode::NOT_FOUND, "another organisation's key");

    // its own rate limit
    let (_, key) = scoped_key(&app, json!({"containerTag": "ana", "rateLimit": 3})).await;
    for _ in 0..3 {
        let (st, v) = app
            .send("POST", "/v3/search", Some(&key), Some(json!({"q": "x"})))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let got = app
        .send("POST", "/v3/search", Some(&key), Some(json!({"q": "x"})))
        .await;
    assert_error(
        &got,
        StatusCode::TOO_MANY_REQUESTS,
        "RateLimitError",
        "this key",
    );
    assert!(got.1["retryAfterSeconds"].as_u64().unwrap() >= 1);
    // the organisation's full key is not limited by it
    assert_eq!(
        app.post("/v3/search", json!({"q": "x"})).await.0,
        StatusCode::OK
    );

    // bad requests
    for (body, field) in [
        (json!({"containerTag": "no spaces allowed"}), "containerTag"),
        (
            json!({"containerTag": "ana", "expiresAt": "2001-01-01T00:00:00Z"}),
            "expiresAt",
        ),
        (json!({"containerTag": "ana", "rateLimit": 0}), "rateLimit"),
    ] {
        let got = app.post("/v3/auth/scoped-key", body).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
}
