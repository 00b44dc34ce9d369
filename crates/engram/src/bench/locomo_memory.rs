//! `engram bench locomo --memories`: LoCoMo through memories. Each session
//! is sent as one conversation (`/v4/conversations`, the session date in
//! metadata), memories form in the background, and each question is asked
//! of `/v4/search` (within its conversation, threshold 0, top 20) in
//! `documents`, `memories` and `hybrid` modes, and with `rerank` and
//! `rewriteQuery` (the local re-scorer and expansion unless an LLM is
//! configured).
//!
//! Scoring is evidence recall@k over turns: a chunk result stands for the
//! turns whose lines it holds; a memory result for the turn of its source
//! session that it shares the most words with (a memory is a rewritten
//! sentence of what someone said, so the best-overlapping turn is where it
//! came from), and in a hybrid list also for the turns of the passage it
//! carries (`chunks`: the reader is given those lines). A result may thus stand for several turns, which counts at
//! its rank. Nothing is tuned to the data: it is an input.

use super::locomo::{LocomoArgs, Question, Turn, KS};
use super::server::BenchServer;
use anyhow::Context;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

/// Rows: `searchMode`, optionally with `+rerank` or `+rewrite`.
const MODES: [&str; 6] = [
    "documents",
    "memories",
    "hybrid",
    "memories+rerank",
    "hybrid+rerank",
    "memories+rewrite",
];

fn words(s: &str) -> HashSet<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_string)
        .collect()
}

/// `1:56 pm on 8 May, 2023` -> `2023-05-08` (other forms pass through).
fn iso_day(date: &str) -> String {
    let day = date.rsplit(" on ").next().unwrap_or(date).trim();
    chrono::NaiveDate::parse_from_str(day, "%d %B, %Y")
        .map(|d| d.to_string())
        .unwrap_or_else(|_| date.to_string())
}

/// The turns of a session whose lines a chunk holds.
fn turns_of_chunk(chunk: &str, turns: &[&Turn]) -> Vec<String> {
    let lines: Vec<&str> = chunk
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    turns
        .iter()
        .filter(|t| {
            lines
                .iter()
                .any(|l| t.content.contains(*l) || l.contains(t.content.trim()))
        })
        .map(|t| t.id.clone())
        .collect()
}

