//! `/v3/container-tags*`: spaces appear with use or with settings, count
//! what they hold, their settings take effect, and deleting one takes
//! everything in it (and nothing of another organisation's).

use crate::support::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn spaces_settings_take_effect_and_deletion_cascades() {
    let app = spawn_app().await;
    let (st, list) = app.get("/v3/container-tags/list").await;
    assert_eq!((st, list), (StatusCode::OK, json!([])));
    assert_error(
        &app.get("/v3/container-tags/ana").await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "ana",
    );

    // PATCH creates; later patches change only what they name
    let (st, made) = app
        .patch(
            "/v3/container-tags/ana",
            json!({"name": "Ana's notes", "entityContext": "Ana is a baker in Porto",
                   "profileBuckets": [{"key": "pets", "description": "animals Ana keeps"}]}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{made}");
    assert_eq!(made["containerTag"], "ana");
    assert_eq!(made["profileBuckets"][0]["key"], "pets");
    let (_, changed) = app
        .patch("/v3/container-tags/ana", json!({"entityContext": null}))
        .await;
    assert_eq!(changed["name"], "Ana's notes");
    assert_eq!(changed["entityContext"], json!(null));
    assert_eq!(changed["createdAt"], made["createdAt"]);
    let (_, got) = app.get("/v3/container-tags/ana").await;
    assert_eq!(got, changed);

    // what the space holds is counted
    let doc = app
        .add(json!({"content": "user: I moved to Porto in 2020 and I bake sourdough.", "containerTag": "ana"}))
        .await;
    app.wait_done(&doc).await;
    app.post(
        "/v4/memories",
        json!({"containerTag": "ana", "memories": [{"content": "Ana has a cat named Figo"}]}),
    )
    .await;
    app.add(json!({"content": "Ben rows.", "containerTag": "ben"}))
        .await;
    let (_, list) = app.get("/v3/container-tags/list").await;
    let rows = list.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{list}");
    let ana = &rows[0];
    assert_eq!(ana["containerTag"], "ana");
    assert_eq!(ana["name"], "Ana's notes");
    assert_eq!(ana["documentCount"], 1);
    assert!(ana["memoryCount"].as_u64().unwrap() >= 2, "{ana}");
    assert!(ana["lastActivityAt"].is_string());
    assert_eq!(rows[1]["name"], "ben", "no name set: the tag");

    // the space's bucket is offered and filled
    let (_, b) = app
        .post("/v4/profile/buckets", json!({"containerTag": "ana"}))
        .await;
    let keys: Vec<&str> = b["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys.last(), Some(&"pets"), "{b}");

    // another organisation sees none of it
    let other = app.other_org_key("other").await;
    let (_, theirs) = app
        .send("GET", "/v3/container-tags/list", Some(&other), None)
        .await;
    assert_eq!(theirs, json!([]));
    let (st, _) = app
        .send("DELETE", "/v3/container-tags/ana", Some(&other), None)
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // deletion takes documents and memories
    let (st, gone) = app.delete("/v3/container-tags/ana", None).await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert_eq!(gone["success"], true);
    assert_eq!(gone["deletedDocumentsCount"], 1);
    assert!(
        gone["deletedMemoriesCount"].as_u64().unwrap() >= 2,
        "{gone}"
    );
    let (st, _) = app.get(&format!("/v3/documents/{doc}")).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, s) = app
        .post("/v4/search", json!({"q": "Ana cat sourdough", "containerTag": "ana", "threshold": 0, "searchMode": "hybrid"}))
        .await;
    assert_eq!(s["results"], json!([]), "{s}");
    let (st, _) = app.get("/v3/container-tags/ana").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = app.delete("/v3/container-tags/ana", None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, list) = app.get("/v3/container-tags/list").await;
    assert_eq!(list.as_array().unwrap().len(), 1);

    // bad input
    for (body, field) in [
        (json!({"name": ""}), "name"),
        (json!({"entityContext": "x".repeat(1501)}), "entityContext"),
        (
            json!({"profileBuckets": [{"key": "Not A Slug"}]}),
            "profileBuckets[0].key",
        ),
    ] {
        let got = app.patch("/v3/container-tags/ana", body).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
    let got = app.patch("/v3/container-tags/no%20spaces", json!({})).await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "containerTag",
    );
}

#[tokio::test]
async fn merging_tags_moves_documents_and_memories_in_the_background() {
    let app = spawn_app().await;
    let old = app
        .add(json!({"content": "Quokkas live on Rottnest island.", "containerTag": "user_old"}))
        .await;
    let new = app
        .add(json!({"content": "Wombats dig burrows.", "containerTag": "user_123"}))
        .await;
    app.wait_done(&old).await;
    app.wait_done(&new).await;
    app.post(
        "/v4/memories",
        json!({"containerTag": "user_old", "memories": [{"content": "The user likes quokkas"}]}),
    )
    .await;

    let (st, q) = app
        .post(
            "/v3/container-tags/merge",
            json!({"containerTags": ["user_old", "user_123"], "targetContainerTag": "user_123"}),
        )
        .await;
    assert_eq!(st, StatusCode::ACCEPTED, "{q}");
    assert_eq!(q["status"], "queued");
    assert_eq!(q["sourceTags"], json!(["user_old"]));
    let id = q["mergeId"].as_str().unwrap();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        let (st, m) = app.get(&format!("/v3/container-tags/merge/{id}")).await;
        assert_eq!(st, StatusCode::OK, "{m}");
        if m["status"] == "done" {
            break m;
        }
        assert!(tokio::time::Instant::now() < deadline, "{m}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(status["movedDocuments"], 1);
    assert!(status["movedMemories"].as_u64().unwrap() >= 1, "{status}");

    let (_, d) = app.get(&format!("/v3/documents/{old}")).await;
    assert_eq!(d["containerTags"], json!(["user_123"]));
    let (_, list) = app.get("/v3/container-tags/list").await;
    let tags: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["containerTag"].as_str().unwrap())
        .collect();
    assert_eq!(tags, ["user_123"]);
    // searching the target finds what the source held
    let (_, s) = app
        .post(
            "/v3/search",
            json!({"q": "quokkas island", "containerTag": "user_123"}),
        )
        .await;
    assert_eq!(s["results"][0]["documentId"], old.as_str(), "{s}");
    let (_, s) = app
        .post(
            "/v4/search",
            json!({"q": "quokkas", "containerTag": "user_123", "threshold": 0}),
        )
        .await;
    assert!(
        s["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["memory"] == "The user likes quokkas"),
        "{s}"
    );

    // bad requests
    let got = app
        .post(
            "/v3/container-tags/merge",
            json!({"containerTags": ["nobody"], "targetContainerTag": "user_123"}),
        )
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "nobody");
    let got = app
        .post(
            "/v3/container-tags/merge",
            json!({"containerTags": ["user_123"], "targetContainerTag": "user_123"}),
        )
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "containerTags",
    );
    let got = app.get("/v3/container-tags/merge/merge_nope").await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "merge_nope");
    let other = app.other_org_key("other").await;
    let (st, _) = app
        .send(
            "GET",
            &format!("/v3/container-tags/merge/{id}"),
            Some(&other),
            None,
        )
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}
