//! GitHub: the user's repositories as resources, and the text files
//! (markdown, plain text, reStructuredText, AsciiDoc) of the chosen ones
//! as documents. Incremental by commit: a repository whose default branch
//! has not moved costs one request; otherwise its tree is compared blob by
//! blob with the last sync's, so only added and changed files are fetched
//! and removed files delete their documents.
//!
//! Issues (not pull requests) of a repository become documents too, with
//! their first hundred comments, read incrementally with `since` (the
//! newest `updated_at` seen). A repository may opt out of them.
//!
//! Webhooks: [`GitHub::register_hook`] asks GitHub to POST `push` and
//! `issues` events to Engram, signed with a per-connection secret that
//! [`verify_signature`] checks; an event only starts a sync, it never
//! carries content in.
//!
//! Endpoints used (REST v3): `GET /user`, `GET /user/repos`,
//! `GET /repos/{repo}`, `GET /repos/{repo}/commits/{branch}`,
//! `GET /repos/{repo}/git/trees/{sha}?recursive=1`,
//! `GET /repos/{repo}/git/blobs/{sha}`, `GET /repos/{repo}/issues`,
//! `GET /repos/{repo}/issues/{n}/comments`, and `GET|POST|PATCH|DELETE
//! /repos/{repo}/hooks[/{id}]`.

use crate::{ConnectError, Item, Sink};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Files larger than this are not synced.
const MAX_FILE: u64 = 1024 * 1024;
const TEXT_EXTENSIONS: [&str; 7] = ["md", "mdx", "markdown", "txt", "rst", "adoc", "text"];

/// Whether a repository path is a text file worth syncing.
pub fn is_text_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((_, ext)) => TEXT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()),
        None => false,
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct RepoState {
    commit: String,
    /// path -> blob sha
    files: BTreeMap<String, String>,
    /// The newest `updated_at` among the issues synced: the next `since`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issues_since: Option<String>,
    /// Issue numbers synced.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    issues: BTreeSet<u64>,
}

/// A repository chosen for syncing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// `owner/name`.
    pub full_name: String,
    /// Whether its issues are synced too.
    pub issues: bool,
}

/// Issues read per page.
const ISSUES_PAGE: u32 = 100;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct State {
    #[serde(default)]
    repos: BTreeMap<String, RepoState>,
}

/// A GitHub API client for one connection.
pub struct GitHub<'a> {
    pub http: &'a reqwest::Client,
    /// `https://api.github.com` (or a stand-in).
    pub api: &'a str,
    pub token: &'a str,
}

