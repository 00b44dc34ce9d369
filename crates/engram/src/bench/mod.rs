//! `engram bench`: measurements that are not tests. Run on a release build.
//!
//! - `throughput`: the embedder alone vs ingest end to end over HTTP;
//! - `locomo`: retrieval quality (evidence recall@k) and search latency on
//!   LoCoMo-format conversations, through the HTTP API;
//! - `memory`: profile latency, and `/v4/search` next to `/v3/search`;
//! - `analytics`: what recording requests costs, and the analytics routes
//!   over a month of request logs;
//! - `scale`: latency, memory and HNSW recall with a large synthetic
//!   organisation;
//! - `mcp`: what the MCP layer adds to a search, and docs search speed;
//! - `judge`: how well memory formation's fact/not-a-fact judge works;
//! - `connections`: pages crawled per second, and S3 sync time.
//!
//! The local model runs in the precision `ENGRAM_EMBED_PRECISION` names
//! (`mixed`, the default, or `f32`), as `engram serve` does.

mod analytics;
mod budget;
mod connections;
mod cputime;
mod judge;
mod load;
mod locomo;
mod locomo_memory;
mod mcp;
mod memory;
mod scale;
mod server;
mod thresholds;
mod throughput;

use clap::Subcommand;

/// The local model's precision for a bench: `ENGRAM_EMBED_PRECISION`, as
/// `engram serve` reads it, else the default.
pub(crate) fn precision() -> anyhow::Result<engram_embed::Precision> {
    match std::env::var("ENGRAM_EMBED_PRECISION") {
        Ok(v) if !v.is_empty() => v.parse().map_err(|e: String| anyhow::anyhow!(e)),
        _ => Ok(engram_embed::Precision::default()),
    }
}

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Embedder throughput vs end-to-end ingest throughput.
    Throughput(throughput::BenchArgs),
    /// Retrieval quality and search latency on LoCoMo-format data.
    Locomo(locomo::LocomoArgs),
    /// Profile and memory-search latency next to document search.
    Memory(memory::MemoryArgs),
    /// The cost of request analytics: recording, and the reports.
    Analytics(analytics::AnalyticsArgs),
    /// Search latency, memory and HNSW recall with a large synthetic organisation.
    Scale(scale::ScaleArgs),
    /// What the MCP layer adds to a search, and how fast the docs are searched.
    Mcp(mcp::McpArgs),
    /// How well the fact/not-a-fact judge of memory formation separates
    /// facts from chatter.
    Judge(judge::JudgeArgs),
    /// Crawl speed against a local site, and S3 sync time against moto.
    Connections(connections::ConnectionsArgs),
    /// Many clients at once mixing writes, searches, profiles and reads:
    /// throughput, p50/p95/p99 per route, and where latency bends.
    Load(load::LoadArgs),
}

pub async fn run(cmd: BenchCommand) -> anyhow::Result<()> {
    if cfg!(debug_assertions) {
        eprintln!("warning: this is a debug build; build with --release for meaningful numbers");
    }
    let filter =
        tracing_subscriber::EnvFilter::try_from_env("ENGRAM_LOG").unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(crate::serve::log_colour())
        .with_writer(std::io::stderr)
        .try_init();
    match cmd {
        BenchCommand::Throughput(a) => throughput::run(a).await,
        BenchCommand::Locomo(a) => locomo::run(a).await,
        BenchCommand::Scale(a) => scale::run(a).await,
        BenchCommand::Memory(a) => memory::run(a).await,
        BenchCommand::Analytics(a) => analytics::run(a).await,
        BenchCommand::Mcp(a) => mcp::run(a).await,
        BenchCommand::Judge(a) => judge::run(a).await,
        BenchCommand::Connections(a) => connections::run(a).await,
        BenchCommand::Load(a) => load::run(a).await,
    }
}
