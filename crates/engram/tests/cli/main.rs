//! The `engram` binary as a user runs it, one module per area: the client
//! commands, connections, crashes (`kill -9` mid-ingest and mid-sync, the
//! PostgreSQL server restarted under load), the documented examples; here,
//! the helpers they share, local key management and graceful shutdown.
//! Uses the real embedding model.

mod commands;
mod connections;
mod console;
mod crash;
mod docs;
mod documents;
mod examples;
mod fuzz;
mod load;
mod pg_restart;
mod secrets;

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

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new, empty PostgreSQL database on the server `ENGRAM_TEST_DATABASE_URL`
/// names (`scripts/test.sh` starts one), for a run on PostgreSQL; none (and
/// the run is skipped, said on stderr) when the variable is unset.
fn fresh_postgres() -> Option<String> {
    let Ok(server) = std::env::var("ENGRAM_TEST_DATABASE_URL") else {
        eprintln!("ENGRAM_TEST_DATABASE_URL is unset: the PostgreSQL run is skipped");
        return None;
    };
    let url = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engram_store_postgres::PgStore::create_database(&server))
        .expect("a fresh database");
    Some(url)
}

/// The API key the first run saved in `cfg`'s `credentials.json`.
fn saved_key(cfg: &Path) -> String {
    let creds: Value =
        serde_json::from_str(&std::fs::read_to_string(cfg.join("credentials.json")).unwrap())
            .unwrap();
    creds["apiKey"].as_str().unwrap().to_string()
}

fn start(data: &Path, cfg: &Path, port: u16) -> Server {
    start_with(data, cfg, port, &[])
}

fn start_with(data: &Path, cfg: &Path, port: u16, env: &[(&str, &str)]) -> Server {
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
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(out)
        .spawn()
        .unwrap();
    let mut child = child;
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the server exited ({status}): {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
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
    /// A request with a raw text body and no key; its status and body.
    pub fn call_raw(method: &str, url: &str, body: &str) -> (u16, String) {
        rt().block_on(async {
            let r = ::reqwest::Client::new()
                .request(method.parse().unwrap(), url)
                .body(body.to_string())
                .send()
                .await
                .unwrap();
            let s = r.status().as_u16();
            (s, r.text().await.unwrap_or_default())
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
    /// A keyed JSON POST: its status, whether it carried `Retry-After`,
    /// and its body.
    pub fn call_with_retry_after(url: &str, key: &str, body: Value) -> (u16, bool, Value) {
        rt().block_on(async {
            let r = ::reqwest::Client::new()
                .post(url)
                .bearer_auth(key)
                .json(&body)
                .send()
                .await
                .unwrap();
            let s = r.status().as_u16();
            let retry = r.headers().contains_key("retry-after");
            let t = r.text().await.unwrap();
            (s, retry, serde_json::from_str(&t).unwrap_or(Value::Null))
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
        serde_json::from_str(&run(&["admin", "keys", "create", "--name", "ci", "--json"])).unwrap();
    let (id, key, org) = (
        created["id"].as_str().unwrap(),
        created["key"].as_str().unwrap(),
        created["orgId"].as_str().unwrap(),
    );
    assert!(key.starts_with("em_") && key.contains(id));
    let other: Value = serde_json::from_str(&run(&[
        "admin", "keys", "create", "--name", "x", "--org", "acme", "--json",
    ]))
    .unwrap();
    assert_ne!(other["orgId"], org);
    let listed: Value = serde_json::from_str(&run(&["admin", "keys", "list", "--json"])).unwrap();
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
    run(&["admin", "keys", "revoke", id]);
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        key,
        Some(json!({})),
    );
    assert_eq!(s, 401, "{v}");
    let out = Command::new(BIN)
        .args(["admin", "keys", "revoke", id, "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(!out.status.success());
    terminate(srv);
}

/// Run a client command with `cfg` as the config dir (where first-run
/// credentials live) and `env`; its exit code, stdout and stderr.
fn client(cfg: &Path, env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("ENGRAM_CONFIG_DIR", cfg)
        .env_remove("ENGRAM_API_KEY")
        .env_remove("ENGRAM_URL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn help_describes_the_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let json = |args: &[&str]| -> (i32, Value) {
        let (code, out, _) = client(tmp.path(), &[], args);
        (code, serde_json::from_str(&out).unwrap_or(Value::Null))
    };
    let names = |v: &Value| -> Vec<String> {
        v["subcommands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let (code, all) = json(&["help", "--json"]);
    assert_eq!(code, 0);
    let client_cmds = names(&all);
    for c in [
        "whoami", "add", "search", "profile", "remember", "update", "forget", "tags", "config",
        "logs", "help",
    ] {
        assert!(client_cmds.iter().any(|n| n == c), "{c} in {client_cmds:?}");
    }
    assert!(!client_cmds.iter().any(|n| n == "serve"), "admin hidden");
    for s in all["subcommands"].as_array().unwrap() {
        assert!(s["about"].as_str().is_some_and(|a| !a.is_empty()), "{s}");
    }
    let (_, with_admin) = json(&["help", "--all", "--json"]);
    assert!(names(&with_admin).iter().any(|n| n == "serve"));
    let (code, merge) = json(&["help", "tags", "merge", "--json"]);
    assert_eq!(code, 0);
    let into = merge["args"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["long"] == "--into")
        .unwrap();
    assert_eq!(into["required"], true);
    assert_eq!(into["takesValue"], true);
    let (_, search) = json(&["help", "search", "--json"]);
    let mode = search["args"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["long"] == "--mode")
        .unwrap();
    assert_eq!(
        mode["possibleValues"],
        json!(["memories", "hybrid", "documents"])
    );
    let (code, err) = json(&["help", "nope", "--json"]);
    assert_eq!(code, 4);
    assert_eq!(err["error"], "not_found");
    let (code, text, _) = client(tmp.path(), &[], &["help"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("whoami") && text.contains("engram help --all"),
        "{text}"
    );
}
