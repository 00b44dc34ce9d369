//! `GET /v3/session` and the organisation's keys: create (shown once),
//! rename, revoke (then 401), never another organisation's.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn session_and_key_management() {
    let app = spawn_app().await;
    let (st, me) = app.get("/v3/session").await;
    assert_eq!(st, StatusCode::OK, "{me}");
    assert_eq!(me["scope"]["type"], "full");
    assert_eq!(me["plan"], "self-hosted");
    assert_eq!(me["org"]["id"], app.org_id.as_str());
    let slug = me["org"]["slug"].as_str().unwrap();
    assert!(!slug.is_empty() && !slug.contains(' '), "{me}");

    let (_, list) = app.get("/v3/auth/keys").await;
    let keys = list["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["id"], me["user"]["id"]);
    let listed = list.to_string();
    assert!(
        !listed.contains(&app.key) && !listed.contains("hash"),
        "{list}"
    );

    let (st, made) = app
        .post("/v3/auth/keys", json!({"name": "ci runner"}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{made}");
    let new_key = made["key"].as_str().unwrap().to_string();
    let id = made["id"].as_str().unwrap().to_string();
    let (st, who) = app.send("GET", "/v3/session", Some(&new_key), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(who["user"]["name"], "ci runner");
    assert_eq!(who["org"]["id"], app.org_id.as_str(), "same organisation");
    let (_, list) = app.get("/v3/auth/keys").await;
    assert_eq!(list["keys"].as_array().unwrap().len(), 2);
    assert!(
        !list.to_string().contains(&new_key),
        "the secret is shown once"
    );

    let (st, renamed) = app
        .patch(&format!("/v3/auth/keys/{id}"), json!({"name": "laptop"}))
        .await;
    assert_eq!(
        (st, renamed["name"].as_str()),
        (StatusCode::OK, Some("laptop"))
    );

    // another organisation cannot touch it
    let other = app.other_org_key("other").await;
    let (st, _) = app
        .send("DELETE", &format!("/v3/auth/keys/{id}"), Some(&other), None)
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, theirs) = app.send("GET", "/v3/auth/keys", Some(&other), None).await;
    assert_eq!(theirs["keys"].as_array().unwrap().len(), 1);

    let (st, gone) = app.delete(&format!("/v3/auth/keys/{id}"), None).await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert!(gone["revokedAt"].is_string());
    let got = app.send("GET", "/v3/session", Some(&new_key), None).await;
    assert_error(
        &got,
        StatusCode::UNAUTHORIZED,
        "AuthenticationError",
        "revoked",
    );
    let got = app.delete(&format!("/v3/auth/keys/{id}"), None).await;
    assert_error(
        &got,
        StatusCode::CONFLICT,
        "ConflictError",
        "already revoked",
    );
    let got = app.post("/v3/auth/keys", json!({"name": " "})).await;
    assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", "name");
    let got = app.patch("/v3/auth/keys/nope", json!({"name": "x"})).await;
    assert_error(&got, StatusCode::NOT_FOUND, "NotFoundError", "nope");
}
