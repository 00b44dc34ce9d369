//! Connections: creating them (an authorisation link for OAuth providers,
//! straight to syncing for the crawler), the OAuth callback, listing,
//! deleting, choosing resources, and asking for a sync now. Syncing itself
//! is in [`sync`]; it runs in the background on a lease, so that any
//! replica may run any connection's sync and a dead one's is taken over.
//!
//! Secrets (tokens, the PKCE verifier, access keys) are sealed with the
//! engine's [`Sealer`] bound to the organisation and connection, and never
//! leave the engine: answers show a connection's public settings only.

mod authorise;
mod github;
mod s3;
pub mod sync;

use crate::{Engine, EngineError};
use engram_connect::oauth::{self, Client, Endpoints, Tokens};
use engram_connect::seal::Sealer;
use engram_connect::{is_provider, ConnectError};
use engram_core::{Metadata, ValidationError};
use engram_store::{
    now, Connection, ConnectionPatch, ConnectionQuery, ConnectionStatus, Document, NewConnection,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The most documents one connection may hold, and its default.
pub const MAX_DOCUMENT_LIMIT: i64 = 10_000;
/// How long an authorisation link stays valid.
pub const AUTH_LINK_TTL: Duration = Duration::from_secs(3600);

/// Metadata keys that are secrets: taken out of the connection's metadata
/// and sealed.
const SECRET_KEYS: [&str; 4] = ["accessKeyId", "secretAccessKey", "sessionToken", "token"];

/// Connection settings of the engine.
#[derive(Clone)]
pub struct ConnectConfig {
    /// Seals connector secrets. `engram serve` reads the key from its
    /// configuration or the data directory.
    pub sealer: Arc<Sealer>,
    /// The server's public address, for the OAuth callback
    /// (`{public_url}/v3/connections/callback`); when unset, the address
    /// the creating request was sent to.
    pub public_url: Option<String>,
    /// Providers' endpoints where they differ from the public ones (tests,
    /// GitHub Enterprise).
    pub endpoints: HashMap<String, Endpoints>,
    /// OAuth clients from the server's configuration, by provider (an
    /// organisation's own settings take precedence).
    pub clients: HashMap<String, Client>,
    /// Time between scheduled syncs of a connection.
    pub sync_interval: Duration,
    /// The least time between two requests of the crawler to one site.
    pub crawl_delay: Duration,
    /// How long a sync's lease lasts (renewed while it runs).
    pub lease: Duration,
    /// How often the sync runner looks for due syncs.
    pub poll_interval: Duration,
}

impl std::fmt::Debug for ConnectConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectConfig")
            .field("public_url", &self.public_url)
            .field("sync_interval", &self.sync_interval)
            .finish_non_exhaustive()
    }
}

impl Default for ConnectConfig {
    fn default() -> Self {
        let key = engram_connect::seal::parse_key(&engram_connect::seal::generate_key())
            .expect("a generated key parses");
        Self {
            sealer: Arc::new(Sealer::new(&key, &[])),
            public_url: None,
            endpoints: HashMap::new(),
            clients: HashMap::new(),
            sync_interval: Duration::from_secs(3600),
            crawl_delay: Duration::from_millis(500),
            lease: Duration::from_secs(60),
            poll_interval: Duration::from_secs(2),
        }
    }
}

/// What a connection's secrets hold (sealed as JSON).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Secrets {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pkce_verifier: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    /// Secret metadata values (S3 access keys).
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub values: Metadata,
}

/// A request to create a connection.
#[derive(Debug, Clone, Default)]
pub struct CreateConnection {
    pub provider: String,
    pub container_tags: Vec<String>,
    pub document_limit: Option<i64>,
    pub metadata: Metadata,
    pub redirect_url: Option<String>,
    /// Where this server was reached (`scheme://host`), for the callback
    /// when no public URL is configured.
    pub reached_at: Option<String>,
}

/// What creating a connection answers.
#[derive(Debug, Clone)]
pub struct Created {
    pub connection: Connection,
    /// Where to send the user (empty for providers without OAuth).
    pub auth_link: String,
    pub expires_in: String,
}

