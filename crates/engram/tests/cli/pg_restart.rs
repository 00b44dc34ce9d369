//! The PostgreSQL server itself restarted under load: a cluster of the
//! test's own (`scripts/postgres.sh`), an `engram serve` process on it, 8
//! clients writing, searching and asking for profiles, and the server shut
//! down immediately (every connection cut, crash recovery on start), down
//! for 12 seconds, then up again. A request waits for a connection for up
//! to 10 s (a short outage is only a slow answer), then is answered 503
//! with `Retry-After`. Every answer is a success or such a 503, and every
//! acknowledged document is processed, once.
//!
//! Runs when `ENGRAM_TEST_DATABASE_URL` is set (PostgreSQL is installed);
//! it starts and removes its own cluster, so the shared test server is not
//! disturbed.

use super::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The repository's `scripts/postgres.sh`.
fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/postgres.sh")
}

/// `scripts/postgres.sh` with its arguments; its standard output.
fn postgres_sh(args: &[&str]) -> String {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "postgres.sh {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A cluster of the test's own, stopped and removed when dropped.
struct Cluster(std::path::PathBuf);

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(&self.0)
            .output();
    }
}

#[test]
fn postgres_restarted_under_load_loses_nothing() {
    if std::env::var("ENGRAM_TEST_DATABASE_URL").is_err() {
        eprintln!("ENGRAM_TEST_DATABASE_URL is unset: the PostgreSQL run is skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cluster = Cluster(tmp.path().join("pg"));
    let dir = cluster.0.to_str().unwrap().to_string();
    let url = postgres_sh(&["start", &dir, &free_port().to_string()]);
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start_with(
        &data,
        &cfg,
        free_port(),
        &[("ENGRAM_DATABASE_URL", url.as_str())],
    );
    let key = saved_key(&cfg);

    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..8)
        .map(|c| {
            let (base, key, stop) = (srv.base.clone(), key.clone(), stop.clone());
            std::thread::spawn(move || {
                let (mut acked, mut codes) = (Vec::new(), std::collections::BTreeMap::new());
                let mut i = 0;
                while !stop.load(Ordering::SeqCst) {
                    i += 1;
                    std::thread::sleep(Duration::from_millis(50));
                    let (path, body) = match i % 6 {
                        0 => (
                            "v3/documents",
                            json!({"content": format!("Restart note {c}-{i} about the harbour."),
                                   "containerTag": "restart"}),
                        ),
                        1 | 3 => ("v3/search", json!({"q": "harbour"})),
                        2 | 4 => (
                            "v4/search",
                            json!({"q": "harbour", "containerTag": "restart"}),
                        ),
                        _ => ("v4/profile", json!({"containerTag": "restart"})),
                    };
                    let (status, retry, v) =
                        reqwest::call_with_retry_after(&format!("{base}/{path}"), &key, body);
                    assert!(
                        (200..300).contains(&status) || (status == 503 && retry),
                        "{path}: {status} {v}"
                    );
                    *codes.entry(status).or_insert(0) += 1;
                    if path == "v3/documents" && status == 200 {
                        acked.push(v["id"].as_str().unwrap().to_string());
                    }
                }
                (acked, codes)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    postgres_sh(&["restart", &dir, "12"]);
    std::thread::sleep(Duration::from_secs(3));
    stop.store(true, Ordering::SeqCst);
    let mut acked = Vec::new();
    let mut codes = std::collections::BTreeMap::new();
    for c in clients {
        let (a, k) = c.join().expect("no client saw an unexpected answer");
        acked.extend(a);
        for (code, n) in k {
            *codes.entry(code).or_insert(0) += n;
        }
    }
    eprintln!(
        "answers by status: {codes:?}; {} documents acknowledged",
        acked.len()
    );
    assert!(codes.contains_key(&503), "the outage was seen: {codes:?}");
    wait_idle(&srv.base, &key, Duration::from_secs(120));
    for id in &acked {
        let (s, d) = reqwest::call(
            "GET",
            &format!("{}/v3/documents/{id}", srv.base),
            &key,
            None,
        );
        assert_eq!(s, 200, "{d}");
        assert_eq!(d["status"], "done", "{d}");
    }
    let (_, l) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        &key,
        Some(json!({"limit": 1000, "containerTags": ["restart"]})),
    );
    assert_eq!(
        l["pagination"]["totalItems"].as_u64().unwrap() as usize,
        acked.len(),
        "no document lost or doubled"
    );
    terminate(srv);
}
