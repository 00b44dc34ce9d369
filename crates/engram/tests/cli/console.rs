//! The console in a real browser (headless Chromium, which
//! `scripts/test.sh` installs) against a live `engram serve` with the real
//! model, on SQLite and (when `ENGRAM_TEST_DATABASE_URL` names a server,
//! as in CI) on PostgreSQL: `tests/browser/console.py` signs in, reads the
//! overview and its charts, adds a document and watches it reach `done`,
//! opens its chunks and memories, asks the README's question on the
//! search page, edits and forgets a memory, draws the graph (and one of
//! 2 000 nodes), edits, merges and deletes spaces, connects a local web
//! site and syncs it, reads the request logs, creates, renames and
//! revokes keys, saves settings, checks the phone layout and the keyboard,
//! signs in with a scoped key and signs out. Screenshots of each step are
//! kept in `target/console-screenshots[-postgres]` as artefacts.

use super::*;

fn run_console(backend: &str, env: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    // the connections page crawls a site the test serves on loopback, and
    // goes through OAuth with a GitHub stand-in served there too
    let site_port = free_port();
    let github = format!("http://127.0.0.1:{site_port}");
    let mut env = env.to_vec();
    env.extend([
        ("ENGRAM_FETCH_ALLOW_PRIVATE", "true"),
        ("ENGRAM_CONNECTOR_GITHUB_URL", github.as_str()),
        ("ENGRAM_CONNECTOR_GITHUB_CLIENT_ID", "console-client"),
        ("ENGRAM_CONNECTOR_GITHUB_CLIENT_SECRET", "console-secret"),
    ]);
    let srv = start_with(&data, &cfg, free_port(), &env);
    let key = saved_key(&cfg);
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents", srv.base),
        &key,
        Some(
            json!({"content": "Ada prefers green tea and lives in Lisbon.", "containerTag": "user_ada"}),
        ),
    );
    assert_eq!(s, 200, "{v}");
    // as a user would: wait until Ada's memories have formed
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, list) = reqwest::call(
            "POST",
            &format!("{}/v4/memories/list", srv.base),
            &key,
            Some(json!({"containerTag": "user_ada"})),
        );
        if list["memoryEntries"]
            .as_array()
            .is_some_and(|m| m.len() >= 2)
        {
            break;
        }
        assert!(Instant::now() < deadline, "no memories formed: {list}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let suffix = if backend == "sqlite" { "" } else { "-postgres" };
    let shots = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../target/console-screenshots{suffix}"));
    // this run's screenshots only
    let _ = std::fs::remove_dir_all(&shots);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/console.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&srv.base)
        .arg(&key)
        .arg(&shots)
        .arg("--site")
        .arg(site_port.to_string())
        .output()
        .expect("python3");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{backend}: {said}");
    assert!(said.contains("signed out"), "{said}");
    // the figures the issue asks for, in the test's output
    println!("{backend}: {said}");
    for n in [
        "1-sign-in",
        "3-overview",
        "4-overview-phone",
        "5-documents",
        "7-search",
        "8-memories",
        "9-graph",
        "10-graph-2000",
        "11-spaces",
        "12-connections",
        "12b-connections-github",
        "13-logs",
        "14-keys",
        "15-settings",
        "16-overview-charts",
        "17-scoped",
        "18-signed-out",
    ] {
        assert!(shots.join(format!("{n}.png")).exists(), "{n}");
    }
}

#[test]
fn the_console_works_in_a_browser() {
    run_console("sqlite", &[]);
}

/// The same pages against PostgreSQL, in a database of its own. Runs when
/// `ENGRAM_TEST_DATABASE_URL` names a server (`scripts/test.sh` starts one).
#[test]
fn the_console_works_in_a_browser_on_postgres() {
    let Some(url) = fresh_postgres() else {
        return;
    };
    run_console("postgres", &[("ENGRAM_DATABASE_URL", &url)]);
}