/// Where the OAuth callback sends the browser.
#[derive(Debug, Clone)]
pub enum Callback {
    /// To the client's `redirectUrl`.
    Redirect(String),
    /// No redirect URL: a page saying how it went.
    Done {
        provider: String,
        ok: bool,
        message: String,
    },
}

fn invalid(field: &str, message: impl Into<String>) -> EngineError {
    EngineError::Validation(ValidationError::new(field, message))
}

impl Engine {
    fn sealer(&self) -> &Sealer {
        &self.config.connect.sealer
    }

    fn seal_context(org_id: &str, id: &str) -> String {
        format!("{org_id}/{id}")
    }

    pub(crate) fn open_secrets(&self, c: &Connection) -> Result<Secrets, EngineError> {
        let Some(sealed) = &c.secrets else {
            return Ok(Secrets::default());
        };
        let plain = self
            .sealer()
            .open(sealed, &Self::seal_context(&c.org_id, &c.id))
            .map_err(|e| EngineError::Unavailable(e.to_string()))?;
        serde_json::from_slice(&plain)
            .map_err(|e| EngineError::Unavailable(format!("connection secrets: {e}")))
    }

    pub(crate) fn seal_secrets(&self, org_id: &str, id: &str, s: &Secrets) -> Vec<u8> {
        let plain = serde_json::to_vec(s).unwrap_or_default();
        self.sealer().seal(&plain, &Self::seal_context(org_id, id))
    }

    /// A provider's endpoints (configured, or its public ones).
    pub(crate) fn endpoints(&self, provider: &str) -> Option<Endpoints> {
        self.config
            .connect
            .endpoints
            .get(provider)
            .cloned()
            .or_else(|| Endpoints::default_for(provider))
    }

    fn callback_url(&self, reached_at: Option<&str>) -> String {
        let base = self
            .config
            .connect
            .public_url
            .as_deref()
            .or(reached_at)
            .unwrap_or("http://127.0.0.1:8080");
        format!("{}/v3/connections/callback", base.trim_end_matches('/'))
    }

