//! GitHub's part of the engine: choosing repositories (and whether their
//! issues sync), registering webhooks for them when the server has a
//! public address, removing those hooks, and receiving their events.
//!
//! A hook's signing secret is derived from the sealing key for the
//! connection ([`engram_connect::seal::Sealer::derive`]), so nothing is
//! stored and no token write races with it; a hook registered before a key
//! rotation still checks while the old key is configured. A webhook event
//! never carries content in: a valid `push` to a chosen repository's
//! default branch, or an `issues` event, only makes the connection's sync
//! due now, and the sync reads GitHub as usual.

use super::invalid;
use crate::{Engine, EngineError};
use engram_connect::github::{self, GitHub, Repo};
use engram_store::{now, Connection, ConnectionPatch, ConnectionStatus};
use serde_json::{json, Map, Value};

/// What a configure for GitHub stores, and how many hooks it registered.
pub(super) struct Configured {
    pub config: Value,
    pub hooks: usize,
}

impl Engine {
    fn hook_secrets(&self, c: &Connection) -> Vec<String> {
        self.config
            .connect
            .sealer
            .derive(&format!("github-webhook/{}/{}", c.org_id, c.id))
    }

    /// Where GitHub sends a connection's events; None without a public
    /// address (GitHub could not reach a loopback one).
    fn hook_url(&self, c: &Connection) -> Option<String> {
        let base = self.config.connect.public_url.as_deref()?;
        Some(format!(
            "{}/v3/connections/{}/webhook",
            base.trim_end_matches('/'),
            c.id
        ))
    }

    /// Choose repositories: the new config, with webhooks registered for
    /// the chosen repositories (when the server has a public address) and
    /// removed from the ones no longer chosen.
    pub(super) async fn configure_github(
        &self,
        c: &Connection,
        resources: &[Value],
    ) -> Result<Configured, EngineError> {
        let repos = github_repositories(resources)?;
        let old: Map<String, Value> = c.config["webhooks"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let url = self.hook_url(c);
        let mut hooks = Map::new();
        if url.is_some() || !old.is_empty() {
            let (token, ep) = self.fresh_token(c).await.map_err(EngineError::from)?;
            let gh = GitHub {
                http: &self.api_http,
                api: &ep.api,
                token: &token,
            };
            for (repo, id) in &old {
                let still = url.is_some() && repos.iter().any(|r| &r.full_name == repo);
                if let (false, Some(id)) = (still, id.as_i64()) {
                    if let Err(e) = gh.delete_hook(repo, id).await {
                        tracing::warn!(connection = %c.id, %repo, "removing a GitHub webhook: {e}");
                    }
                }
            }
            if let Some(url) = &url {
                let secret = &self.hook_secrets(c)[0];
                for r in &repos {
                    match gh.register_hook(&r.full_name, url, secret).await {
                        Ok(id) => {
                            hooks.insert(r.full_name.clone(), id.into());
                        }
                        // no admin rights on the repository, say: scheduled syncs still run
                        Err(e) => tracing::warn!(
                            connection = %c.id, repo = %r.full_name,
                            "GitHub webhook not registered: {e}"
                        ),
                    }
                }
            }
        }
        let without_issues: Vec<&str> = repos
            .iter()
            .filter(|r| !r.issues)
            .map(|r| r.full_name.as_str())
            .collect();
        let n = hooks.len();
        Ok(Configured {
            config: json!({
                "repositories": repos.iter().map(|r| r.full_name.as_str()).collect::<Vec<_>>(),
                "withoutIssues": without_issues,
                "webhooks": hooks,
            }),
            hooks: n,
        })
    }

    /// Remove a connection's webhooks (before it is deleted); best effort.
    pub(super) async fn drop_github_hooks(&self, c: &Connection) {
        let Some(hooks) = c.config["webhooks"].as_object().filter(|h| !h.is_empty()) else {
            return;
        };
        let (token, ep) = match self.fresh_token(c).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(connection = %c.id, "cannot remove GitHub webhooks: {e}");
                return;
            }
        };
        let gh = GitHub {
            http: &self.api_http,
            api: &ep.api,
            token: &token,
        };
        for (repo, id) in hooks {
            if let Some(id) = id.as_i64() {
                if let Err(e) = gh.delete_hook(repo, id).await {
                    tracing::warn!(connection = %c.id, %repo, "removing a GitHub webhook: {e}");
                }
            }
        }
    }

    /// A GitHub webhook delivery for connection `id`: checked against the
    /// connection's signing secret, then a sync is made due when the event
    /// concerns a chosen repository. Answers whether a sync was queued.
    pub async fn github_webhook(
        &self,
        id: &str,
        event: &str,
        signature: Option<&str>,
        body: &[u8],
    ) -> Result<bool, EngineError> {
        let c = self
            .store
            .connection_by_id(id)
            .await?
            .filter(|c| c.provider == "github")
            .ok_or_else(|| EngineError::NotFound {
                what: "connection".into(),
            })?;
        let signature = signature.unwrap_or_default();
        if !self
            .hook_secrets(&c)
            .iter()
            .any(|s| github::verify_signature(s, body, signature))
        {
            return Err(EngineError::Permission(
                "the webhook's X-Hub-Signature-256 does not match".into(),
            ));
        }
        let payload: Value = serde_json::from_slice(body)
            .map_err(|e| invalid("body", format!("not a GitHub event: {e}")))?;
        let repo = payload["repository"]["full_name"]
            .as_str()
            .unwrap_or_default();
        let chosen = c.config["repositories"]
            .as_array()
            .is_some_and(|rs| rs.iter().any(|r| r.as_str() == Some(repo)));
        let relevant = match event {
            "push" => {
                let branch = payload["repository"]["default_branch"]
                    .as_str()
                    .unwrap_or("main");
                payload["ref"].as_str() == Some(&format!("refs/heads/{branch}"))
            }
            "issues" => !without_issues(&c).contains(&repo.to_string()),
            _ => false,
        };
        if !(chosen && relevant && c.status == ConnectionStatus::Active) {
            return Ok(false);
        }
        self.store
            .update_connection(
                &c.org_id,
                &c.id,
                ConnectionPatch {
                    next_sync_at: Some(Some(now())),
                    ..Default::default()
                },
            )
            .await?;
        self.wake_syncs();
        Ok(true)
    }
}

