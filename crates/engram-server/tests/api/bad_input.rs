//! Bad input, by hand: each case is a request nobody should send, and the
//! answer a person would want: a 4xx with the JSON error body (naming the
//! field where there is one), within a bounded time, and the server still
//! answering afterwards. Data-driven: `check(method, path, content type,
//! body, expected status, words the error must hold)`.

use crate::support::*;
use reqwest::StatusCode;
use serde_json::Value;
use std::time::{Duration, Instant};

/// The longest any of these may take: a hang detector, not a benchmark.
const BOUND: Duration = Duration::from_secs(10);

async fn check(app: &TestApp, method: &str, path: &str, body: Vec<u8>, status: u16, needle: &str) {
    let started = Instant::now();
    let resp = app
        .client
        .request(method.parse().unwrap(), format!("{}{path}", app.base))
        .bearer_auth(&app.key)
        .header("content-type", "application/json")
        .body(body)
        .timeout(BOUND)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: no answer within {BOUND:?}: {e}"));
    let took = started.elapsed();
    let got = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|_| panic!("{method} {path}: not the JSON error body: {text:.200}"));
    assert_eq!(got, status, "{method} {path}: {v}");
    let said = format!("{} {}", v["error"], v["details"]);
    assert!(v["type"].is_string(), "{method} {path}: {v}");
    assert!(
        said.contains(needle),
        "{method} {path}: `{needle}` not in {said}"
    );
    assert!(took < BOUND, "{method} {path}: {took:?}");
    // and the server is still there
    let (s, _) = app.get("/v3/settings").await;
    assert_eq!(s, StatusCode::OK, "after {method} {path}");
}

fn nested(depth: usize) -> Vec<u8> {
    let mut s = String::from("{\"content\": \"x\", \"metadata\": ");
    s.push_str(&"{\"a\": ".repeat(depth));
    s.push('1');
    s.push_str(&"}".repeat(depth + 1));
    s.into_bytes()
}

fn filter_nested(depth: usize) -> Vec<u8> {
    let leaf = r#"{"key": "k", "value": "v"}"#;
    let mut f = leaf.to_string();
    for _ in 0..depth {
        f = format!(r#"{{"AND": [{f}]}}"#);
    }
    format!(r#"{{"q": "x", "filters": {f}}}"#).into_bytes()
}

fn many_conditions(n: usize) -> Vec<u8> {
    let c: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"key": "k{i}", "value": "v"}}"#))
        .collect();
    format!(r#"{{"q": "x", "filters": {{"OR": [{}]}}}}"#, c.join(",")).into_bytes()
}

#[tokio::test]
async fn bad_json_is_a_clear_400() {
    let app = spawn_app().await;
    let b = |s: &str| s.as_bytes().to_vec();
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "POST",
            "/v3/documents",
            b("{\"content\": "),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/documents",
            b("{\"content\": \"abc"),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/documents",
            b("{\"content\": \"a\"}}"),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/documents",
            b"{\"content\": \"\xff\xfe\"}".to_vec(),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/documents",
            nested(10_000),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"limit\": 1e400}"),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"limit\": 99999999999999999999}"),
            400,
            "limit",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"chunkThreshold\": NaN}"),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"chunkThreshold\": Infinity}"),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"chunkThreshold\": 1e308}"),
            400,
            "chunkThreshold",
        ),
        (
            "POST",
            "/v3/search",
            b("{\"q\": \"x\", \"limit\": -1}"),
            400,
            "limit",
        ),
        (
            "POST",
            "/v3/documents/list",
            b("{\"limit\": -5}"),
            400,
            "limit",
        ),
        (
            "POST",
            "/v3/documents/list",
            b("{\"page\": 0}"),
            400,
            "page",
        ),
        (
            "POST",
            "/v3/documents/list",
            b("{\"page\": 1e12}"),
            400,
            "page",
        ),
        (
            "POST",
            "/v3/documents/list",
            b("{\"limit\": 4294967296}"),
            400,
            "limit",
        ),
        (
            "POST",
            "/v4/search",
            b("{\"q\": \"x\", \"limit\": 100000}"),
            400,
            "limit",
        ),
        (
            "POST",
            "/v4/search",
            b("{\"q\": \"x\", \"threshold\": -0.5}"),
            400,
            "threshold",
        ),
        ("POST", "/v3/search", filter_nested(50), 400, "filters"),
        (
            "POST",
            "/v3/search",
            many_conditions(10_000),
            400,
            "conditions",
        ),
        (
            "POST",
            "/v3/documents",
            b("{\"content\": \"x\", \"containerTag\": \"用户\"}"),
            400,
            "containerTag",
        ),
        (
            "POST",
            "/v3/documents",
            b("{\"content\": \"x\", \"containerTag\": \"../../etc\"}"),
            400,
            "containerTag",
        ),
        (
            "POST",
            "/v3/documents",
            b("{\"content\": \"x\", \"customId\": \"../../etc/passwd\"}"),
            400,
            "customId",
        ),
        (
            "GET",
            "/v3/documents/..%2F..%2Fetc%2Fpasswd",
            vec![],
            404,
            "not found",
        ),
        // the client resolves `..` itself: no route is left
        ("GET", "/v3/documents/%2e%2e", vec![], 404, "no route"),
        (
            "GET",
            "/v3/container-tags/..%2Fx",
            vec![],
            400,
            "containerTag",
        ),
        ("GET", "/v3/documents/x?limit=-1", vec![], 404, "not found"),
        ("GET", "/v3/analytics/logs?page=-1", vec![], 400, "page"),
        (
            "GET",
            "/v3/analytics/logs?limit=1000000000000",
            vec![],
            400,
            "limit",
        ),
        ("GET", "/v3/graph?limit=NaN", vec![], 400, "limit"),
    ];
    for (method, path, body, status, needle) in cases {
        check(&app, method, path, body, status, needle).await;
    }
}

