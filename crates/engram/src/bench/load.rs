//! `engram bench load`: many clients at once for a while, mixing writes,
//! `/v3/search`, `/v4/search`, `/v4/profile` and reads, against a complete
//! Engram (the local model, workers) on SQLite or PostgreSQL. Reports
//! throughput and p50/p95/p99 per route, 5xx answers and timeouts, checks
//! that every acknowledged document ends `done`, and, given several client
//! counts (`--clients 10,25,50,100`), where latency bends: the first count
//! whose p95 is twice the first count's.

use super::memory::fact;
use super::server::BenchServer;
use clap::Args;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct LoadArgs {
    /// Run on a new database of this PostgreSQL server (default: SQLite).
    #[arg(long)]
    database_url: Option<String>,
    /// Concurrent clients; several (comma separated) run one after another
    /// to find where latency bends.
    #[arg(long, default_value = "50", value_delimiter = ',')]
    clients: Vec<usize>,
    /// Seconds each run lasts.
    #[arg(long, default_value_t = 60)]
    secs: u64,
    /// A request not answered within this many seconds counts as a timeout.
    #[arg(long, default_value_t = 30)]
    timeout_secs: u64,
    /// Background workers.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
}

/// What one run saw, by route.
#[derive(Default)]
pub struct Seen {
    latencies: BTreeMap<&'static str, Vec<f64>>,
    server_errors: BTreeMap<&'static str, u64>,
    timeouts: BTreeMap<&'static str, u64>,
    other_errors: BTreeMap<&'static str, u64>,
    /// 4xx answers (a 429 would show here): counted, not failures.
    refused: BTreeMap<&'static str, u64>,
    written: Vec<String>,
}

impl Seen {
    /// The 5xx answers, timeouts, and failures to connect.
    pub fn failures(&self) -> u64 {
        self.server_errors.values().sum::<u64>()
            + self.timeouts.values().sum::<u64>()
            + self.other_errors.values().sum::<u64>()
    }

    fn p(sorted: &[f64], q: f64) -> f64 {
        if sorted.is_empty() {
            return 0.0;
        }
        sorted[((sorted.len() as f64 - 1.0) * q).round() as usize]
    }

    /// p95 over every route.
    pub fn p95(&self) -> f64 {
        let mut all: Vec<f64> = self.latencies.values().flatten().copied().collect();
        all.sort_by(f64::total_cmp);
        Self::p(&all, 0.95)
    }

    fn report(&self, clients: usize, secs: f64) {
        println!("{clients} clients for {secs:.0} s:");
        println!(
            "  {:<14} {:>7} {:>8} {:>8} {:>8} {:>8} {:>5} {:>5} {:>8}",
            "route", "count", "per s", "p50 ms", "p95 ms", "p99 ms", "4xx", "5xx", "timeout"
        );
        let mut total = 0;
        for (route, l) in &self.latencies {
            let mut l = l.clone();
            l.sort_by(f64::total_cmp);
            total += l.len();
            println!(
                "  {:<14} {:>7} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>5} {:>5} {:>8}",
                route,
                l.len(),
                l.len() as f64 / secs,
                Self::p(&l, 0.5),
                Self::p(&l, 0.95),
                Self::p(&l, 0.99),
                self.refused.get(route).unwrap_or(&0),
                self.server_errors.get(route).unwrap_or(&0),
                self.timeouts.get(route).unwrap_or(&0),
            );
        }
        println!(
            "  all            {total:>7} {:>8.1}   p95 {:.1} ms, other failures {}",
            total as f64 / secs,
            self.p95(),
            self.other_errors.values().sum::<u64>()
        );
    }
}

