//! `engram bench analytics`: what request analytics cost. Over HTTP,
//! client-side: an authenticated, recorded request (`GET /v3/session`), and
//! how long until a burst of requests is all in the store; in process, what
//! compacting a search request and answer costs; and the three analytics
//! routes over a month of synthetic request logs.

use super::memory::pct;
use super::server::BenchServer;
use clap::Args;
use engram_engine::analytics::compact;
use engram_store::{now, LogQuery, RequestLog};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct AnalyticsArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite).
    #[arg(long)]
    database_url: Option<String>,
    /// Synthetic request logs spread over the last 30 days.
    #[arg(long, default_value_t = 200_000)]
    logs: usize,
    /// Requests timed on the recorded route.
    #[arg(long, default_value_t = 2000)]
    requests: usize,
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
}

/// Request types by share of traffic (of 20).
const KINDS: &[(&str, usize)] = &[
    ("search", 9),
    ("add", 5),
    ("get", 2),
    ("list", 1),
    ("profile", 1),
    ("update", 1),
    ("delete", 1),
];

/// Traffic like a service's: mostly searches and adds, mostly one key of
/// three, about 4% errors, spread over `span_ms`.
fn synthetic(org: &str, i: usize, span_ms: i64) -> RequestLog {
    let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16;
    let mut pick = (h % 20) as usize;
    let kind = KINDS
        .iter()
        .find(|(_, w)| {
            let hit = pick < *w;
            pick = pick.saturating_sub(*w);
            hit
        })
        .map_or("search", |(k, _)| k);
    let status = match (h >> 8) % 100 {
        0..=1 => 400,
        2 => 404,
        3 => 429,
        _ if (h >> 16).is_multiple_of(1000) => 500,
        _ => 200,
    };
    let key = match (h >> 24) % 10 {
        0 => 1,
        1 => 2,
        _ => 0,
    };
    RequestLog {
        id: format!("bench{i:08}"),
        org_id: org.to_string(),
        key_id: format!("key{key}"),
        kind: kind.to_string(),
        status_code: status,
        error_type: (status >= 400).then(|| {
            match status {
                400 => "ValidationError",
                404 => "NotFoundError",
                429 => "RateLimitError",
                _ => "InternalServerError",
            }
            .to_string()
        }),
        duration_ms: 1.0 + (h % 97) as f64 / 10.0,
        input: json!({"q": format!("query number {i}"), "containerTag": "bench"}),
        output: json!({"resultCount": i % 20, "processingTime": 3}),
        created_at: now() - chrono::Duration::milliseconds((h as i64).rem_euclid(span_ms)),
    }
}

pub async fn run(args: AnalyticsArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let srv = BenchServer::start(
        found.dir(),
        0,
        args.database_url.as_deref(),
        Default::default(),
    )
    .await?;
    let client = reqwest::Client::new();
    let auth = format!("Bearer {}", srv.key);
    let get = |path: String| {
        client
            .get(format!("{}{path}", srv.base))
            .header("authorization", &auth)
            .send()
    };
    let session: Value = get("/v3/session".into()).await?.json().await?;
    let org = session["org"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();

    // a recorded request, and how soon a burst is stored
    let mut lat = Vec::with_capacity(args.requests);
    let burst = Instant::now();
    for _ in 0..args.requests {
        let t = Instant::now();
        let r = get("/v3/session".into()).await?;
        anyhow::ensure!(r.status().is_success(), "session: {}", r.text().await?);
        r.bytes().await?;
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let sent = burst.elapsed();
    let q = LogQuery {
        from: now() - chrono::Duration::hours(1),
        to: now() + chrono::Duration::hours(1),
        kind: Some("keys".into()),
        status_code: None,
        key_id: None,
        offset: 0,
        limit: 1,
    };
    let stored_after = loop {
        let (_, n) = srv.store.list_requests(&org, &q).await?;
        if n as usize > args.requests {
            break burst.elapsed() - sent;
        }
        anyhow::ensure!(
            burst.elapsed() < sent + Duration::from_secs(10),
            "logs never landed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };

    // compacting a typical search request and answer, per request
    let request = json!({"q": "what did Ana buy at the harbour market?", "containerTag": "bench",
                         "limit": 10, "rerank": true})
    .to_string();
    let answer = json!({"results": (0..10).map(|i| json!({"id": format!("m{i}"),
        "memory": "Ana bought a ceramic vase at the harbour market on trip number 12", "similarity": 0.5,
        "documents": [{"id": "d1", "title": "t"}]})).collect::<Vec<_>>(), "total": 10, "timing": 4}).to_string();
    let rounds = 20_000;
    let t = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(compact::input(
            request.as_bytes(),
            Default::default(),
            Default::default(),
        ));
        std::hint::black_box(compact::output(answer.as_bytes()));
    }
    let compact_us = t.elapsed().as_secs_f64() * 1e6 / rounds as f64;

    // the reports over a month of logs
    let t = Instant::now();
    let span = 30 * 86_400_000i64;
    for chunk in (0..args.logs).collect::<Vec<_>>().chunks(5000) {
        let logs: Vec<RequestLog> = chunk.iter().map(|&i| synthetic(&org, i, span)).collect();
        srv.store.record_requests(&logs).await?;
    }
    let write_secs = t.elapsed().as_secs_f64();
    let mut report = Vec::new();
    // (24 + 8) x 3 requests stay under the 100-a-minute analytics limit
    for (period, n) in [("30d", 24), ("24h", 8)] {
        for route in ["usage", "errors", "logs"] {
            let mut lat = Vec::new();
            for i in 0..n {
                let path = if route == "logs" {
                    format!(
                        "/v3/analytics/logs?period={period}&page={}&type=search",
                        i + 1
                    )
                } else {
                    format!("/v3/analytics/{route}?period={period}")
                };
                let t = Instant::now();
                let r = get(path).await?;
                anyhow::ensure!(r.status().is_success(), "{route}: {}", r.text().await?);
                r.bytes().await?;
                lat.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            report.push((route, period, pct(&mut lat, 0.5), pct(&mut lat, 0.95)));
        }
    }
    srv.stop().await;

    println!(
        "GET /v3/session (authenticated, recorded): p50 {:.3} ms, p95 {:.3} ms over {} requests",
        pct(&mut lat, 0.5),
        pct(&mut lat, 0.95),
        args.requests
    );
    println!(
        "all {} logs stored {:.0} ms after the last answer",
        args.requests,
        stored_after.as_secs_f64() * 1000.0
    );
    println!("compacting a search request and answer: {compact_us:.1} µs (off the request path)");
    println!(
        "{} synthetic logs over 30 days written in {write_secs:.1} s ({:.0}/s)",
        args.logs,
        args.logs as f64 / write_secs
    );
    for (route, period, p50, p95) in report {
        println!("/v3/analytics/{route}?period={period}: p50 {p50:.1} ms, p95 {p95:.1} ms");
    }
    Ok(())
}