    /// Create a connection.
    pub async fn create_connection(
        &self,
        org_id: &str,
        req: CreateConnection,
    ) -> Result<Created, EngineError> {
        let provider = req.provider.as_str();
        if !is_provider(provider) {
            return Err(EngineError::NotFound {
                what: format!("provider `{provider}`"),
            });
        }
        if !sync::SYNCED.contains(&provider) {
            return Err(EngineError::Unsupported(format!(
                "the {provider} connector is not available in this build yet (available: {})",
                sync::SYNCED.join(", ")
            )));
        }
        let limit = req.document_limit.unwrap_or(MAX_DOCUMENT_LIMIT);
        if !(1..=MAX_DOCUMENT_LIMIT).contains(&limit) {
            return Err(invalid(
                "documentLimit",
                format!("must be between 1 and {MAX_DOCUMENT_LIMIT}"),
            ));
        }
        engram_core::validate::metadata("metadata", &req.metadata)?;
        if let Some(u) = &req.redirect_url {
            let ok = url::Url::parse(u).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
            if !ok {
                return Err(invalid("redirectUrl", "must be an http or https URL"));
            }
        }
        let mut metadata = req.metadata.clone();
        let mut secrets = Secrets::default();
        for k in SECRET_KEYS {
            if let Some(v) = metadata.remove(k) {
                secrets.values.insert(k.to_string(), v);
            }
        }
        let oauth = engram_connect::PROVIDERS
            .iter()
            .any(|(p, o)| *p == provider && *o);
        let (status, state, auth) = if oauth {
            let client = self.oauth_client(org_id, provider).await?;
            let ep = self.endpoints(provider).ok_or_else(|| {
                EngineError::Unsupported(format!("no endpoints are known for {provider}"))
            })?;
            let pkce = oauth::pkce();
            let state = oauth::state();
            let redirect_uri = self.callback_url(req.reached_at.as_deref());
            let link = oauth::authorize_link(&ep, &client, &redirect_uri, &state, &pkce.challenge)
                .map_err(|e| EngineError::Unavailable(e.to_string()))?;
            secrets.pkce_verifier = Some(pkce.verifier);
            secrets.redirect_uri = Some(redirect_uri);
            (ConnectionStatus::Pending, Some(state), Some(link))
        } else {
            if provider == "web-crawler" {
                let start = metadata.get("startUrl").and_then(|v| v.as_str());
                let ok = start.is_some_and(|s| {
                    url::Url::parse(s)
                        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
                });
                if !ok {
                    return Err(invalid(
                        "metadata.startUrl",
                        "the web crawler needs metadata.startUrl, an http or https URL",
                    ));
                }
            }
            if provider == "s3" {
                self.check_s3(&metadata, &secrets)?;
            }
            (ConnectionStatus::Active, None, None)
        };
        let mut c = self
            .store
            .insert_connection(NewConnection {
                org_id: org_id.to_string(),
                provider: provider.to_string(),
                container_tags: req.container_tags.clone(),
                document_limit: limit,
                metadata,
                secrets: None,
                status,
                expires_at: oauth
                    .then(|| now() + chrono::Duration::seconds(AUTH_LINK_TTL.as_secs() as i64)),
                redirect_url: req.redirect_url.clone(),
                oauth_state: state,
                next_sync_at: (!oauth).then(now),
            })
            .await?;
        // secrets are sealed to the connection's id, known only now
        let sealed = self.seal_secrets(org_id, &c.id, &secrets);
        c = self
            .store
            .update_connection(
                org_id,
                &c.id,
                ConnectionPatch {
                    secrets: Some(Some(sealed)),
                    ..Default::default()
                },
            )
            .await?
            .ok_or_else(|| EngineError::NotFound {
                what: "connection".into(),
            })?;
        if !oauth {
            self.wake_syncs();
        }
        Ok(Created {
            auth_link: auth.unwrap_or_else(|| req.redirect_url.clone().unwrap_or_default()),
            expires_in: if oauth {
                "1 hour".into()
            } else {
                "never".into()
            },
            connection: c,
        })
    }

    pub async fn get_connection(&self, org_id: &str, id: &str) -> Result<Connection, EngineError> {
        self.store
            .get_connection(org_id, id)
            .await?
            .ok_or_else(|| EngineError::NotFound {
                what: "connection".into(),
            })
    }

