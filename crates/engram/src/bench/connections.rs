//! `engram bench connections`: how fast connections sync, through the HTTP
//! API of a full Engram (SQLite, the local model, workers processing what
//! arrives while the sync runs).
//!
//! - crawler: a local site of `--pages` linked HTML pages (ETags, a
//!   robots.txt) served on a loopback port; pages per second of the first
//!   crawl, and of a re-crawl where every page answers 304;
//! - s3: `--objects` small text objects in a bucket of an S3-compatible
//!   server (`--s3-endpoint`, or moto started here with `python3 -m
//!   moto.server`); the first sync's time, a re-sync where every ETag is
//!   unchanged, and when the last document was processed.
//!
//! The crawler's politeness delay is `--crawl-delay-ms` (0 here, to measure
//! the crawler; a real site gets the 500 ms default, so at most 2 pages/s).

use super::server::BenchServer;
use clap::Args;
use engram_engine::EngineConfig;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct ConnectionsArgs {
    /// Pages of the local site.
    #[arg(long, default_value_t = 300)]
    pages: usize,
    /// Objects in the S3 bucket.
    #[arg(long, default_value_t = 1000)]
    objects: usize,
    /// An S3-compatible server that accepts unsigned PUTs (moto); default:
    /// start moto here.
    #[arg(long)]
    s3_endpoint: Option<String>,
    /// The crawler's least time between two requests to the site.
    #[arg(long, default_value_t = 0)]
    crawl_delay_ms: u64,
    /// Background workers processing synced documents.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
}