/// The turns a result stands for: a chunk's lines; a memory's best turn,
/// and the lines of the passage it carries in a hybrid list.
fn turns_of_result(r: &Value, sessions: &HashMap<String, Vec<&Turn>>) -> Vec<String> {
    let doc = r["documents"][0]["id"].as_str().unwrap_or_default();
    let Some(turns) = sessions.get(doc) else {
        return Vec::new();
    };
    if let Some(chunk) = r["chunk"].as_str() {
        return turns_of_chunk(chunk, turns);
    }
    let Some(memory) = r["memory"].as_str() else {
        return Vec::new();
    };
    let m = words(memory);
    let mut out: Vec<String> = turns
        .iter()
        .map(|t| (m.intersection(&words(&t.content)).count(), t))
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, _)| *n)
        .map(|(_, t)| vec![t.id.clone()])
        .unwrap_or_default();
    for c in r["chunks"].as_array().into_iter().flatten() {
        for t in turns_of_chunk(c["content"].as_str().unwrap_or_default(), turns) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

pub async fn run(
    args: &LocomoArgs,
    srv: BenchServer,
    convs: BTreeMap<String, Vec<Turn>>,
    questions: Vec<Question>,
    model_dir: &std::path::Path,
) -> anyhow::Result<()> {
    let counter = engram_embed::local::HfTokenCounter::load(model_dir)?;
    let client = reqwest::Client::new();
    let auth = format!("Bearer {}", srv.key);

    // one conversation per session
    let t0 = Instant::now();
    let mut sessions: HashMap<String, Vec<&Turn>> = HashMap::new();
    let mut n_sessions = 0;
    for (conv, turns) in &convs {
        let mut by_session: BTreeMap<u64, Vec<&Turn>> = BTreeMap::new();
        for t in turns {
            by_session.entry(t.session).or_default().push(t);
        }
        for (n, turns) in by_session {
            let messages: Vec<Value> = turns
                .iter()
                .map(|t| {
                    let text = t.content[t.speaker.len() + 2..].to_string();
                    json!({"role": "user", "name": t.speaker, "content": text})
                })
                .collect();
            let v: Value = client
                .post(format!("{}/v4/conversations", srv.base))
                .header("authorization", &auth)
                .json(
                    &json!({"conversationId": format!("{conv}-s{n}"), "containerTags": [conv],
                              "metadata": {"date": iso_day(&turns[0].date), "session": n},
                              "messages": messages}),
                )
                .send()
                .await?
                .json()
                .await?;
            let id = v["id"]
                .as_str()
                .with_context(|| format!("ingest failed: {v}"))?;
            sessions.insert(id.to_string(), turns);
            n_sessions += 1;
        }
    }
    srv.wait_processed(&client).await?;
    let ingest_secs = t0.elapsed().as_secs_f64();
    let mut n_memories = 0;
    let mut examples: Vec<String> = Vec::new();
    for conv in convs.keys() {
        let v: Value = client
            .post(format!("{}/v4/memories/list", srv.base))
            .header("authorization", &auth)
            .json(&json!({"containerTags": [conv], "limit": 1000}))
            .send()
            .await?
            .json()
            .await?;
        n_memories += v["pagination"]["totalItems"].as_u64().unwrap_or(0);
        if examples.is_empty() {
            examples = v["memoryEntries"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["memory"].as_str().map(str::to_string))
                .collect();
        }
    }

    // each space's formed memories, listed once for the coverage bound,
    // the dump and the sample
    let mut formed: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for conv in convs.keys() {
        formed.insert(
            conv.clone(),
            all_memories(&client, &srv, &auth, conv).await?,
        );
    }
    let coverage = coverage(&formed, &questions, &sessions);
    if let Some(path) = &args.dump {
        dump(path, &client, &srv, &auth, &formed, &questions, &sessions).await?;
    }
    let sampled = sample(args.sample, &formed);
    let mut report = serde_json::Map::new();
    // each mode's ranked results per question, for the threshold tables
    let mut ranked_by_mode: BTreeMap<&str, Vec<super::thresholds::Ranked>> = BTreeMap::new();
    for mode in MODES {
        let search_mode = mode.split('+').next().unwrap_or(mode);
        let mut lat = Vec::with_capacity(questions.len());
        let mut sums: BTreeMap<u64, ([f64; 4], usize)> = BTreeMap::new();
        for q in &questions {
            let t = Instant::now();
            let v: Value = client
                .post(format!("{}/v4/search", srv.base))
                .header("authorization", &auth)
                .json(
                    &json!({"q": q.text, "containerTag": q.conversation, "limit": 20,
                              "threshold": 0, "searchMode": search_mode, "include": {"documents": true},
                              "rerank": mode.ends_with("+rerank"), "rewriteQuery": mode.ends_with("+rewrite")}),
                )
                .send()
                .await?
                .json()
                .await?;
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
            let scored: Vec<(f64, Vec<String>)> = v["results"]
                .as_array()
                .with_context(|| format!("search failed: {v}"))?
                .iter()
                .map(|r| {
                    (
                        r["similarity"].as_f64().unwrap_or(0.0),
                        turns_of_result(r, &sessions),
                    )
                })
                .collect();
            let ranked: Vec<Vec<String>> = scored.iter().map(|(_, t)| t.clone()).collect();
            ranked_by_mode.entry(mode).or_default().push(scored);
            let e = sums.entry(q.category).or_insert(([0.0; 4], 0));
            for (i, k) in KS.iter().enumerate() {
                let seen: HashSet<&String> = ranked.iter().take(*k).flatten().collect();
                let hit = q.gold.iter().filter(|g| seen.contains(g)).count();
                e.0[i] += hit as f64 / q.gold.len() as f64;
            }
            e.1 += 1;
        }
        lat.sort_by(|a, b| a.total_cmp(b));
        let pct = |p: f64| lat[((lat.len().max(1) - 1) as f64 * p).round() as usize];
        let total: usize = sums.values().map(|(_, n)| n).sum();
        let mut overall = [0.0; 4];
        for (s, _) in sums.values() {
            for i in 0..4 {
                overall[i] += s[i];
            }
        }
        let recall = |s: &[f64; 4], n: usize| -> Vec<f64> {
            s.iter().map(|x| 100.0 * x / n.max(1) as f64).collect()
        };
        let per: BTreeMap<String, Value> = sums
            .iter()
            .map(|(c, (s, n))| (c.to_string(), json!(recall(s, *n))))
            .collect();
        report.insert(
            mode.to_string(),
            json!({"questions": total, "recall": recall(&overall, total), "perCategory": per,
                   "searchP50Ms": pct(0.5), "searchP95Ms": pct(0.95)}),
        );
    }
    let budgets = budget_tables(&client, &srv, &auth, &questions, &sessions, &counter).await?;
    // every question asked again in the next conversation's space: what
    // an unrelated question scores
    let names: Vec<&String> = convs.keys().collect();
    let mut tables = serde_json::Map::new();
    for mode in ["memories", "documents"] {
        let mut asked = Vec::with_capacity(questions.len());
        for (q, own) in questions.iter().zip(&ranked_by_mode[mode]) {
            let at = names
                .iter()
                .position(|c| **c == q.conversation)
                .unwrap_or(0);
            let other = names[(at + 1) % names.len()];
            let v: Value = client
                .post(format!("{}/v4/search", srv.base))
                .header("authorization", &auth)
                .json(&json!({"q": q.text, "containerTag": other, "limit": 1,
                              "threshold": 0, "searchMode": mode}))
                .send()
                .await?
                .json()
                .await?;
            let elsewhere = v["results"][0]["similarity"].as_f64().unwrap_or(0.0);
            asked.push(super::thresholds::Asked {
                gold: q.gold.clone(),
                own: own.clone(),
                elsewhere,
            });
        }
        tables.insert(mode.to_string(), json!(super::thresholds::table(&asked)));
    }
    srv.stop().await;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "conversations": convs.len(), "sessions": n_sessions, "memories": n_memories,
                "evidenceCoverage": coverage,
                "ingestSeconds": ingest_secs, "ks": KS, "modes": report, "thresholds": tables,
                "contextBudgets": budgets.iter().map(|(m, t)| (m.to_string(), t.clone())).collect::<serde_json::Map<_, _>>(),
                "sample": sampled,
                "exampleMemories": examples.iter().take(40).collect::<Vec<_>>(),
            }))?
        );
        return Ok(());
    }
    println!(
        "LoCoMo through memories: {} conversations, {n_sessions} sessions, {n_memories} memories (ingested and formed in {ingest_secs:.1} s)",
        convs.len()
    );
    println!(
        "{:<17} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9}",
        "mode", "R@1", "R@5", "R@10", "R@20", "p50 ms", "p95 ms"
    );
    for mode in MODES {
        let m = &report[mode];
        let r: Vec<f64> = serde_json::from_value(m["recall"].clone())?;
        println!(
            "{:<17} {:>7.1}% {:>7.1}% {:>7.1}% {:>7.1}% {:>9.1} {:>9.1}",
            mode,
            r[0],
            r[1],
            r[2],
            r[3],
            m["searchP50Ms"].as_f64().unwrap_or(0.0),
            m["searchP95Ms"].as_f64().unwrap_or(0.0)
        );
    }
    let found = report["memories"]["recall"][2].as_f64().unwrap_or(0.0);
    println!(
        "evidence turns that formed any memory: {coverage:.1}% (a bound on memories recall: a memory stands for one turn); \
         memories R@10 is {:.0}% of that bound",
        100.0 * found / coverage.max(f64::EPSILON)
    );
    println!("recall@10 by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop):");
    for mode in MODES {
        let per = report[mode]["perCategory"].as_object().context("per")?;
        let cells: Vec<String> = per
            .iter()
            .map(|(c, r)| format!("{c}: {:.1}%", r[2].as_f64().unwrap_or(0.0)))
            .collect();
        println!("  {mode:<17} {}", cells.join("  "));
    }
    super::budget::print(&budgets);
    for mode in ["memories", "documents"] {
        let rows: Vec<Value> = serde_json::from_value(tables[mode].clone())?;
        super::thresholds::print(
            &format!("thresholds, searchMode {mode} (unrelated: the question in another conversation's space):"),
            &rows,
        );
    }
    if !sampled.is_empty() {
        println!(
            "{} memories drawn at random, for judging by hand:",
            sampled.len()
        );
        for (i, m) in sampled.iter().enumerate() {
            println!("  {:>3}. {m}", i + 1);
        }
    }
    println!("some memories of the first conversation:");
    for m in examples.iter().take(15) {
        println!("  - {m}");
    }
    Ok(())
}

