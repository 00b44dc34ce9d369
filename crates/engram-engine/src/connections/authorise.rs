//! Authorisation: the OAuth client of a provider (the organisation's
//! settings, else the server's), the callback that turns a code into
//! sealed tokens, and fresh access tokens for syncs (refreshed before they
//! expire, one refresh at a time per connection).

use super::{invalid, sync, Callback};
use crate::{Engine, EngineError};
use engram_connect::oauth::{self, Client, Endpoints, Tokens};
use engram_connect::ConnectError;
use engram_store::{now, Connection, ConnectionPatch, ConnectionStatus};

/// The settings key prefix of a provider's OAuth client
/// (`githubClientId`, ...); Gmail uses the Google Drive client.
fn settings_prefix(provider: &str) -> &str {
    match provider {
        "google-drive" | "gmail" => "googleDrive",
        other => other,
    }
}

impl Engine {
    /// The OAuth client for a provider: the organisation's settings, else
    /// the server's configuration.
    pub(super) async fn oauth_client(
        &self,
        org_id: &str,
        provider: &str,
    ) -> Result<Client, EngineError> {
        let settings = self.store.get_settings(org_id).await?;
        let prefix = settings_prefix(provider);
        let get = |k: &str| {
            settings
                .get(&format!("{prefix}{k}"))
                .and_then(|v| v.as_str())
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let secret = get("ClientSecret")
            .and_then(|v| self.setting_secret(org_id, &format!("{prefix}ClientSecret"), &v));
        if let (Some(id), Some(secret)) = (get("ClientId"), secret) {
            return Ok(Client { id, secret });
        }
        self.config.connect.clients.get(provider).cloned().ok_or_else(|| {
            invalid(
                "provider",
                format!(
                    "no OAuth client is configured for {provider}: set {prefix}ClientId and \
                     {prefix}ClientSecret with PATCH /v3/settings (or in the server's configuration)"
                ),
            )
        })
    }

    /// Finish an authorisation: exchange the code for tokens and start
    /// syncing. `error` is the provider's refusal, if it refused.
    pub async fn connection_callback(
        &self,
        state: &str,
        code: Option<&str>,
        error: Option<&str>,
    ) -> Result<Callback, EngineError> {
        let c = self
            .store
            .connection_by_state(state)
            .await?
            .filter(|c| c.status == ConnectionStatus::Pending)
            .ok_or_else(|| invalid("state", "unknown or already used authorisation state"))?;
        let done = |ok: bool, message: String| match &c.redirect_url {
            Some(r) => {
                let mut u = url::Url::parse(r).expect("checked at creation");
                u.query_pairs_mut()
                    .append_pair("connectionId", &c.id)
                    .append_pair("provider", &c.provider)
                    .append_pair("status", if ok { "success" } else { "error" });
                if !ok {
                    u.query_pairs_mut().append_pair("error", &message);
                }
                Callback::Redirect(u.to_string())
            }
            None => Callback::Done {
                provider: c.provider.clone(),
                ok,
                message,
            },
        };
        if c.expires_at.is_some_and(|t| t < now()) {
            return Ok(done(false, "the authorisation link expired".into()));
        }
        let fail = |message: String| ConnectionPatch {
            status: Some(ConnectionStatus::Failed),
            oauth_state: Some(None),
            last_sync: Some(sync::run_json(
                "failed",
                Some("auth_expired"),
                Some(&message),
                None,
            )),
            ..Default::default()
        };
        if let Some(e) = error {
            self.store
                .update_connection(&c.org_id, &c.id, fail(format!("the provider refused: {e}")))
                .await?;
            return Ok(done(false, format!("the provider refused: {e}")));
        }
        let code = code.ok_or_else(|| invalid("code", "the callback carries no code"))?;
        let mut secrets = self.open_secrets(&c)?;
        let client = self.oauth_client(&c.org_id, &c.provider).await?;
        let ep = self
            .endpoints(&c.provider)
            .ok_or_else(|| EngineError::Unsupported(c.provider.clone()))?;
        let verifier = secrets.pkce_verifier.take().unwrap_or_default();
        let redirect_uri = secrets.redirect_uri.clone().unwrap_or_default();
        let tokens =
            match oauth::exchange(&self.api_http, &ep, &client, code, &redirect_uri, &verifier)
                .await
            {
                Ok(t) => t,
                Err(e) => {
                    self.store
                        .update_connection(&c.org_id, &c.id, fail(e.to_string()))
                        .await?;
                    return Ok(done(false, e.to_string()));
                }
            };
        let email = self.account_of(&c.provider, &ep, &tokens).await;
        secrets.tokens = Some(tokens.clone());
        let sealed = self.seal_secrets(&c.org_id, &c.id, &secrets);
        self.store
            .update_connection(
                &c.org_id,
                &c.id,
                ConnectionPatch {
                    secrets: Some(Some(sealed)),
                    status: Some(ConnectionStatus::Active),
                    oauth_state: Some(None),
                    email: Some(email),
                    expires_at: Some(tokens.expires_at.map(engram_store::from_millis)),
                    next_sync_at: Some(Some(now())),
                    ..Default::default()
                },
            )
            .await?;
        self.wake_syncs();
        Ok(done(true, "connected".into()))
    }

    /// The account a provider says it authorised (best effort).
    async fn account_of(&self, provider: &str, ep: &Endpoints, t: &Tokens) -> Option<String> {
        match provider {
            "github" => {
                let gh = engram_connect::github::GitHub {
                    http: &self.api_http,
                    api: &ep.api,
                    token: &t.access_token,
                };
                gh.user()
                    .await
                    .ok()
                    .map(|(login, email)| email.unwrap_or(login))
            }
            _ => {
                use engram_connect::{gdrive, gmail, notion, onedrive};
                let (http, api, token) = (&self.api_http, ep.api.as_str(), t.access_token.as_str());
                let email = match provider {
                    "notion" => notion::Notion::new(http, api, token).email().await,
                    "google-drive" => gdrive::Drive::new(http, api, token).email().await,
                    "onedrive" => onedrive::OneDrive::new(http, api, token).email().await,
                    "gmail" => gmail::Gmail::new(http, api, token).email().await,
                    _ => return None,
                };
                email.ok().flatten()
            }
        }
    }

    /// An access token that is good for a while (refreshed and resealed
    /// when close to expiry), with the provider's endpoints.
    pub(crate) async fn fresh_token(
        &self,
        c: &Connection,
    ) -> Result<(String, Endpoints), ConnectError> {
        let ep = self
            .endpoints(&c.provider)
            .ok_or_else(|| ConnectError::Config(format!("no endpoints for {}", c.provider)))?;
        // one refresh at a time per connection (providers that rotate
        // refresh tokens invalidate the old one), reading the secrets
        // again once it is our turn
        let lock = {
            let mut locks = self.refresh_locks.lock().expect("refresh locks");
            locks.entry(c.id.clone()).or_default().clone()
        };
        let _turn = lock.lock().await;
        let current = self
            .store
            .get_connection(&c.org_id, &c.id)
            .await
            .map_err(|e| ConnectError::Internal(e.to_string()))?
            .ok_or_else(|| ConnectError::AuthExpired("the connection was deleted".into()))?;
        let c = &current;
        let mut secrets = self
            .open_secrets(c)
            .map_err(|e| ConnectError::Internal(e.to_string()))?;
        let tokens = secrets.tokens.clone().ok_or_else(|| {
            ConnectError::AuthExpired("the connection was never authorised".into())
        })?;
        let now_ms = now().timestamp_millis();
        if !tokens.expiring(now_ms, 5 * 60 * 1000) {
            return Ok((tokens.access_token, ep));
        }
        let Some(refresh) = tokens.refresh_token.clone() else {
            return Err(ConnectError::AuthExpired(
                "the access token expired and there is no refresh token".into(),
            ));
        };
        let client = self
            .oauth_client(&c.org_id, &c.provider)
            .await
            .map_err(|e| ConnectError::Config(e.to_string()))?;
        let fresh = oauth::refresh(&self.api_http, &ep, &client, &refresh).await?;
        secrets.tokens = Some(fresh.clone());
        let sealed = self.seal_secrets(&c.org_id, &c.id, &secrets);
        self.store
            .update_connection(
                &c.org_id,
                &c.id,
                ConnectionPatch {
                    secrets: Some(Some(sealed)),
                    expires_at: Some(fresh.expires_at.map(engram_store::from_millis)),
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| ConnectError::Internal(e.to_string()))?;
        Ok((fresh.access_token, ep))
    }
}
