//! `engram bench throughput`: throughput of the embedder alone and of ingest end to end.
//!
//! - raw: the embedder on ~100-token chunks at batch sizes 1, 4, 8, 16 and
//!   32, one request at a time, as the server runs it (its scheduler and
//!   lanes; no HTTP, no store), next to the model alone called directly
//!   with each pass on every core; and a lone query's latency;
//! - end to end: a full Engram (SQLite in a temporary directory, the same
//!   model, default workers) on a loopback port; one-chunk documents are
//!   POSTed to `/v3/documents` by concurrent clients (on one thread of
//!   their own, as if from another machine) and the clock stops
//!   when the last one is `done` and no job is left. Twice: as ingest alone
//!   (`taskType: superrag`: extract, chunk, embed, index) and with memory
//!   formation (the default `memory`), which also embeds every fact it
//!   forms.
//!
//! Both print chunks per second; the ratio says how much of the model's
//! speed survives HTTP, durability and the queue: against the best raw
//! figure, and against raw batch 32 measured just before and just after
//! the ingest run (their mean), which takes the host's drift between
//! phases out of the comparison. The end-to-end run also
//! prints where the cores went (CPU time by thread, from `/proc`): the
//! embedder's lanes per chunk, the rest of the server and the clients per
//! document, which is what bounds the ratio once every core is busy. Run it on a release build.

use super::server::BenchServer;
use anyhow::Context;
use clap::Args;
use engram_core::tokens::TokenCounter;
use engram_embed::local::{max_seq_length, BertEncoder, HfTokenCounter, LocalEmbedder};
use engram_embed::Embedder;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BenchArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite in a
    /// temporary directory).
    #[arg(long)]
    database_url: Option<String>,
    /// Chunks embedded per batch size in the raw benchmark.
    #[arg(long, default_value_t = 256)]
    raw_chunks: usize,
    /// Documents ingested in the end-to-end benchmark.
    #[arg(long, default_value_t = 512)]
    docs: usize,
    /// Concurrent HTTP clients in the end-to-end benchmark.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// Background workers in the end-to-end benchmark.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
    /// Print results as JSON.
    #[arg(long)]
    json: bool,
}

const WORDS: &[&str] = &[
    "memory",
    "search",
    "vector",
    "garden",
    "river",
    "coffee",
    "meeting",
    "project",
    "budget",
    "travel",
    "friend",
    "weekend",
    "library",
    "concert",
    "recipe",
    "mountain",
    "train",
    "doctor",
    "school",
    "market",
    "weather",
    "holiday",
    "painting",
    "guitar",
    "running",
    "deadline",
    "kitchen",
    "birthday",
    "museum",
    "ocean",
    "planet",
    "software",
    "engine",
    "database",
    "question",
    "answer",
    "morning",
    "evening",
    "the",
    "a",
    "to",
    "and",
    "of",
    "in",
    "with",
    "about",
    "after",
    "before",
    "we",
    "she",
    "he",
    "they",
    "visited",
    "planned",
    "discussed",
    "cooked",
    "bought",
    "fixed",
    "wrote",
    "read",
    "played",
    "shared",
];

/// Batch sizes of the raw benchmark.
const BATCHES: [usize; 5] = [1, 4, 8, 16, 32];

/// Deterministic ~`target`-token texts.
fn corpus(n: usize, target: usize, counter: &dyn TokenCounter, seed: u64) -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut text = String::new();
            while counter.count(&text) < target {
                let len = rng.random_range(6..14);
                let sentence: Vec<&str> = (0..len)
                    .map(|_| WORDS[rng.random_range(0..WORDS.len())])
                    .collect();
                let mut s = sentence.join(" ");
                s[..1].make_ascii_uppercase();
                text.push_str(&s);
                text.push_str(". ");
            }
            text.trim().to_string()
        })
        .collect()
}

