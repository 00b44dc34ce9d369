//! What schema-driven fuzzing (schemathesis, `crates/engram/tests/cli/fuzz.rs`)
//! found, kept as regression tests: each input is the fuzzer's, shrunk.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Errors the framework raised before a handler ran (a query string or a
/// multipart body it could not read) came as plain text; now they are the
/// JSON error body like every other, naming the field.
#[tokio::test]
async fn framework_rejections_are_json_errors() {
    let app = spawn_app().await;
    let (s, v) = app.get("/v3/graph?limit=null&limit=null").await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "duplicate field `limit`",
    );
    let (s, v) = app
        .post_raw("/v3/documents/file", "multipart/form-data", "")
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["type"], "ValidationError", "{v}");
    assert!(v["details"].as_str().unwrap().contains("boundary"), "{v}");
}

/// serde reads a JSON array into a struct field by field, so `[null, null]`
/// was a valid PATCH; every body of the API is an object.
#[tokio::test]
async fn a_body_that_is_not_an_object_is_refused() {
    let app = spawn_app().await;
    let id = app
        .add(json!({"content": "Fuzzing finds what tests miss."}))
        .await;
    for body in [json!([null, null]), json!("text"), json!(7), json!(true)] {
        let (s, v) = app.patch(&format!("/v3/documents/{id}"), body).await;
        assert_error(
            &(s, v),
            StatusCode::BAD_REQUEST,
            "ValidationError",
            "must be a JSON object",
        );
    }
    // a form feed is no JSON whitespace: not an empty body either
    for path in ["/v3/documents/list", "/v3/connections/list"] {
        let (s, v) = app.post_raw(path, "application/json", "\x0c").await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{path}: {v}");
    }
    let (s, v) = app.post("/v3/search", json!([{"q": "x"}])).await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "object",
    );
}

/// A `customId` taken by another document is a 409 in the API's words,
/// not the database's (which named its table and columns).
#[tokio::test]
async fn a_taken_custom_id_is_a_clear_conflict() {
    let app = spawn_app().await;
    let a = app
        .add(json!({"content": "first", "customId": "taken"}))
        .await;
    let b = app.add(json!({"content": "second"})).await;
    let (s, v) = app
        .patch(&format!("/v3/documents/{b}"), json!({"customId": "taken"}))
        .await;
    assert_error(
        &(s, v.clone()),
        StatusCode::CONFLICT,
        "ConflictError",
        "another document already has this customId",
    );
    let text = v.to_string();
    assert!(
        !text.contains("UNIQUE") && !text.contains("documents") && !text.contains("constraint"),
        "{text}"
    );
    assert_ne!(a, b);
}

/// Renaming a revoked key did nothing useful and said 200; it is a 409,
/// as revoking it again is.
#[tokio::test]
async fn a_revoked_key_cannot_be_renamed() {
    let app = spawn_app().await;
    let (s, made) = app
        .post("/v3/auth/keys", json!({"name": "short-lived"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    let (s, v) = app.delete(&format!("/v3/auth/keys/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .patch(&format!("/v3/auth/keys/{id}"), json!({"name": "renamed"}))
        .await;
    assert_error(&(s, v), StatusCode::CONFLICT, "ConflictError", "revoked");
    let (_, list) = app.get("/v3/auth/keys").await;
    let kept: Vec<&Value> = list["keys"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["id"] == id)
        .collect();
    assert_eq!(kept[0]["name"], "short-lived");
}

/// A log filter out of range was ignored by the routes that do not filter
/// logs; it is refused everywhere.
#[tokio::test]
async fn a_status_code_filter_out_of_range_is_refused_on_every_analytics_route() {
    let app = spawn_app().await;
    for route in ["usage", "errors", "logs"] {
        let (s, v) = app
            .get(&format!("/v3/analytics/{route}?statusCode=2147483648"))
            .await;
        assert_error(
            &(s, v),
            StatusCode::BAD_REQUEST,
            "ValidationError",
            "statusCode",
        );
    }
}

/// The description says what the server does: every operation can answer
/// 400, and the list routes take an empty body.
#[tokio::test]
async fn the_description_admits_400_everywhere_and_optional_list_bodies() {
    let app = spawn_app().await;
    let (_, doc) = app.get("/v3/openapi").await;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["responses"].get("400").is_some(),
                "{method} {path} documents no 400"
            );
        }
    }
    let list = &doc["paths"]["/v3/documents/list"]["post"]["requestBody"];
    assert_eq!(list["required"], false, "{list}");
    let (s, v) = app
        .post_raw("/v3/documents/list", "application/json", "")
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// NUL characters, which PostgreSQL cannot store in text: in a JSON
/// string (found by the fuzzer: a key named with one was a 500 there) and
/// in the URL they are refused on both backends alike, naming where; in an
/// uploaded text file they are dropped, so the document is indexed rather
/// than retried for ever.
#[tokio::test]
async fn nul_characters_are_refused_or_dropped_never_a_500() {
    let app = spawn_app().await;
    let (s, v) = app.post("/v3/auth/keys", json!({"name": "a\u{0}b"})).await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "name: must not contain NUL",
    );
    let (s, v) = app
        .post(
            "/v3/documents",
            json!({"content": "x", "metadata": {"note": "a\u{0}"}}),
        )
        .await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "metadata.note",
    );
    // the text `\u0000` (an escaped backslash, then letters) is no NUL
    let (s, v) = app
        .post("/v3/auth/keys", json!({"name": "a\\u0000b"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    for path in ["/v3/documents/ab%00cd", "/v3/analytics/logs?type=a%00b"] {
        let (s, v) = app.get(path).await;
        assert_error(&(s, v), StatusCode::BAD_REQUEST, "ValidationError", "NUL");
    }
    let id = app
        .upload_file(
            b"Bees\0 keep\0 the hive warm.".to_vec(),
            "nul.txt",
            "text/plain",
        )
        .await;
    let doc = app.wait_done(&id).await;
    assert_eq!(doc["content"], "Bees keep the hive warm.", "{doc}");
}
