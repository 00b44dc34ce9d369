//! Compact forms of requests and answers for the request log: enough to
//! see what was asked and what came back, never a whole document and never
//! a secret.
//!
//! Rules: strings longer than [`MAX_STRING`] characters are cut (with the
//! full length noted); arrays keep their first [`MAX_ITEMS`] items (with
//! the count noted); objects nest at most [`MAX_DEPTH`] deep; fields whose
//! names say secret, token, password or key (other than ids) read
//! `"[redacted]"`. An answer's arrays become counts (`results` gives
//! `resultCount`), and a `timing` becomes `processingTime` (ms).

use serde_json::{Map, Value};

/// Longest string kept whole, in characters.
pub const MAX_STRING: usize = 200;
/// Array items kept.
pub const MAX_ITEMS: usize = 10;
/// Deepest object level kept.
pub const MAX_DEPTH: usize = 3;
/// Bodies larger than this are summarised by size only.
pub const MAX_PARSED_BYTES: usize = 16 * 1024 * 1024;

/// Whether a field name holds a secret.
pub fn is_secret(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    if n.ends_with("id") || n.ends_with("ids") || n == "keyname" {
        return false;
    }
    n.contains("secret")
        || n.contains("token") && !n.contains("tokens")
        || n.contains("password")
        || n == "key"
        || n.ends_with("apikey")
        || n.ends_with("_key")
        || n == "authorization"
}

fn cut(s: &str) -> Value {
    let n = s.chars().count();
    if n <= MAX_STRING {
        return Value::String(s.to_string());
    }
    let head: String = s.chars().take(MAX_STRING).collect();
    Value::String(format!("{head}… ({n} chars)"))
}

fn compact_value(v: &Value, depth: usize) -> Value {
    match v {
        Value::String(s) => cut(s),
        Value::Array(items) => {
            if depth >= MAX_DEPTH {
                return Value::String(format!("[{} items]", items.len()));
            }
            let mut out: Vec<Value> = items
                .iter()
                .take(MAX_ITEMS)
                .map(|i| compact_value(i, depth + 1))
                .collect();
            if items.len() > MAX_ITEMS {
                out.push(Value::String(format!("… {} more", items.len() - MAX_ITEMS)));
            }
            Value::Array(out)
        }
        Value::Object(m) => {
            if depth >= MAX_DEPTH {
                return Value::String(format!("{{{} fields}}", m.len()));
            }
            Value::Object(compact_object(m, depth + 1))
        }
        other => other.clone(),
    }
}

fn compact_object(m: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    m.iter()
        .map(|(k, v)| {
            let v = if is_secret(k) && !v.is_null() {
                Value::String("[redacted]".into())
            } else {
                compact_value(v, depth)
            };
            (k.clone(), v)
        })
        .collect()
}

/// The compact form of a request: its JSON body's fields (a non-object
/// body under `body`), with `params` (path) and `query` added when there
/// are any.
pub fn input(body: &[u8], params: Map<String, Value>, query: Map<String, Value>) -> Value {
    let mut out = Map::new();
    if !body.is_empty() {
        match parse(body) {
            Some(Value::Object(m)) => out = compact_object(&m, 1),
            Some(other) => {
                out.insert("body".into(), compact_value(&other, 1));
            }
            None => {
                out.insert("bytes".into(), body.len().into());
            }
        }
    }
    for (name, map) in [("params", params), ("query", query)] {
        if !map.is_empty() {
            out.insert(name.into(), Value::Object(compact_object(&map, 1)));
        }
    }
    Value::Object(out)
}

