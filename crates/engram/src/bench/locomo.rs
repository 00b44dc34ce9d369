//! `engram bench locomo --data FILE`: retrieval quality on LoCoMo-format
//! conversations, measured through the HTTP API exactly as a client would.
//!
//! Every turn becomes one document (`"<speaker>: <text>"`, plus
//! `" [image: <caption>]"` when the turn shared an image), with
//! `customId` = the turn id, `containerTag` = the conversation, and speaker,
//! session and session date in metadata. Each question of categories 1-4
//! with evidence is searched within its conversation (`/v3/search`, top 20
//! documents); evidence recall@k = |gold ∩ top k| / |gold|, averaged over
//! questions, overall and per category, with client-side latency.
//! Nothing here knows about particular conversations: the data is an input.

use super::server::BenchServer;
use anyhow::Context;
use clap::Args;
use regex::Regex;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct LocomoArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite in a
    /// temporary directory).
    #[arg(long)]
    pub(super) database_url: Option<String>,
    /// A LoCoMo-format JSON file (a list of samples).
    #[arg(long)]
    data: PathBuf,
    /// Only the first N conversations.
    #[arg(long)]
    conversations: Option<usize>,
    /// Background workers.
    #[arg(long, default_value_t = 2)]
    pub(super) workers: usize,
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    pub(super) model_dir: Option<PathBuf>,
    /// Print results as JSON.
    #[arg(long)]
    pub(super) json: bool,
    /// Ingest each session as a conversation (`/v4/conversations`), let
    /// memories form, and score `/v4/search` in `documents`, `memories`
    /// and `hybrid` modes instead of `/v3/search` over one document per
    /// turn.
    #[arg(long)]
    pub(super) memories: bool,
    /// With `--memories`: also write every question's top 50 `memories`
    /// and `hybrid` results (and each space's memory list) to this JSON
    /// file, for studying ranking offline.
    #[arg(long, value_name = "FILE")]
    pub(super) dump: Option<PathBuf>,
    /// With `--memories`: print this many formed memories, drawn at random
    /// (the same draw every run) from all conversations, one per line, for
    /// judging by hand how many are not facts (see docs/memory-quality.md).
    #[arg(long, default_value_t = 0)]
    pub(super) sample: usize,
}

pub(super) const KS: [usize; 4] = [1, 5, 10, 20];

pub(super) struct Turn {
    pub(super) id: String,
    pub(super) content: String,
    pub(super) speaker: String,
    pub(super) session: u64,
    pub(super) date: String,
}

pub(super) struct Question {
    pub(super) conversation: String,
    pub(super) text: String,
    pub(super) category: u64,
    pub(super) gold: HashSet<String>,
}

/// Turns per conversation, and the questions.
pub(super) type Dataset = (BTreeMap<String, Vec<Turn>>, Vec<Question>);

/// `D1:3`, `D:11:26`, `D30:05` -> `D1:3`, `D11:26`, `D30:5`.
fn normalise_ids(re: &Regex, s: &str) -> Vec<String> {
    re.captures_iter(s)
        .filter_map(|c| {
            let sess: u64 = c[1].parse().ok()?;
            let turn: u64 = c[2].parse().ok()?;
            Some(format!("D{sess}:{turn}"))
        })
        .collect()
}