/// Run `clients` clients for `secs` against `srv`, each picking its next
/// request from the mix. Questions are asked of the facts written.
pub async fn run_clients(srv: &BenchServer, clients: usize, secs: u64, timeout: Duration) -> Seen {
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .pool_max_idle_per_host(clients)
        .build()
        .expect("an HTTP client");
    let seen = Arc::new(Mutex::new(Seen::default()));
    let until = Instant::now() + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for c in 0..clients {
        let (client, seen) = (client.clone(), seen.clone());
        let (base, key) = (srv.base.clone(), srv.key.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = c * 7919;
            let mut last_doc: Option<String> = None;
            while Instant::now() < until {
                n += 1;
                let tag = format!("load_{}", n % 8);
                let question = format!("what did {} buy?", ["Ana", "Ben", "Chloe", "Dev"][n % 4]);
                let (route, method, path, body): (&'static str, &str, String, Option<Value>) =
                    match n % 20 {
                        0..=2 => (
                            "add",
                            "POST",
                            "/v3/documents".into(),
                            Some(json!({"content": fact(n), "containerTag": tag})),
                        ),
                        3..=7 => (
                            "v3/search",
                            "POST",
                            "/v3/search".into(),
                            Some(json!({"q": question, "containerTags": [tag]})),
                        ),
                        8..=12 => (
                            "v4/search",
                            "POST",
                            "/v4/search".into(),
                            Some(
                                json!({"q": question, "containerTag": tag, "searchMode": "hybrid"}),
                            ),
                        ),
                        13..=15 => (
                            "v4/profile",
                            "POST",
                            "/v4/profile".into(),
                            Some(json!({"containerTag": tag, "q": question})),
                        ),
                        16..=17 => match &last_doc {
                            Some(id) => ("get", "GET", format!("/v3/documents/{id}"), None),
                            None => (
                                "list",
                                "POST",
                                "/v3/documents/list".into(),
                                Some(json!({"limit": 10})),
                            ),
                        },
                        _ => (
                            "list",
                            "POST",
                            "/v3/documents/list".into(),
                            Some(json!({"containerTags": [tag], "limit": 10})),
                        ),
                    };
                let mut req = client
                    .request(method.parse().unwrap(), format!("{base}{path}"))
                    .bearer_auth(&key);
                if let Some(b) = &body {
                    req = req.json(b);
                }
                let started = Instant::now();
                let got = req.send().await;
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                // the new document's id, read before the tally is locked
                let (status, id) = match got {
                    Ok(r) => {
                        let status = r.status();
                        let id = if route == "add" && status.is_success() {
                            r.json::<Value>()
                                .await
                                .ok()
                                .and_then(|v| v["id"].as_str().map(str::to_string))
                        } else {
                            None
                        };
                        (Ok(status), id)
                    }
                    Err(e) => (Err(e.is_timeout()), None),
                };
                let mut s = seen.lock().unwrap();
                match status {
                    Ok(st) if st.is_server_error() => {
                        *s.server_errors.entry(route).or_default() += 1
                    }
                    Ok(st) => {
                        s.latencies.entry(route).or_default().push(ms);
                        if st.is_client_error() {
                            *s.refused.entry(route).or_default() += 1;
                        }
                    }
                    Err(true) => *s.timeouts.entry(route).or_default() += 1,
                    Err(false) => *s.other_errors.entry(route).or_default() += 1,
                }
                if let Some(id) = id {
                    s.written.push(id.clone());
                    last_doc = Some(id);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    Arc::try_unwrap(seen)
        .ok()
        .expect("every client has finished")
        .into_inner()
        .unwrap()
}

/// Every acknowledged document reached `done`: the count that did not.
pub async fn not_done(srv: &BenchServer, written: &[String]) -> anyhow::Result<usize> {
    let client = reqwest::Client::new();
    srv.wait_processed(&client).await?;
    let mut missing = 0;
    for id in written {
        let v: Value = client
            .get(format!("{}/v3/documents/{id}", srv.base))
            .bearer_auth(&srv.key)
            .send()
            .await?
            .json()
            .await?;
        if v["status"] != "done" {
            missing += 1;
        }
    }
    Ok(missing)
}

pub async fn run(args: LoadArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir.clone()).await?;
    let srv = BenchServer::start(
        found.dir(),
        args.workers,
        args.database_url.as_deref(),
        Default::default(),
    )
    .await?;
    let backend = if args.database_url.is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    println!("engram bench load on {backend}, {} workers", args.workers);
    // something to find from the first request on
    let client = reqwest::Client::new();
    for i in 0..64 {
        let body = json!({"content": fact(i), "containerTag": format!("load_{}", i % 8)});
        srv.post(&client, "/v3/documents", &body)
            .send()
            .await?
            .error_for_status()?;
    }
    srv.wait_processed(&client).await?;
    let timeout = Duration::from_secs(args.timeout_secs);
    let mut first_p95 = None;
    let mut bend = None;
    for &clients in &args.clients {
        let started = Instant::now();
        let seen = run_clients(&srv, clients, args.secs, timeout).await;
        seen.report(clients, started.elapsed().as_secs_f64());
        let missing = not_done(&srv, &seen.written).await?;
        println!(
            "  {} documents acknowledged, {missing} not done afterwards; {} 5xx or timeouts",
            seen.written.len(),
            seen.failures()
        );
        let p95 = seen.p95();
        let base = *first_p95.get_or_insert(p95);
        if bend.is_none() && p95 >= 2.0 * base && clients != args.clients[0] {
            bend = Some(clients);
        }
        anyhow::ensure!(
            missing == 0 && seen.failures() == 0,
            "the bar is 0 lost, 0 5xx, 0 timeouts"
        );
    }
    if args.clients.len() > 1 {
        match bend {
            Some(c) => println!(
                "latency bends at {c} clients (p95 twice that of {})",
                args.clients[0]
            ),
            None => println!("p95 never doubled over {:?} clients", args.clients),
        }
    }
    Ok(())
}