impl GitHub<'_> {
    async fn get(&self, path: &str) -> Result<Value, ConnectError> {
        self.request(reqwest::Method::GET, path, None).await
    }

    /// One REST call; `Value::Null` for an empty answer (204).
    async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, ConnectError> {
        let url = format!("{}{path}", self.api.trim_end_matches('/'));
        let mut req = self
            .http
            .request(method, &url)
            .bearer_auth(self.token)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "Engram");
        if let Some(b) = body {
            req = req.json(b);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| ConnectError::Unavailable(format!("GitHub: {e}")))?;
        let status = resp.status().as_u16();
        let header = |n: &str| {
            resp.headers()
                .get(n)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        // GitHub's rate limit is a 403 (or 429) with the remaining count at 0
        if status == 403 || status == 429 {
            let exhausted = header("x-ratelimit-remaining").as_deref() == Some("0");
            if exhausted || status == 429 || header("retry-after").is_some() {
                let retry_after = header("retry-after")
                    .and_then(|v| v.parse::<u64>().ok())
                    .or_else(|| {
                        header("x-ratelimit-reset")
                            .and_then(|v| v.parse::<i64>().ok())
                            .map(|reset| (reset - chrono::Utc::now().timestamp()).max(1) as u64)
                    })
                    .map(Duration::from_secs);
                return Err(ConnectError::RateLimited { retry_after });
            }
        }
        if !(200..300).contains(&status) {
            return Err(ConnectError::from_status(
                status,
                header("retry-after").as_deref(),
                &format!("GitHub {path}"),
            ));
        }
        if status == 204 {
            return Ok(Value::Null);
        }
        resp.json()
            .await
            .map_err(|e| ConnectError::Internal(format!("GitHub {path}: {e}")))
    }

    /// The authorised account: (login, email).
    pub async fn user(&self) -> Result<(String, Option<String>), ConnectError> {
        let u = self.get("/user").await?;
        Ok((
            u["login"].as_str().unwrap_or_default().to_string(),
            u["email"].as_str().map(str::to_string),
        ))
    }

    /// One page of the user's repositories, most recently updated first,
    /// as resources (`id`, `name`, `full_name`, `private`, ...).
    pub async fn repositories(&self, page: u32, per_page: u32) -> Result<Vec<Value>, ConnectError> {
        let v = self
            .get(&format!(
                "/user/repos?sort=updated&page={page}&per_page={}",
                per_page.clamp(1, 100)
            ))
            .await?;
        let repos = v.as_array().cloned().unwrap_or_default();
        Ok(repos
            .into_iter()
            .map(|r| {
                serde_json::json!({
                    "id": r["id"],
                    "name": r["name"],
                    "full_name": r["full_name"],
                    "description": r["description"],
                    "private": r["private"],
                    "default_branch": r["default_branch"],
                    "html_url": r["html_url"],
                    "updated_at": r["updated_at"],
                })
            })
            .collect())
    }

    /// Sync the text files (and issues) of `repos` into `sink`.
    pub async fn sync(
        &self,
        repos: &[Repo],
        cursor: Value,
        sink: &mut dyn Sink,
    ) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        // repositories no longer chosen: their documents go
        let dropped: Vec<String> = state
            .repos
            .keys()
            .filter(|r| !repos.iter().any(|x| &x.full_name == *r))
            .cloned()
            .collect();
        for r in dropped {
            if let Some(old) = state.repos.remove(&r) {
                let mut gone: Vec<String> = old.files.keys().map(|p| item_id(&r, p)).collect();
                gone.extend(old.issues.iter().map(|n| issue_id(&r, *n)));
                sink.remove(gone).await?;
            }
        }
        for repo in repos {
            let full = &repo.full_name;
            let mut rs = state.repos.get(full).cloned().unwrap_or_default();
            self.sync_files(full, &mut rs, sink).await?;
            state.repos.insert(full.clone(), rs.clone());
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
            if repo.issues {
                self.sync_issues(full, &mut rs, sink).await?;
            } else if !rs.issues.is_empty() {
                sink.remove(rs.issues.iter().map(|n| issue_id(full, *n)).collect())
                    .await?;
                rs.issues.clear();
                rs.issues_since = None;
            }
            state.repos.insert(full.clone(), rs);
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }

    /// The text files of one repository, by commit then blob sha.
    async fn sync_files(
        &self,
        full: &str,
        rs: &mut RepoState,
        sink: &mut dyn Sink,
    ) -> Result<(), ConnectError> {
        let info = self.get(&format!("/repos/{full}")).await?;
        let branch = info["default_branch"]
            .as_str()
            .unwrap_or("main")
            .to_string();
        let html = info["html_url"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("https://github.com/{full}"));
        let head = self.get(&format!("/repos/{full}/commits/{branch}")).await?;
        let sha = head["sha"].as_str().unwrap_or_default().to_string();
        if !sha.is_empty() && sha == rs.commit {
            return Ok(());
        }
        let tree = self
            .get(&format!("/repos/{full}/git/trees/{sha}?recursive=1"))
            .await?;
        let mut now: BTreeMap<String, String> = BTreeMap::new();
        for e in tree["tree"].as_array().into_iter().flatten() {
            let (Some(path), Some(blob)) = (e["path"].as_str(), e["sha"].as_str()) else {
                continue;
            };
            if e["type"] == "blob"
                && is_text_path(path)
                && e["size"].as_u64().unwrap_or(0) <= MAX_FILE
            {
                now.insert(path.to_string(), blob.to_string());
            }
        }
        let mut kept: BTreeMap<String, String> = BTreeMap::new();
        for (path, blob) in &now {
            if rs.files.get(path) == Some(blob) {
                kept.insert(path.clone(), blob.clone());
                continue;
            }
            if !rs.files.contains_key(path) && sink.room() == 0 {
                continue;
            }
            let b = self.get(&format!("/repos/{full}/git/blobs/{blob}")).await?;
            let content = b["content"].as_str().unwrap_or_default();
            let bytes = if b["encoding"] == "base64" {
                base64::engine::general_purpose::STANDARD
                    .decode(content.replace(['\n', '\r'], ""))
                    .map_err(|e| ConnectError::Internal(format!("GitHub blob {blob}: {e}")))?
            } else {
                content.as_bytes().to_vec()
            };
            let mut metadata = serde_json::Map::new();
            metadata.insert("repository".into(), full.into());
            metadata.insert("path".into(), path.clone().into());
            metadata.insert("commit".into(), sha.clone().into());
            let filename = path.rsplit('/').next().map(str::to_string);
            sink.put(vec![Item {
                id: item_id(full, path),
                title: Some(format!("{full}: {path}")),
                url: Some(format!("{html}/blob/{branch}/{path}")),
                bytes,
                mime_type: None,
                filename,
                metadata,
            }])
            .await?;
            kept.insert(path.clone(), blob.clone());
        }
        let gone: Vec<String> = rs
            .files
            .keys()
            .filter(|p| !now.contains_key(*p))
            .map(|p| item_id(full, p))
            .collect();
        if !gone.is_empty() {
            sink.remove(gone).await?;
        }
        rs.commit = sha;
        rs.files = kept;
        Ok(())
    }

    /// The issues of one repository updated since the last sync, each
    /// with its comments.
    async fn sync_issues(
        &self,
        full: &str,
        rs: &mut RepoState,
        sink: &mut dyn Sink,
    ) -> Result<(), ConnectError> {
        let since = rs
            .issues_since
            .as_deref()
            .map(|s| format!("&since={s}"))
            .unwrap_or_default();
        let mut newest = rs.issues_since.clone();
        for page in 1.. {
            let list = self
                .get(&format!(
                    "/repos/{full}/issues?state=all&sort=updated&direction=asc&per_page={ISSUES_PAGE}&page={page}{since}"
                ))
                .await?;
            let issues = list.as_array().cloned().unwrap_or_default();
            for issue in &issues {
                // pull requests are issues too in this API
                if issue.get("pull_request").is_some_and(|p| !p.is_null()) {
                    continue;
                }
                let Some(n) = issue["number"].as_u64() else {
                    continue;
                };
                let updated = issue["updated_at"].as_str().unwrap_or_default();
                // `since` includes its own second: a known issue no newer
                // than the last sync's newest is unchanged
                if rs.issues.contains(&n)
                    && rs.issues_since.as_deref().is_some_and(|w| updated <= w)
                {
                    continue;
                }
                if newest.as_deref().is_none_or(|w| updated > w) {
                    newest = Some(updated.to_string());
                }
                if !rs.issues.contains(&n) && sink.room() == 0 {
                    continue;
                }
                let comments = if issue["comments"].as_u64().unwrap_or(0) > 0 {
                    self.get(&format!("/repos/{full}/issues/{n}/comments?per_page=100"))
                        .await?
                        .as_array()
                        .cloned()
                        .unwrap_or_default()
                } else {
                    Vec::new()
                };
                sink.put(vec![issue_item(full, issue, &comments)]).await?;
                rs.issues.insert(n);
            }
            if issues.len() < ISSUES_PAGE as usize {
                break;
            }
        }
        rs.issues_since = newest;
        Ok(())
    }

    /// Ask GitHub to send `push` and `issues` events of `repo` to `url`,
    /// signed with `secret`; an existing hook to `url` is updated rather
    /// than doubled. Answers the hook's id.
    pub async fn register_hook(
        &self,
        repo: &str,
        url: &str,
        secret: &str,
    ) -> Result<i64, ConnectError> {
        let config = serde_json::json!({
            "url": url,
            "content_type": "json",
            "secret": secret,
            "insecure_ssl": "0",
        });
        let hooks = self
            .get(&format!("/repos/{repo}/hooks?per_page=100"))
            .await?;
        let existing = hooks
            .as_array()
            .into_iter()
            .flatten()
            .find(|h| h["config"]["url"].as_str() == Some(url))
            .and_then(|h| h["id"].as_i64());
        let body = serde_json::json!({
            "name": "web",
            "active": true,
            "events": ["push", "issues"],
            "config": config,
        });
        let hook = match existing {
            Some(id) => {
                self.request(
                    reqwest::Method::PATCH,
                    &format!("/repos/{repo}/hooks/{id}"),
                    Some(&body),
                )
                .await?
            }
            None => {
                self.request(
                    reqwest::Method::POST,
                    &format!("/repos/{repo}/hooks"),
                    Some(&body),
                )
                .await?
            }
        };
        hook["id"]
            .as_i64()
            .or(existing)
            .ok_or_else(|| ConnectError::Internal(format!("GitHub gave no hook id for {repo}")))
    }

    /// Remove a hook registered by [`Self::register_hook`].
    pub async fn delete_hook(&self, repo: &str, id: i64) -> Result<(), ConnectError> {
        self.request(
            reqwest::Method::DELETE,
            &format!("/repos/{repo}/hooks/{id}"),
            None,
        )
        .await
        .map(|_| ())
    }
}