/// Each mode's context-budget table ([`super::budget`]): every question
/// asked once more, [`super::budget::DEPTH`] results deep.
async fn budget_tables(
    client: &reqwest::Client,
    srv: &BenchServer,
    auth: &str,
    questions: &[Question],
    sessions: &HashMap<String, Vec<&Turn>>,
    counter: &dyn engram_core::tokens::TokenCounter,
) -> anyhow::Result<Vec<(&'static str, Value)>> {
    let mut out = Vec::new();
    for mode in ["documents", "memories", "hybrid"] {
        let mut asked = Vec::with_capacity(questions.len());
        for q in questions {
            let v: Value = client
                .post(format!("{}/v4/search", srv.base))
                .header("authorization", auth)
                .json(&json!({"q": q.text, "containerTag": q.conversation,
                              "limit": super::budget::DEPTH, "threshold": 0,
                              "searchMode": mode, "include": {"documents": true}}))
                .send()
                .await?
                .json()
                .await?;
            let list: Vec<super::budget::Read> = v["results"]
                .as_array()
                .with_context(|| format!("search failed: {v}"))?
                .iter()
                .map(|r| super::budget::read(r, turns_of_result(r, sessions), counter))
                .collect();
            asked.push((q.gold.clone(), list));
        }
        out.push((mode, super::budget::table(&asked)));
    }
    Ok(out)
}

