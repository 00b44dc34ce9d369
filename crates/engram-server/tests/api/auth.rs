//! Bearer-only authentication and tenant isolation.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn only_bearer_keys_authenticate() {
    let app = spawn_app().await;
    let url = format!("{}/v3/documents/list", app.base);
    let cases: Vec<(&str, reqwest::RequestBuilder)> = vec![
        ("missing", app.client.post(&url)),
        (
            "x-api-key",
            app.client.post(&url).header("x-api-key", &app.key),
        ),
        (
            "x-supermemory-api-key",
            app.client
                .post(&url)
                .header("x-supermemory-api-key", &app.key),
        ),
        (
            "basic",
            app.client
                .post(&url)
                .header("authorization", format!("Basic {}", app.key)),
        ),
        (
            "bare key",
            app.client
                .post(&url)
                .header("authorization", app.key.clone()),
        ),
        (
            "empty bearer",
            app.client.post(&url).header("authorization", "Bearer "),
        ),
        (
            "unknown",
            app.client
                .post(&url)
                .bearer_auth("em_aaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
        ),
        (
            "wrong secret",
            app.client.post(&url).bearer_auth({
                // the last character changed (never to itself)
                let last = if app.key.ends_with('x') { 'y' } else { 'x' };
                format!("{}{last}", &app.key[..app.key.len() - 1])
            }),
        ),
        ("garbage", app.client.post(&url).bearer_auth("sm_whatever")),
    ];
    for (name, req) in cases {
        let resp = req.json(&json!({})).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{name}");
        let v: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(v["type"], "AuthenticationError", "{name}: {v}");
        assert!(v["error"].is_string());
    }
    let (s, _) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // health needs no key
    let (s, v) = app.send("GET", "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ok");
}

#[tokio::test]
async fn revoked_keys_stop_working() {
    let app = spawn_app().await;
    let id = engram_engine::auth::key_id(&app.key).unwrap().to_string();
    assert!(app.store.revoke_api_key(&id).await.unwrap());
    let (s, v) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
}

#[tokio::test]
async fn another_organisation_sees_nothing() {
    let app = spawn_app().await;
    let id = app
        .add(json!({"content": "private notes", "customId": "mine", "containerTag": "t"}))
        .await;
    app.wait_done(&id).await;
    let other = app.other_org_key("intruder").await;
    let o = Some(other.as_str());
    for path in [
        format!("/v3/documents/{id}"),
        "/v3/documents/mine".to_string(),
        format!("/v3/documents/{id}/chunks"),
    ] {
        let got = app.send("GET", &path, o, None).await;
        assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "not found");
    }
    let got = app
        .send(
            "PATCH",
            &format!("/v3/documents/{id}"),
            o,
            Some(json!({"content": "pwned"})),
        )
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "not found");
    let got = app
        .send("DELETE", &format!("/v3/documents/{id}"), o, None)
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "not found");
    let (s, v) = app
        .send("POST", "/v3/documents/list", o, Some(json!({})))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["pagination"]["totalItems"], 0);
    let (_, v) = app
        .send(
            "DELETE",
            "/v3/documents/bulk",
            o,
            Some(json!({"containerTags": ["t"]})),
        )
        .await;
    assert_eq!(v["deletedCount"], 0);
    let (_, v) = app
        .send(
            "DELETE",
            "/v3/documents/bulk",
            o,
            Some(json!({"ids": [id.clone()]})),
        )
        .await;
    assert_eq!(v["deletedCount"], 0);
    // the same customId in the other org is a different document
    let (s, v) = app
        .send(
            "POST",
            "/v3/documents",
            o,
            Some(json!({"content": "theirs", "customId": "mine"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_ne!(v["id"], id.as_str());
    let (_, mine) = app.get(&format!("/v3/documents/{id}")).await;
    assert_eq!(mine["content"], "private notes");
    assert_eq!(mine["status"], "done");
}

/// Every answer, whatever its status or route, says: no sniffing, no
/// framing, no referrer.
#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = spawn_app().await;
    let answers = [
        app.client.get(format!("{}/health", app.base)),
        app.client.get(format!("{}/v3/openapi", app.base)),
        app.client.post(format!("{}/v3/documents/list", app.base)),
        app.client
            .post(format!("{}/v3/documents/list", app.base))
            .bearer_auth(&app.key)
            .json(&json!({})),
        app.client.get(format!("{}/no/such/route", app.base)),
        app.client
            .get(format!("{}/v3/connections/callback?state=x", app.base)),
    ];
    for req in answers {
        let r = req.send().await.unwrap();
        let h = r.headers();
        let url = r.url().to_string();
        assert_eq!(h["x-content-type-options"], "nosniff", "{url}");
        assert_eq!(h["x-frame-options"], "DENY", "{url}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{url}");
    }
}
