//! `engram bench scale`: search latency and memory with a large synthetic
//! organisation, and the HNSW graph's recall against exact search.
//!
//! The corpus is generated, not embedded: documents of English words drawn
//! with Zipf frequencies (the model's vocabulary lists its whole words
//! roughly by frequency, so "the", "of" and "and" lead and stop words are as
//! common as in real text), each with a vector drawn around one of many
//! random cluster centres (the shape of real embedding collections).
//! They are written through the store (embedding 100k chunks with the model
//! would take most of an hour here); queries go through the HTTP API with
//! the real model embedding them.

use super::server::BenchServer;
use engram_index::Scope;
use engram_store::{NewChunk, NewDocument, ProcessedDocument};
use serde_json::json;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct ScaleArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite in a
    /// temporary directory).
    #[arg(long)]
    database_url: Option<String>,
    /// Where large scopes get their vector candidates (`store` needs
    /// `--database-url`).
    #[arg(long, value_enum, default_value = "process")]
    vector_index: crate::config::VectorIndexArg,
    /// Chunks in the organisation (one per document).
    #[arg(long, default_value_t = 100_000)]
    chunks: usize,
    /// Container tags the documents are spread over.
    #[arg(long, default_value_t = 10)]
    tags: usize,
    /// Search requests per scope.
    #[arg(long, default_value_t = 300)]
    queries: usize,
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<std::path::PathBuf>,
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn gauss(&mut self) -> f32 {
        let (u, v) = (self.unit().max(1e-12), self.unit());
        ((-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()) as f32
    }
    /// A Zipf-like rank in 0..n (heavier head, long tail).
    fn zipf(&mut self, n: usize) -> usize {
        ((n as f64).powf(self.unit()) - 1.0) as usize
    }
}

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|x| *x /= n);
    v
}

struct Corpus {
    rng: Rng,
    vocab: Vec<String>,
    centres: Vec<Vec<f32>>,
    dim: usize,
}