/// A moto server started by the bench, killed when dropped.
struct Moto(std::process::Child);

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub async fn run(args: ConnectionsArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let mut config = EngineConfig::default();
    config.fetch.allow_private = true;
    config.connect.crawl_delay = Duration::from_millis(args.crawl_delay_ms);
    config.connect.poll_interval = Duration::from_millis(20);
    let srv = BenchServer::start_with(found.dir(), args.workers, None, config).await?;
    let http = reqwest::Client::new();

    // ---- crawler
    let site = serve_site(args.pages).await?;
    let (id, first) = create_and_wait(
        &srv,
        &http,
        "web-crawler",
        json!({"containerTag": "site", "documentLimit": args.pages + 10,
               "metadata": {"startUrl": format!("{site}/p/0.html")}}),
    )
    .await?;
    let docs = count_docs(&srv, &http, "web-crawler", "site").await?;
    let again = resync(&srv, &http, "web-crawler", "site", &id).await?;
    println!(
        "crawler: {docs} pages in {:.2} s = {:.0} pages/s; re-crawl (all 304) {:.2} s = {:.0} pages/s \
         (crawl delay {} ms)",
        first.as_secs_f64(),
        docs as f64 / first.as_secs_f64(),
        again.as_secs_f64(),
        docs as f64 / again.as_secs_f64(),
        args.crawl_delay_ms
    );
    srv.wait_processed(&http).await?;

    // ---- s3
    let (_moto, endpoint) = match &args.s3_endpoint {
        Some(e) => (None, e.trim_end_matches('/').to_string()),
        None => {
            let (m, e) = start_moto(&http).await?;
            (Some(m), e)
        }
    };
    let put = |url: String, body: String| {
        let http = http.clone();
        async move {
            let r = http.put(&url).body(body).send().await?;
            anyhow::ensure!(r.status().is_success(), "PUT {url}: {}", r.status());
            anyhow::Ok(())
        }
    };
    put(format!("{endpoint}/bench-bucket"), String::new()).await?;
    let t = Instant::now();
    for chunk in (0..args.objects).collect::<Vec<_>>().chunks(16) {
        futures::future::try_join_all(chunk.iter().map(|i| {
            put(
                format!("{endpoint}/bench-bucket/notes/{i:05}.txt"),
                format!(
                    "Field note {i}. The heron returned to the north pond at {} past dawn and stayed {} minutes.",
                    i % 60,
                    i % 45 + 5
                ),
            )
        }))
        .await?;
    }
    eprintln!(
        "(uploaded {} objects in {:.1} s)",
        args.objects,
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let (id, first) = create_and_wait(
        &srv,
        &http,
        "s3",
        json!({"containerTag": "bucket", "metadata": {
            "endpoint": endpoint, "region": "us-east-1", "bucket": "bench-bucket",
            "accessKeyId": "AKIABENCH", "secretAccessKey": "bench"}}),
    )
    .await?;
    let docs = count_docs(&srv, &http, "s3", "bucket").await?;
    srv.wait_processed(&http).await?;
    let processed = t.elapsed();
    let again = resync(&srv, &http, "s3", "bucket", &id).await?;
    println!(
        "s3: {docs} objects synced in {:.2} s = {:.0} objects/s; all processed (chunked, embedded, \
         memories) after {:.1} s; re-sync with every ETag unchanged {:.2} s",
        first.as_secs_f64(),
        docs as f64 / first.as_secs_f64(),
        processed.as_secs_f64(),
        again.as_secs_f64()
    );
    srv.stop().await;
    Ok(())
}

/// Create a connection and wait for its first sync; its id and how long.
async fn create_and_wait(
    srv: &BenchServer,
    http: &reqwest::Client,
    provider: &str,
    body: Value,
) -> anyhow::Result<(String, Duration)> {
    let t = Instant::now();
    let r: Value = srv
        .post(http, &format!("/v3/connections/{provider}"), &body)
        .send()
        .await?
        .json()
        .await?;
    let id = r["id"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("create {provider}: {r}"))?
        .to_string();
    wait_sync(srv, http, &id, None).await?;
    Ok((id, t.elapsed()))
}

/// Ask for a sync now and wait for it.
async fn resync(
    srv: &BenchServer,
    http: &reqwest::Client,
    provider: &str,
    tag: &str,
    id: &str,
) -> anyhow::Result<Duration> {
    let before = connection(srv, http, id).await?["lastSyncRun"]["completedAt"]
        .as_str()
        .map(str::to_string);
    let t = Instant::now();
    srv.post(
        http,
        &format!("/v3/connections/{provider}/import"),
        &json!({"containerTags": [tag]}),
    )
    .send()
    .await?
    .error_for_status()?;
    wait_sync(srv, http, id, before.as_deref()).await?;
    Ok(t.elapsed())
}

async fn connection(srv: &BenchServer, http: &reqwest::Client, id: &str) -> anyhow::Result<Value> {
    Ok(http
        .get(format!("{}/v3/connections/{id}", srv.base))
        .bearer_auth(&srv.key)
        .send()
        .await?
        .json()
        .await?)
}

async fn wait_sync(
    srv: &BenchServer,
    http: &reqwest::Client,
    id: &str,
    after: Option<&str>,
) -> anyhow::Result<()> {
    loop {
        let c = connection(srv, http, id).await?;
        let run = &c["lastSyncRun"];
        if run["status"] == "failed" {
            anyhow::bail!("the sync failed: {run}");
        }
        if run["status"] == "completed" && run["completedAt"].as_str() != after {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn count_docs(
    srv: &BenchServer,
    http: &reqwest::Client,
    provider: &str,
    tag: &str,
) -> anyhow::Result<usize> {
    let v: Value = srv
        .post(
            http,
            &format!("/v3/connections/{provider}/documents"),
            &json!({"containerTags": [tag]}),
        )
        .send()
        .await?
        .json()
        .await?;
    Ok(v.as_array().map_or(0, Vec::len))
}

/// A site of `n` pages, each linking to the next three, with ETags.
async fn serve_site(n: usize) -> anyhow::Result<String> {
    use axum::extract::Path;
    use axum::http::{HeaderMap, StatusCode};
    use axum::response::{IntoResponse, Response};
    use axum::routing::get;
    fn page(i: usize, n: usize) -> String {
        let links: String = (1..=3)
            .map(|d| (i + d) % n)
            .map(|j| format!("<a href=\"/p/{j}.html\">page {j}</a> "))
            .collect();
        format!(
            "<!doctype html><html><head><title>Page {i}</title></head><body><main><h1>Page {i}</h1>\
             <p>Entry {i} of the harbour log. The pilot boat left at {} and returned with {} crates of \
             mackerel. The wind was from the {} and the swell stayed under a metre all afternoon.</p>\
             <nav>{links}</nav></main></body></html>",
            i % 24,
            i % 17 + 3,
            ["north", "east", "south", "west"][i % 4]
        )
    }
    let respond = move |i: usize, headers: HeaderMap| -> Response {
        if i >= n {
            return StatusCode::NOT_FOUND.into_response();
        }
        let etag = format!("\"p{i}\"");
        if headers.get("if-none-match").and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
            return (StatusCode::NOT_MODIFIED, [("etag", etag)]).into_response();
        }
        (
            [
                ("content-type", "text/html; charset=utf-8".to_string()),
                ("etag", etag),
            ],
            page(i, n),
        )
            .into_response()
    };
    let app = axum::Router::new()
        .route("/robots.txt", get(|| async { "User-agent: *\nAllow: /\n" }))
        .route("/", get(move |h: HeaderMap| async move { respond(0, h) }))
        .route(
            "/p/{file}",
            get(move |Path(file): Path<String>, h: HeaderMap| async move {
                let i = file
                    .strip_suffix(".html")
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(usize::MAX);
                respond(i, h)
            }),
        );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = l.local_addr()?;
    tokio::spawn(async move { axum::serve(l, app).await });
    Ok(format!("http://{addr}"))
}

async fn start_moto(http: &reqwest::Client) -> anyhow::Result<(Moto, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let child = std::process::Command::new("python3")
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| anyhow::anyhow!("python3 -m moto.server: {e} (pip install 'moto[server]')"))?;
    let m = Moto(child);
    let endpoint = format!("http://127.0.0.1:{port}");
    for _ in 0..400 {
        if http
            .get(format!("{endpoint}/moto-api/"))
            .send()
            .await
            .is_ok()
        {
            return Ok((m, endpoint));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("moto did not start (pip install 'moto[server]')")
}