    pub async fn list_connections(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> Result<Vec<Connection>, EngineError> {
        Ok(self.store.list_connections(org_id, q).await?)
    }

    /// Delete a connection (and, with `delete_documents`, what it synced).
    pub async fn delete_connection(
        &self,
        org_id: &str,
        id: &str,
        delete_documents: bool,
    ) -> Result<Connection, EngineError> {
        let c = self.get_connection(org_id, id).await?;
        if c.provider == "github" {
            self.drop_github_hooks(&c).await;
        }
        if !self
            .store
            .delete_connection(org_id, id, delete_documents)
            .await?
        {
            return Err(EngineError::NotFound {
                what: "connection".into(),
            });
        }
        Ok(c)
    }

    /// The documents of the connections `q` names.
    pub async fn connection_documents(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> Result<Vec<Document>, EngineError> {
        let mut out = Vec::new();
        for c in self.store.list_connections(org_id, q).await? {
            out.extend(self.store.connection_documents(org_id, &c.id).await?);
        }
        Ok(out)
    }

    /// Sync the active connections `q` names now; how many were asked.
    pub async fn import_connections(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> Result<usize, EngineError> {
        let mut n = 0;
        for c in self.store.list_connections(org_id, q).await? {
            if c.status != ConnectionStatus::Active {
                continue;
            }
            self.store
                .update_connection(
                    org_id,
                    &c.id,
                    ConnectionPatch {
                        next_sync_at: Some(Some(now())),
                        ..Default::default()
                    },
                )
                .await?;
            n += 1;
        }
        self.wake_syncs();
        Ok(n)
    }

    /// What a connection can sync from (GitHub: the user's repositories;
    /// S3: the folders under `parent`, else under its prefix), one page of
    /// it.
    pub async fn connection_resources(
        &self,
        org_id: &str,
        id: &str,
        page: u32,
        per_page: u32,
        parent: Option<&str>,
    ) -> Result<(Vec<serde_json::Value>, usize), EngineError> {
        let c = self.get_connection(org_id, id).await?;
        match c.provider.as_str() {
            "github" => {
                let (token, ep) = self.fresh_token(&c).await.map_err(EngineError::from)?;
                let gh = engram_connect::github::GitHub {
                    http: &self.api_http,
                    api: &ep.api,
                    token: &token,
                };
                let repos = gh.repositories(page.max(1), per_page).await?;
                let n = repos.len();
                Ok((repos, n))
            }
            "s3" => {
                let bucket = self.s3_of(&c)?;
                let prefix = parent
                    .filter(|p| !p.is_empty())
                    .or_else(|| c.metadata.get("prefix").and_then(|p| p.as_str()));
                let all = bucket.prefixes(prefix).await?;
                let n = all.len();
                let start = (page.max(1) as usize - 1) * per_page as usize;
                Ok((
                    all.into_iter()
                        .skip(start)
                        .take(per_page as usize)
                        .collect(),
                    n,
                ))
            }
            p => Err(EngineError::Unsupported(format!(
                "{p} connections have no resources to choose from"
            ))),
        }
    }

    /// Choose what a connection syncs (GitHub: repositories by
    /// `full_name`, each with `issues: false` to leave its issues out; S3:
    /// prefixes); a sync starts at once. Answers how many webhooks were
    /// registered (GitHub, when the server has a public address).
    pub async fn configure_connection(
        &self,
        org_id: &str,
        id: &str,
        resources: &[serde_json::Value],
    ) -> Result<usize, EngineError> {
        let c = self.get_connection(org_id, id).await?;
        let (config, hooks) = match c.provider.as_str() {
            "github" => {
                let done = self.configure_github(&c, resources).await?;
                (done.config, done.hooks)
            }
            "s3" => (
                serde_json::json!({ "prefixes": s3_prefixes(resources)? }),
                0,
            ),
            p => {
                return Err(EngineError::Unsupported(format!(
                    "{p} connections have nothing to configure"
                )))
            }
        };
        self.store
            .update_connection(
                org_id,
                id,
                ConnectionPatch {
                    config: Some(config),
                    next_sync_at: Some(Some(now())),
                    ..Default::default()
                },
            )
            .await?;
        self.wake_syncs();
        Ok(hooks)
    }
}

/// The prefixes an S3 `configure` names (by `id`, `prefix` or `name`).
fn s3_prefixes(resources: &[serde_json::Value]) -> Result<Vec<String>, EngineError> {
    let mut out: Vec<String> = Vec::new();
    for (i, r) in resources.iter().enumerate() {
        let p = r
            .as_str()
            .or_else(|| r["prefix"].as_str())
            .or_else(|| r["id"].as_str())
            .or_else(|| r["name"].as_str());
        let Some(p) = p.filter(|p| p.len() <= 1024 && !p.contains('\0')) else {
            return Err(invalid(
                &format!("resources[{i}]"),
                "a prefix is named by `prefix` (or `id`), e.g. `reports/`",
            ));
        };
        if !out.iter().any(|x| x == p) {
            out.push(p.to_string());
        }
    }
    Ok(out)
}

impl From<ConnectError> for EngineError {
    fn from(e: ConnectError) -> Self {
        match e {
            ConnectError::AuthExpired(m) => EngineError::Validation(ValidationError::new(
                "connection",
                format!("authorisation expired or revoked; connect again ({m})"),
            )),
            ConnectError::RateLimited { retry_after } => EngineError::RateLimited {
                message: "the provider is rate limiting this connection".into(),
                retry_after_secs: retry_after.map(|d| d.as_secs()).unwrap_or(60),
            },
            ConnectError::Config(m) => {
                EngineError::Validation(ValidationError::new("connection", m))
            }
            ConnectError::Unavailable(m) | ConnectError::Internal(m) => EngineError::Unavailable(m),
        }
    }
}
