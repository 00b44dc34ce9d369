//! Scope is never dropped: every route that writes content or memories
//! takes `containerTag`, `containerTags` and both together (the singular is
//! the space memories form in; the plural adds tags; snake_case spellings
//! are accepted too), and what it wrote lands there: the document carries
//! the tag, and its memories are listed in that space.

use crate::support::*;
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The spellings a client may use for the tag `t`.
fn spellings(t: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("singular", json!({"containerTag": t})),
        ("plural", json!({"containerTags": [t]})),
        (
            "both",
            json!({"containerTag": t, "containerTags": [t, "extra_tag"]}),
        ),
        ("snake", json!({"container_tag": t})),
    ]
}

fn with(mut body: Value, tags: &Value) -> Value {
    for (k, v) in tags.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// The space's memories' texts.
async fn memories_in(app: &TestApp, tag: &str) -> Vec<String> {
    let (st, v) = app
        .post("/v4/memories/list", json!({"containerTag": tag}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    v["memoryEntries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["memory"].as_str().unwrap().to_string())
        .collect()
}

/// The document is done, carries `tag` first, and its fact is a memory of
/// `tag`'s space (and of no other).
async fn landed(app: &TestApp, id: &str, tag: &str, fact: &str, route: &str) {
    let d = app.wait_done(id).await;
    assert_eq!(d["containerTags"][0], tag, "{route}: {d}");
    let got = memories_in(app, tag).await;
    assert!(
        got.iter().any(|m| m.contains(fact)),
        "{route}: the memory is not in {tag}: {got:?}"
    );
    assert!(
        memories_in(app, "sm_project_default").await.is_empty(),
        "{route}: a memory fell into the default space"
    );
}

#[tokio::test]
async fn every_write_route_keeps_the_tag_in_either_spelling() {
    let app = spawn_app().await;
    for (form, _) in spellings("x") {
        let tag = |route: &str| format!("{route}_{form}");
        let tags = |route: &str| {
            spellings(&tag(route))
                .into_iter()
                .find(|(f, _)| *f == form)
                .unwrap()
                .1
        };

        // POST /v3/documents
        let route = "doc";
        let id = app
            .add(with(
                json!({"content": "Ada lives in Lisbon."}),
                &tags(route),
            ))
            .await;
        landed(&app, &id, &tag(route), "Ada lives in Lisbon", route).await;

        // POST /v3/documents/batch: tags for the whole batch
        let route = "batch";
        let (st, v) = app
            .post(
                "/v3/documents/batch",
                with(
                    json!({"documents": [{"content": "Ben works at Acme."}]}),
                    &tags(route),
                ),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let id = v["results"][0]["id"].as_str().unwrap().to_string();
        landed(&app, &id, &tag(route), "Ben works at Acme", route).await;

        // ... and on one item
        let route = "item";
        let (st, v) = app
            .post(
                "/v3/documents/batch",
                json!({"documents": [with(json!({"content": "Cleo plays the cello."}), &tags(route))]}),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let id = v["results"][0]["id"].as_str().unwrap().to_string();
        landed(&app, &id, &tag(route), "Cleo plays the cello", route).await;

        // POST /v3/documents/file: multipart fields of the same names
        let route = "file";
        let mut upload = Form::new().part(
            "file",
            Part::bytes(b"Dara keeps bees in Pune.".to_vec())
                .file_name("note.txt")
                .mime_str("text/plain")
                .unwrap(),
        );
        for (k, v) in tags(route).as_object().unwrap() {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            upload = upload.text(k.clone(), v);
        }
        let resp = app
            .client
            .post(format!("{}/v3/documents/file", app.base))
            .bearer_auth(&app.key)
            .multipart(upload)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{route}");
        let v: Value = resp.json().await.unwrap();
        let id = v["id"].as_str().unwrap().to_string();
        landed(&app, &id, &tag(route), "Dara keeps bees in Pune", route).await;

        // POST /v4/conversations
        let route = "conv";
        let (st, v) = app
            .post(
                "/v4/conversations",
                with(
                    json!({"conversationId": format!("c-{form}"), "messages": [
                        {"role": "user", "name": "Eli", "content": "I moved to Oslo last month."}
                    ]}),
                    &tags(route),
                ),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        landed(&app, &id, &tag(route), "Eli moved to Oslo", route).await;

        // PATCH /v3/documents/{id}: moving a document moves where it is
        let route = "patch";
        let id = app
            .add(json!({"content": "Fay swims every morning.", "containerTag": "before_patch"}))
            .await;
        app.wait_done(&id).await;
        let (st, v) = app.patch(&format!("/v3/documents/{id}"), tags(route)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let (_, d) = app.get(&format!("/v3/documents/{id}")).await;
        assert_eq!(d["containerTags"][0], tag(route).as_str(), "{route}: {d}");

        // POST /v4/memories, PATCH and DELETE /v4/memories, forget-matching
        let route = "mem";
        let (st, v) = app
            .post(
                "/v4/memories",
                with(
                    json!({"memories": [{"content": "Gus is vegan."}]}),
                    &tags(route),
                ),
            )
            .await;
        assert_eq!(st, StatusCode::CREATED, "{route} {form}: {v}");
        assert_eq!(memories_in(&app, &tag(route)).await, ["Gus is vegan."]);
        let mid = v["memories"][0]["id"].as_str().unwrap().to_string();
        let (st, v) = app
            .patch(
                "/v4/memories",
                with(
                    json!({"id": mid, "newContent": "Gus is vegetarian."}),
                    &tags(route),
                ),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{route} patch {form}: {v}");
        assert_eq!(memories_in(&app, &tag(route)).await, ["Gus is vegetarian."]);
        let (st, v) = app
            .post(
                "/v4/memories/forget-matching",
                with(
                    json!({"query": "Gus is vegetarian", "dryRun": true}),
                    &tags(route),
                ),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{route} forget-matching {form}: {v}");
        assert_eq!(v["count"], 1, "{v}");
        let (st, v) = app
            .delete(
                "/v4/memories",
                Some(with(json!({"content": "Gus is vegetarian."}), &tags(route))),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{route} forget {form}: {v}");
        assert!(memories_in(&app, &tag(route)).await.is_empty());
    }
    // the singular names the space when both are sent; a memory route
    // asked to write into two spaces says so rather than pick one
    let (st, v) = app
        .post(
            "/v4/memories",
            json!({"memories": [{"content": "Hal rows."}], "containerTags": ["a_space", "b_space"]}),
        )
        .await;
    assert_error(
        &(st, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "containerTags",
    );
    // a bad tag in either spelling is refused, naming the field
    for (body, field) in [
        (
            json!({"content": "x", "containerTag": "bad tag"}),
            "containerTag",
        ),
        (
            json!({"content": "x", "containerTags": ["ok", "bad tag"]}),
            "containerTags[1]",
        ),
    ] {
        let got = app.post("/v3/documents", body).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
    let got = app
        .post(
            "/v4/conversations",
            json!({"conversationId": "c-bad", "containerTag": "bad tag",
                   "messages": [{"role": "user", "content": "hi"}]}),
        )
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "containerTag",
    );
}

#[tokio::test]
async fn bulk_delete_takes_either_spelling() {
    let app = spawn_app().await;
    for (form, _) in spellings("gone") {
        let tag = format!("gone_{form}");
        let id = app
            .add(json!({"content": "Ivy bakes bread.", "containerTag": tag}))
            .await;
        app.wait_done(&id).await;
        let (_, tags) = spellings(&tag)
            .into_iter()
            .find(|(f, _)| *f == form)
            .unwrap();
        let body = with(json!({}), &tags);
        let (st, v) = app.delete("/v3/documents/bulk", Some(body)).await;
        assert_eq!(st, StatusCode::OK, "{form}: {v}");
        assert!(v["deletedCount"].as_u64().unwrap() >= 1, "{form}: {v}");
        let (st, _) = app.get(&format!("/v3/documents/{id}")).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{form}");
    }
}

#[tokio::test]
async fn unknown_fields_are_ignored_but_a_tag_is_never_lost() {
    let app = spawn_app().await;
    // an unknown field does not fail the write (the public API ignores them)
    let id = app
        .add(json!({"content": "Jo paints.", "containerTag": "known", "someFutureField": 1}))
        .await;
    let d = app.wait_done(&id).await;
    assert_eq!(d["containerTags"], json!(["known"]));
}