/// One issue and its comments as a markdown document.
fn issue_item(full: &str, issue: &Value, comments: &[Value]) -> Item {
    let n = issue["number"].as_u64().unwrap_or_default();
    let title = issue["title"].as_str().unwrap_or_default();
    let state = issue["state"].as_str().unwrap_or("open");
    let author = issue["user"]["login"].as_str().unwrap_or("someone");
    let labels: Vec<&str> = issue["labels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["name"].as_str().or_else(|| l.as_str()))
        .collect();
    let mut md = format!("# {title} (#{n})\n\nIssue in {full}, {state}, opened by {author}");
    if !labels.is_empty() {
        md.push_str(&format!("; labels: {}", labels.join(", ")));
    }
    md.push_str(".\n\n");
    if let Some(body) = issue["body"].as_str().filter(|b| !b.trim().is_empty()) {
        md.push_str(body.trim());
        md.push_str("\n\n");
    }
    for c in comments {
        let who = c["user"]["login"].as_str().unwrap_or("someone");
        let at = c["created_at"].as_str().unwrap_or_default();
        let body = c["body"].as_str().unwrap_or_default().trim();
        if !body.is_empty() {
            md.push_str(&format!("## {who} commented {at}\n\n{body}\n\n"));
        }
    }
    let mut metadata = serde_json::Map::new();
    metadata.insert("repository".into(), full.into());
    metadata.insert("issue".into(), n.into());
    metadata.insert("state".into(), state.into());
    if !labels.is_empty() {
        metadata.insert(
            "labels".into(),
            labels
                .iter()
                .map(|l| Value::from(*l))
                .collect::<Vec<_>>()
                .into(),
        );
    }
    Item {
        id: issue_id(full, n),
        title: Some(format!("{full}#{n}: {title}")),
        url: issue["html_url"].as_str().map(str::to_string),
        bytes: md.into_bytes(),
        mime_type: Some("text/markdown".into()),
        filename: None,
        metadata,
    }
}

/// Whether `signature` (`X-Hub-Signature-256`: `sha256=<hex>`) is the
/// HMAC-SHA256 of `body` under `secret`; compared in constant time.
pub fn verify_signature(secret: &str, body: &[u8], signature: &str) -> bool {
    let Some(hex_sig) = signature.trim().strip_prefix("sha256=") else {
        return false;
    };
    let Ok(tag) = hex::decode(hex_sig) else {
        return false;
    };
    let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, secret.as_bytes());
    aws_lc_rs::hmac::verify(&key, body, &tag).is_ok()
}

