//! Connector settings of the server: OAuth clients every organisation may
//! use (an organisation's own, from `PATCH /v3/settings`, take precedence)
//! and provider endpoints where they are not the public ones (GitHub
//! Enterprise Server, a regional Microsoft cloud, a stand-in).
//!
//! From the TOML file's `[connectors.<provider>]` tables and, above them,
//! `ENGRAM_CONNECTOR_<PROVIDER>_<FIELD>` variables (`GOOGLE_DRIVE` for
//! `google-drive`). `[connectors.google]` gives Drive and Gmail one client.
//! This module only resolves; it never prints a client secret.

use engram_connect::oauth::{Client, Endpoints};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// One `[connectors.<provider>]` table.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct ConnectorFile {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// GitHub Enterprise Server's address: sets the three URLs below.
    pub url: Option<String>,
    pub authorize_url: Option<String>,
    pub token_url: Option<String>,
    pub api_url: Option<String>,
}

/// What the server configures for connectors.
#[derive(Default)]
pub struct Connectors {
    pub clients: HashMap<String, Client>,
    pub endpoints: HashMap<String, Endpoints>,
}

impl std::fmt::Debug for Connectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut clients: Vec<&String> = self.clients.keys().collect();
        clients.sort();
        let mut endpoints: Vec<&String> = self.endpoints.keys().collect();
        endpoints.sort();
        write!(
            f,
            "Connectors(clients for {clients:?}, endpoints for {endpoints:?})"
        )
    }
}

const FIELDS: [&str; 6] = [
    "client_id",
    "client_secret",
    "url",
    "authorize_url",
    "token_url",
    "api_url",
];

fn oauth_providers() -> impl Iterator<Item = &'static str> {
    engram_connect::PROVIDERS
        .iter()
        .filter(|(_, oauth)| *oauth)
        .map(|(p, _)| *p)
        .chain(std::iter::once("google"))
}

/// The environment's connector settings, as file tables.
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> BTreeMap<String, ConnectorFile> {
    let mut out = BTreeMap::new();
    for p in oauth_providers() {
        let mut t = ConnectorFile::default();
        let mut any = false;
        for field in FIELDS {
            let name = format!(
                "ENGRAM_CONNECTOR_{}_{}",
                p.to_ascii_uppercase().replace('-', "_"),
                field.to_ascii_uppercase()
            );
            let Some(v) = var(&name).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            any = true;
            let slot = match field {
                "client_id" => &mut t.client_id,
                "client_secret" => &mut t.client_secret,
                "url" => &mut t.url,
                "authorize_url" => &mut t.authorize_url,
                "token_url" => &mut t.token_url,
                _ => &mut t.api_url,
            };
            *slot = Some(v.trim().to_string());
        }
        if any {
            out.insert(p.to_string(), t);
        }
    }
    out
}

fn check_url(provider: &str, field: &str, u: &str) -> anyhow::Result<String> {
    match url::Url::parse(u) {
        Ok(p) if matches!(p.scheme(), "http" | "https") && p.host().is_some() => {
            Ok(u.trim_end_matches('/').to_string())
        }
        _ => anyhow::bail!("connectors.{provider}.{field} must be an http or https URL, not {u:?}"),
    }
}

