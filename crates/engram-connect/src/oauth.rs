//! OAuth 2.0 authorization code grant with PKCE (RFC 7636) and `state`:
//! the authorisation link, the code exchange and token refresh, against
//! each provider's endpoints (configurable, so tests and self-hosted
//! providers can point elsewhere).

use crate::ConnectError;
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Where a provider authorises, issues tokens and serves its API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    pub authorize: String,
    pub token: String,
    pub api: String,
    /// Scopes asked for, space separated.
    pub scopes: &'static str,
    /// Whether the token endpoint takes a JSON body (Notion) rather than
    /// a form.
    pub json_token: bool,
}

impl Endpoints {
    /// The provider's public endpoints; None for providers without OAuth.
    pub fn default_for(provider: &str) -> Option<Endpoints> {
        let (authorize, token, api, scopes) = match provider {
            "github" => (
                "https://github.com/login/oauth/authorize",
                "https://github.com/login/oauth/access_token",
                "https://api.github.com",
                "repo read:user user:email",
            ),
            "notion" => (
                "https://api.notion.com/v1/oauth/authorize",
                "https://api.notion.com/v1/oauth/token",
                "https://api.notion.com",
                "",
            ),
            "google-drive" => (
                "https://accounts.google.com/o/oauth2/v2/auth",
                "https://oauth2.googleapis.com/token",
                "https://www.googleapis.com",
                "https://www.googleapis.com/auth/drive.readonly https://www.googleapis.com/auth/userinfo.email",
            ),
            "gmail" => (
                "https://accounts.google.com/o/oauth2/v2/auth",
                "https://oauth2.googleapis.com/token",
                "https://gmail.googleapis.com",
                "https://www.googleapis.com/auth/gmail.readonly https://www.googleapis.com/auth/userinfo.email",
            ),
            "onedrive" => (
                "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
                "https://login.microsoftonline.com/common/oauth2/v2.0/token",
                "https://graph.microsoft.com/v1.0",
                "offline_access Files.Read.All User.Read",
            ),
            "granola" => (
                "https://api.granola.ai/oauth/authorize",
                "https://api.granola.ai/oauth/token",
                "https://api.granola.ai",
                "",
            ),
            _ => return None,
        };
        Some(Endpoints {
            authorize: authorize.into(),
            token: token.into(),
            api: api.into(),
            scopes,
            json_token: provider == "notion",
        })
    }
}

/// An OAuth client registered with a provider.
#[derive(Clone, PartialEq, Eq)]
pub struct Client {
    pub id: String,
    pub secret: String,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Client({}, secret hidden)", self.id)
    }
}

/// A PKCE pair: the verifier stays with us (sealed), the challenge goes
/// in the link.
#[derive(Debug, Clone)]
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

fn random_token(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    SystemRandom::new().fill(&mut b).expect("system randomness");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b)
}

/// A fresh PKCE pair (S256).
pub fn pkce() -> Pkce {
    let verifier = random_token(48);
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(Sha256::digest(verifier.as_bytes()));
    Pkce {
        verifier,
        challenge,
    }
}

/// A fresh `state`: unguessable, single use.
pub fn state() -> String {
    random_token(32)
}

