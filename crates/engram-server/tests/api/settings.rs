//! `/v3/settings*`: settings merge, take effect (chunk size, buckets),
//! keep secrets write-only, and a confirmed reset wipes the content.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn settings_take_effect_and_reset_wipes_content() {
    let app = spawn_app().await;
    let (st, s) = app.get("/v3/settings").await;
    assert_eq!((st, s), (StatusCode::OK, json!({})));

    let (st, up) = app
        .patch(
            "/v3/settings",
            json!({"chunkSize": 40, "profileBuckets": [{"key": "hobbies", "description": "pastimes"}],
                   "githubClientId": "gh-id", "githubClientSecret": "shh-secret"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{up}");
    assert_eq!(up["orgId"], app.org_id.as_str());
    assert_eq!(up["updated"]["chunkSize"], 40);
    assert_eq!(up["updated"]["githubClientSecret"], "********");
    let (_, s) = app.get("/v3/settings").await;
    assert_eq!(s["githubClientId"], "gh-id");
    assert_eq!(s["githubClientSecret"], "********");
    assert!(!s.to_string().contains("shh-secret"), "{s}");

    // chunkSize applies to documents processed from now on
    let text: String = (0..60)
        .map(|i| format!("Sentence number {i} talks about the harbour and its boats. "))
        .collect();
    let id = app.add(json!({"content": text.clone()})).await;
    app.assert_chunked_once(&id, &text, 40).await;
    // the organisation's bucket is offered by every profile
    let (_, b) = app
        .post("/v4/profile/buckets", json!({"containerTag": "any"}))
        .await;
    assert!(
        b["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["key"] == "hobbies"),
        "{b}"
    );
    // null removes a setting; the others stay
    app.patch("/v3/settings", json!({"chunkSize": null})).await;
    let (_, s) = app.get("/v3/settings").await;
    assert!(s.get("chunkSize").is_none(), "{s}");
    assert_eq!(s["githubClientId"], "gh-id");

    for (body, field) in [
        (json!({"chunkSize": 0}), "chunkSize"),
        (json!({"shouldLLMFilter": "yes"}), "shouldLLMFilter"),
        (json!({"favouriteColour": "teal"}), "favouriteColour"),
    ] {
        let got = app.patch("/v3/settings", body).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", field);
    }

    // reset: only with the organisation's name
    let (_, me) = app.get("/v3/session").await;
    let name = me["org"]["name"].as_str().unwrap().to_string();
    let got = app
        .post("/v3/settings/reset", json!({"confirmation": "yes please"}))
        .await;
    assert_error(
        &got,
        StatusCode::BAD_REQUEST,
        "ValidationError",
        &format!("`{name}`"),
    );
    app.patch("/v3/container-tags/kept", json!({"name": "Kept"}))
        .await;
    let (st, r) = app
        .post("/v3/settings/reset", json!({"confirmation": name}))
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["success"], true);
    assert_eq!(r["deletedDocumentsApprox"], 1);
    assert_eq!(r["settingsReset"], true);
    assert_eq!(r["deletedExtraSpaces"], 1);
    let (st, _) = app.get(&format!("/v3/documents/{id}")).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, s) = app.get("/v3/settings").await;
    assert_eq!(s, json!({}));
    let (_, l) = app.get("/v3/container-tags/list").await;
    assert_eq!(l, json!([]));
    let (st, _) = app.get("/v3/session").await;
    assert_eq!(st, StatusCode::OK, "the key still works");
}
