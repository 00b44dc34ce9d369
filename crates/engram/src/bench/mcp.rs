//! `engram bench mcp`: what the MCP layer costs and how fast the docs are
//! searched. A space of N memories; the same memory searches sent as
//! `POST /v4/search` and as `tools/call search_memories` on `/mcp`
//! (client-side latency, alternating rounds); then `search_docs` on `/mcp`
//! (its first call builds the docs index with the server's embedder) and
//! the docs index in process, by keywords and hybrid.

use super::memory::{fact, pct};
use super::server::BenchServer;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct McpArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite).
    #[arg(long)]
    database_url: Option<String>,
    /// Memories in the space.
    #[arg(long, default_value_t = 1000)]
    memories: usize,
    /// Requests timed per route and round.
    #[arg(long, default_value_t = 200)]
    requests: usize,
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
}

/// Questions a user might ask the docs (general, not tuned to a page).
const DOC_QUERIES: &[&str] = &[
    "how do I give an app access to one user only",
    "which setting points Engram at PostgreSQL",
    "use Ollama for embeddings",
    "forget a memory",
    "run several replicas behind a load balancer",
    "what does a 429 mean",
    "upload a PDF",
    "connect Claude Desktop",
];

pub async fn run(args: McpArgs) -> anyhow::Result<()> {
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
    let texts: Vec<String> = (0..args.memories).map(fact).collect();
    for batch in texts.chunks(100) {
        let items: Vec<Value> = batch.iter().map(|t| json!({"content": t})).collect();
        let r = post(
            "/v4/memories",
            json!({"containerTag": "bench", "memories": items}),
        )
        .await?;
        anyhow::ensure!(r.status().as_u16() == 201, "{}", r.text().await?);
    }
    let tool = |name: &str, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
    };
    let queries: Vec<String> = (0..args.requests)
        .map(|i| format!("What did {} buy?", ["Ana", "Ben", "Chloe", "Dev"][i % 4]))
        .collect();
    // warm both paths
    post("/v4/search", json!({"q": "warm", "containerTag": "bench"})).await?;
    post(
        "/mcp",
        tool(
            "search_memories",
            json!({"q": "warm", "containerTag": "bench"}),
        ),
    )
    .await?;
    let (mut direct, mut via_mcp) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        for q in &queries {
            let body = json!({"q": q, "containerTag": "bench", "threshold": 0});
            let t = Instant::now();
            let r = post("/v4/search", body.clone()).await?;
            anyhow::ensure!(r.status().is_success(), "{}", r.text().await?);
            r.bytes().await?;
            direct.push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            let r: Value = post("/mcp", tool("search_memories", body))
                .await?
                .json()
                .await?;
            anyhow::ensure!(r["result"]["isError"] == false, "{r}");
            via_mcp.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    // the docs through MCP: the first call embeds every section
    let t = Instant::now();
    let r: Value = post("/mcp", tool("search_docs", json!({"q": DOC_QUERIES[0]})))
        .await?
        .json()
        .await?;
    anyhow::ensure!(r["result"]["isError"] == false, "{r}");
    let first_docs = t.elapsed().as_secs_f64() * 1000.0;
    let mut docs_mcp = Vec::new();
    for i in 0..args.requests {
        let t = Instant::now();
        let r = post(
            "/mcp",
            tool(
                "search_docs",
                json!({"q": DOC_QUERIES[i % DOC_QUERIES.len()]}),
            ),
        )
        .await?;
        r.bytes().await?;
        docs_mcp.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let embedder = srv.engine.embedder.clone();
    srv.stop().await;

    // the docs index in process
    let t = Instant::now();
    let keywords = engram_docs::DocsIndex::build(None).await?;
    let build_kw = t.elapsed().as_secs_f64() * 1000.0;
    let t = Instant::now();
    let hybrid = engram_docs::DocsIndex::build(Some(Arc::clone(&embedder))).await?;
    let build_hy = t.elapsed().as_secs_f64() * 1000.0;
    let cached = hybrid.vectors().to_vec();
    let t = Instant::now();
    let _ = engram_docs::DocsIndex::build_with(Some(embedder), Some(cached)).await?;
    let build_cached = t.elapsed().as_secs_f64() * 1000.0;
    let (mut kw, mut hy) = (Vec::new(), Vec::new());
    for i in 0..args.requests {
        let q = DOC_QUERIES[i % DOC_QUERIES.len()];
        let t = Instant::now();
        keywords.search(q, 5, None).await?;
        kw.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        hybrid.search(q, 5, None).await?;
        hy.push(t.elapsed().as_secs_f64() * 1000.0);
    }

    println!(
        "{} memories; {} requests per route",
        args.memories,
        direct.len()
    );
    let (d50, d95) = (pct(&mut direct, 0.5), pct(&mut direct, 0.95));
    let (m50, m95) = (pct(&mut via_mcp, 0.5), pct(&mut via_mcp, 0.95));
    println!("POST /v4/search:                 p50 {d50:.2} ms, p95 {d95:.2} ms");
    println!(
        "/mcp tools/call search_memories: p50 {m50:.2} ms, p95 {m95:.2} ms (p50 overhead {:+.2} ms)",
        m50 - d50
    );
    println!(
        "/mcp search_docs: first call {first_docs:.0} ms (builds the index), then p50 {:.2} ms, p95 {:.2} ms",
        pct(&mut docs_mcp, 0.5),
        pct(&mut docs_mcp, 0.95)
    );
    println!(
        "docs index ({} sections): build {build_kw:.1} ms by keywords, {build_hy:.0} ms hybrid, {build_cached:.1} ms hybrid from cached vectors",
        keywords.len()
    );
    println!(
        "docs search in process: keywords p50 {:.3} ms, p95 {:.3} ms; hybrid p50 {:.2} ms, p95 {:.2} ms",
        pct(&mut kw, 0.5),
        pct(&mut kw, 0.95),
        pct(&mut hy, 0.5),
        pct(&mut hy, 0.95)
    );
    Ok(())
}