pub async fn run(args: BenchArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let dir = found.dir().to_path_buf();
    let counter = HfTokenCounter::load(&dir)?;
    let texts = corpus(args.raw_chunks.max(32), 100, &counter, 7);
    let avg_tokens =
        texts.iter().map(|t| counter.count(t)).sum::<usize>() as f64 / texts.len() as f64;

    // raw embedder: the model alone, one call at a time, each pass on
    // every core; then the embedder as the server runs it (requests to its
    // scheduler, units on one thread per core), one request at a time
    let d = dir.clone();
    let raw_texts = texts.clone();
    let precision = super::precision()?;
    let encoder: Vec<(usize, f64)> =
        tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<(usize, f64)>> {
            let enc = BertEncoder::load_with(&d, max_seq_length(&d), precision)?;
            enc.encode(&raw_texts[..8])?; // warm up
            let mut out = Vec::new();
            for bs in BATCHES {
                let start = Instant::now();
                for batch in raw_texts.chunks(bs) {
                    enc.encode(batch)?;
                }
                out.push((bs, raw_texts.len() as f64 / start.elapsed().as_secs_f64()));
            }
            Ok(out)
        })
        .await??;
    let embedder = LocalEmbedder::start_with(&dir, "bench", precision)?;
    embedder.embed(texts[..8].to_vec()).await?; // warm up
    let query = vec!["when did she go to the support group meeting".to_string()];
    let mut lat = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        embedder.embed_queries(query.clone()).await?;
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    lat.sort_by(|a, b| a.total_cmp(b));
    let (query_p50, query_min) = (lat[15], lat[0]);
    let mut raw = Vec::new();
    for bs in BATCHES {
        raw.push((bs, embed_rate(&embedder, &texts, bs).await?));
    }
    // batch 32 once more over twice the chunks, just before ingest: with
    // the same measured just after it, the machine's own drift (a few per
    // cent between phases on a shared host) cancels out of the ratio
    let around_before = embed_rate(&embedder, &double(&texts), 32).await?;
    drop(embedder);
    let best_raw = raw
        .iter()
        .chain(&encoder)
        .map(|(_, r)| *r)
        .fold(0.0, f64::max);

    // end to end
    let e2e = end_to_end(&args, &dir, "superrag").await?;
    let ratio = e2e.chunks_per_sec / best_raw;
    let embedder = LocalEmbedder::start_with(&dir, "bench", precision)?;
    embedder.embed(texts[..8].to_vec()).await?; // warm up
    let around_after = embed_rate(&embedder, &double(&texts), 32).await?;
    drop(embedder);
    let around = (around_before + around_after) / 2.0;
    let ratio_around = e2e.chunks_per_sec / around;
    let mem = end_to_end(&args, &dir, "memory").await?;
    let rows = |r: &[(usize, f64)]| {
        r.iter()
            .map(|(bs, r)| serde_json::json!({"batchSize": bs, "chunksPerSec": r}))
            .collect::<Vec<_>>()
    };
    let cpu = e2e.cpu_split(args.docs);
    if args.json {
        let v = serde_json::json!({
            "avgTokensPerChunk": avg_tokens,
            "queryP50Ms": query_p50,
            "encoder": rows(&encoder),
            "raw": rows(&raw),
            "endToEnd": {"docs": args.docs, "chunks": e2e.chunks, "seconds": e2e.seconds, "chunksPerSec": e2e.chunks_per_sec,
                          "postP50Ms": e2e.post_p50_ms, "postP95Ms": e2e.post_p95_ms},
            "ratioToBestRaw": ratio,
            "rawAround": {"before": around_before, "after": around_after},
            "ratioToRawAround": ratio_around,
            "cpu": {
                "lanesCoreMsPerChunk": cpu.lanes_ms_per_chunk,
                "otherCoreMsPerDocument": cpu.other_ms_per_doc,
                "clientCoreMsPerDocument": cpu.client_ms_per_doc,
                "coresUsed": cpu.used,
                "secondsByThread": e2e.cpu,
                "secondsByThreadWhilePosting": e2e.cpu_posted,
            },
            "withMemories": {"chunksPerSec": mem.chunks_per_sec, "seconds": mem.seconds, "memories": mem.memories,
                             "ratioToBestRaw": mem.chunks_per_sec / best_raw},
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("Embedder (all-MiniLM-L6-v2, CPU), chunks of ~{avg_tokens:.0} tokens:");
        println!("  query (9 words, alone): p50 {query_p50:.1} ms, min {query_min:.1} ms");
        for ((bs, r), (_, e)) in raw.iter().zip(&encoder) {
            println!(
                "  raw, batch {bs:>2}: {r:>7.1} chunks/s (the model alone, each pass on every core: {e:.1})"
            );
        }
        println!(
            "End to end over HTTP ({} docs, {} clients, {} workers): {:.1} chunks/s ({} chunks in {:.1} s); POST p50 {:.1} ms, p95 {:.1} ms",
            args.docs, args.clients, args.workers, e2e.chunks_per_sec, e2e.chunks, e2e.seconds, e2e.post_p50_ms, e2e.post_p95_ms
        );
        println!(
            "End to end / best raw: {:.1}%; / raw batch 32 just before and after it: {:.1}% ({around_before:.1} and {around_after:.1} chunks/s)",
            ratio * 100.0,
            ratio_around * 100.0
        );
        let show = |m: &std::collections::BTreeMap<String, f64>| {
            m.iter()
                .filter(|(_, v)| **v >= 0.05)
                .map(|(k, v)| format!("{k} {v:.2}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "  CPU: the embedder's lanes {:.2} core-ms a chunk, the rest of the server {:.2} core-ms a document, the clients {:.2}; {:.0}% of the cores' time used; POSTs answered after {:.1} s",
            cpu.lanes_ms_per_chunk, cpu.other_ms_per_doc, cpu.client_ms_per_doc, cpu.used * 100.0, e2e.posted
        );
        println!("  CPU seconds while posting: {}", show(&e2e.cpu_posted));
        println!("  CPU seconds in all: {}", show(&e2e.cpu));
        println!(
            "With memory formation: {:.1} chunks/s ({:.1} s, {} memories formed and embedded), {:.1}% of best raw",
            mem.chunks_per_sec,
            mem.seconds,
            mem.memories,
            mem.chunks_per_sec / best_raw * 100.0
        );
    }
    Ok(())
}

/// Chunks per second of `embedder` on `texts` in requests of `bs`, one at a
/// time.
async fn embed_rate(embedder: &LocalEmbedder, texts: &[String], bs: usize) -> anyhow::Result<f64> {
    let start = Instant::now();
    for batch in texts.chunks(bs) {
        embedder.embed(batch.to_vec()).await?;
    }
    Ok(texts.len() as f64 / start.elapsed().as_secs_f64())
}

fn double(texts: &[String]) -> Vec<String> {
    texts.iter().chain(texts).cloned().collect()
}

struct E2e {
    chunks: u64,
    seconds: f64,
    chunks_per_sec: f64,
    post_p50_ms: f64,
    post_p95_ms: f64,
    memories: u64,
    /// Seconds until the last POST was answered.
    posted: f64,
    /// CPU seconds by thread name until then, and until the end.
    cpu_posted: std::collections::BTreeMap<String, f64>,
    cpu: std::collections::BTreeMap<String, f64>,
}

/// Where the cores went during an end-to-end run.
struct CpuSplit {
    /// CPU of the embedder's lanes per chunk embedded.
    lanes_ms_per_chunk: f64,
    /// CPU of the server's other threads (HTTP, store, pipeline) per
    /// document.
    other_ms_per_doc: f64,
    /// CPU of the load thread (the HTTP clients) per document.
    client_ms_per_doc: f64,
    /// Share of all cores' time used.
    used: f64,
}

impl E2e {
    fn cpu_split(&self, docs: usize) -> CpuSplit {
        let lanes: f64 = self
            .cpu
            .iter()
            .filter(|(k, _)| k.starts_with("engram-lane"))
            .map(|(_, v)| v)
            .sum();
        let all: f64 = self.cpu.values().sum();
        let client = self.cpu.get("bench-client").copied().unwrap_or(0.0);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        CpuSplit {
            lanes_ms_per_chunk: lanes * 1000.0 / self.chunks.max(1) as f64,
            other_ms_per_doc: (all - lanes - client) * 1000.0 / docs.max(1) as f64,
            client_ms_per_doc: client * 1000.0 / docs.max(1) as f64,
            used: all / (self.seconds * cores),
        }
    }
}

async fn end_to_end(
    args: &BenchArgs,
    dir: &std::path::Path,
    task_type: &str,
) -> anyhow::Result<E2e> {
    let srv = BenchServer::start(
        dir,
        args.workers,
        args.database_url.as_deref(),
        Default::default(),
    )
    .await?;
    let (base, key, store, engine) = (
        srv.base.clone(),
        srv.key.clone(),
        srv.store.clone(),
        srv.engine.clone(),
    );
    let counter = engine.embedder.token_counter();
    let docs = Arc::new(corpus(args.docs, 100, counter.as_ref(), 11));
    let client = reqwest::Client::new();
    let task_type = task_type.to_string();

    let cpu_before = super::cputime::by_thread();
    let start = Instant::now();
    // the load comes from one thread of its own (a current-thread
    // runtime), as from another machine: its CPU is counted apart from
    // the server's, and it does not hop between the server's workers
    let load = LoadArgs {
        base: base.clone(),
        key: key.clone(),
        docs: docs.clone(),
        clients: args.clients.max(1),
        task_type: task_type.clone(),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("bench-client".into())
        .spawn(move || {
            let out = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(anyhow::Error::from)
                .and_then(|rt| rt.block_on(post_all(load)));
            let _ = tx.send(out.map(|lat| (lat, super::cputime::this_thread())));
        })?;
    let (mut lat, client_cpu) = rx.await.context("the load thread ended")??;
    let posted = start.elapsed().as_secs_f64();
    let mut cpu_posted = super::cputime::since(&cpu_before);
    cpu_posted.insert("bench-client".into(), client_cpu);
    // wait for done: cheaply in process until no job is left (a count),
    // then through the API. Listing every unfinished document over HTTP
    // ten times a second took a tenth of a core from the pipeline it
    // measures.
    loop {
        if store.pending_jobs().await? > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let v: serde_json::Value = client
            .get(format!("{base}/v3/documents/processing"))
            .bearer_auth(&key)
            .send()
            .await?
            .json()
            .await?;
        if v["totalCount"].as_u64() == Some(0) && store.pending_jobs().await? == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut cpu = super::cputime::since(&cpu_before);
    cpu.insert("bench-client".into(), client_cpu);
    let org_id = match engram_engine::auth::verify(store.as_ref(), &key).await? {
        engram_engine::auth::Verified::Key(who) => who.org_id,
        other => anyhow::bail!("the bench key does not verify: {other:?}"),
    };
    let (docs_list, total) = store
        .list_documents(
            &org_id,
            &engram_store::ListQuery {
                container_tags: vec![],
                filepath: None,
                filter: None,
                sort: engram_core::SortField::CreatedAt,
                order: engram_core::SortOrder::Asc,
                limit: args.docs as u64,
                offset: 0,
            },
        )
        .await?;
    anyhow::ensure!(
        total as usize == args.docs,
        "expected {} documents, found {total}",
        args.docs
    );
    let failed = docs_list
        .iter()
        .filter(|d| d.status != engram_core::DocumentStatus::Done)
        .count();
    anyhow::ensure!(failed == 0, "{failed} documents did not finish");
    let chunks: u64 = docs_list.iter().map(|d| d.chunk_count as u64).sum();
    let (_, memories) = store
        .list_memories(
            &org_id,
            &engram_store::MemoryListQuery {
                include_history: true,
                limit: 1,
                ..Default::default()
            },
        )
        .await?;
    srv.stop().await;
    lat.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| lat[((lat.len() as f64 - 1.0) * p).round() as usize];
    Ok(E2e {
        chunks,
        seconds,
        chunks_per_sec: chunks as f64 / seconds,
        post_p50_ms: pct(0.5),
        post_p95_ms: pct(0.95),
        memories,
        posted,
        cpu_posted,
        cpu,
    })
}

/// What the load thread sends.
struct LoadArgs {
    base: String,
    key: String,
    docs: Arc<Vec<String>>,
    clients: usize,
    task_type: String,
}

/// POST every document, `clients` at a time; the latency of each.
async fn post_all(load: LoadArgs) -> anyhow::Result<Vec<f64>> {
    let client = reqwest::Client::new();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let one = || async {
        let mut lat = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if i >= load.docs.len() {
                break;
            }
            let t = Instant::now();
            let resp = client
                .post(format!("{}/v3/documents", load.base))
                .bearer_auth(&load.key)
                .json(&serde_json::json!({"content": load.docs[i], "containerTag": "bench", "taskType": load.task_type}))
                .send()
                .await?;
            anyhow::ensure!(resp.status().is_success(), "POST failed: {}", resp.status());
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        anyhow::Ok(lat)
    };
    let all = futures::future::join_all((0..load.clients).map(|_| one())).await;
    let mut lat = Vec::new();
    for l in all {
        lat.extend(l?);
    }
    Ok(lat)
}