/// The link that sends the user to the provider to authorise.
pub fn authorize_link(
    ep: &Endpoints,
    client: &Client,
    redirect_uri: &str,
    state: &str,
    challenge: &str,
) -> Result<String, ConnectError> {
    let mut u = url::Url::parse(&ep.authorize)
        .map_err(|e| ConnectError::Config(format!("authorize URL {}: {e}", ep.authorize)))?;
    {
        let mut q = u.query_pairs_mut();
        q.append_pair("client_id", &client.id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("response_type", "code")
            .append_pair("state", state)
            .append_pair("code_challenge", challenge)
            .append_pair("code_challenge_method", "S256");
        if !ep.scopes.is_empty() {
            q.append_pair("scope", ep.scopes);
        }
        // Google: a refresh token, every time; Notion: the user's pages
        if ep.authorize.contains("google") {
            q.append_pair("access_type", "offline")
                .append_pair("prompt", "consent");
        }
        if ep.authorize.contains("notion") {
            q.append_pair("owner", "user");
        }
    }
    Ok(u.to_string())
}

/// Tokens as kept (sealed) with a connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Tokens {
    pub access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the access token expires (ms since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
}

impl Tokens {
    /// Whether the access token expires within `margin` of `now_ms`.
    pub fn expiring(&self, now_ms: i64, margin_ms: i64) -> bool {
        self.expires_at.is_some_and(|t| t - margin_ms <= now_ms)
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    refresh_token: Option<String>,
    expires_in: Option<serde_json::Value>,
    error: Option<String>,
    error_description: Option<String>,
}

async fn token_request(
    http: &reqwest::Client,
    ep: &Endpoints,
    client: &Client,
    form: &[(&str, &str)],
) -> Result<Tokens, ConnectError> {
    let req = http
        .post(&ep.token)
        .header("Accept", "application/json")
        .basic_auth(&client.id, Some(&client.secret));
    let req = if ep.json_token {
        // Notion: the client authenticates with Basic only, the grant is JSON
        let body: serde_json::Map<String, serde_json::Value> = form
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
            .collect();
        req.json(&body)
    } else {
        let mut form: Vec<(&str, &str)> = form.to_vec();
        form.push(("client_id", &client.id));
        form.push(("client_secret", &client.secret));
        req.form(&form)
    };
    let resp = req
        .send()
        .await
        .map_err(|e| ConnectError::Unavailable(format!("token endpoint: {e}")))?;
    let status = resp.status().as_u16();
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = resp
        .text()
        .await
        .map_err(|e| ConnectError::Unavailable(format!("token endpoint: {e}")))?;
    let answer: Option<TokenAnswer> = serde_json::from_str(&body).ok();
    if let Some(TokenAnswer {
        error: Some(err),
        error_description,
        ..
    }) = &answer
    {
        let msg = format!(
            "{err}{}",
            error_description
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        );
        return Err(if status == 429 || err == "slow_down" {
            ConnectError::RateLimited {
                retry_after: retry.as_deref().and_then(crate::parse_retry_after),
            }
        } else if status >= 500 {
            ConnectError::Unavailable(msg)
        } else {
            ConnectError::AuthExpired(msg)
        });
    }
    if !(200..300).contains(&status) {
        return Err(ConnectError::from_status(
            if status == 400 { 401 } else { status },
            retry.as_deref(),
            "the token endpoint",
        ));
    }
    let a = answer.ok_or_else(|| ConnectError::Internal("unreadable token answer".into()))?;
    let access_token = a
        .access_token
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ConnectError::Internal("the token answer has no access_token".into()))?;
    let expires_in = a.expires_in.and_then(|v| match v {
        serde_json::Value::Number(n) => n.as_i64(),
        serde_json::Value::String(s) => s.parse().ok(),
        _ => None,
    });
    Ok(Tokens {
        access_token,
        refresh_token: a.refresh_token,
        expires_at: expires_in.map(|s| chrono::Utc::now().timestamp_millis() + s * 1000),
    })
}

/// Exchange an authorisation code (with its PKCE verifier) for tokens.
pub async fn exchange(
    http: &reqwest::Client,
    ep: &Endpoints,
    client: &Client,
    code: &str,
    redirect_uri: &str,
    verifier: &str,
) -> Result<Tokens, ConnectError> {
    token_request(
        http,
        ep,
        client,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", verifier),
        ],
    )
    .await
}

/// Refresh an access token. A provider that does not rotate refresh
/// tokens keeps the old one.
pub async fn refresh(
    http: &reqwest::Client,
    ep: &Endpoints,
    client: &Client,
    refresh_token: &str,
) -> Result<Tokens, ConnectError> {
    let mut t = token_request(
        http,
        ep,
        client,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
        ],
    )
    .await?;
    if t.refresh_token.is_none() {
        t.refresh_token = Some(refresh_token.to_string());
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_challenge_is_the_s256_of_the_verifier() {
        let p = pkce();
        assert!(p.verifier.len() >= 43 && p.verifier.len() <= 128);
        let want = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(Sha256::digest(p.verifier.as_bytes()));
        assert_eq!(p.challenge, want);
        assert_ne!(state(), state());
    }

    #[test]
    fn links_carry_state_challenge_and_scopes() {
        let ep = Endpoints::default_for("github").unwrap();
        let c = Client {
            id: "cid".into(),
            secret: "s".into(),
        };
        let link = authorize_link(&ep, &c, "http://h/cb", "st", "ch").unwrap();
        let u = url::Url::parse(&link).unwrap();
        let q: std::collections::HashMap<_, _> = u.query_pairs().into_owned().collect();
        assert_eq!(q["client_id"], "cid");
        assert_eq!(q["state"], "st");
        assert_eq!(q["code_challenge"], "ch");
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["redirect_uri"], "http://h/cb");
        assert!(q["scope"].contains("repo"));
        assert!(!link.contains("secret"));
    }
}
