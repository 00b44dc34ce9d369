//! `engram documents` and the parts of `add` and `search` that reach
//! beyond JSON: a binary file (a PDF) uploaded as a file, `--title`, and
//! `search --include`.

use super::*;

/// A one-page PDF that says `text` (Helvetica, one line), with a correct
/// cross-reference table.
fn pdf(text: &str) -> Vec<u8> {
    let stream = format!("BT /F1 18 Tf 72 720 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
    ];
    // a binary comment line marks the file as binary, as real PDFs do
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
fn documents_are_listed_read_and_deleted_and_files_upload() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let _srv = start(&data, &cfg, free_port());
    let json = |out: &str| -> Value { serde_json::from_str(out).unwrap_or(Value::Null) };

    // a PDF is not text: `add` uploads it as a file, and the server reads it
    let file = tmp.path().join("hives.pdf");
    std::fs::write(&file, pdf("Ana keeps three beehives in Sintra.")).unwrap();
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "add",
            file.to_str().unwrap(),
            "--tag",
            "ana",
            "--id",
            "ana-hives",
            "--title",
            "Hives",
            "--metadata",
            r#"{"source": "scan"}"#,
            "--wait",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let doc = json(&out);
    assert_eq!(doc["status"], "done", "{out}");
    assert_eq!(doc["customId"], "ana-hives");
    assert_eq!(doc["metadata"]["title"], "Hives");
    assert_eq!(doc["metadata"]["source"], "scan");
    assert_eq!(doc["containerTags"], json!(["ana"]));

    let (code, out, _) = client(&cfg, &[], &["documents", "chunks", "ana-hives", "--json"]);
    assert_eq!(code, 0);
    let chunks = json(&out);
    assert!(
        chunks["chunks"][0]["content"]
            .as_str()
            .unwrap()
            .contains("beehives"),
        "{out}"
    );
    let (code, out, _) = client(&cfg, &[], &["documents", "chunks", "ana-hives"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("[0] ") && out.contains("Sintra"), "{out}");

    // list, get, status
    let (code, out, _) = client(
        &cfg,
        &[],
        &["add", "Ben plays the cello.", "--tag", "ben", "--wait"],
    );
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = client(&cfg, &[], &["documents", "list", "--tag", "ana", "--json"]);
    assert_eq!(code, 0);
    let list = json(&out);
    assert_eq!(list["pagination"]["totalItems"], 1, "{out}");
    assert_eq!(list["memories"][0]["customId"], "ana-hives");
    let (code, out, _) = client(
        &cfg,
        &[],
        &[
            "documents",
            "list",
            "--filter",
            r#"{"AND": [{"key": "source", "value": "scan"}]}"#,
        ],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("ana-hives") && !out.contains("ben") && out.contains("page 1 of 1"),
        "{out}"
    );
    let (code, out, _) = client(&cfg, &[], &["documents", "get", "ana-hives"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("status:  done") && out.contains("title:"),
        "{out}"
    );
    let (code, out, _) = client(&cfg, &[], &["documents", "status", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["documents"], json!([]), "{out}");

    // search can bring the document and related memories along
    let (code, out, err) = client(
        &cfg,
        &[],
        &[
            "search",
            "How many beehives does Ana keep?",
            "--tag",
            "ana",
            "--threshold",
            "0",
            "--include",
            "documents,related",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let found = json(&out);
    let first = &found["results"][0];
    assert!(
        first["memory"].as_str().unwrap_or("").contains("beehives"),
        "{out}"
    );
    assert_eq!(first["documents"][0]["id"], doc["id"], "{out}");
    assert!(first.get("context").is_some(), "{out}");
    // a usage error is 1, never 2 (which means a key is needed)
    let (code, _, err) = client(&cfg, &[], &["search", "x", "--include", "everything"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("possible values"), "{err}");

    // delete asks first; a missing document is 4
    let (code, out, _) = client(&cfg, &[], &["documents", "delete", "ana-hives", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"], "confirmation_required");
    let (code, out, err) = client(&cfg, &[], &["documents", "delete", "ana-hives", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("deleted ana-hives"), "{out}");
    let (code, out, _) = client(&cfg, &[], &["documents", "get", "ana-hives", "--json"]);
    assert_eq!(code, 4, "{out}");
    assert_eq!(json(&out)["error"], "not_found");
}
