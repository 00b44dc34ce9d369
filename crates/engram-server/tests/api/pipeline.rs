//! The pipeline through the API: URL fetching (and its guards), retries,
//! crash recovery without loss or duplication, graceful release.

use crate::support::*;
use axum::http::{header, StatusCode as AxStatus};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use engram_engine::workers::WorkerPool;
use engram_engine::EngineConfig;
use reqwest::StatusCode;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A little web site to fetch from.
async fn site() -> String {
    let flaky = Arc::new(AtomicUsize::new(0));
    let app = axum::Router::new()
        .route(
            "/page",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    "<html><head><title>Fetched Page</title></head><body><nav>Home | About</nav>\
                     <article><p>The aurora borealis is visible in Tromsø in winter.</p></article>\
                     <footer>(c) site</footer></body></html>",
                )
            }),
        )
        .route(
            "/doc.pdf",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "application/pdf")],
                    make_pdf(&["Fetched PDF text here"]),
                )
            }),
        )
        .route(
            "/plain",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/plain")],
                    "Just plain words from a URL.",
                )
            }),
        )
        .route("/redirect", get(|| async { Redirect::temporary("/page") }))
        .route("/loop", get(|| async { Redirect::temporary("/loop") }))
        .route(
            "/big",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/plain")],
                    "x".repeat(2 * 1024 * 1024),
                )
            }),
        )
        .route("/missing", get(|| async { (AxStatus::NOT_FOUND, "no") }))
        .route(
            "/down",
            get(|| async { (AxStatus::SERVICE_UNAVAILABLE, "down for good") }),
        )
        .route(
            "/flaky",
            get(move || {
                let n = flaky.fetch_add(1, Ordering::SeqCst);
                async move {
                    if n < 2 {
                        (AxStatus::SERVICE_UNAVAILABLE, "later").into_response()
                    } else {
                        (
                            [(header::CONTENT_TYPE, "text/plain")],
                            "Finally available content.",
                        )
                            .into_response()
                    }
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

#[tokio::test]
async fn urls_are_fetched_and_extracted() {
    let mut opts = Options::default();
    opts.engine.fetch.max_bytes = 1024 * 1024;
    let app = spawn_app_with(opts).await;
    let site = site().await;
    let page = app.add(json!({"content": format!("{site}/page")})).await;
    let d = app.wait_done(&page).await;
    assert_eq!(d["type"], "webpage");
    assert_eq!(d["title"], "Fetched Page");
    assert_eq!(d["url"], format!("{site}/page"));
    let content = d["content"].as_str().unwrap();
    assert!(content.contains("aurora borealis"), "{content}");
    assert!(
        !content.contains("Home | About") && !content.contains("(c) site"),
        "{content}"
    );

    let pdf = app.add(json!({"content": format!("{site}/doc.pdf")})).await;
    let d = app.wait_done(&pdf).await;
    assert_eq!(d["type"], "pdf");
    assert!(
        d["content"].as_str().unwrap().contains("Fetched PDF text"),
        "{d}"
    );

    let d = app
        .wait_done(
            &app.add(json!({"content": format!("{site}/redirect")}))
                .await,
        )
        .await;
    assert_eq!(d["title"], "Fetched Page");
    let d = app
        .wait_done(&app.add(json!({"content": format!("{site}/flaky")})).await)
        .await;
    assert!(d["content"].as_str().unwrap().contains("Finally available"));
    let d = app
        .wait_done(&app.add(json!({"content": format!("{site}/plain")})).await)
        .await;
    assert_eq!(d["type"], "webpage");

    for (path, needle) in [
        ("/big", "larger than"),
        ("/missing", "404"),
        ("/loop", "redirects"),
    ] {
        let d = app
            .wait_processed(&app.add(json!({"content": format!("{site}{path}")})).await)
            .await;
        assert_eq!(d["status"], "failed", "{path}: {d}");
        assert!(d["error"].as_str().unwrap().contains(needle), "{path}: {d}");
    }
}

#[tokio::test]
async fn private_targets_are_refused_by_default() {
    let mut opts = Options::default();
    opts.engine.fetch.allow_private = false;
    let app = spawn_app_with(opts).await;
    let site = site().await;
    let port = site.rsplit(':').next().unwrap();
    for url in [
        format!("{site}/page"),
        format!("http://localhost:{port}/page"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://[::1]/x".to_string(),
        "http://10.0.0.1/x".to_string(),
    ] {
        let d = app
            .wait_processed(&app.add(json!({"content": url.clone()})).await)
            .await;
        assert_eq!(d["status"], "failed", "{url}");
        let err = d["error"].as_str().unwrap();
        assert!(
            err.contains("private") || err.contains("loopback"),
            "{url}: {err}"
        );
    }
}

#[tokio::test]
async fn transient_failures_retry_then_give_up() {
    let embedder = Arc::new(HashEmbedder::new());
    embedder.fail_next.store(2, Ordering::SeqCst);
    let opts = Options {
        embedder: embedder.clone(),
        ..Default::default()
    };
    let app = spawn_app_with(opts).await;
    let id = app.add(json!({"content": "retry me please"})).await;
    let d = app.wait_done(&id).await;
    assert!(d.get("error").is_none() || d["error"].is_null(), "{d}");
    assert_eq!(embedder.calls.load(Ordering::SeqCst), 3);

    // a page that never comes back is given up on; an embedding provider
    // that is down is waited for instead (tests/api/faults.rs)
    let site = site().await;
    let id = app.add(json!({"content": format!("{site}/down")})).await;
    let d = app.wait_processed(&id).await;
    assert_eq!(d["status"], "failed");
    assert!(
        d["error"]
            .as_str()
            .unwrap()
            .contains("gave up after 5 attempts"),
        "{d}"
    );
}

fn long_text(i: usize) -> String {
    (0..4)
        .map(|p| {
            (0..6)
                .map(|s| {
                    format!(
                        "Document {i} paragraph {p} sentence {s} talks about item{}.",
                        i * 100 + p * 10 + s
                    )
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[tokio::test]
async fn a_crash_mid_pipeline_loses_nothing_and_duplicates_nothing() {
    let slow = Arc::new(HashEmbedder {
        delay: Duration::from_millis(150),
        ..HashEmbedder::new()
    });
    let engine = EngineConfig {
        chunk_tokens: Some(40),
        batch_size: 2,
        lease: Duration::from_millis(800),
        poll_interval: Duration::from_millis(50),
        ..Default::default()
    };
    let mut app = spawn_app_with(Options {
        embedder: slow,
        engine,
        workers: 2,
    })
    .await;
    let mut ids = Vec::new();
    for i in 0..12 {
        ids.push(
            app.add(json!({"content": long_text(i), "customId": format!("d{i}")}))
                .await,
        );
    }
    // let the pipeline get going, then kill the workers where they stand
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, p) = app.get("/v3/documents/processing").await;
        let done = 12 - p["totalCount"].as_u64().unwrap();
        let mid = p["documents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["status"] != "queued");
        if done >= 2 && mid {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    app.workers.take().unwrap().abort();
    // (documents not yet processed; processed ones may still hold a dream job)
    let (_, p) = app.get("/v3/documents/processing").await;
    let pending = p["totalCount"].as_u64().unwrap();
    assert!(
        pending > 0 && pending < 12,
        "crashed with {pending} pending"
    );
    // restart: new workers take the orphaned jobs once their leases lapse
    app.workers = Some(WorkerPool::start(app.engine.clone(), 2));
    app.wait_idle().await;
    for (i, id) in ids.iter().enumerate() {
        app.assert_chunked_once(id, &long_text(i), 40).await;
    }
}

#[tokio::test]
async fn shutdown_releases_jobs_for_others() {
    let slow = Arc::new(HashEmbedder {
        delay: Duration::from_millis(400),
        ..HashEmbedder::new()
    });
    let engine = EngineConfig {
        batch_size: 4,
        lease: Duration::from_secs(600),
        poll_interval: Duration::from_millis(50),
        ..Default::default()
    };
    let mut app = spawn_app_with(Options {
        embedder: slow,
        engine,
        workers: 1,
    })
    .await;
    for i in 0..4 {
        app.add(json!({"content": format!("doc {i}")})).await;
    }
    // wait until the batch is claimed and embedding
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, p) = app.get("/v3/documents/processing").await;
        if p["documents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["status"] == "embedding")
        {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    app.workers.take().unwrap().shutdown().await;
    // the 10-minute leases were released: a new worker finishes at once
    app.workers = Some(WorkerPool::start(app.engine.clone(), 1));
    tokio::time::timeout(Duration::from_secs(20), app.wait_idle())
        .await
        .expect("released jobs were picked up");
    let (_, l) = app.post("/v3/documents/list", json!({})).await;
    assert!(l["memories"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["status"] == "done"));
    assert_eq!(StatusCode::OK, app.get("/health").await.0);
}
