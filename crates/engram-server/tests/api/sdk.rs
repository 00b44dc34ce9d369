//! The official Python SDK (supermemory 3.62.0, strict response validation)
//! against a live server: documents, v3 and v4 search, memories, profile,
//! settings and container tags (the scenario is `tests/sdk/sdk_smoke.py`),
//! and every connection method (`tests/sdk/sdk_connections.py`, with an
//! S3 connection to moto's S3 server).

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn python_sdk_round_trip() {
    if std::env::var("ENGRAM_SKIP_SDK_TESTS").is_ok_and(|v| v == "1") {
        eprintln!("skipped: ENGRAM_SKIP_SDK_TESTS=1");
        return;
    }
    let check = std::process::Command::new("python3")
        .args(["-c", "import supermemory"])
        .output();
    match check {
        Ok(o) if o.status.success() => {}
        _ => panic!(
            "the Python SDK is not installed: run `pip install supermemory==3.62.0` \
             (or set ENGRAM_SKIP_SDK_TESTS=1 to skip this test)"
        ),
    }
    let app = spawn_app().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/sdk_smoke.py");
    let app_base = app.base.clone();
    let key = app.key.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .arg(script)
            .env("ENGRAM_URL", app_base)
            .env("ENGRAM_API_KEY", key)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "SDK script failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("SDK OK"), "{stdout}");
    // what the SDK did is what the server holds: the first document
    // deleted, the batch's two kept, the update's memory version forgotten
    let (_, v) = app.post("/v3/documents/list", json!({})).await;
    assert_eq!(v["pagination"]["totalItems"], 2, "{v}");
    let (_, m) = app
        .post("/v4/memories/list", json!({"containerTags": ["sdk_ana"]}))
        .await;
    let live = m.to_string();
    assert!(live.contains("children's hospital"), "{m}");
    assert!(!live.contains("Porto"), "forgotten: {m}");
    let (_, f) = app
        .post(
            "/v4/search",
            json!({"q": "Porto", "containerTag": "sdk_ana", "threshold": 0,
                   "include": {"forgottenMemories": true}}),
        )
        .await;
    assert!(
        f.to_string().contains("The user moved to Porto in 2024."),
        "{f}"
    );
    let (_, s) = app.get("/v3/settings").await;
    assert_eq!(s["chunkSize"], 300);
}

#[tokio::test]
async fn python_sdk_connection_methods() {
    if std::env::var("ENGRAM_SKIP_SDK_TESTS").is_ok_and(|v| v == "1") {
        eprintln!("skipped: ENGRAM_SKIP_SDK_TESTS=1");
        return;
    }
    use crate::connections::s3::{bucket, create_bucket, put, start_s3};
    let s3 = start_s3().await;
    create_bucket(&s3.endpoint, "sdk-bucket").await;
    let b = bucket(&s3.endpoint, "sdk-bucket");
    put(&b, "notes/a.md", "# Tides\nHigh tide is at noon on Sunday.").await;
    put(&b, "notes/deep/b.txt", "The harbour master is called Ines.").await;
    let app = spawn_app().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/sdk_connections.py");
    let (base, key, endpoint) = (app.base.clone(), app.key.clone(), s3.endpoint.clone());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .arg(script)
            .env("ENGRAM_URL", base)
            .env("ENGRAM_API_KEY", key)
            .env("ENGRAM_S3_ENDPOINT", endpoint)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "SDK script failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("SDK CONNECTIONS OK"), "{stdout}");
    // what the SDK did is what the server holds: both connections gone,
    // and the synced documents with the first
    let (_, list) = app.post("/v3/connections/list", json!({})).await;
    assert_eq!(list, json!([]), "{list}");
    let (_, docs) = app
        .post("/v3/documents/list", json!({"containerTags": ["sdk_s3"]}))
        .await;
    assert_eq!(docs["pagination"]["totalItems"], 0, "{docs}");
}