/// The share of the questions' evidence turns (averaged per question, as
/// recall is) that some current memory stands for: the most `memories`
/// recall can reach at any depth, since a memory stands for one turn.
fn coverage(
    formed: &BTreeMap<String, Vec<Value>>,
    questions: &[Question],
    sessions: &HashMap<String, Vec<&Turn>>,
) -> f64 {
    let mut covered: HashMap<&str, HashSet<String>> = HashMap::new();
    for (conv, memories) in formed {
        let turns = covered.entry(conv.as_str()).or_default();
        for m in memories {
            let doc = m["documentIds"][0].clone();
            let as_result = json!({"memory": m["memory"], "documents": [{"id": doc}]});
            turns.extend(turns_of_result(&as_result, sessions));
        }
    }
    let sum: f64 = questions
        .iter()
        .map(|q| {
            let have = covered.get(q.conversation.as_str());
            let hit = q
                .gold
                .iter()
                .filter(|g| have.is_some_and(|h| h.contains(*g)))
                .count();
            hit as f64 / q.gold.len() as f64
        })
        .sum();
    100.0 * sum / questions.len().max(1) as f64
}

/// Every memory of a space, page by page.
async fn all_memories(
    client: &reqwest::Client,
    srv: &BenchServer,
    auth: &str,
    conv: &str,
) -> anyhow::Result<Vec<Value>> {
    let mut all: Vec<Value> = Vec::new();
    for page in 1.. {
        let v: Value = client
            .post(format!("{}/v4/memories/list", srv.base))
            .header("authorization", auth)
            .json(&json!({"containerTags": [conv], "limit": 1000, "page": page}))
            .send()
            .await?
            .json()
            .await?;
        let entries = v["memoryEntries"]
            .as_array()
            .with_context(|| format!("listing memories failed: {v}"))?;
        all.extend(entries.iter().cloned());
        if entries.len() < 1000 {
            break;
        }
    }
    Ok(all)
}

/// `n` memories drawn from all spaces with a fixed seed, so that the same
/// formation gives the same sample.
fn sample(n: usize, formed: &BTreeMap<String, Vec<Value>>) -> Vec<String> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut texts: Vec<String> = formed
        .values()
        .flatten()
        .filter_map(|m| m["memory"].as_str().map(str::to_string))
        .collect();
    texts.sort();
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    texts.shuffle(&mut rng);
    texts.truncate(n);
    texts
}

/// Write each question's top 50 results in `memories` and `hybrid` modes,
/// with the turns each stands for, and each space's memories.
async fn dump(
    path: &std::path::Path,
    client: &reqwest::Client,
    srv: &BenchServer,
    auth: &str,
    formed: &BTreeMap<String, Vec<Value>>,
    questions: &[Question],
    sessions: &HashMap<String, Vec<&Turn>>,
) -> anyhow::Result<()> {
    let spaces: serde_json::Map<String, Value> = formed
        .iter()
        .map(|(conv, all)| (conv.clone(), Value::Array(all.clone())))
        .collect();
    let mut out = Vec::new();
    for q in questions {
        let mut modes = serde_json::Map::new();
        for mode in ["memories", "hybrid"] {
            let v: Value = client
                .post(format!("{}/v4/search", srv.base))
                .header("authorization", auth)
                .json(
                    &json!({"q": q.text, "containerTag": q.conversation, "limit": 50,
                              "threshold": 0, "searchMode": mode, "include": {"documents": true}}),
                )
                .send()
                .await?
                .json()
                .await?;
            let results: Vec<Value> = v["results"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    json!({"id": r["id"], "memory": r["memory"], "chunk": r["chunk"],
                           "similarity": r["similarity"], "turns": turns_of_result(r, sessions)})
                })
                .collect();
            modes.insert(mode.to_string(), json!(results));
        }
        out.push(
            json!({"q": q.text, "conversation": q.conversation, "category": q.category,
                        "gold": q.gold, "results": modes}),
        );
    }
    std::fs::write(
        path,
        serde_json::to_vec(&json!({"spaces": spaces, "questions": out}))?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_dates_become_days() {
        assert_eq!(iso_day("1:56 pm on 8 May, 2023"), "2023-05-08");
        assert_eq!(iso_day("2023-05-08"), "2023-05-08");
    }
}