/// The signature GitHub sends for `body` (for tests and stand-ins).
pub fn sign(secret: &str, body: &[u8]) -> String {
    let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, secret.as_bytes());
    format!(
        "sha256={}",
        hex::encode(aws_lc_rs::hmac::sign(&key, body).as_ref())
    )
}

/// The provider id of an issue: `owner/name#n`.
pub fn issue_id(repo: &str, n: u64) -> String {
    format!("{repo}#{n}")
}

/// The provider id of a file: `owner/name/path`.
pub fn item_id(repo: &str, path: &str) -> String {
    format!("{repo}/{path}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_paths() {
        for p in ["README.md", "docs/a.MDX", "notes.txt", "x/y.rst"] {
            assert!(super::is_text_path(p), "{p}");
        }
        for p in ["main.rs", "Makefile", "img.png", ".md/x"] {
            assert!(!super::is_text_path(p), "{p}");
        }
    }

    #[test]
    fn signatures() {
        let sig = super::sign("s3cret", b"{\"zen\":\"hi\"}");
        assert!(super::verify_signature("s3cret", b"{\"zen\":\"hi\"}", &sig));
        assert!(!super::verify_signature("other", b"{\"zen\":\"hi\"}", &sig));
        assert!(!super::verify_signature(
            "s3cret",
            b"{\"zen\":\"ho\"}",
            &sig
        ));
        assert!(!super::verify_signature("s3cret", b"x", "sha1=00"));
        assert!(!super::verify_signature("s3cret", b"x", "sha256=zz"));
    }

    #[test]
    fn an_issue_reads_as_markdown() {
        let issue = serde_json::json!({"number": 7, "title": "Tide tables wrong", "state": "closed",
            "user": {"login": "ana"}, "labels": [{"name": "bug"}], "body": "March is off by an hour.",
            "html_url": "https://github.com/o/r/issues/7"});
        let c = [
            serde_json::json!({"user": {"login": "bo"}, "created_at": "2026-03-02T10:00:00Z",
            "body": "Fixed in the daylight-saving table."}),
        ];
        let it = super::issue_item("o/r", &issue, &c);
        let md = String::from_utf8(it.bytes).unwrap();
        assert_eq!(it.id, "o/r#7");
        assert!(
            md.starts_with(
                "# Tide tables wrong (#7)\n\nIssue in o/r, closed, opened by ana; labels: bug."
            ),
            "{md}"
        );
        assert!(md.contains("March is off by an hour."));
        assert!(md.contains(
            "## bo commented 2026-03-02T10:00:00Z\n\nFixed in the daylight-saving table."
        ));
        assert_eq!(it.metadata["labels"], serde_json::json!(["bug"]));
    }
}