impl Corpus {
    fn new(dim: usize, vocab: Vec<String>) -> Self {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let centres = (0..1000)
            .map(|_| normalised((0..dim).map(|_| rng.gauss()).collect()))
            .collect();
        Self {
            rng,
            vocab,
            centres,
            dim,
        }
    }
    fn text(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| self.vocab[self.rng.zipf(self.vocab.len())].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn vector(&mut self) -> Vec<f32> {
        let c = self.rng.below(self.centres.len());
        let spread = 1.2 / (self.dim as f32).sqrt();
        normalised(
            self.centres[c]
                .iter()
                .map(|x| x + spread * self.rng.gauss())
                .collect(),
        )
    }
}

/// The model vocabulary's whole words (lowercase letters, two or more), in
/// the vocabulary's order.
fn vocabulary(model_dir: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let raw = std::fs::read(model_dir.join("tokenizer.json"))?;
    let t: serde_json::Value = serde_json::from_slice(&raw)?;
    let vocab = t["model"]["vocab"]
        .as_object()
        .ok_or_else(|| anyhow::anyhow!("tokenizer.json has no model.vocab"))?;
    let mut words: Vec<(u64, &String)> = vocab
        .iter()
        .filter(|(w, _)| w.len() >= 2 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .filter_map(|(w, id)| Some((id.as_u64()?, w)))
        .collect();
    words.sort_unstable();
    anyhow::ensure!(words.len() >= 1000, "too few words in the vocabulary");
    Ok(words.into_iter().map(|(_, w)| w.clone()).collect())
}

fn rss_mb() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

pub async fn run(args: ScaleArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let dir = tempfile::tempdir()?;
    let config = engram_engine::EngineConfig {
        vector_index: args.vector_index.into(),
        // where `engram serve --data-dir` keeps them
        snapshots: Some(engram_engine::snapshots::SnapshotConfig::new(
            dir.path().join("indexes"),
        )),
        ..Default::default()
    };
    let srv =
        BenchServer::start_in(dir, found.dir(), 0, args.database_url.as_deref(), config).await?;
    let store = srv.store.clone();
    let org = store.ensure_org("bench").await?.id;
    let dim = srv.engine.embedder.dimension();
    let mut corpus = Corpus::new(dim, vocabulary(found.dir())?);

    // write the corpus through the store, in batches
    let t0 = Instant::now();
    let batch = 1000;
    let mut written = 0;
    while written < args.chunks {
        let n = batch.min(args.chunks - written);
        let docs: Vec<NewDocument> = (0..n)
            .map(|i| NewDocument {
                org_id: org.clone(),
                custom_id: None,
                container_tags: vec![format!("tag-{}", (written + i) % args.tags.max(1))],
                content: String::new(),
                doc_type: engram_core::DocumentType::Text,
                url: None,
                source: None,
                task_type: engram_core::TaskType::Superrag,
                dreaming: engram_core::Dreaming::Instant,
                metadata: json!({"n": written + i})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
                filepath: None,
                entity_context: None,
                file: None,
                connection_id: None,
            })
            .collect();
        store.upsert_documents(docs).await?;
        let jobs = store
            .claim_jobs("bench", n, Duration::from_secs(600))
            .await?;
        let done: Vec<_> = jobs
            .into_iter()
            .map(|j| {
                let text = corpus.text(60);
                let p = ProcessedDocument {
                    text: text.clone(),
                    title: None,
                    summary: None,
                    doc_type: engram_core::DocumentType::Text,
                    chunks: vec![NewChunk {
                        position: 0,
                        content: text,
                        token_count: 60,
                        embedding: corpus.vector(),
                    }],
                    dream_at: engram_store::now(),
                };
                (j, p)
            })
            .collect();
        store.complete_jobs(done).await?;
        written += n;
    }
    let write_secs = t0.elapsed().as_secs_f64();
    let rss_before = rss_mb();

    // load the index (as `engram serve` does at start)
    let t1 = Instant::now();
    let slot = srv.engine.fresh_index(&org).await?;
    let load_secs = t1.elapsed().as_secs_f64();
    let (index_mb, chunks, has_ann) = {
        let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
        (
            index.memory_bytes() as f64 / 1048576.0,
            index.chunks(),
            index.has_ann(),
        )
    };
    let rss_after = rss_mb();
    // the load's snapshot (started in the background when it finished)
    let t = Instant::now();
    srv.engine.save_indexes().await;
    let save_secs = t.elapsed().as_secs_f64();

    // the graph's recall@10 against exact search, whole organisation: the
    // store's graph when it keeps one (PostgreSQL), else the index's own
    let in_store = args.vector_index == crate::config::VectorIndexArg::Store;
    let (mut hits, mut total) = (0usize, 0usize);
    let mut ann_ms = Vec::new();
    let mut exact_ms = Vec::new();
    let all = Scope::default();
    for _ in 0..200 {
        let q = corpus.vector();
        let t = Instant::now();
        let approx: Vec<String> = if in_store {
            store
                .nearest_chunks(&org, &Default::default(), &q, 10)
                .await?
                .into_iter()
                .map(|x| x.0)
                .collect()
        } else {
            let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
            index.vector_top(&q, &all, 10, true)
        };
        ann_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
        let t = Instant::now();
        let exact = index.exact_vector_top(&q, &all, 10);
        exact_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        hits += exact.iter().filter(|id| approx.contains(id)).count();
        total += exact.len();
    }
    ann_ms.sort_by(f64::total_cmp);
    exact_ms.sort_by(f64::total_cmp);

    // search over HTTP: the whole organisation, and one tag
    let client = reqwest::Client::new();
    let auth = format!("Bearer {}", srv.key);
    let mut report = Vec::new();
    for (label, tag) in [
        ("whole organisation", None),
        ("one container tag", Some("tag-3")),
    ] {
        let mut lat = Vec::with_capacity(args.queries);
        for _ in 0..args.queries {
            // about a question's length
            let q = corpus.text(9);
            let mut body = json!({"q": q, "limit": 10});
            if let Some(t) = tag {
                body["containerTag"] = json!(t);
            }
            let t = Instant::now();
            let resp = client
                .post(format!("{}/v3/search", srv.base))
                .header("authorization", &auth)
                .json(&body)
                .send()
                .await?;
            anyhow::ensure!(
                resp.status().is_success(),
                "search failed: {}",
                resp.status()
            );
            let _: serde_json::Value = resp.json().await?;
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        lat.sort_by(f64::total_cmp);
        report.push((label, percentile(&lat, 0.5), percentile(&lat, 0.95)));
    }

    println!(
        "Synthetic organisation: {chunks} chunks ({} tags), written through the store in {write_secs:.1} s",
        args.tags
    );
    println!(
        "index load (tokenise, postings, HNSW build): {load_secs:.1} s; HNSW: {}",
        if in_store {
            "in the store (pgvector), none in process"
        } else if has_ann {
            "in process"
        } else {
            "no (below the threshold)"
        }
    );
    println!(
        "memory: index {index_mb:.0} MB (estimate); process RSS {} -> {} MB",
        rss_before.map_or("?".into(), |m| format!("{m:.0}")),
        rss_after.map_or("?".into(), |m| format!("{m:.0}"))
    );
    println!(
        "vector top-10, whole organisation: HNSW recall@10 {:.3} vs exact; p50 {:.2} ms (HNSW) vs {:.2} ms (exact scan)",
        hits as f64 / total.max(1) as f64,
        percentile(&ann_ms, 0.5),
        percentile(&exact_ms, 0.5)
    );
    for (label, p50, p95) in report {
        println!("search over HTTP, {label}: p50 {p50:.1} ms, p95 {p95:.1} ms");
    }

    // restart: a new `engram serve` process on the same data, timed from
    // its start to the first answered search
    let key = srv.key.clone();
    let (dir, database_url) = srv.stop_keep().await;
    let snapshot_mb = std::fs::read_dir(dir.path().join("indexes"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len() as f64 / 1048576.0)
        .sum::<f64>();
    println!("index snapshot: {snapshot_mb:.0} MB on disk, saved in {save_secs:.1} s (in the background)");
    let restart = restart(
        &dir,
        database_url.as_deref(),
        &args,
        found.dir(),
        &key,
        &mut corpus,
    )
    .await;
    if let Some(url) = &database_url {
        if let Err(e) = engram_store_postgres::PgStore::drop_database(url).await {
            eprintln!("warning: the bench database stays: {e}");
        }
    }
    let restart = restart?;
    println!(
        "restart (`engram serve` process start to the first answered search): {:.2} s; resident memory then {} MB",
        restart.0,
        restart.1.map_or("?".into(), |m| format!("{m:.0}"))
    );
    Ok(())
}

/// Start `engram serve` on the bench's data and time it to the first
/// answered search; the process's resident memory then.
async fn restart(
    dir: &tempfile::TempDir,
    database_url: Option<&str>,
    args: &ScaleArgs,
    model_dir: &std::path::Path,
    key: &str,
    corpus: &mut Corpus,
) -> anyhow::Result<(f64, Option<f64>)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut cmd = tokio::process::Command::new(std::env::current_exe()?);
    cmd.arg("serve")
        .arg("--data-dir")
        .arg(dir.path())
        .arg("--listen")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--model-dir")
        .arg(model_dir)
        .arg("--vector-index")
        .arg(match args.vector_index {
            crate::config::VectorIndexArg::Store => "store",
            _ => "process",
        })
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("serve.log"))?)
        .kill_on_drop(true);
    if let Some(url) = database_url {
        cmd.arg("--database-url").arg(url);
    }
    let t = Instant::now();
    let mut child = cmd.spawn()?;
    let client = reqwest::Client::new();
    let body = json!({"q": corpus.text(9), "limit": 10});
    let secs = loop {
        anyhow::ensure!(
            t.elapsed() < Duration::from_secs(600),
            "no answer after 10 minutes (see {}/serve.log)",
            dir.path().display()
        );
        if let Some(status) = child.try_wait()? {
            anyhow::bail!("engram serve exited: {status}");
        }
        let sent = client
            .post(format!("http://127.0.0.1:{port}/v3/search"))
            .bearer_auth(key)
            .json(&body)
            .send()
            .await;
        if let Ok(resp) = sent {
            anyhow::ensure!(
                resp.status().is_success(),
                "search failed: {}",
                resp.status()
            );
            let v: serde_json::Value = resp.json().await?;
            anyhow::ensure!(
                v["results"].as_array().is_some_and(|r| !r.is_empty()),
                "the first search found nothing: {v}"
            );
            break t.elapsed().as_secs_f64();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let rss = child.id().and_then(|pid| {
        let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
        Some(line.split_whitespace().nth(1)?.parse::<f64>().ok()? / 1024.0)
    });
    child.start_kill()?;
    let _ = child.wait().await;
    Ok((secs, rss))
}
