//! The document routes: happy paths and bad inputs.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn add_get_and_chunks() {
    let app = spawn_app().await;
    let id = app
        .add(json!({
            "content": "# Travel notes\n\nI visited Lisbon in May. The tiles were beautiful.\n\nNext year: Porto.",
            "containerTag": "user_1",
            "metadata": {"source": "notes", "year": 2024, "public": false, "tags": ["a", "b"]},
            "taskType": "superrag",
            "dreaming": "instant",
            "filepath": "/notes/travel.md",
            "entityContext": "The user likes travel."
        }))
        .await;
    assert_eq!(id.len(), 22);
    let d = app.wait_done(&id).await;
    assert_eq!(d["id"], id.as_str());
    assert_eq!(d["title"], "Travel notes");
    assert_eq!(d["type"], "text");
    assert_eq!(d["taskType"], "superrag");
    assert_eq!(d["dreamingStatus"], "done");
    assert_eq!(d["containerTags"], json!(["user_1"]));
    assert_eq!(d["metadata"]["year"], 2024);
    assert_eq!(d["metadata"]["tags"], json!(["a", "b"]));
    assert_eq!(d["filepath"], "/notes/travel.md");
    assert_eq!(d["latestRevision"], 1);
    assert!(d["summary"]
        .as_str()
        .unwrap()
        .starts_with("I visited Lisbon"));
    for key in ["raw", "customId", "connectionId", "ogImage", "url"] {
        assert!(d.get(key).is_some(), "missing {key}");
    }
    assert!(d["createdAt"].as_str().unwrap().ends_with('Z'));

    let (s, c) = app.get(&format!("/v3/documents/{id}/chunks")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(c["documentId"], id.as_str());
    assert_eq!(c["total"], 1);
    assert_eq!(c["chunks"][0]["position"], 0);
    assert_eq!(c["chunks"][0]["type"], "text");
    assert!(c["chunks"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Lisbon"));
}

#[tokio::test]
async fn custom_id_upserts_and_reprocesses() {
    let app = spawn_app().await;
    let a = app
        .add(json!({"content": "version one", "customId": "doc-1"}))
        .await;
    app.wait_done(&a).await;
    let b = app
        .add(json!({"content": "version two is longer", "customId": "doc-1"}))
        .await;
    assert_eq!(a, b, "same customId, same document");
    let d = app.wait_done("doc-1").await;
    assert_eq!(d["content"], "version two is longer");
    assert_eq!(d["latestRevision"], 2);
    let (_, c) = app.get("/v3/documents/doc-1/chunks").await;
    assert_eq!(c["total"], 1, "chunks replaced, not appended");
    let (_, l) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(l["pagination"]["totalItems"], 1);
}

/// Writes that arrive together are committed together (one transaction)
/// and each answered with its own documents: single writes, batches of
/// different sizes and replacements of one customId, all at once.
#[tokio::test]
async fn concurrent_writes_each_get_their_own_documents() {
    use futures::future::join_all;
    let app = spawn_app().await;
    let singles = join_all((0..24).map(|i| {
        let app = &app;
        async move {
            let content = format!("single note number {i}");
            let body = json!({"content": content, "containerTag": "t", "taskType": "superrag"});
            (vec![content], vec![app.add(body).await])
        }
    }));
    let batches = join_all((1..=6).map(|n| {
        let app = &app;
        async move {
            let contents: Vec<String> = (0..n).map(|j| format!("batch {n} note {j}")).collect();
            let (s, v) = app
                .post(
                    "/v3/documents/batch",
                    json!({"containerTag": "t", "documents": contents.clone()}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let ids: Vec<String> = v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect();
            (contents, ids)
        }
    }));
    let shared = join_all((0..4).map(|i| {
        let app = &app;
        async move {
            let body = json!({"content": format!("shared version {i}"), "customId": "same"});
            app.add(body).await
        }
    }));
    let (singles, batches, shared) = futures::join!(singles, batches, shared);

    let mut seen = std::collections::HashSet::new();
    for (contents, ids) in singles.into_iter().chain(batches) {
        assert_eq!(contents.len(), ids.len());
        for (content, id) in contents.iter().zip(&ids) {
            assert!(seen.insert(id.clone()), "{id} answered twice");
            let (s, d) = app.get(&format!("/v3/documents/{id}")).await;
            assert_eq!(s, StatusCode::OK, "{d}");
            assert_eq!(
                d["content"],
                content.as_str(),
                "{id} is another write's document"
            );
        }
    }
    assert_eq!(seen.len(), 24 + 21);
    assert!(
        shared.iter().all(|id| *id == shared[0]),
        "one customId, one document: {shared:?}"
    );
    assert!(!seen.contains(&shared[0]));
    let (_, l) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(l["pagination"]["totalItems"], 24 + 21 + 1);
}

#[tokio::test]
async fn patch_in_place_or_reprocess() {
    let app = spawn_app().await;
    let id = app
        .add(json!({"content": "alpha beta", "containerTag": "a"}))
        .await;
    app.wait_done(&id).await;
    let (s, v) = app
        .patch(
            &format!("/v3/documents/{id}"),
            json!({"metadata": {"k": "v"}, "containerTag": "b"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "done");
    let (_, d) = app.get(&format!("/v3/documents/{id}")).await;
    assert_eq!(d["metadata"], json!({"k": "v"}));
    assert_eq!(d["containerTags"], json!(["b"]));
    let (_, v) = app
        .patch(
            &format!("/v3/documents/{id}"),
            json!({"content": "gamma delta epsilon"}),
        )
        .await;
    assert_eq!(v["status"], "queued");
    let d = app.wait_done(&id).await;
    assert_eq!(d["content"], "gamma delta epsilon");
    // customId taken by another document: conflict
    app.add(json!({"content": "x", "customId": "taken"})).await;
    let got = app
        .patch(&format!("/v3/documents/{id}"), json!({"customId": "taken"}))
        .await;
    assert_error(&got, StatusCode::CONFLICT, "ConflictError", "");
    let got = app
        .patch("/v3/documents/nope", json!({"content": "x"}))
        .await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "not found");
    let got = app
        .patch(
            &format!("/v3/documents/{id}"),
            json!({"metadata": {"a": {"b": 1}}}),
        )
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "metadata.a",
    );
}

#[tokio::test]
async fn delete_by_id_and_custom_id() {
    let app = spawn_app().await;
    let id = app.add(json!({"content": "to delete"})).await;
    app.wait_done(&id).await;
    let (s, v) = app.delete(&format!("/v3/documents/{id}"), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    assert_error(
        &app.get(&format!("/v3/documents/{id}")).await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "not found",
    );
    assert_error(
        &app.get(&format!("/v3/documents/{id}/chunks")).await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "",
    );
    assert_error(
        &app.delete(&format!("/v3/documents/{id}"), None).await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "",
    );
    app.add(json!({"content": "by custom", "customId": "c-1"}))
        .await;
    let (s, _) = app.delete("/v3/documents/c-1", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(app.store.pending_jobs().await.unwrap(), 0);
}

#[tokio::test]
async fn batch_add_reports_each_item() {
    let app = spawn_app().await;
    let (s, v) = app
        .post(
            "/v3/documents/batch",
            json!({
                "containerTag": "shared",
                "documents": [
                    "plain string document",
                    {"content": "object document", "customId": "b-1", "metadata": {"n": 1}},
                    {"content": "bad tag", "containerTag": "no spaces allowed"},
                    {"nocontent": true},
                    {"content": "nested", "metadata": {"x": {"y": 1}}}
                ]
            }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["success"], 2);
    assert_eq!(v["failed"], 3);
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 5);
    assert_eq!(r[0]["status"], "queued");
    assert_eq!(r[2]["status"], "error");
    assert_eq!(r[2]["id"], "");
    assert!(
        r[2]["details"]
            .as_str()
            .unwrap()
            .contains("documents[2].containerTag"),
        "{}",
        r[2]
    );
    assert!(
        r[3]["details"].as_str().unwrap().contains("content"),
        "{}",
        r[3]
    );
    assert!(
        r[4]["details"].as_str().unwrap().contains("metadata.x"),
        "{}",
        r[4]
    );
    let d = app.wait_done(r[1]["id"].as_str().unwrap()).await;
    assert_eq!(d["containerTags"], json!(["shared"]));
    assert_eq!(d["customId"], "b-1");

    let got = app
        .post("/v3/documents/batch", json!({"documents": []}))
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "documents",
    );
    let many: Vec<Value> = (0..601).map(|i| json!(format!("doc {i}"))).collect();
    let got = app
        .post("/v3/documents/batch", json!({"documents": many}))
        .await;
    assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", "1 to 600");
    let six_hundred: Vec<Value> = (0..600).map(|i| json!(format!("doc number {i}"))).collect();
    let (s, v) = app
        .post("/v3/documents/batch", json!({"documents": six_hundred}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["success"], 600);
}

#[tokio::test]
async fn list_pages_sorts_and_filters_by_tag_and_path() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    for i in 0..5 {
        let tag = if i % 2 == 0 { "even" } else { "odd" };
        ids.push(app.add(json!({"content": format!("document {i}"), "containerTag": tag, "filepath": format!("/docs/{i}.md")})).await);
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    app.wait_idle().await;
    let (s, v) = app
        .post("/v3/documents/list", json!({"limit": "2", "page": 1}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["pagination"],
        json!({"currentPage": 1, "limit": 2, "totalItems": 5, "totalPages": 3})
    );
    let got: Vec<&str> = v["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(got, vec![ids[4].as_str(), ids[3].as_str()]);
    assert!(v["memories"][0].get("content").is_none());
    let (_, v) = app
        .post(
            "/v3/documents/list",
            json!({"order": "asc", "page": "3", "limit": 2, "includeContent": true}),
        )
        .await;
    assert_eq!(v["memories"][0]["id"], ids[4].as_str());
    assert_eq!(v["memories"][0]["content"], "document 4");
    let (_, v) = app
        .post("/v3/documents/list", json!({"containerTags": ["even"]}))
        .await;
    assert_eq!(v["pagination"]["totalItems"], 3);
    let (_, v) = app
        .post("/v3/documents/list", json!({"filepath": "/docs/1.md"}))
        .await;
    assert_eq!(v["memories"][0]["id"], ids[1].as_str());
    let (_, v) = app
        .post(
            "/v3/documents/list",
            json!({"filepath": "/docs/", "sort": "updatedAt"}),
        )
        .await;
    assert_eq!(v["pagination"]["totalItems"], 5);
    // an empty body lists with defaults
    let (s, v) = app
        .post_raw("/v3/documents/list", "application/json", "")
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["pagination"]["limit"], 10);

    for (body, needle) in [
        (json!({"limit": 0}), "limit"),
        (json!({"limit": "abc"}), "limit"),
        (json!({"page": 0}), "page"),
        (json!({"order": "sideways"}), "order"),
        (json!({"sort": "title"}), "sort"),
        (
            json!({"containerTags": ["ok", "not ok"]}),
            "containerTags[1]",
        ),
        (json!({"includeContent": "yes"}), "includeContent"),
    ] {
        let got = app.post("/v3/documents/list", body.clone()).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", needle);
    }
}

#[tokio::test]
async fn processing_lists_unfinished_documents() {
    let app = spawn_app_with(Options {
        workers: 0,
        ..Default::default()
    })
    .await;
    let id = app
        .add(json!({"content": "waiting", "customId": "w"}))
        .await;
    let (s, v) = app.get("/v3/documents/processing").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["totalCount"], 1);
    assert_eq!(v["documents"][0]["id"], id.as_str());
    assert_eq!(v["documents"][0]["status"], "queued");
    assert_eq!(v["documents"][0]["customId"], "w");
}

#[tokio::test]
async fn bulk_delete_by_ids_tags_and_path() {
    let app = spawn_app().await;
    let a = app.add(json!({"content": "a", "containerTag": "x"})).await;
    let b = app.add(json!({"content": "b", "containerTag": "y"})).await;
    app.add(json!({"content": "c", "containerTag": "y"})).await;
    app.add(json!({"content": "d", "filepath": "/f/d.txt"}))
        .await;
    let (s, v) = app
        .delete("/v3/documents/bulk", Some(json!({"ids": [a, "missing"]})))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["deletedCount"], 1);
    assert_eq!(v["success"], false);
    assert_eq!(v["errors"][0]["id"], "missing");
    let (_, v) = app
        .delete("/v3/documents/bulk", Some(json!({"containerTags": ["y"]})))
        .await;
    assert_eq!(v["deletedCount"], 2);
    assert_eq!(v["success"], true);
    let (_, v) = app
        .delete("/v3/documents/bulk", Some(json!({"filepath": "/f/"})))
        .await;
    assert_eq!(v["deletedCount"], 1);
    assert_error(
        &app.get(&format!("/v3/documents/{b}")).await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "",
    );

    for (body, needle) in [
        (json!({}), "ids"),
        (json!({"ids": []}), "ids"),
        (json!({"ids": vec!["x"; 101]}), "ids"),
        (json!({"containerTags": ["bad tag"]}), "containerTags[0]"),
        (json!({"ids": "notalist"}), "ids"),
    ] {
        let got = app.delete("/v3/documents/bulk", Some(body)).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", needle);
    }
}

#[tokio::test]
async fn bad_inputs_are_400s_naming_the_field() {
    let app = spawn_app().await;
    let long_tag = "t".repeat(101);
    let cases = vec![
        (
            json!({"content": "x", "containerTag": "bad tag!"}),
            "containerTag",
        ),
        (
            json!({"content": "x", "containerTag": long_tag}),
            "containerTag",
        ),
        (
            json!({"content": "x", "containerTags": ["ok", "t".repeat(101)]}),
            "containerTags[1]",
        ),
        (
            json!({"content": "x", "containerTags": ["ok", "bad/tag"]}),
            "containerTags[1]",
        ),
        (
            json!({"content": "x", "metadata": {"nested": {"a": 1}}}),
            "metadata.nested",
        ),
        (
            json!({"content": "x", "metadata": {"bad key": 1}}),
            "metadata.bad key",
        ),
        (
            json!({"content": "x", "metadata": {"n": null}}),
            "metadata.n",
        ),
        (json!({"content": "x", "metadata": "str"}), "metadata"),
        (
            json!({"content": "x", "metadata": {"big": "v".repeat(5000)}}),
            "metadata.big",
        ),
        (json!({"content": 42}), "content"),
        (json!({"content": ""}), "content"),
        (json!({"content": "   "}), "content"),
        (json!({}), "content"),
        (json!({"content": "x", "taskType": "other"}), "taskType"),
        (json!({"content": "x", "dreaming": "sometimes"}), "dreaming"),
        (json!({"content": "x", "customId": "has space"}), "customId"),
        (
            json!({"content": "x", "customId": "c".repeat(101)}),
            "customId",
        ),
        (
            json!({"content": "x", "entityContext": "e".repeat(1501)}),
            "entityContext",
        ),
        (
            json!({"content": "x", "containerTags": "notalist"}),
            "containerTags",
        ),
        (json!(["not", "an", "object"]), ""),
    ];
    for (body, field) in cases {
        let got = app.post("/v3/documents", body.clone()).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }
    let got = app
        .post_raw("/v3/documents", "application/json", "{\"content\": ")
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "malformed JSON",
    );
    let got = app
        .post_raw("/v3/documents", "application/json", "not json at all")
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "malformed JSON",
    );
    // unknown fields are ignored
    let (s, _) = app
        .post("/v3/documents", json!({"content": "x", "somethingNew": 1}))
        .await;
    assert_eq!(s, StatusCode::OK);
    // nothing was stored by the failures
    let (_, v) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(v["pagination"]["totalItems"], 1);
}

#[tokio::test]
async fn oversize_bodies_are_rejected() {
    let app = spawn_app().await;
    let huge = "a".repeat(11 * 1024 * 1024);
    let resp = app
        .client
        .post(format!("{}/v3/documents", app.base))
        .bearer_auth(&app.key)
        .json(&json!({"content": huge}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["type"], "ValidationError");
    let big = "word ".repeat(1_700_000); // ~8.5 MB of content, under the body limit
    let got = app.post("/v3/documents", json!({"content": big})).await;
    assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", "content");
}

#[tokio::test]
async fn unknown_ids_and_routes_are_404s() {
    let app = spawn_app().await;
    assert_error(
        &app.get("/v3/documents/doesnotexist").await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "not found",
    );
    let long = "x".repeat(256);
    assert_error(
        &app.get(&format!("/v3/documents/{long}")).await,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "id",
    );
    assert_error(
        &app.get("/v3/nothing-here").await,
        StatusCode::NOT_FOUND,
        "NotFoundError",
        "no route",
    );
    for path in ["/v1/add", "/v1", "/v3/memories", "/v3/memories/abc"] {
        for method in ["GET", "POST"] {
            let got = app
                .send(method, path, Some(&app.key), Some(json!({})))
                .await;
            assert_error(
                &got,
                StatusCode::NOT_FOUND,
                "NotFoundError",
                "/v3/documents",
            );
        }
    }
    let got = app
        .send("PUT", "/v3/documents", Some(&app.key), Some(json!({})))
        .await;
    assert_eq!(got.0, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn responses_carry_request_ids() {
    let app = spawn_app().await;
    let resp = app
        .client
        .get(format!("{}/health", app.base))
        .send()
        .await
        .unwrap();
    let id = resp
        .headers()
        .get("x-request-id")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(id.starts_with("req_"));
    let resp = app
        .client
        .get(format!("{}/health", app.base))
        .header("x-request-id", "mine-123")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers().get("x-request-id").unwrap(), "mine-123");
}

#[tokio::test]
async fn list_applies_metadata_filters() {
    let app = spawn_app().await;
    let a = app.add(json!({"content": "a", "metadata": {"group": "jira_users", "timestamp": 1742745800, "labels": ["urgent"]}})).await;
    let b = app
        .add(json!({"content": "b", "metadata": {"group": "Jira_Users", "timestamp": 1742745700}}))
        .await;
    let c = app
        .add(json!({"content": "c", "metadata": {"group": "other", "title": "Quarterly Report"}}))
        .await;
    let ids = |v: &Value| {
        let mut ids: Vec<String> = v["memories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    let sorted = |mut v: Vec<&String>| {
        v.sort();
        v.into_iter().cloned().collect::<Vec<_>>()
    };
    // the OpenAPI example: equality AND numeric
    let f = json!({"AND": [
        {"filterType": "metadata", "key": "group", "negate": false, "value": "jira_users"},
        {"filterType": "numeric", "key": "timestamp", "negate": false, "numericOperator": ">", "value": "1742745777"}
    ]});
    let (s, v) = app.post("/v3/documents/list", json!({"filters": f})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(ids(&v), vec![a.clone()]);
    assert_eq!(v["pagination"]["totalItems"], 1);
    // as a JSON string, with ignoreCase
    let f =
        json!({"OR": [{"key": "group", "value": "JIRA_USERS", "ignoreCase": "true"}]}).to_string();
    let (_, v) = app.post("/v3/documents/list", json!({"filters": f})).await;
    assert_eq!(ids(&v), sorted(vec![&a, &b]));
    // negate matches missing keys; array_contains and string_contains
    let f = json!({"AND": [{"key": "labels", "value": "urgent", "filterType": "array_contains", "negate": true}]});
    let (_, v) = app.post("/v3/documents/list", json!({"filters": f})).await;
    assert_eq!(ids(&v), sorted(vec![&b, &c]));
    let f = json!({"AND": [{"key": "title", "value": "report", "filterType": "string_contains", "ignoreCase": true}]});
    let (_, v) = app.post("/v3/documents/list", json!({"filters": f})).await;
    assert_eq!(ids(&v), vec![c.clone()]);
    // malformed filters name the bad node
    for (f, path) in [
        (
            json!({"AND": [{"key": "a", "value": "1"}, {"OR": [{"key": "b", "value": "x", "numericOperator": "!="}]}]}),
            "filters.AND[1].OR[0].numericOperator",
        ),
        (
            json!({"AND": [{"key": "t", "value": "soon", "filterType": "numeric"}]}),
            "filters.AND[0].value",
        ),
        (json!("{broken"), "filters"),
        (json!({"AND": []}), "filters.AND"),
    ] {
        let got = app.post("/v3/documents/list", json!({"filters": f})).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", path);
    }
}