fn without_issues(c: &Connection) -> Vec<String> {
    c.config["withoutIssues"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

/// The repositories a connection syncs, from its config.
pub(super) fn chosen_repos(c: &Connection) -> Vec<Repo> {
    let skip = without_issues(c);
    c.config["repositories"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str())
        .map(|r| Repo {
            full_name: r.to_string(),
            issues: !skip.iter().any(|s| s == r),
        })
        .collect()
}

/// The repositories a GitHub `configure` names (by `full_name`), each with
/// `issues` (default true).
fn github_repositories(resources: &[Value]) -> Result<Vec<Repo>, EngineError> {
    let mut repos: Vec<Repo> = Vec::new();
    for (i, r) in resources.iter().enumerate() {
        let name = r["full_name"]
            .as_str()
            .or_else(|| r["fullName"].as_str())
            .or_else(|| r["name"].as_str().filter(|n| n.contains('/')))
            .or_else(|| r["id"].as_str().filter(|n| n.contains('/')));
        let Some(name) = name else {
            return Err(invalid(
                &format!("resources[{i}]"),
                "a repository is named by full_name (`owner/name`)",
            ));
        };
        let valid = name.split('/').count() == 2
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.'));
        if !valid {
            return Err(invalid(
                &format!("resources[{i}].full_name"),
                "must be `owner/name`",
            ));
        }
        let issues = match &r["issues"] {
            Value::Null => true,
            Value::Bool(b) => *b,
            _ => {
                return Err(invalid(
                    &format!("resources[{i}].issues"),
                    "must be true or false",
                ))
            }
        };
        if !repos.iter().any(|x| x.full_name == name) {
            repos.push(Repo {
                full_name: name.to_string(),
                issues,
            });
        }
    }
    Ok(repos)
}
