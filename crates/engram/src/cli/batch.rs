//! `engram add --batch FILE|FOLDER`: many documents at once, from a JSON
//! array (strings, or objects with `content`, `customId`, `metadata`,
//! `containerTag(s)`) or from the text files of a folder (each with its
//! relative path as `filepath`, and as custom id with `/` as `:`), sent 100 a request, with a
//! progress bar on stderr (only on a terminal, never with `--json`).

use super::{print, CliError, Common};
use engram_api::BatchAddRequest;
use engram_client::Client;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// Documents sent in one request.
const PER_REQUEST: usize = 100;
/// Text files a folder batch takes (by extension).
const TEXT_EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "text", "rst", "html", "htm", "csv", "json",
];

fn bad(message: impl Into<String>) -> CliError {
    CliError::new(1, "invalid_input", message)
}

/// The documents `path` holds, as batch items.
pub fn items(path: &Path) -> Result<Vec<Value>, CliError> {
    if path.is_dir() {
        let mut files = Vec::new();
        collect(path, path, &mut files)?;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        return Ok(files
            .into_iter()
            .map(|(rel, content)| {
                json!({"content": content, "customId": custom_id_of(&rel), "filepath": format!("/{rel}")})
            })
            .collect());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{} is not JSON: {e}", path.display())))?;
    let Value::Array(list) = v else {
        return Err(bad("a batch file holds a JSON array of documents"));
    };
    list.into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(json!({"content": s})),
            Value::Object(o) if o.get("content").is_some_and(Value::is_string) => {
                Ok(Value::Object(o))
            }
            _ => Err(bad(format!(
                "item {i}: a string, or an object with a `content` string"
            ))),
        })
        .collect()
}

/// A relative path as a custom id (`notes/a b.md` -> `notes:a_b.md`):
/// custom ids allow letters, digits and `_:.-` only.
fn custom_id_of(rel: &str) -> String {
    rel.chars()
        .map(|c| match c {
            '/' => ':',
            c if c.is_ascii_alphanumeric() || "_:.-".contains(c) => c,
            _ => '_',
        })
        .take(100)
        .collect()
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), CliError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| bad(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| TEXT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            if let Ok(content) = std::fs::read_to_string(&path) {
                if !content.trim().is_empty() {
                    let rel = path
                        .strip_prefix(root)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .replace('\\', "/");
                    out.push((rel, content));
                }
            }
        }
    }
    Ok(())
}

pub async fn add_batch(
    client: &Client,
    common: &Common,
    path: &Path,
    tags: &[String],
    wait: bool,
) -> Result<(), CliError> {
    let base = client.base().to_string();
    let docs = items(path)?;
    if docs.is_empty() {
        return Err(bad(format!("{} holds no documents", path.display())));
    }
    let sending = super::progress(common, docs.len() as u64, "sending");
    let (mut ids, mut failed) = (Vec::new(), Vec::new());
    for chunk in docs.chunks(PER_REQUEST) {
        let req = BatchAddRequest {
            documents: chunk.to_vec(),
            container_tags: (!tags.is_empty()).then(|| tags.to_vec()),
            ..Default::default()
        };
        let out = client
            .add_batch(&req)
            .await
            .map_err(|e| CliError::from_client(e, &base))?;
        for r in out.results {
            if r.status == "error" {
                failed.push(json!({"error": r.error, "details": r.details}));
            } else {
                ids.push(r.id);
            }
        }
        sending.inc(chunk.len() as u64);
    }
    sending.finish_and_clear();
    if wait && !ids.is_empty() {
        let done = super::progress(common, ids.len() as u64, "processing");
        loop {
            let p = client
                .processing()
                .await
                .map_err(|e| CliError::from_client(e, &base))?;
            let pending = p.documents.iter().filter(|d| ids.contains(&d.id)).count();
            done.set_position((ids.len() - pending) as u64);
            if pending == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        done.finish_and_clear();
    }
    let summary = json!({"added": ids.len(), "failed": failed.len(), "ids": ids, "errors": failed});
    if !failed.is_empty() {
        let mut e = CliError::new(
            1,
            "partly_failed",
            format!(
                "{} of {} documents were not added",
                failed.len(),
                docs.len()
            ),
        );
        e.details = Some(summary);
        return Err(e);
    }
    print(common, &summary, || {
        format!("added {} documents", ids.len())
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_arrays_become_items() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("a.md"), "# A").unwrap();
        std::fs::write(dir.path().join("sub/b.txt"), "B").unwrap();
        std::fs::write(dir.path().join("image.png"), [0u8, 1, 2]).unwrap();
        std::fs::write(dir.path().join(".hidden.md"), "h").unwrap();
        let got = items(dir.path()).unwrap();
        let ids: Vec<&str> = got
            .iter()
            .map(|v| v["customId"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["a.md", "sub:b.txt"]);
        assert_eq!(custom_id_of("x y/ä.md"), "x_y:_.md");
        assert_eq!(got[1]["filepath"], "/sub/b.txt");
        let file = dir.path().join("batch.json");
        std::fs::write(&file, r#"["one", {"content": "two", "customId": "t"}]"#).unwrap();
        let got = items(&file).unwrap();
        assert_eq!(got[0], json!({"content": "one"}));
        assert_eq!(got[1]["customId"], "t");
        std::fs::write(&file, r#"[{"title": "no content"}]"#).unwrap();
        assert!(items(&file).is_err());
        std::fs::write(&file, r#"{"content": "not an array"}"#).unwrap();
        assert!(items(&file).is_err());
    }
}
