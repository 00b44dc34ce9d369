//! The tenancy probe: organisation A gets one of every kind of object
//! (documents with a customId, chunks, memories with history, a space
//! with its settings, organisation settings, keys and a scoped key,
//! request logs, graph nodes, a connection, a tag merge), each carrying a
//! marker. Then every operation of the served OpenAPI (read from
//! `/v3/openapi`, so a new route is probed the day it is added) is sent
//! with organisation B's key and with a key of A scoped to another tag:
//! every path parameter filled with each of A's ids, customIds and tags,
//! and a body naming them all. The bar: no answer holds a marker, and
//! afterwards every object of A is as it was.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

const MARK: &str = "zqxmarker";

struct OrgA {
    doc: String,
    memory: String,
    key_id: String,
    scoped_id: String,
    connection: String,
    merge: String,
}

async fn furnish(app: &TestApp) -> OrgA {
    let doc = app
        .add(
            json!({"content": format!("Ada keeps bees on her roof. {MARK} document."),
                    "customId": "a-doc", "containerTag": "a_tag",
                    "metadata": {"note": format!("{MARK} metadata")}}),
        )
        .await;
    app.wait_done(&doc).await;
    let (s, v) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "a_tag", "memories": [{"content": format!("Ada likes {MARK} honey.")}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let memory = v["memories"][0]["id"].as_str().unwrap().to_string();
    let (s, v) = app
        .patch(
            "/v4/memories",
            json!({"id": memory, "containerTag": "a_tag", "newContent": format!("Ada loves {MARK} honey.")}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let memory = v["id"].as_str().unwrap_or(&memory).to_string();
    let (s, v) = app
        .patch(
            "/v3/container-tags/a_tag",
            json!({"entityContext": format!("Ada, {MARK} space")}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .patch(
            "/v3/settings",
            json!({"filterPrompt": format!("{MARK} settings"), "githubClientId": format!("{MARK}-client")}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .post("/v3/auth/keys", json!({"name": format!("{MARK} key")}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let key_id = v["id"].as_str().unwrap().to_string();
    let (s, v) = app
        .post(
            "/v3/auth/scoped-key",
            json!({"name": format!("{MARK} scoped"), "containerTag": "a_tag"}),
        )
        .await;
    assert!(s.is_success(), "{v}");
    let scoped_id = v["id"].as_str().unwrap().to_string();
    let (s, v) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"containerTag": "a_tag", "metadata": {"startUrl": format!("http://127.0.0.1:9/{MARK}/")}}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let connection = v["id"].as_str().unwrap().to_string();
    let side = app
        .add(json!({"content": "A side note.", "containerTag": "a_side"}))
        .await;
    app.wait_done(&side).await;
    let (s, v) = app
        .post(
            "/v3/container-tags/merge",
            json!({"containerTags": ["a_side"], "targetContainerTag": "a_tag"}),
        )
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let merge = v["mergeId"].as_str().unwrap().to_string();
    app.wait_idle().await;
    // A's own key sees its markers: the probe below would notice them
    let (_, v) = app
        .post(
            "/v4/search",
            json!({"q": "honey", "containerTag": "a_tag", "threshold": 0}),
        )
        .await;
    assert!(v.to_string().contains(MARK), "{v}");
    OrgA {
        doc,
        memory,
        key_id,
        scoped_id,
        connection,
        merge,
    }
}

/// Everything of A as A's key sees it, to compare before and after.
async fn snapshot(app: &TestApp, a: &OrgA) -> Vec<Value> {
    let mut out = Vec::new();
    for path in [
        format!("/v3/documents/{}", a.doc),
        "/v3/settings".into(),
        "/v3/container-tags/a_tag".into(),
        format!("/v3/connections/{}", a.connection),
        format!("/v3/container-tags/merge/{}", a.merge),
    ] {
        let (s, mut v) = app.get(&path).await;
        assert_eq!(s, StatusCode::OK, "{path}: {v}");
        if let Some(o) = v.as_object_mut() {
            // what moves by itself
            for k in ["updatedAt", "lastSyncRun", "dreamingStatus"] {
                o.remove(k);
            }
        }
        out.push(v);
    }
    let (_, keys) = app.get("/v3/auth/keys").await;
    out.push(keys);
    let (_, mems) = app
        .post("/v4/memories/list", json!({"containerTag": "a_tag"}))
        .await;
    out.push(mems["memoryEntries"].clone());
    out
}

fn fill(path: &str, a: &OrgA) -> Vec<String> {
    let ids = [
        a.doc.as_str(),
        "a-doc",
        a.memory.as_str(),
        a.key_id.as_str(),
        a.scoped_id.as_str(),
        a.connection.as_str(),
        "web-crawler",
    ];
    if path.contains("{id}") {
        ids.iter().map(|id| path.replace("{id}", id)).collect()
    } else if path.contains("{containerTag}") {
        vec![path.replace("{containerTag}", "a_tag")]
    } else if path.contains("{mergeId}") {
        vec![path.replace("{mergeId}", &a.merge)]
    } else {
        vec![path.to_string()]
    }
}

fn body(a: &OrgA) -> Value {
    json!({
        "q": "honey bees Ada", "containerTag": "a_tag", "containerTags": ["a_tag"],
        "id": a.memory, "ids": [a.doc], "customId": "a-doc", "docId": a.doc,
        "content": "probe", "newContent": "probe", "name": "probe",
        "memories": [{"content": "probe"}], "conversationId": "probe",
        "messages": [{"role": "user", "content": "probe"}],
        "targetContainerTag": "a_tag", "threshold": 0, "chunkThreshold": 0,
        "entityContext": "probe", "filterPrompt": "probe", "resources": [],
        "confirmation": "default", "reason": "probe", "limit": 100,
    })
}

#[tokio::test]
async fn another_organisation_or_tag_sees_and_changes_nothing() {
    let app = spawn_app().await;
    let a = furnish(&app).await;
    let b = app.other_org_key("org_b").await;
    let (s, v) = app
        .post(
            "/v3/auth/scoped-key",
            json!({"name": "elsewhere", "containerTag": "other_tag"}),
        )
        .await;
    assert!(s.is_success(), "{v}");
    let elsewhere = v["key"].as_str().unwrap().to_string();
    let before = snapshot(&app, &a).await;
    let (_, doc) = app.get("/v3/openapi").await;
    let mut sent = 0;
    for (who, key) in [
        ("organisation B", &b),
        ("a key scoped to another tag", &elsewhere),
    ] {
        for (path, item) in doc["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                // a reset empties the caller's own organisation: B's, or
                // refused for the scoped key; A is checked afterwards
                for p in fill(path, &a) {
                    for with_body in [false, true] {
                        let q = if method == "get" {
                            "?containerTag=a_tag&limit=100"
                        } else {
                            ""
                        };
                        let (s, v) = app
                            .send(
                                &method.to_uppercase(),
                                &format!("{p}{q}"),
                                Some(key),
                                with_body.then(|| body(&a)),
                            )
                            .await;
                        sent += 1;
                        assert!(
                            !v.to_string().contains(MARK),
                            "{who}: {} {p} answered {s} with A's data: {v}",
                            method.to_uppercase()
                        );
                        assert!(s.as_u16() < 500, "{who}: {method} {p}: {s} {v}");
                    }
                }
            }
        }
    }
    app.wait_idle().await;
    let after = snapshot(&app, &a).await;
    assert_eq!(before, after, "A's objects changed");
    eprintln!("tenancy probe: {sent} requests, no object of A seen or changed");
}