/// The compact form of an answer: top-level scalars (cut, secrets
/// redacted), each array as a count (`results` as `resultCount`, others
/// as `<name>Count`), small objects compacted, `timing` as
/// `processingTime`.
pub fn output(body: &[u8]) -> Value {
    let mut out = Map::new();
    match parse(body) {
        Some(Value::Object(m)) => {
            for (k, v) in &m {
                if is_secret(k) {
                    out.insert(k.clone(), Value::String("[redacted]".into()));
                    continue;
                }
                match v {
                    Value::Array(items) => {
                        let name = if k == "results" {
                            "resultCount".to_string()
                        } else {
                            format!("{k}Count")
                        };
                        out.insert(name, items.len().into());
                    }
                    Value::Object(inner) if inner.len() <= 8 => {
                        out.insert(k.clone(), Value::Object(compact_object(inner, 2)));
                    }
                    Value::Object(inner) => {
                        out.insert(format!("{k}Count"), inner.len().into());
                    }
                    _ if k == "timing" => {
                        out.insert("processingTime".into(), v.clone());
                    }
                    _ => {
                        out.insert(k.clone(), compact_value(v, 1));
                    }
                }
            }
        }
        Some(Value::Array(items)) => {
            out.insert("resultCount".into(), items.len().into());
        }
        Some(other) => {
            out.insert("body".into(), compact_value(&other, 1));
        }
        None if !body.is_empty() => {
            out.insert("bytes".into(), body.len().into());
        }
        None => {}
    }
    Value::Object(out)
}

fn parse(body: &[u8]) -> Option<Value> {
    if body.len() > MAX_PARSED_BYTES {
        return None;
    }
    serde_json::from_slice(body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check_input(body: Value, expect: Value) {
        let got = input(body.to_string().as_bytes(), Map::new(), Map::new());
        assert_eq!(got, expect);
    }

    #[test]
    fn requests_keep_their_shape_without_documents_or_secrets() {
        let long = "word ".repeat(100);
        check_input(
            json!({"q": "coffee", "containerTag": "u1", "limit": 5, "rerank": true}),
            json!({"q": "coffee", "containerTag": "u1", "limit": 5, "rerank": true}),
        );
        let got = input(
            json!({"content": long, "metadata": {"a": {"b": {"c": 1}}}})
                .to_string()
                .as_bytes(),
            Map::new(),
            Map::new(),
        );
        let content = got["content"].as_str().unwrap();
        assert!(content.ends_with("… (500 chars)"), "{content}");
        assert!(content.chars().count() < 220);
        assert_eq!(got["metadata"], json!({"a": {"b": "{1 fields}"}}));
        check_input(
            json!({"googleDriveClientSecret": "s3cr3t", "key": "em_x", "apiKey": "k",
                   "keyId": "abc", "refreshToken": "t", "chunkSize": 512, "maxTokens": 9}),
            json!({"googleDriveClientSecret": "[redacted]", "key": "[redacted]", "apiKey": "[redacted]",
                   "keyId": "abc", "refreshToken": "[redacted]", "chunkSize": 512, "maxTokens": 9}),
        );
        let many: Vec<Value> = (0..25)
            .map(|i| json!({"content": format!("doc {i}")}))
            .collect();
        let got = input(
            json!({"documents": many}).to_string().as_bytes(),
            Map::new(),
            Map::new(),
        );
        let docs = got["documents"].as_array().unwrap();
        assert_eq!(docs.len(), MAX_ITEMS + 1);
        assert_eq!(docs[MAX_ITEMS], json!("… 15 more"));
        let mut params = Map::new();
        params.insert("id".into(), json!("doc1"));
        assert_eq!(
            input(b"", params, Map::new()),
            json!({"params": {"id": "doc1"}})
        );
        assert_eq!(
            input(b"not json", Map::new(), Map::new()),
            json!({"bytes": 8})
        );
    }

    #[test]
    fn answers_become_counts_and_timing() {
        let got = output(
            json!({"results": [1, 2, 3], "total": 3, "timing": 12, "memories": [],
                   "pagination": {"currentPage": 1, "totalPages": 2}})
            .to_string()
            .as_bytes(),
        );
        assert_eq!(
            got,
            json!({"resultCount": 3, "total": 3, "processingTime": 12, "memoriesCount": 0,
                   "pagination": {"currentPage": 1, "totalPages": 2}})
        );
        let got = output(
            json!({"id": "k1", "key": "em_secret", "name": "ci"})
                .to_string()
                .as_bytes(),
        );
        assert_eq!(got, json!({"id": "k1", "key": "[redacted]", "name": "ci"}));
        let got = output(
            json!({"error": "Invalid request parameters", "details": "limit: too big", "type": "ValidationError"})
                .to_string()
                .as_bytes(),
        );
        assert_eq!(got["type"], "ValidationError");
        assert_eq!(output(b""), json!({}));
    }
}
