//! The `engram` binary as a user runs it: first-run credentials, key
//! management, a `kill -9` in the middle of ingest, and graceful shutdown.
//! Uses the real embedding model.

mod connections;
mod docs;
mod documents;
mod examples;

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
fn client_commands_speak_to_a_running_server() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start(&data, &cfg, free_port());
    let json = |out: &str| -> Value { serde_json::from_str(out).unwrap_or(Value::Null) };

    // the first run's credentials are enough
    let (code, out, err) = client(&cfg, &[], &["whoami", "--json"]);
    assert_eq!(code, 0, "{err}");
    let me = json(&out);
    assert_eq!(me["org"]["name"], "default");
    assert_eq!(me["scope"]["type"], "full");
    assert_eq!(me["baseUrl"], srv.base.as_str());
    let (code, out, _) = client(&cfg, &[], &["whoami"]);
    assert_eq!(code, 0);
    assert!(out.contains("organisation: default"), "{out}");

    // setup: the check, and the prompt for a coding agent
    let (code, out, err) = client(&cfg, &[], &["setup", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["ready"], true);
    let (code, out, _) = client(&cfg, &[], &["setup", "--prompt"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(&srv.base) && out.contains("ENGRAM_API_KEY"),
        "{out}"
    );
    let (code, out, _) = client(&tmp.path().join("nobody"), &[], &["setup", "--json"]);
    assert_eq!(code, 2, "{out}");

    // add, wait for the memories, search, profile
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "add",
            "Ana keeps bees on the roof of her building in Lisbon.",
            "--tag",
            "ana",
            "--metadata",
            r#"{"source": "cli"}"#,
            "--wait",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    assert_eq!(doc["status"], "done", "{out}");
    assert_eq!(doc["metadata"]["source"], "cli");
    let file = tmp.path().join("note.md");
    std::fs::write(&file, "# Ben\n\nBen plays the cello every Sunday.").unwrap();
    let (code, out, err) = client(&cfg, &[], &["add", file.to_str().unwrap(), "--tag", "ben"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("added "), "{out}");
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "search",
            "Where does Ana keep bees?",
            "--tag",
            "ana",
            "--threshold",
            "0.2",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let found = json(&out);
    assert!(
        found["results"][0]["memory"]
            .as_str()
            .is_some_and(|m| m.contains("bees")),
        "{out}"
    );
    let (code, out, _) = client(
        &cfg,
        &[],
        &[
            "search",
            "bees on the roof",
            "--tag",
            "ana",
            "--mode",
            "hybrid",
            "--threshold",
            "0",
        ],
    );
    assert_eq!(code, 0);
    assert!(out.starts_with(" 1. ["), "{out}");
    let (code, out, err) = client(&cfg, &[], &["profile", "--tag", "ana", "--query", "roof"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("static:") && out.contains("bees"), "{out}");

    // failures: exit codes and JSON errors
    let nobody = tmp.path().join("nobody");
    let (code, out, _) = client(&nobody, &[], &["whoami", "--json"]);
    assert_eq!(code, 2);
    assert_eq!(json(&out)["error"], "auth_required");
    assert!(json(&out)["hint"]
        .as_str()
        .unwrap()
        .contains("ENGRAM_API_KEY"));
    let (code, _, err) = client(&cfg, &[("ENGRAM_API_KEY", "em_wrong")], &["whoami"]);
    assert_eq!(code, 2);
    assert!(err.contains("error: "), "{err}");
    let key = json(&std::fs::read_to_string(cfg.join("credentials.json")).unwrap())["apiKey"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, scoped) = reqwest::call(
        "POST",
        &format!("{}/v3/auth/scoped-key", srv.base),
        &key,
        Some(json!({"containerTag": "ana"})),
    );
    assert_eq!(s, 201, "{scoped}");
    let scoped_key = scoped["key"].as_str().unwrap();
    let (code, out, _) = client(
        &nobody,
        &[("ENGRAM_API_KEY", scoped_key), ("ENGRAM_URL", &srv.base)],
        &["search", "cello", "--tag", "ben", "--json"],
    );
    assert_eq!(code, 3, "{out}");
    assert_eq!(json(&out)["error"], "permission_denied");
    let (code, out, _) = client(
        &cfg,
        &[],
        &["whoami", "--json", "--url", &format!("{}/prefix", srv.base)],
    );
    assert_eq!(code, 4, "{out}");
    assert_eq!(json(&out)["error"], "not_found");
    let (code, _, err) = client(&cfg, &[], &["search", "x", "--filter", "{not json"]);
    assert_eq!(code, 1);
    assert!(err.contains("--filter"), "{err}");
    let (code, out, _) = client(
        &cfg,
        &[("ENGRAM_URL", "http://127.0.0.1:9")],
        &["whoami", "--json"],
    );
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "unreachable");

    let run = |args: &[&str]| {
        let (code, out, err) = client(&cfg, &[], args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };

    // many documents: a folder, and a JSON array
    let folder = tmp.path().join("notes");
    std::fs::create_dir_all(folder.join("2026")).unwrap();
    std::fs::write(folder.join("a.md"), "Dora rides a red bicycle to work.").unwrap();
    std::fs::write(folder.join("2026/b.txt"), "Dora moved to Porto in March.").unwrap();
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "add",
            "--batch",
            folder.to_str().unwrap(),
            "--tag",
            "dora",
            "--wait",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out} {err}");
    assert_eq!(json(&out)["added"], 2, "{out}");
    assert!(err.is_empty(), "no progress bars off a terminal: {err}");
    let batch = tmp.path().join("batch.json");
    std::fs::write(
        &batch,
        r#"["Dora likes figs", {"content": "Dora has a cat", "customId": "cat"}, {"content": ""}]"#,
    )
    .unwrap();
    let (code, out, _) = client(
        &cfg,
        &[],
        &[
            "add",
            "--batch",
            batch.to_str().unwrap(),
            "--tag",
            "dora",
            "--json",
        ],
    );
    assert_eq!(code, 1, "one item is empty: {out}");
    assert_eq!(json(&out)["error"], "partly_failed");
    assert_eq!(json(&out)["details"]["added"], 2, "{out}");
    let (_, dora) = reqwest::call(
        "POST",
        &format!("{}/v3/documents/list", srv.base),
        &key,
        Some(json!({"containerTags": ["dora"]})),
    );
    assert_eq!(dora["pagination"]["totalItems"], 4, "{dora}");

    // the client's own settings, in another config dir
    let own = tmp.path().join("own");
    let (code, out, _) = client(&own, &[], &["config", "set", "url", "ftp://x", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "invalid_value");
    let (code, out, _) = client(&own, &[], &["config", "set", "colour", "red", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "unknown_setting");
    let (code, _, err) = client(&own, &[], &["config", "set", "url", &srv.base]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = client(&own, &[], &["config", "set", "api-key", &key]);
    assert_eq!(code, 0, "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(own.join("cli.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let (code, out, _) = client(&own, &[], &["config", "get", "--json"]);
    assert_eq!(code, 0);
    let shown = json(&out);
    assert_eq!(shown["url"], srv.base.as_str());
    assert!(!out.contains(&key) && shown["apiKey"].as_str().unwrap().starts_with("em_…"));
    let (code, out, err) = client(&own, &[], &["whoami", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["org"]["name"], "default");
    let (code, _, _) = client(&own, &[], &["config", "unset", "api-key"]);
    assert_eq!(code, 0);
    let (code, _, _) = client(&own, &[], &["whoami"]);
    assert_eq!(code, 2, "no key any more");

    // memories, directly
    let made = json(&run(&[
        "remember",
        "Carla is allergic to peanuts",
        "--tag",
        "carla",
        "--static",
        "--json",
    ]));
    let id = made["memories"][0]["id"].as_str().unwrap().to_string();
    let v2 = json(&run(&[
        "update",
        &id,
        "Carla is allergic to peanuts and cashews",
        "--tag",
        "carla",
        "--json",
    ]));
    assert_eq!(v2["version"], 2, "{v2}");
    let out = run(&["profile", "--tag", "carla"]);
    assert!(out.contains("cashews"), "{out}");
    let new_id = v2["id"].as_str().unwrap();
    let out = run(&[
        "forget", "--id", new_id, "--tag", "carla", "--reason", "test",
    ]);
    assert!(out.starts_with("forgot "), "{out}");
    let out = run(&["profile", "--tag", "carla"]);
    assert!(!out.contains("cashews"), "{out}");
    let (code, out, _) = client(
        &cfg,
        &[],
        &["forget", "no such fact", "--tag", "carla", "--json"],
    );
    assert_eq!(code, 4, "{out}");

    // container tags
    run(&["tags", "create", "team", "--name", "The team"]);
    let out = run(&[
        "tags",
        "context",
        "team",
        "Notes of a design team; people are colleagues.",
    ]);
    assert!(out.contains("design team"), "{out}");
    let info = json(&run(&["tags", "info", "team", "--json"]));
    assert_eq!(info["name"], "The team");
    assert!(info["entityContext"]
        .as_str()
        .unwrap()
        .contains("colleagues"));
    let out = run(&["tags", "context", "team", "--clear"]);
    assert!(out.contains("(no context)"), "{out}");
    let list = json(&run(&["tags", "list", "--json"]));
    let tags: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["containerTag"].as_str().unwrap())
        .collect();
    assert!(tags.contains(&"ana") && tags.contains(&"team"), "{list}");
    assert!(run(&["tags", "list"]).contains("documents"));
    let merged = json(&run(&[
        "tags", "merge", "ben", "--into", "ana", "--wait", "--json",
    ]));
    assert_eq!(merged["status"], "done", "{merged}");
    assert_eq!(merged["movedDocuments"], 1);
    let (code, out, _) = client(&cfg, &[], &["tags", "delete", "ana", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "confirmation_required");
    let deleted = json(&run(&["tags", "delete", "ana", "--yes", "--json"]));
    assert_eq!(deleted["deletedDocumentsCount"], 2, "{deleted}");
    let (code, _, _) = client(&cfg, &[], &["tags", "info", "ana"]);
    assert_eq!(code, 4, "a deleted tag is not found");

    // the organisation's keys, through the server
    let made = json(&run(&["keys", "create", "--name", "laptop", "--json"]));
    let (new_id, new_key) = (
        made["id"].as_str().unwrap().to_string(),
        made["key"].as_str().unwrap().to_string(),
    );
    let (code, _, err) = client(
        &tmp.path().join("nobody"),
        &[("ENGRAM_API_KEY", &new_key), ("ENGRAM_URL", &srv.base)],
        &["whoami"],
    );
    assert_eq!(code, 0, "{err}");
    run(&["keys", "rename", &new_id, "--name", "old laptop"]);
    let scoped = json(&run(&[
        "keys",
        "scoped",
        "--tag",
        "team",
        "--rate-limit",
        "30",
        "--json",
    ]));
    assert_eq!(scoped["containerTag"], "team");
    let listed = run(&["keys", "list"]);
    assert!(
        listed.contains("old laptop") && listed.contains("tag `team`"),
        "{listed}"
    );
    assert!(!listed.contains(&new_key), "never a secret");
    run(&["keys", "revoke", &new_id]);
    let (code, _, _) = client(
        &tmp.path().join("nobody"),
        &[("ENGRAM_API_KEY", &new_key), ("ENGRAM_URL", &srv.base)],
        &["whoami"],
    );
    assert_eq!(code, 2, "a revoked key is refused");
    let (code, out, _) = client(&cfg, &[], &["keys", "revoke", &new_id, "--json"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(json(&out)["error"], "ConflictError");

    // the request log
    let logs = json(&run(&["logs", "--type", "add", "--json"]));
    // two documents, two batches and the remembered fact, newest first
    assert_eq!(logs["pagination"]["totalItems"], 5, "{logs}");
    assert_eq!(logs["logs"][0]["input"]["containerTag"], "carla");
    assert_eq!(logs["logs"][1]["output"]["failed"], 1);
    assert_eq!(logs["logs"][3]["input"]["containerTags"], json!(["ben"]));
    let out = run(&["logs", "--limit", "5"]);
    assert!(out.contains(" ms") && out.contains("page 1 of"), "{out}");
    let (code, out, _) = client(&cfg, &[], &["logs", "--period", "2h", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "ValidationError");
    terminate(srv);
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
