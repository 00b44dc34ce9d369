//! `engram connections`: add a web-crawler connection to a local site,
//! watch it sync, list and show it, sync again, remove it with its
//! documents; an OAuth provider without a client is a clear error, and one
//! configured for the whole server (GitHub Enterprise, from the environment)
//! serves an organisation that has none.

use super::*;

/// A static site served by Python's http.server, killed when dropped.
struct Site(Child, String);

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn site(dir: &Path) -> Site {
    std::fs::write(
        dir.join("index.html"),
        "<html><body><h1>Lighthouse</h1><p>The lamp is lit at dusk.</p><a href=\"keeper.html\">keeper</a></body></html>",
    )
    .unwrap();
    std::fs::write(
        dir.join("keeper.html"),
        "<html><body><p>The keeper, Olga, winds the clockwork every four hours.</p></body></html>",
    )
    .unwrap();
    let port = free_port();
    let child = Command::new("python3")
        .args([
            "-m",
            "http.server",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
        ])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while reqwest::blocking_get(&format!("{base}/index.html")).is_err() {
        assert!(Instant::now() < deadline, "the site did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Site(child, base)
}

#[test]
fn connections_are_added_synced_listed_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg, www) = (
        tmp.path().join("data"),
        tmp.path().join("cfg"),
        tmp.path().join("www"),
    );
    std::fs::create_dir_all(&www).unwrap();
    let site = site(&www);
    let _srv = start_with(
        &data,
        &cfg,
        free_port(),
        &[
            ("ENGRAM_FETCH_ALLOW_PRIVATE", "true"),
            // a server-wide GitHub Enterprise client, from the environment
            ("ENGRAM_CONNECTOR_GITHUB_CLIENT_ID", "ghe-client"),
            ("ENGRAM_CONNECTOR_GITHUB_CLIENT_SECRET", "ghe-secret"),
            ("ENGRAM_CONNECTOR_GITHUB_URL", "https://ghe.example.com"),
        ],
    );
    let json = |out: &str| -> Value { serde_json::from_str(out).unwrap_or(Value::Null) };

    let (code, out, err) = client(&cfg, &[], &["connections", "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no connections"), "{out}");

    let start_url = format!("{}/index.html", site.1);
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "connections",
            "add",
            "web-crawler",
            "--tag",
            "coast",
            "--start-url",
            &start_url,
            "--meta",
            "team=keepers",
            "--limit",
            "10",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the first sync has started"), "{out}");
    let id = out
        .split_whitespace()
        .find_map(|w| w.strip_prefix('(').and_then(|w| w.strip_suffix(");")))
        .unwrap_or_else(|| panic!("no id in {out}"))
        .to_string();

    // the sync finishes by itself
    let deadline = Instant::now() + Duration::from_secs(60);
    let shown = loop {
        let (code, out, _) = client(&cfg, &[], &["connections", "show", &id, "--json"]);
        assert_eq!(code, 0);
        let c = json(&out);
        if c["lastSyncRun"]["status"] == "completed" {
            break c;
        }
        assert!(Instant::now() < deadline, "no sync: {out}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(shown["metadata"]["team"], "keepers");
    assert_eq!(shown["containerTags"], json!(["coast"]));

    let (code, out, _) = client(&cfg, &[], &["connections", "list", "--tag", "coast"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(&id) && out.contains("web-crawler") && out.contains("completed"),
        "{out}"
    );
    let (code, out, _) = client(
        &cfg,
        &[],
        &["connections", "list", "--tag", "elsewhere", "--json"],
    );
    assert_eq!(code, 0);
    assert_eq!(json(&out), json!([]));

    // what it synced is searchable
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, out, _) = client(
            &cfg,
            &[],
            &[
                "search",
                "who winds the clockwork?",
                "--tag",
                "coast",
                "--mode",
                "documents",
                "--json",
            ],
        );
        if out.contains("Olga") {
            break;
        }
        assert!(Instant::now() < deadline, "not found: {out}");
        std::thread::sleep(Duration::from_millis(300));
    }

    let (code, out, err) = client(
        &cfg,
        &[],
        &["connections", "sync", "web-crawler", "--tag", "coast"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.trim().is_empty());

    // an OAuth provider needs a client: said clearly, exit code of a 400
    let (code, out, _) = client(
        &cfg,
        &[],
        &["connections", "add", "notion", "--tag", "coast", "--json"],
    );
    assert_ne!(code, 0);
    assert!(
        json(&out)["message"]
            .as_str()
            .unwrap_or_default()
            .contains("notionClientId"),
        "{out}"
    );
    // the server's own client and endpoints serve an organisation without one
    let (code, out, err) = client(
        &cfg,
        &[],
        &["connections", "add", "github", "--tag", "coast", "--json"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let link = json(&out)["authLink"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        link.starts_with("https://ghe.example.com/login/oauth/authorize?")
            && link.contains("client_id=ghe-client")
            && !link.contains("ghe-secret"),
        "{out}"
    );
    let (code, _, err) = client(&cfg, &[], &["connections", "add", "s3", "--meta", "nokey"]);
    assert_eq!(code, 1, "{err}");

    let (code, out, err) = client(&cfg, &[], &["connections", "remove", &id]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("with its documents"), "{out}");
    let (code, out, _) = client(&cfg, &[], &["connections", "show", &id, "--json"]);
    assert_eq!(code, 4, "{out}");
    let (_, out, _) = client(
        &cfg,
        &[],
        &["documents", "list", "--tag", "coast", "--json"],
    );
    assert!(!out.contains("Olga"), "{out}");
}