/// A body just over the limit is a 413 naming the limit; just under, it
/// is read and judged on what it says.
#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let app = spawn_app().await;
    // the server's default JSON limit
    let limit = 10 * 1024 * 1024;
    let body = |n: usize| {
        let pad = n - r#"{"content": ""}"#.len();
        format!(r#"{{"content": "{}"}}"#, "a".repeat(pad)).into_bytes()
    };
    check(
        &app,
        "POST",
        "/v3/documents",
        body(limit + 1),
        413,
        "too large",
    )
    .await;
    // read, and then judged on what it says: a content over its own limit
    check(
        &app,
        "POST",
        "/v3/documents",
        body(limit),
        400,
        "content: must be at most",
    )
    .await;
}

/// A PDF whose one page's content stream is deflated: 200 MB of text
/// operators in a few hundred kilobytes.
fn pdf_bomb(inflated_mb: usize) -> Vec<u8> {
    use std::io::Write;
    let line = b"(All work and no play makes a dull bomb.) Tj T*\n";
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(b"BT /F1 12 Tf 72 720 Td 14 TL\n").unwrap();
    // written a block of lines at a time (a write per line took 26 s unoptimised)
    let block = line.repeat(1 << 14);
    for _ in 0..(inflated_mb << 20) / block.len() {
        z.write_all(&block).unwrap();
    }
    z.write_all(b"ET").unwrap();
    pdf_with_contents("/Filter /FlateDecode ", &z.finish().unwrap())
}

/// Files that lie about what they are, or explode when opened, end as a
/// document that is `done` with its text or `failed` with the reason,
/// in bounded time; the server goes on answering.
#[tokio::test]
async fn uploads_that_lie_or_explode_end_cleanly() {
    let app = spawn_app().await;
    let bound = Duration::from_secs(60);
    let settle = |id: String| {
        let app = &app;
        async move {
            let started = Instant::now();
            let doc = tokio::time::timeout(bound, app.wait_processed(&id))
                .await
                .unwrap_or_else(|_| panic!("{id} still processing after {bound:?}"));
            (doc, started.elapsed())
        }
    };
    // a text file sent as a PDF
    let id = app
        .upload_file(
            b"Plain words, not a PDF at all.".to_vec(),
            "report.pdf",
            "application/pdf",
        )
        .await;
    let (doc, _) = settle(id).await;
    assert_eq!(doc["status"], "failed", "{doc}");
    assert!(
        doc["error"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("pdf"),
        "{doc}"
    );
    // 1 MB of nested tags around one sentence
    let mut html = "<div>".repeat(100_000);
    html.push_str("Deep inside the tags lies one sentence.");
    html.push_str(&"</div>".repeat(100_000));
    let id = app
        .upload_file(html.into_bytes(), "deep.html", "text/html")
        .await;
    let (doc, took) = settle(id).await;
    assert_eq!(doc["status"], "done", "{doc}");
    assert!(
        doc["content"].as_str().unwrap().contains("one sentence"),
        "{doc}"
    );
    eprintln!("1 MB of nested tags: {took:?}");
    // invalid UTF-8 in a text file: replaced, not refused
    let id = app
        .upload_file(
            b"caf\xe9 au lait \xff\xfe".to_vec(),
            "latin1.txt",
            "text/plain",
        )
        .await;
    let (doc, _) = settle(id).await;
    assert_eq!(doc["status"], "done", "{doc}");
    assert!(
        doc["content"].as_str().unwrap().contains("au lait"),
        "{doc}"
    );
    // a PDF that inflates to 200 MB of text
    let bomb = pdf_bomb(200);
    let size = bomb.len();
    let id = app.upload_file(bomb, "bomb.pdf", "application/pdf").await;
    let (doc, took) = settle(id).await;
    eprintln!(
        "a {size}-byte PDF inflating to 200 MB: {} in {took:?}: {}",
        doc["status"], doc["error"]
    );
    assert_eq!(doc["status"], "failed", "{doc}");
    assert!(doc["error"].as_str().unwrap().contains("inflates"), "{doc}");
    let (s, _) = app.get("/v3/settings").await;
    assert_eq!(s, StatusCode::OK);
}
