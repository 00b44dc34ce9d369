//! The first thing a new user tries, with default parameters only: the
//! README's request (a note about Ada, then a natural question), and the
//! CLI's `add --wait` then `search`. Each must answer with the right
//! memory, not with nothing.

use super::*;

#[test]
fn the_readme_and_cli_examples_answer_with_defaults() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start(&data, &cfg, free_port());
    let key = serde_json::from_str::<Value>(
        &std::fs::read_to_string(cfg.join("credentials.json")).unwrap(),
    )
    .unwrap()["apiKey"]
        .as_str()
        .unwrap()
        .to_string();

    // README: add the note, wait until processed, ask in plain words
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v3/documents", srv.base),
        &key,
        Some(
            json!({"content": "Ada prefers green tea and lives in Lisbon.", "containerTag": "user_ada"}),
        ),
    );
    assert_eq!(s, 200, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, d) = reqwest::call(
            "GET",
            &format!("{}/v3/documents/{id}", srv.base),
            &key,
            None,
        );
        if d["status"] == "done" && d["dreamingStatus"] == "done" {
            break;
        }
        assert!(Instant::now() < deadline, "{d}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (s, v) = reqwest::call(
        "POST",
        &format!("{}/v4/search", srv.base),
        &key,
        Some(json!({"q": "what does Ada drink?", "containerTag": "user_ada"})),
    );
    assert_eq!(s, 200, "{v}");
    let first = v["results"][0]["memory"].as_str().unwrap_or_default();
    assert!(first.contains("green tea"), "{v}");
    let (_, v) = reqwest::call(
        "POST",
        &format!("{}/v4/search", srv.base),
        &key,
        Some(json!({"q": "where does Ada live?", "containerTag": "user_ada"})),
    );
    assert!(
        v["results"][0]["memory"]
            .as_str()
            .unwrap_or_default()
            .contains("Lisbon"),
        "{v}"
    );

    // CLI: add and wait, then search with no options
    let (code, _, err) = client(
        &cfg,
        &[],
        &["add", "Ravi keeps bees on his rooftop in Pune.", "--wait"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = client(&cfg, &[], &["search", "who keeps bees?"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Ravi keeps bees"), "{out}");
    drop(srv);
}
