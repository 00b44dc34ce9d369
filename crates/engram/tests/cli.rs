//! The `engram` binary as a user runs it: first-run credentials, key
//! management, a `kill -9` in the middle of ingest, and graceful shutdown.
//! Uses the real embedding model.

use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_engram");

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Server {
    child: Child,
    base: String,
    log: std::path::PathBuf,
}

fn start(data: &Path, cfg: &Path, port: u16) -> Server {
    let log = data.with_extension(format!(
        "log-{}",
        Instant::now().elapsed().as_nanos() + port as u128 * 1000 + rand_suffix()
    ));
    let out = std::fs::File::create(&log).unwrap();
    let child = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--job-lease-secs",
            "2",
        ])
        .arg("--data-dir")
        .arg(data)
        .env("ENGRAM_CONFIG_DIR", cfg)
        .env("ENGRAM_LOG", "info")
        .env_remove("ENGRAM_LISTEN")
        .stdout(Stdio::null())
        .stderr(out)
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(r) = reqwest::blocking_get(&format!("{base}/health")) {
            if r {
                break;
            }
        }
        assert!(
            Instant::now() < deadline,
            "server did not start: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Server { child, base, log }
}

fn rand_suffix() -> u128 {
    std::process::id() as u128
}

/// A tiny blocking HTTP helper over reqwest's async client.
mod reqwest {
    use super::*;
    pub fn rt() -> &'static tokio::runtime::Runtime {
        static RT: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
        RT.get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap()
        })
    }
    pub fn blocking_get(url: &str) -> Result<bool, ()> {
        rt().block_on(async {
            ::reqwest::get(url)
                .await
                .map(|r| r.status().is_success())
                .map_err(|_| ())
        })
    }
    pub fn call(method: &str, url: &str, key: &str, body: Option<Value>) -> (u16, Value) {
        rt().block_on(async {
            let c = ::reqwest::Client::new();
            let mut req = c.request(method.parse().unwrap(), url).bearer_auth(key);
            if let Some(b) = body {
                req = req.json(&b);
            }
            let r = req.send().await.unwrap();
            let s = r.status().as_u16();
            let t = r.text().await.unwrap();
            (s, serde_json::from_str(&t).unwrap_or(Value::Null))
        })
    }
}

fn text(i: usize) -> String {
    (0..3)
        .map(|p| {
            format!(
                "Entry {i}, part {p}. The team reviewed the garden project budget and planned the next visit to the museum. \
                 Everyone agreed the weather would be fine for a long walk by the river after lunch. Notes were shared \
                 with friends who could not attend, including the recipe for the soup and directions to the station. \
                 A follow-up meeting was scheduled for the morning after the concert, with coffee and questions."
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn wait_idle(base: &str, key: &str, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let (s, v) = reqwest::call("GET", &format!("{base}/v3/documents/processing"), key, None);
        assert_eq!(s, 200, "{v}");
        if v["totalCount"] == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "still processing: {v}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn kill_nine_mid_ingest_then_restart() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let cfg = tmp.path().join("cfg");
    let port = free_port();
    let mut srv = start(&data, &cfg, port);

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

    let n = 40;
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
    let deadline = Instant::now() + Duration::from_secs(120);
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

    let srv = start(&data, &cfg, port);
    let log2 = std::fs::read_to_string(&srv.log).unwrap();
    assert!(
        !log2.contains("First run"),
        "second start is not a first run"
    );
    wait_idle(&srv.base, &key, Duration::from_secs(180));
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

fn terminate(mut srv: Server) {
    let pid = srv.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = srv.child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(Instant::now() < deadline, "did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = std::fs::read_to_string(&srv.log).unwrap();
    assert!(log.contains("shut down cleanly"), "{log}");
}

#[test]
fn keys_are_managed_locally() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .arg("--data-dir")
            .arg(&data)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let created: Value =
        serde_json::from_str(&run(&["keys", "create", "--name", "ci", "--json"])).unwrap();
    let (id, key, org) = (
        created["id"].as_str().unwrap(),
        created["key"].as_str().unwrap(),
        created["orgId"].as_str().unwrap(),
    );
    assert!(key.starts_with("em_") && key.contains(id));
    let other: Value = serde_json::from_str(&run(&[
        "keys", "create", "--name", "x", "--org", "acme", "--json",
    ]))
    .unwrap();
    assert_ne!(other["orgId"], org);
    let listed: Value = serde_json::from_str(&run(&["keys", "list", "--json"])).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert!(
        !listed.to_string().contains(key),
        "list never shows secrets"
    );

    // the key works against a server on that data dir, and stops working once revoked
    let cfg = tmp.path().join("cfg");
    let srv = start(&data, &cfg, free_port());
    assert!(
        !cfg.join("credentials.json").exists(),
        "not a first run: keys already exist"
    );
    let (s, _) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        key,
        Some(json!({})),
    );
    assert_eq!(s, 200);
    run(&["keys", "revoke", id]);
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        key,
        Some(json!({})),
    );
    assert_eq!(s, 401, "{v}");
    let out = Command::new(BIN)
        .args(["keys", "revoke", id, "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(!out.status.success());
    terminate(srv);
}
