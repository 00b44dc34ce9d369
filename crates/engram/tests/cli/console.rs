//! The console in a real browser (headless Chromium, which
//! `scripts/test.sh` installs) against a live `engram serve` with the real
//! model: `tests/browser/console.py` signs in, reads the overview, adds a
//! document and watches it reach `done`, deletes it, asks the README's
//! question on the search page, edits and forgets a memory, creates,
//! renames and revokes a key, saves settings, checks the phone layout and signs out.
//! Screenshots of each step are kept in `target/console-screenshots` as
//! artefacts.

use super::*;

#[test]
fn the_console_works_in_a_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start(&data, &cfg, free_port());
    let creds: Value =
        serde_json::from_str(&std::fs::read_to_string(cfg.join("credentials.json")).unwrap())
            .unwrap();
    let key = creds["apiKey"].as_str().unwrap().to_string();
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
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/console-screenshots");
    // this run's screenshots only
    let _ = std::fs::remove_dir_all(&shots);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/console.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&srv.base)
        .arg(&key)
        .arg(&shots)
        .output()
        .expect("python3");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("signed out"), "{said}");
    for n in [
        "1-sign-in",
        "3-overview",
        "4-overview-phone",
        "5-documents",
        "7-search",
        "8-memories",
        "9-keys",
        "10-settings",
    ] {
        assert!(shots.join(format!("{n}.png")).exists(), "{n}");
    }
}