pub(super) fn load(args: &LocomoArgs, re: &Regex) -> anyhow::Result<Dataset> {
    let raw = std::fs::read_to_string(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    let samples: Vec<Value> = serde_json::from_str(&raw)?;
    let mut convs = BTreeMap::new();
    let mut questions = Vec::new();
    for sample in samples
        .iter()
        .take(args.conversations.unwrap_or(usize::MAX))
    {
        let id = sample["sample_id"]
            .as_str()
            .context("sample_id")?
            .to_string();
        let conv = &sample["conversation"];
        let mut turns = Vec::new();
        let mut n = 1;
        // sessions are numbered; some numbers may be missing
        while n < 1000 {
            let key = format!("session_{n}");
            if let Some(list) = conv.get(&key).and_then(Value::as_array) {
                let date = conv[format!("{key}_date_time")]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                for t in list {
                    let speaker = t["speaker"].as_str().unwrap_or("").to_string();
                    let mut content = format!("{speaker}: {}", t["text"].as_str().unwrap_or(""));
                    if let Some(c) = t.get("blip_caption").and_then(Value::as_str) {
                        content.push_str(&format!(" [image: {c}]"));
                    }
                    let Some(tid) = t["dia_id"]
                        .as_str()
                        .and_then(|d| normalise_ids(re, d).pop())
                    else {
                        continue;
                    };
                    turns.push(Turn {
                        id: tid,
                        content,
                        speaker: speaker.clone(),
                        session: n,
                        date: date.clone(),
                    });
                }
            } else if conv.get(format!("{key}_date_time")).is_none() && n > 50 {
                break;
            }
            n += 1;
        }
        for qa in sample["qa"].as_array().into_iter().flatten() {
            let category = qa["category"].as_u64().unwrap_or(0);
            if !(1..=4).contains(&category) {
                continue;
            }
            let gold: HashSet<String> = qa["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .flat_map(|e| normalise_ids(re, e))
                .collect();
            if gold.is_empty() {
                continue;
            }
            let text = match &qa["question"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            questions.push(Question {
                conversation: id.clone(),
                text,
                category,
                gold,
            });
        }
        convs.insert(id, turns);
    }
    Ok((convs, questions))
}

pub async fn run(args: LocomoArgs) -> anyhow::Result<()> {
    let re = Regex::new(r"D:?(\d+):0*(\d+)")?;
    let (convs, questions) = load(&args, &re)?;
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let srv = BenchServer::start(
        found.dir(),
        args.workers,
        args.database_url.as_deref(),
        Default::default(),
    )
    .await?;
    if args.memories {
        return super::locomo_memory::run(&args, srv, convs, questions, found.dir()).await;
    }
    let client = reqwest::Client::new();
    let auth = format!("Bearer {}", srv.key);

    // ingest through the API
    let t0 = Instant::now();
    let mut turn_of: HashMap<String, String> = HashMap::new();
    let mut n_turns = 0;
    for (conv, turns) in &convs {
        for batch in turns.chunks(100) {
            let docs: Vec<Value> = batch
                .iter()
                .map(|t| {
                    json!({"content": t.content, "customId": format!("{conv}-{}", t.id), "containerTag": conv,
                           "metadata": {"speaker": t.speaker, "session": t.session, "date": t.date}})
                })
                .collect();
            let resp: Value = client
                .post(format!("{}/v3/documents/batch", srv.base))
                .header("authorization", &auth)
                .json(&json!({"documents": docs}))
                .send()
                .await?
                .json()
                .await?;
            anyhow::ensure!(resp["failed"] == 0, "ingest failed: {resp}");
            for (r, t) in resp["results"]
                .as_array()
                .context("results")?
                .iter()
                .zip(batch)
            {
                turn_of.insert(
                    r["id"].as_str().unwrap_or_default().to_string(),
                    t.id.clone(),
                );
            }
            n_turns += batch.len();
        }
    }
    srv.wait_processed(&client).await?;
    let ingest_secs = t0.elapsed().as_secs_f64();

    // query
    let mut lat = Vec::with_capacity(questions.len());
    let mut sums: BTreeMap<u64, ([f64; 4], usize)> = BTreeMap::new();
    for q in &questions {
        let t = Instant::now();
        let resp = client
            .post(format!("{}/v3/search", srv.base))
            .header("authorization", &auth)
            .json(&json!({"q": q.text, "containerTag": q.conversation, "limit": 20}))
            .send()
            .await?;
        let v: Value = resp.json().await?;
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
        let ranked: Vec<&str> = v["results"]
            .as_array()
            .with_context(|| format!("search failed: {v}"))?
            .iter()
            .filter_map(|r| {
                turn_of
                    .get(r["documentId"].as_str().unwrap_or_default())
                    .map(String::as_str)
            })
            .collect();
        let e = sums.entry(q.category).or_insert(([0.0; 4], 0));
        for (i, k) in KS.iter().enumerate() {
            let hit = ranked
                .iter()
                .take(*k)
                .filter(|id| q.gold.contains(**id))
                .count();
            e.0[i] += hit as f64 / q.gold.len() as f64;
        }
        e.1 += 1;
    }
    srv.stop().await;

    lat.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let mut overall = [0.0; 4];
    let total: usize = sums.values().map(|(_, n)| n).sum();
    for (s, _) in sums.values() {
        for i in 0..4 {
            overall[i] += s[i];
        }
    }
    let recall = |s: &[f64; 4], n: usize| -> Vec<f64> {
        s.iter().map(|x| 100.0 * x / n.max(1) as f64).collect()
    };
    if args.json {
        let per: BTreeMap<String, Value> = sums
            .iter()
            .map(|(c, (s, n))| {
                (
                    c.to_string(),
                    json!({"questions": n, "recall": recall(s, *n)}),
                )
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "conversations": convs.len(), "turns": n_turns, "questions": total, "ks": KS,
                "recall": recall(&overall, total), "perCategory": per,
                "searchP50Ms": pct(0.5), "searchP95Ms": pct(0.95), "ingestSeconds": ingest_secs,
            }))?
        );
    } else {
        println!("LoCoMo retrieval: {} conversations, {n_turns} turns (ingested in {ingest_secs:.1} s), {total} questions", convs.len());
        println!(
            "{:<14} {:>5} {:>8} {:>8} {:>8} {:>8}",
            "category", "n", "R@1", "R@5", "R@10", "R@20"
        );
        let names = [
            "",
            "1 multi-hop",
            "2 temporal",
            "3 open-domain",
            "4 single-hop",
        ];
        for (c, (s, n)) in &sums {
            let r = recall(s, *n);
            println!(
                "{:<14} {:>5} {:>7.1}% {:>7.1}% {:>7.1}% {:>7.1}%",
                names[*c as usize], n, r[0], r[1], r[2], r[3]
            );
        }
        let r = recall(&overall, total);
        println!(
            "{:<14} {:>5} {:>7.1}% {:>7.1}% {:>7.1}% {:>7.1}%",
            "overall", total, r[0], r[1], r[2], r[3]
        );
        println!(
            "search latency (client, HTTP, query embedding included): p50 {:.1} ms, p95 {:.1} ms",
            pct(0.5),
            pct(0.95)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_ids_are_normalised() {
        let re = Regex::new(r"D:?(\d+):0*(\d+)").unwrap();
        assert_eq!(normalise_ids(&re, "D1:3"), vec!["D1:3"]);
        assert_eq!(normalise_ids(&re, "D:11:26"), vec!["D11:26"]);
        assert_eq!(normalise_ids(&re, "D30:05"), vec!["D30:5"]);
        assert_eq!(
            normalise_ids(&re, "D1:2; D3:4,D5:06"),
            vec!["D1:2", "D3:4", "D5:6"]
        );
        assert!(normalise_ids(&re, "nothing").is_empty());
    }
}
