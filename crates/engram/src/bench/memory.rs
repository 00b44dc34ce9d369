//! `engram bench memory`: how fast memories are served. A space of N
//! memories (written through `POST /v4/memories`) and the same N texts as
//! documents; then, over HTTP, client-side: `/v4/profile` (served from the
//! precomputed profile), and `/v4/search` (memories) next to `/v3/search`
//! (documents) over the same texts with the same queries.

use super::server::BenchServer;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct MemoryArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite).
    #[arg(long)]
    database_url: Option<String>,
    /// Memories in the space (and documents alongside).
    #[arg(long, default_value_t = 1000)]
    memories: usize,
    /// Requests timed per route.
    #[arg(long, default_value_t = 200)]
    requests: usize,
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
}

const PEOPLE: &[&str] = &["Ana", "Ben", "Chloe", "Dev", "Eli", "Farah", "Gus", "Hana"];
const THINGS: &[&str] = &[
    "a ceramic vase",
    "running shoes",
    "a rare book",
    "fresh basil",
    "a kite",
    "concert tickets",
    "a chess set",
    "watercolour paints",
    "a bicycle bell",
    "hiking socks",
    "a telescope",
    "sourdough starter",
];
const PLACES: &[&str] = &[
    "the harbour market",
    "a flea market",
    "the old town",
    "the airport",
    "a garden centre",
    "the museum shop",
    "a night market",
];

/// A distinct fact: its number keeps it apart from every other.
pub(super) fn fact(i: usize) -> String {
    format!(
        "{} bought {} at {} on trip number {i}",
        PEOPLE[i % PEOPLE.len()],
        THINGS[(i / PEOPLE.len()) % THINGS.len()],
        PLACES[(i / 3) % PLACES.len()]
    )
}

pub(super) fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len().max(1) - 1) as f64 * p).round() as usize]
}

pub async fn run(args: MemoryArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let srv = BenchServer::start(
        found.dir(),
        2,
        args.database_url.as_deref(),
        Default::default(),
    )
    .await?;
    let client = reqwest::Client::new();
    let post = |path: &str, body: Value| srv.post(&client, path, &body).send();

    let t0 = Instant::now();
    let texts: Vec<String> = (0..args.memories).map(fact).collect();
    for batch in texts.chunks(100) {
        let items: Vec<Value> = batch
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"content": t, "isStatic": i % 4 == 0}))
            .collect();
        let r = post(
            "/v4/memories",
            json!({"containerTag": "bench", "memories": items}),
        )
        .await?;
        anyhow::ensure!(
            r.status().as_u16() == 201,
            "create failed: {}",
            r.text().await?
        );
    }
    let write_secs = t0.elapsed().as_secs_f64();
    for batch in texts.chunks(100) {
        let docs: Vec<Value> = batch
            .iter()
            .map(|t| json!({"content": t, "containerTag": "bench", "taskType": "superrag"}))
            .collect();
        let r = post("/v3/documents/batch", json!({"documents": docs})).await?;
        anyhow::ensure!(
            r.status().is_success(),
            "ingest failed: {}",
            r.text().await?
        );
    }
    srv.wait_processed(&client).await?;
    let (_, list): (u16, Value) = {
        let r = post(
            "/v4/memories/list",
            json!({"containerTags": ["bench"], "limit": 1}),
        )
        .await?;
        (r.status().as_u16(), r.json().await?)
    };
    let stored = list["pagination"]["totalItems"].as_u64().unwrap_or(0);

    // warm: the first profile builds it, the first searches load indexes
    post("/v4/profile", json!({"containerTag": "bench"})).await?;
    let queries: Vec<String> = (0..args.requests)
        .map(|i| {
            format!(
                "What did {} buy at {}?",
                PEOPLE[i % PEOPLE.len()],
                PLACES[i % PLACES.len()]
            )
        })
        .collect();
    let mut profile = Vec::new();
    let mut static_n = 0;
    for _ in 0..args.requests {
        let t = Instant::now();
        let v: Value = post("/v4/profile", json!({"containerTag": "bench"}))
            .await?
            .json()
            .await?;
        profile.push(t.elapsed().as_secs_f64() * 1000.0);
        static_n = v["profile"]["static"].as_array().map_or(0, Vec::len);
    }
    let time = |path: &'static str, extra: Value| {
        let queries = queries.clone();
        let post = &post;
        async move {
            let mut lat = Vec::new();
            for q in &queries {
                let mut body = json!({"q": q, "containerTag": "bench", "limit": 10});
                for (k, v) in extra.as_object().into_iter().flatten() {
                    body[k] = v.clone();
                }
                let t = Instant::now();
                let r = post(path, body).await?;
                anyhow::ensure!(r.status().is_success(), "{path}: {}", r.text().await?);
                r.bytes().await?;
                lat.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            anyhow::Ok(lat)
        }
    };
    // alternate rounds so that neither route gets a warmer machine
    let (mut v3, mut v4) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        v3.extend(time("/v3/search", json!({})).await?);
        v4.extend(time("/v4/search", json!({"threshold": 0})).await?);
    }
    srv.stop().await;
    println!(
        "{} memories written in {write_secs:.1} s ({stored} stored; {static_n} in the static profile)",
        args.memories
    );
    println!(
        "/v4/profile: p50 {:.2} ms, p95 {:.2} ms",
        pct(&mut profile, 0.5),
        pct(&mut profile, 0.95)
    );
    let (a50, a95) = (pct(&mut v3, 0.5), pct(&mut v3, 0.95));
    let (b50, b95) = (pct(&mut v4, 0.5), pct(&mut v4, 0.95));
    println!("/v3/search (documents): p50 {a50:.2} ms, p95 {a95:.2} ms");
    println!(
        "/v4/search (memories):  p50 {b50:.2} ms, p95 {b95:.2} ms (p50 difference {:+.2} ms)",
        b50 - a50
    );
    Ok(())
}