/// Resolve the file's tables with the environment's over them.
pub fn resolve(
    file: &BTreeMap<String, ConnectorFile>,
    env: &BTreeMap<String, ConnectorFile>,
) -> anyhow::Result<Connectors> {
    let mut out = Connectors::default();
    let names: std::collections::BTreeSet<&String> = file.keys().chain(env.keys()).collect();
    for p in names {
        if !oauth_providers().any(|x| x == p) {
            anyhow::bail!(
                "connectors.{p}: not an OAuth provider (one of {})",
                oauth_providers().collect::<Vec<_>>().join(", ")
            );
        }
        let f = file.get(p).cloned().unwrap_or_default();
        let e = env.get(p).cloned().unwrap_or_default();
        let pick = |a: Option<String>, b: Option<String>| a.or(b);
        let t = ConnectorFile {
            client_id: pick(e.client_id, f.client_id),
            client_secret: pick(e.client_secret, f.client_secret),
            url: pick(e.url, f.url),
            authorize_url: pick(e.authorize_url, f.authorize_url),
            token_url: pick(e.token_url, f.token_url),
            api_url: pick(e.api_url, f.api_url),
        };
        let targets: Vec<&str> = if p == "google" {
            vec!["google-drive", "gmail"]
        } else {
            vec![p.as_str()]
        };
        match (t.client_id, t.client_secret) {
            (Some(id), Some(secret)) => {
                for target in &targets {
                    // a provider's own table beats the shared google one
                    if p != "google" || !out.clients.contains_key(*target) {
                        out.clients.insert(
                            target.to_string(),
                            Client {
                                id: id.clone(),
                                secret: secret.clone(),
                            },
                        );
                    }
                }
            }
            (None, None) => {}
            _ => anyhow::bail!("connectors.{p}: client_id and client_secret go together"),
        }
        if t.url.is_some() && p != "github" {
            anyhow::bail!("connectors.{p}.url is for GitHub Enterprise Server only; set authorize_url, token_url or api_url");
        }
        let base = t
            .url
            .as_deref()
            .map(|u| check_url(p, "url", u))
            .transpose()?;
        let mut any = false;
        for target in &targets {
            let Some(mut ep) = Endpoints::default_for(target) else {
                continue;
            };
            if let Some(b) = &base {
                ep.authorize = format!("{b}/login/oauth/authorize");
                ep.token = format!("{b}/login/oauth/access_token");
                ep.api = format!("{b}/api/v3");
                any = true;
            }
            for (field, v, slot) in [
                ("authorize_url", &t.authorize_url, &mut ep.authorize),
                ("token_url", &t.token_url, &mut ep.token),
                ("api_url", &t.api_url, &mut ep.api),
            ] {
                if let Some(v) = v {
                    *slot = check_url(p, field, v)?;
                    any = true;
                }
            }
            if any {
                out.endpoints.insert(target.to_string(), ep);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, ConnectorFile> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        from_env(|k| m.get(k).cloned())
    }

    #[test]
    fn file_then_environment() {
        let file: BTreeMap<String, ConnectorFile> = toml::from_str(
            r#"
            [github]
            client_id = "file-id"
            client_secret = "file-secret"
            url = "https://ghe.example.com/"
            [google]
            client_id = "g-id"
            client_secret = "g-secret"
            "#,
        )
        .unwrap();
        let e = env(&[
            ("ENGRAM_CONNECTOR_GITHUB_CLIENT_ID", "env-id"),
            ("ENGRAM_CONNECTOR_GITHUB_CLIENT_SECRET", "env-secret"),
            (
                "ENGRAM_CONNECTOR_GOOGLE_DRIVE_API_URL",
                "http://127.0.0.1:9000",
            ),
        ]);
        let c = resolve(&file, &e).unwrap();
        assert_eq!(c.clients["github"].id, "env-id");
        assert_eq!(c.clients["github"].secret, "env-secret");
        assert_eq!(c.clients["gmail"].id, "g-id");
        assert_eq!(c.clients["google-drive"].id, "g-id");
        let gh = &c.endpoints["github"];
        assert_eq!(gh.api, "https://ghe.example.com/api/v3");
        assert_eq!(
            gh.authorize,
            "https://ghe.example.com/login/oauth/authorize"
        );
        assert_eq!(gh.token, "https://ghe.example.com/login/oauth/access_token");
        let drive = &c.endpoints["google-drive"];
        assert_eq!(drive.api, "http://127.0.0.1:9000");
        assert_eq!(drive.token, "https://oauth2.googleapis.com/token");
        assert!(!c.endpoints.contains_key("gmail"));
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("secret") && !dbg.contains("env-id"), "{dbg}");
    }

    #[test]
    fn mistakes_are_named() {
        let bad = |toml: &str| {
            let file: BTreeMap<String, ConnectorFile> = toml::from_str(toml).unwrap();
            resolve(&file, &BTreeMap::new()).err().unwrap().to_string()
        };
        assert!(bad("[dropbox]\nclient_id = \"x\"").contains("connectors.dropbox"));
        assert!(bad("[github]\nclient_id = \"x\"").contains("go together"));
        assert!(bad("[notion]\napi_url = \"ftp://x\"").contains("connectors.notion.api_url"));
        assert!(bad("[notion]\nurl = \"https://x\"").contains("GitHub Enterprise"));
        assert!(
            toml::from_str::<BTreeMap<String, ConnectorFile>>("[github]\nclientid = \"x\"")
                .is_err()
        );
    }
}
