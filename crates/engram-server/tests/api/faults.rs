//! Faults of a dependency. The PostgreSQL database closed to connections
//! and its connections cut, as during a restart or a failover (on the real
//! server: PostgreSQL only, the suite's second run; on SQLite the database
//! is a file in the process); and an embedding provider that fails. While
//! a dependency is away requests are answered 503 with `Retry-After`
//! (never 500); when it is back the service recovers by itself, and
//! nothing acknowledged is lost.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn psql(server: &str, sql: &str) {
    let out = Command::new("psql")
        .args([server, "-v", "ON_ERROR_STOP=1", "-qc", sql])
        .output()
        .expect("psql (installed with PostgreSQL by scripts/test.sh)");
    assert!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn a_database_that_goes_away_is_a_503_with_retry_after_then_recovers() {
    if !on_postgres() {
        eprintln!("PostgreSQL only: this run is on SQLite");
        return;
    }
    let app = spawn_app().await;
    let id = app
        .add(json!({"content": "Written before the outage.", "containerTag": "t"}))
        .await;
    app.wait_done(&id).await;
    let SharedDb::Postgres(url) = app.db.as_ref() else {
        unreachable!("on PostgreSQL")
    };
    let name = url.rsplit('/').next().unwrap().to_string();
    let server = std::env::var("ENGRAM_TEST_DATABASE_URL").unwrap();
    psql(
        &server,
        &format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS false"),
    );
    psql(
        &server,
        &format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        ),
    );
    let get = |path: String| {
        app.client
            .get(format!("{}{path}", app.base))
            .bearer_auth(&app.key)
            .send()
    };
    for path in [format!("/v3/documents/{id}"), "/v3/settings".to_string()] {
        let started = Instant::now();
        let r = get(path.clone()).await.unwrap();
        let status = r.status();
        let retry = r.headers().get("retry-after").cloned();
        let v: Value = r.json().await.unwrap();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{path}: {v}");
        assert_eq!(retry.unwrap(), "5", "{path}");
        assert_eq!(v["type"], "ServiceUnavailableError", "{v}");
        assert!(!v.to_string().contains(&name), "no database detail: {v}");
        eprintln!(
            "{path} while the database is away: 503 in {:?}",
            started.elapsed()
        );
    }
    psql(
        &server,
        &format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS true"),
    );
    // back by itself: no restart of Engram
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = get(format!("/v3/documents/{id}")).await.unwrap();
        if r.status() == StatusCode::OK {
            let v: Value = r.json().await.unwrap();
            assert_eq!(v["content"], "Written before the outage.");
            break;
        }
        assert!(Instant::now() < deadline, "not back: {}", r.status());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = app
        .add(json!({"content": "Written after the outage.", "containerTag": "t"}))
        .await;
    app.wait_done(&after).await;
}

/// An embedding provider that is down (timeouts, 5xx): searches and
/// memory writes that need an embedding now are answered 503 with
/// `Retry-After`, never 500; documents written meanwhile are acknowledged
/// and, once it is back, processed (nothing lost); then all answers again.
#[tokio::test]
async fn an_embedding_provider_that_is_down_is_a_503_and_loses_nothing() {
    use std::sync::atomic::Ordering;
    let embedder = Arc::new(HashEmbedder::new());
    let app = spawn_app_with(Options {
        embedder: embedder.clone(),
        ..Default::default()
    })
    .await;
    let before = app
        .add(json!({"content": "Ada keeps bees.", "containerTag": "t"}))
        .await;
    app.wait_done(&before).await;
    embedder.fail_next.store(usize::MAX / 2, Ordering::SeqCst);
    let during = app
        .add(json!({"content": "Ravi grows figs.", "containerTag": "t"}))
        .await;
    for (path, body) in [
        ("/v3/search", json!({"q": "bees", "containerTags": ["t"]})),
        ("/v4/search", json!({"q": "bees", "containerTag": "t"})),
        (
            "/v4/memories",
            json!({"containerTag": "t", "memories": [{"content": "Ada sells honey."}]}),
        ),
    ] {
        let r = app
            .client
            .post(format!("{}{path}", app.base))
            .bearer_auth(&app.key)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(r.headers()["retry-after"], "5", "{path}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["type"], "ServiceUnavailableError", "{path}: {v}");
    }
    // down for longer than the retries of a flaky failure last (here 5
    // attempts, 50 ms doubling: about 1.5 s): the document still waits
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, d) = app.get(&format!("/v3/documents/{during}")).await;
    assert_ne!(
        d["status"], "failed",
        "given up while the provider was away: {d}"
    );
    // back
    embedder.fail_next.store(0, Ordering::SeqCst);
    let doc = app.wait_done(&during).await;
    assert_eq!(doc["content"], "Ravi grows figs.");
    let (s, v) = app
        .post("/v3/search", json!({"q": "figs", "containerTags": ["t"]}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v.to_string().contains("figs"), "{v}");
}
