//! The documentation as a user meets it: every shell example in `docs/`
//! runs against a live server, `engram docs` finds and prints sections, and
//! `engram mcp` serves a real MCP client over standard input and output.

use super::*;

/// A fenced block of a page: its info string and its text.
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in md.lines() {
        let trimmed = line.trim_start();
        match (&mut open, trimmed.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some((_, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// Whether a block is a shell example to run (`sh`/`bash`, not `no-run`).
fn runnable(info: &str) -> bool {
    let mut words = info.split_whitespace();
    matches!(words.next(), Some("sh" | "bash")) && !info.contains("no-run")
}

#[test]
fn blocks_are_found_and_chosen() {
    let md = "# T\n```sh\necho a\n```\ntext\n```sh no-run\nrm -rf /\n```\n```python\nx\n```\n";
    let b = blocks(md);
    assert_eq!(b.len(), 3);
    assert_eq!(b[0], ("sh".to_string(), "echo a\n".to_string()));
    let run: Vec<_> = b.iter().filter(|(i, _)| runnable(i)).collect();
    assert_eq!(run.len(), 1);
}

#[test]
fn every_documented_example_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start(&data, &cfg, free_port());
    let key = saved_key(&cfg);
    let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();

    let mut ran = Vec::new();
    for (page, md) in engram_docs::PAGES {
        let examples: Vec<String> = blocks(md)
            .into_iter()
            .filter(|(info, _)| runnable(info))
            .map(|(_, text)| text)
            .collect();
        if examples.is_empty() {
            continue;
        }
        // a failed request fails the script, and says which example (no
        // pipefail: `... | head` closing the pipe early is not a failure)
        let mut script =
            String::from("set -eu\ncurl() { command curl --fail-with-body \"$@\"; echo; }\n");
        for (i, ex) in examples.iter().enumerate() {
            script.push_str(&format!("echo '--- example {}' >&2\n", i + 1));
            script.push_str(&ex.replace("http://127.0.0.1:6767", &srv.base));
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&work)
            .env("PATH", &path)
            .env("ENGRAM_URL", &srv.base)
            .env("ENGRAM_API_KEY", &key)
            .env("ENGRAM_CONFIG_DIR", &cfg)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "docs/{page}.md: an example failed (last marker is the example):\n{}\n--- stdout:\n{}",
            stderr
                .lines()
                .rev()
                .take(30)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n"),
            String::from_utf8_lossy(&out.stdout)
                .chars()
                .rev()
                .take(2000)
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>()
        );
        ran.push((*page, examples.len()));
    }
    let count = |p: &str| ran.iter().find(|(n, _)| *n == p).map_or(0, |(_, c)| *c);
    // the pages that teach by example have theirs run
    assert!(count("api") >= 35, "{ran:?}");
    for page in ["quickstart", "cli", "mcp"] {
        assert!(count(page) >= 1, "{page}: {ran:?}");
    }
    drop(srv);
}

#[test]
fn docs_are_searched_and_read_offline() {
    let tmp = tempfile::tempdir().unwrap();
    // no server and no key: the docs need neither
    let (code, out, err) = client(tmp.path(), &[], &["docs", "--json"]);
    assert_eq!(code, 0, "{err}");
    let pages: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = pages["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["page"].as_str())
        .collect();
    for p in [
        "quickstart",
        "concepts",
        "api",
        "cli",
        "configuration",
        "providers",
        "deployment",
        "sdk",
        "mcp",
    ] {
        assert!(names.contains(&p), "{p} missing: {names:?}");
    }
    let (code, out, _) = client(
        tmp.path(),
        &[],
        &[
            "docs",
            "how",
            "do",
            "I",
            "revoke",
            "a",
            "scoped",
            "key",
            "--json",
            "--keywords",
        ],
    );
    assert_eq!(code, 0);
    let found: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(found["mode"], "keywords");
    let first = &found["results"][0];
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .contains("/v3/auth/scoped-key"),
        "{found}"
    );
    // text output names the page and anchor
    let (code, out, _) = client(
        tmp.path(),
        &[],
        &["docs", "replicas", "PostgreSQL", "--page", "deployment"],
    );
    assert_eq!(code, 0);
    assert!(out.contains("(deployment#"), "{out}");
    // a page whole, and a page that is not there
    let (code, out, _) = client(tmp.path(), &[], &["docs", "--page", "mcp"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# "), "{out}");
    let (code, out, _) = client(tmp.path(), &[], &["docs", "--page", "nope", "--json"]);
    assert_eq!(code, 4);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["error"],
        "not_found"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_stdio_calls_every_tool() {
    use rmcp::model::{CallToolRequestParams, ClientConfig};
    use rmcp::transport::TokioChildProcess;
    use rmcp::ServiceExt;

    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = tokio::task::block_in_place(|| start(&data, &cfg, free_port()));
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("mcp")
        .env("ENGRAM_CONFIG_DIR", &cfg)
        .env_remove("ENGRAM_API_KEY")
        .env("ENGRAM_URL", &srv.base);
    let transport = TokioChildProcess::new(cmd).unwrap();
    let mcp = ClientConfig::default().serve(transport).await.unwrap();
    let tools = mcp.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 8, "{tools:?}");

    let call = |tool: &'static str, args: Value| {
        let mcp = &mcp;
        async move {
            let Value::Object(args) = args else {
                unreachable!()
            };
            let r = mcp
                .call_tool(CallToolRequestParams::new(tool).with_arguments(args))
                .await
                .unwrap();
            let text: String = r
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect();
            (r.is_error == Some(true), text)
        }
    };
    let fact = "Ana keeps bees on the roof of her building in Lisbon.";
    let (err, out) = call(
        "add_memory",
        json!({"content": fact, "containerTag": "ana"}),
    )
    .await;
    assert!(!err, "{out}");
    let (err, out) = call(
        "search_memories",
        json!({"q": "Where does Ana keep bees?", "containerTag": "ana", "threshold": 0.2}),
    )
    .await;
    assert!(!err && out.contains(fact), "{out}");
    let (err, out) = call("get_profile", json!({"containerTag": "ana"})).await;
    assert!(!err && out.contains("bees"), "{out}");
    let (err, out) = call(
        "add_document",
        json!({"content": "Ben plays the cello.", "containerTag": "ben"}),
    )
    .await;
    assert!(!err && out.contains("\"id\""), "{out}");
    let (err, out) = call("list_connections", json!({})).await;
    assert!(!err && out.trim() == "[]", "{out}");
    let (err, out) = call("list_container_tags", json!({})).await;
    assert!(
        !err && out.contains("\"ana\"") && out.contains("\"ben\""),
        "{out}"
    );
    let (err, out) = call(
        "forget_memory",
        json!({"containerTag": "ana", "content": fact}),
    )
    .await;
    assert!(!err && out.contains("\"forgotten\": true"), "{out}");
    // hybrid with the real model: a question in other words finds the section
    let (err, out) = call(
        "search_docs",
        json!({"q": "which environment variable sets the database?"}),
    )
    .await;
    assert!(!err && out.contains("ENGRAM_DATABASE_URL"), "{out}");
    let (err, out) = call(
        "forget_memory",
        json!({"containerTag": "ana", "content": fact}),
    )
    .await;
    assert!(err && out.contains("ConflictError"), "{out}");
    mcp.cancel().await.unwrap();
    drop(srv);
}
