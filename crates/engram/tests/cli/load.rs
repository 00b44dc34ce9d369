//! Load, briefly, in CI: `engram bench load` with 20 clients for 10
//! seconds mixing writes, both searches, profiles and reads against a
//! complete Engram with the real model, on SQLite and (when
//! `ENGRAM_TEST_DATABASE_URL` names a server) on PostgreSQL. The bench
//! itself holds the bar: no 5xx, no timeout, every acknowledged document
//! `done` afterwards. The full run (50 clients for 60 s, and the bend
//! point) is `engram bench load --clients 10,25,50,100,200` in a release
//! build; docs/hardening.md has its figures.

use super::*;

fn load(database_url: Option<&str>) {
    let mut cmd = Command::new(BIN);
    cmd.args(["bench", "load", "--clients", "20", "--secs", "10"]);
    if let Some(url) = database_url {
        cmd.args(["--database-url", url]);
    }
    let out = cmd
        .env("ENGRAM_LOG", "error")
        .output()
        .expect("engram runs");
    let said = String::from_utf8_lossy(&out.stdout);
    println!("{said}");
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("0 not done afterwards; 0 5xx or timeouts"),
        "{said}"
    );
    for route in ["add", "v3/search", "v4/search", "v4/profile", "list"] {
        assert!(
            said.contains(&format!("  {route} ")),
            "{route} was exercised: {said}"
        );
    }
}

#[test]
fn twenty_clients_for_ten_seconds_lose_nothing_and_see_no_5xx() {
    load(None);
}

#[test]
fn twenty_clients_for_ten_seconds_on_postgres() {
    // the bench makes its own database on the server
    let Ok(server) = std::env::var("ENGRAM_TEST_DATABASE_URL") else {
        eprintln!("ENGRAM_TEST_DATABASE_URL is unset: the PostgreSQL run is skipped");
        return;
    };
    load(Some(&server));
}
