//! The client commands against a running server: setup and whoami, add,
//! search in its modes, remember/update/forget, profile, tags (context,
//! merge), scoped keys and request logs, in text and `--json` forms.

use super::*;

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
