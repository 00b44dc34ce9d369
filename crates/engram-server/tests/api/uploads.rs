//! `POST /v3/documents/file`: multipart uploads of every supported format.

use crate::support::*;
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn upload(app: &TestApp, form: Form) -> (StatusCode, Value) {
    let resp = app
        .client
        .post(format!("{}/v3/documents/file", app.base))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let s = resp.status();
    (s, resp.json().await.unwrap_or(Value::Null))
}

fn file(bytes: Vec<u8>, name: &str, mime: &str) -> Part {
    Part::bytes(bytes)
        .file_name(name.to_string())
        .mime_str(mime)
        .unwrap()
}

#[tokio::test]
async fn every_format_is_extracted() {
    let app = spawn_app().await;
    let cases: Vec<(Vec<u8>, &str, &str, &str, &str)> = vec![
        (b"Plain text about gardening.".to_vec(), "notes.txt", "text/plain", "gardening", "text"),
        (b"# Recipes\n\nBake the bread for 40 minutes.".to_vec(), "r.md", "text/markdown", "Bake the bread", "text"),
        (
            b"<html><head><title>Page</title><script>bad()</script></head><body><nav>menu</nav><p>Readable paragraph.</p></body></html>".to_vec(),
            "p.html",
            "text/html",
            "Readable paragraph.",
            "text",
        ),
        (b"city,country\nParis,France\nLima,Peru\n".to_vec(), "c.csv", "text/csv", "city: Lima; country: Peru", "text"),
        (make_pdf(&["Quarterly report", "Revenue grew by ten percent"]), "report.pdf", "application/pdf", "Revenue grew", "pdf"),
    ];
    for (bytes, name, mime, needle, doc_type) in cases {
        let form = Form::new()
            .part("file", file(bytes, name, mime))
            .text("containerTag", "uploads")
            .text("metadata", r#"{"kind": "upload"}"#);
        let (s, v) = upload(&app, form).await;
        assert_eq!(s, StatusCode::OK, "{name}: {v}");
        assert_eq!(v["status"], "queued");
        let d = app.wait_done(v["id"].as_str().unwrap()).await;
        let content = d["content"].as_str().unwrap();
        assert!(content.contains(needle), "{name}: {content:?}");
        assert_eq!(d["type"], doc_type, "{name}");
        assert_eq!(d["containerTags"], json!(["uploads"]));
        assert_eq!(d["metadata"]["kind"], "upload");
        if name == "p.html" {
            assert!(
                !content.contains("bad()") && !content.contains("menu"),
                "{content}"
            );
            assert_eq!(d["title"], "Page");
        }
    }
}

#[tokio::test]
async fn plural_tags_as_json_or_string() {
    let app = spawn_app().await;
    let form = Form::new()
        .part("file", file(b"x y z".to_vec(), "a.txt", "text/plain"))
        .text("containerTags", r#"["a","b"]"#);
    let (s, v) = upload(&app, form).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let d = app.wait_done(v["id"].as_str().unwrap()).await;
    assert_eq!(d["containerTags"], json!(["a", "b"]));
    let form = Form::new()
        .part("file", file(b"x y z".to_vec(), "a.txt", "text/plain"))
        .text("containerTags", "single");
    let (_, v) = upload(&app, form).await;
    let d = app.wait_done(v["id"].as_str().unwrap()).await;
    assert_eq!(d["containerTags"], json!(["single"]));
}

#[tokio::test]
async fn bad_uploads() {
    let app = spawn_app().await;
    let ok_file = || file(b"hello".to_vec(), "a.txt", "text/plain");
    let cases: Vec<(Form, &str)> = vec![
        (Form::new().text("containerTag", "x"), "file"),
        (
            Form::new()
                .part("file", ok_file())
                .text("containerTag", "bad tag"),
            "containerTag",
        ),
        (
            Form::new()
                .part("file", ok_file())
                .text("metadata", "{not json"),
            "metadata",
        ),
        (
            Form::new()
                .part("file", ok_file())
                .text("metadata", r#"{"a": {"b": 1}}"#),
            "metadata.a",
        ),
        (
            Form::new().part("file", ok_file()).text("taskType", "nope"),
            "taskType",
        ),
        (
            Form::new().part("file", file(vec![], "e.txt", "text/plain")),
            "empty",
        ),
    ];
    for (form, needle) in cases {
        let got = upload(&app, form).await;
        assert_error(&got, StatusCode::BAD_REQUEST, "ValidationError", needle);
    }
    // a binary format we cannot read fails in the pipeline with a reason
    let form = Form::new().part(
        "file",
        file(vec![0u8, 1, 2, 3, 0, 9], "img.png", "image/png"),
    );
    let (s, v) = upload(&app, form).await;
    assert_eq!(s, StatusCode::OK);
    let d = app.wait_processed(v["id"].as_str().unwrap()).await;
    assert_eq!(d["status"], "failed");
    assert!(d["error"].as_str().unwrap().contains("unsupported"), "{d}");
    // a broken PDF fails cleanly too
    let form = Form::new().part(
        "file",
        file(b"%PDF-1.4 broken".to_vec(), "x.pdf", "application/pdf"),
    );
    let (_, v) = upload(&app, form).await;
    let d = app.wait_processed(v["id"].as_str().unwrap()).await;
    assert_eq!(d["status"], "failed", "{d}");
}
