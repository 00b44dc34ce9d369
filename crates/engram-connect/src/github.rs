//! GitHub: the user's repositories as resources, and the text files
//! (markdown, plain text, reStructuredText, AsciiDoc) of the chosen ones
//! as documents. Incremental by commit: a repository whose default branch
//! has not moved costs one request; otherwise its tree is compared blob by
//! blob with the last sync's, so only added and changed files are fetched
//! and removed files delete their documents.
//!
//! Endpoints used (REST v3): `GET /user`, `GET /user/repos`,
//! `GET /repos/{repo}`, `GET /repos/{repo}/commits/{branch}`,
//! `GET /repos/{repo}/git/trees/{sha}?recursive=1`,
//! `GET /repos/{repo}/git/blobs/{sha}`.

use crate::{ConnectError, Item, Sink};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
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
}

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
        let url = format!("{}{path}", self.api.trim_end_matches('/'));
        let resp = self
            .http
            .get(&url)
            .bearer_auth(self.token)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "Engram")
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

    /// Sync the text files of `repos` (`owner/name`) into `sink`.
    pub async fn sync(
        &self,
        repos: &[String],
        cursor: Value,
        sink: &mut dyn Sink,
    ) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        // repositories no longer chosen: their documents go
        let dropped: Vec<String> = state
            .repos
            .keys()
            .filter(|r| !repos.contains(r))
            .cloned()
            .collect();
        for r in dropped {
            if let Some(old) = state.repos.remove(&r) {
                sink.remove(old.files.keys().map(|p| item_id(&r, p)).collect())
                    .await?;
            }
        }
        for full in repos {
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
            let old = state.repos.get(full).cloned().unwrap_or_default();
            if !sha.is_empty() && sha == old.commit {
                continue;
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
                if old.files.get(path) == Some(blob) {
                    kept.insert(path.clone(), blob.clone());
                    continue;
                }
                if !old.files.contains_key(path) && sink.room() == 0 {
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
                metadata.insert("repository".into(), full.clone().into());
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
            let gone: Vec<String> = old
                .files
                .keys()
                .filter(|p| !now.contains_key(*p))
                .map(|p| item_id(full, p))
                .collect();
            if !gone.is_empty() {
                sink.remove(gone).await?;
            }
            state.repos.insert(
                full.clone(),
                RepoState {
                    commit: sha,
                    files: kept,
                },
            );
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }
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
}
