//! Crashes: `kill -9` in the middle of ingest, of memory formation and of
//! a connection's sync, and right after a tag merge is accepted, each on
//! SQLite and on PostgreSQL; after a restart nothing acknowledged is lost
//! or doubled and the work finishes by itself.

use super::*;

#[test]
fn kill_nine_mid_ingest_then_restart() {
    kill_nine_mid_ingest(&[]);
}

#[test]
fn kill_nine_mid_ingest_then_restart_on_postgres() {
    let Some(url) = fresh_postgres() else {
        return;
    };
    kill_nine_mid_ingest(&[("ENGRAM_DATABASE_URL", url.as_str())]);
}

/// Ingest killed half-way and restarted, on the store `env` names.
fn kill_nine_mid_ingest(env: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let cfg = tmp.path().join("cfg");
    let port = free_port();
    let mut srv = start_with(&data, &cfg, port, env);

    // first run: credentials written with mode 0600, key printed once
    let creds_path = cfg.join("credentials.json");
    let creds: Value =
        serde_json::from_str(&std::fs::read_to_string(&creds_path).unwrap()).unwrap();
    let key = creds["apiKey"].as_str().unwrap().to_string();
    assert_eq!(creds["baseUrl"], srv.base.as_str());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&creds_path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let log = std::fs::read_to_string(&srv.log).unwrap();
    assert_eq!(
        log.matches(&key).count(),
        1,
        "the key is printed exactly once"
    );

    // 40 in CI; `ENGRAM_CRASH_DOCS=1000` for the long variant
    let n: usize = std::env::var("ENGRAM_CRASH_DOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for i in 0..n {
        let (s, v) = reqwest::call(
            "POST",
            &format!("{}/v3/documents", srv.base),
            &key,
            Some(json!({"content": text(i), "customId": format!("doc-{i}")})),
        );
        assert_eq!(s, 200, "{v}");
    }
    // wait until some documents are done and some are not, then SIGKILL
    let deadline = Instant::now() + Duration::from_secs(120 + n as u64);
    loop {
        let (_, v) = reqwest::call(
            "GET",
            &format!("{}/v3/documents/processing", srv.base),
            &key,
            None,
        );
        let left = v["totalCount"].as_u64().unwrap();
        if left < n as u64 && left > 5 {
            break;
        }
        assert!(
            Instant::now() < deadline && left > 0,
            "could not catch the pipeline mid-way ({left} left)"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    srv.child.kill().unwrap(); // SIGKILL
    srv.child.wait().unwrap();

    let srv = start_with(&data, &cfg, port, env);
    let log2 = std::fs::read_to_string(&srv.log).unwrap();
    assert!(
        !log2.contains("First run"),
        "second start is not a first run"
    );
    wait_idle(&srv.base, &key, Duration::from_secs(180 + n as u64));
    let mut counts = Vec::new();
    for i in 0..n {
        let (s, d) = reqwest::call(
            "GET",
            &format!("{}/v3/documents/doc-{i}", srv.base),
            &key,
            None,
        );
        assert_eq!(s, 200);
        assert_eq!(d["status"], "done", "{d}");
        let (_, c) = reqwest::call(
            "GET",
            &format!("{}/v3/documents/doc-{i}/chunks", srv.base),
            &key,
            None,
        );
        let pos: Vec<u64> = c["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["position"].as_u64().unwrap())
            .collect();
        assert_eq!(
            pos,
            (0..pos.len() as u64).collect::<Vec<_>>(),
            "doc-{i}: positions {pos:?}"
        );
        assert_eq!(d["chunkCount"], pos.len() as u64);
        counts.push(pos.len());
    }
    // the same content processed from scratch gives the same number of chunks
    let (_, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents", srv.base),
        &key,
        Some(json!({"content": text(0), "customId": "control"})),
    );
    assert_eq!(v["status"], "queued");
    wait_idle(&srv.base, &key, Duration::from_secs(60));
    let (_, c) = reqwest::call(
        "GET",
        &format!("{}/v3/documents/control/chunks", srv.base),
        &key,
        None,
    );
    assert_eq!(c["total"].as_u64().unwrap() as usize, counts[0]);
    let (_, l) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        &key,
        Some(json!({"limit": 100})),
    );
    assert_eq!(
        l["pagination"]["totalItems"],
        n as u64 + 1,
        "no document lost or duplicated"
    );
    terminate(srv);
}

/// A moto S3 server (from PyPI; `scripts/test.sh` installs it), killed
/// when dropped.
struct Moto(Child, String);

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn moto() -> Moto {
    let port = free_port();
    let python = std::env::var("ENGRAM_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let child = Command::new(&python)
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{python} -m moto.server: {e} (scripts/test.sh installs moto)"));
    let m = Moto(child, format!("http://127.0.0.1:{port}"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while reqwest::blocking_get(&format!("{}/moto-api/", m.1)).is_err() {
        assert!(Instant::now() < deadline, "moto did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    m
}

/// PUT without a signature (moto does not check them).
fn s3_put(url: &str, body: &str) {
    let (s, _) = reqwest::call_raw("PUT", url, body);
    assert!((200..300).contains(&s), "PUT {url}: {s}");
}

/// The titles of the connection's documents.
fn synced(base: &str, key: &str) -> Vec<String> {
    let (s, v) = reqwest::call(
        "POST",
        &format!("{base}/v3/connections/s3/documents"),
        key,
        Some(json!({"containerTags": ["crash"]})),
    );
    assert_eq!(s, 200, "{v}");
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn kill_nine_mid_sync_then_restart() {
    kill_nine_mid_sync(None);
}

#[test]
fn kill_nine_mid_sync_then_restart_on_postgres() {
    if let Some(url) = fresh_postgres() {
        kill_nine_mid_sync(Some(&url));
    }
}

/// A sync killed half-way and restarted, on SQLite or the PostgreSQL
/// database `url` names.
fn kill_nine_mid_sync(url: Option<&str>) {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let s3 = moto();
    s3_put(&format!("{}/crash-bucket", s3.1), "");
    let n = 600;
    for i in 0..n {
        s3_put(
            &format!("{}/crash-bucket/notes/{i:04}.txt", s3.1),
            &format!("Note {i}: the tide came in at {} past six.", i % 60),
        );
    }
    let mut env = vec![("ENGRAM_FETCH_ALLOW_PRIVATE", "true")];
    env.extend(url.map(|u| ("ENGRAM_DATABASE_URL", u)));
    let port = free_port();
    let mut srv = start_with(&data, &cfg, port, &env);
    let key = saved_key(&cfg);
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/connections/s3", srv.base),
        &key,
        Some(json!({"containerTag": "crash", "metadata": {
            "endpoint": s3.1, "region": "us-east-1", "bucket": "crash-bucket",
            "accessKeyId": "AKIATEST", "secretAccessKey": "shh"}})),
    );
    assert_eq!(s, 200, "{v}");
    let id = v["id"].as_str().unwrap().to_string();

    // SIGKILL once the sync is well under way but not done
    let deadline = Instant::now() + Duration::from_secs(120);
    let before = loop {
        let got = synced(&srv.base, &key).len();
        if got >= 30 && got < n {
            break got;
        }
        assert!(
            Instant::now() < deadline && got < n,
            "could not catch the sync mid-way ({got} of {n})"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    srv.child.kill().unwrap();
    srv.child.wait().unwrap();

    // the restarted server takes the sync over when the dead one's lease
    // lapses, and finishes it: every object once
    let srv = start_with(&data, &cfg, port, &env);
    let deadline = Instant::now() + Duration::from_secs(180);
    let c = loop {
        let (s, c) = reqwest::call(
            "GET",
            &format!("{}/v3/connections/{id}", srv.base),
            &key,
            None,
        );
        assert_eq!(s, 200, "{c}");
        if c["lastSyncRun"]["status"] == "completed" {
            break c;
        }
        assert!(Instant::now() < deadline, "the sync was not resumed: {c}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(c["lastSyncRun"]["errorCode"], Value::Null, "{c}");
    let ids = synced(&srv.base, &key);
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        (ids.len(), distinct.len()),
        (n, n),
        "{before} documents before the crash; every object exactly once after"
    );
    let log = std::fs::read_to_string(&srv.log).unwrap();
    assert!(!log.contains('\u{1b}'), "no colour codes in a log file");
    let written: usize = log
        .lines()
        .filter(|l| l.contains("sync done"))
        .filter_map(|l| l.split("written=").nth(1))
        .filter_map(|w| w.split_whitespace().next()?.parse::<usize>().ok())
        .sum();
    assert!(
        written > 0 && written <= n - before + 25,
        "resumed from its checkpoint: {written} written after the restart, {before} before"
    );
}

/// `kill -9` right after a tag merge is accepted: after a restart the
/// merge finishes by itself, exactly once: every document and memory of
/// the sources is in the target, none is left behind or doubled.
#[test]
fn kill_nine_mid_merge_then_restart() {
    kill_nine_mid_merge(&[]);
}

#[test]
fn kill_nine_mid_merge_then_restart_on_postgres() {
    if let Some(url) = fresh_postgres() {
        kill_nine_mid_merge(&[("ENGRAM_DATABASE_URL", url.as_str())]);
    }
}

/// A tag merge killed right after it is accepted, on the store `env` names.
fn kill_nine_mid_merge(env: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let port = free_port();
    let mut srv = start_with(&data, &cfg, port, env);
    let key = saved_key(&cfg);
    let url = |base: &str, p: &str| format!("{base}{p}");
    for (tag, n) in [("src_a", 80), ("src_b", 40)] {
        let docs: Vec<Value> = (0..n)
            .map(|i| json!({"content": format!("Ada planted {i} tulips by the {tag} wall.")}))
            .collect();
        let (s, v) = reqwest::call(
            "POST",
            &url(&srv.base, "/v3/documents/batch"),
            &key,
            Some(json!({"documents": docs, "containerTag": tag})),
        );
        assert_eq!(s, 200, "{v}");
    }
    wait_idle(&srv.base, &key, Duration::from_secs(180));
    let count = |base: &str, tag: &str| -> (u64, u64) {
        let (_, d) = reqwest::call(
            "POST",
            &url(base, "/v3/documents/list"),
            &key,
            Some(json!({"containerTags": [tag], "limit": 1})),
        );
        let (_, m) = reqwest::call(
            "POST",
            &url(base, "/v4/memories/list"),
            &key,
            Some(json!({"containerTag": tag, "limit": 1})),
        );
        (
            d["pagination"]["totalItems"].as_u64().unwrap_or(0),
            m["pagination"]["totalItems"].as_u64().unwrap_or(0),
        )
    };
    let (a, b) = (count(&srv.base, "src_a"), count(&srv.base, "src_b"));
    assert_eq!((a.0, b.0), (80, 40));
    let (s, q) = reqwest::call(
        "POST",
        &url(&srv.base, "/v3/container-tags/merge"),
        &key,
        Some(json!({"containerTags": ["src_a", "src_b"], "targetContainerTag": "dest"})),
    );
    assert_eq!(s, 202, "{q}");
    srv.child.kill().unwrap(); // SIGKILL, at once
    srv.child.wait().unwrap();

    let srv = start_with(&data, &cfg, port, env);
    let merge = q["mergeId"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, st) = reqwest::call(
            "GET",
            &url(&srv.base, &format!("/v3/container-tags/merge/{merge}")),
            &key,
            None,
        );
        if st["status"] == "done" {
            break;
        }
        assert!(
            Instant::now() < deadline && st["status"] != "failed",
            "{st}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    wait_idle(&srv.base, &key, Duration::from_secs(60));
    assert_eq!(
        count(&srv.base, "dest"),
        (a.0 + b.0, a.1 + b.1),
        "all moved, once"
    );
    assert_eq!(count(&srv.base, "src_a"), (0, 0));
    assert_eq!(count(&srv.base, "src_b"), (0, 0));
    terminate(srv);
}

/// `kill -9` while memories form: the documents are processed and their
/// memory formation (one group: documents due together form together) is
/// under way. After a restart every document dreams, once: no memory is
/// formed twice, none is lost.
#[test]
fn kill_nine_mid_memory_formation_then_restart() {
    kill_nine_mid_memory_formation(None);
}

#[test]
fn kill_nine_mid_memory_formation_then_restart_on_postgres() {
    if let Some(url) = fresh_postgres() {
        kill_nine_mid_memory_formation(Some(&url));
    }
}

/// Memory formation killed half-way and restarted, on SQLite or the
/// PostgreSQL database `url` names.
fn kill_nine_mid_memory_formation(url: Option<&str>) {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let port = free_port();
    let mut delay = vec![("ENGRAM_DREAM_DELAY_MS", "200")];
    delay.extend(url.map(|u| ("ENGRAM_DATABASE_URL", u)));
    let mut srv = start_with(&data, &cfg, port, &delay);
    let key = saved_key(&cfg);
    let n = 60;
    let cities = ["Lisbon", "Oslo", "Leeds", "Porto", "Bergen", "Turin"];
    let docs: Vec<Value> = (0..n)
        .map(|i| {
            json!({"content": format!("Keeper {i} looks after {} beehives in {}.", i + 2, cities[i % cities.len()]),
                   "customId": format!("bees-{i}")})
        })
        .collect();
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/batch", srv.base),
        &key,
        Some(json!({"documents": docs, "containerTag": "bees"})),
    );
    assert_eq!(s, 200, "{v}");
    let dreamt = |base: &str| -> usize {
        (0..n)
            .filter(|i| {
                let (_, d) =
                    reqwest::call("GET", &format!("{base}/v3/documents/bees-{i}"), &key, None);
                d["dreamingStatus"] == "done"
            })
            .count()
    };
    let memories = |base: &str| -> Vec<String> {
        let (_, m) = reqwest::call(
            "POST",
            &format!("{base}/v4/memories/list"),
            &key,
            Some(json!({"containerTag": "bees", "limit": 1000})),
        );
        m["memoryEntries"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["memory"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    wait_idle(&srv.base, &key, Duration::from_secs(180));
    // processed; formation starts 200 ms after the last one
    std::thread::sleep(Duration::from_millis(350));
    let before = (dreamt(&srv.base), memories(&srv.base).len());
    srv.child.kill().unwrap(); // SIGKILL
    srv.child.wait().unwrap();
    eprintln!(
        "killed with {} of {n} documents dreamt and {} memories",
        before.0, before.1
    );
    assert!(before.0 < n, "memory formation had already finished");

    let srv = start_with(&data, &cfg, port, &delay);
    let deadline = Instant::now() + Duration::from_secs(180);
    while dreamt(&srv.base) < n {
        assert!(Instant::now() < deadline, "memory formation did not finish");
        std::thread::sleep(Duration::from_millis(200));
    }
    let memories = memories(&srv.base);
    let distinct: std::collections::HashSet<&String> = memories.iter().collect();
    assert_eq!(
        distinct.len(),
        memories.len(),
        "a memory formed twice: {memories:?}"
    );
    for i in 0..n {
        let hive = format!("{} beehives", i + 2);
        assert!(
            memories.iter().any(|m| m.contains(&hive)),
            "keeper {i}'s memory is missing: {memories:?}"
        );
    }
    terminate(srv);
}
