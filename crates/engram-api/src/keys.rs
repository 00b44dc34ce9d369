//! `GET /v3/session` and the organisation's API keys (`/v3/auth/keys*`,
//! beyond the public API: what the CLI and a console manage keys with).

use engram_core::ValidationError;
use serde::{Deserialize, Serialize};

/// Who is calling.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct SessionUser {
    /// The key's id: a self-hosted Engram has keys, not user accounts.
    pub id: String,
    /// The key's name.
    pub name: String,
}

/// The caller's organisation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct SessionOrg {
    pub id: String,
    pub name: String,
    /// The name in lower case, non-alphanumerics as `-`.
    pub slug: String,
}

/// What the key may reach.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionScope {
    /// `full`: every route and container tag of the organisation;
    /// `scoped`: one container tag, and only the document, memory, search
    /// and profile routes.
    #[serde(rename = "type")]
    pub kind: String,
    /// A scoped key's container tag.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub container_tag: Option<String>,
    /// When a scoped key stops working.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expires_at: Option<String>,
    /// A scoped key's own limit, in requests per minute.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rate_limit: Option<u32>,
}

/// `GET /v3/session` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct SessionResponse {
    pub user: SessionUser,
    pub org: SessionOrg,
    /// `self-hosted`.
    pub plan: String,
    pub scope: SessionScope,
}

/// `slug` of an organisation name.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// An API key as listed (never its secret).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyItem {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
    /// Set for a scoped key: the one container tag it reaches.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub container_tag: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expires_at: Option<String>,
    /// Requests per minute.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rate_limit: Option<u32>,
}

/// `GET /v3/auth/keys` answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ListKeysResponse {
    pub keys: Vec<ApiKeyItem>,
}

/// `POST /v3/auth/keys` and `PATCH /v3/auth/keys/{id}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct KeyNameRequest {
    /// 1 to 100 characters.
    pub name: String,
}

impl KeyNameRequest {
    pub fn validate(&self) -> Result<&str, ValidationError> {
        let n = self.name.trim();
        if !(1..=100).contains(&n.chars().count()) {
            return Err(ValidationError::new("name", "must be 1 to 100 characters"));
        }
        Ok(n)
    }
}

/// `POST /v3/auth/keys` answer (201): the key, shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKeyResponse {
    pub id: String,
    pub name: String,
    /// The secret key: store it now, it is not shown again.
    pub key: String,
    pub created_at: String,
}

/// The most a scoped key's own rate limit may be, per minute.
pub const MAX_KEY_RATE_LIMIT: u32 = 100_000;

/// `POST /v3/auth/scoped-key`: a key limited to one container tag.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopedKeyRequest {
    /// The one container tag the key reaches.
    pub container_tag: String,
    /// 1 to 100 characters (default `scoped: <tag>`).
    #[serde(default)]
    pub name: Option<String>,
    /// When the key stops working (ISO 8601, in the future).
    #[serde(default)]
    pub expires_at: Option<String>,
    /// Or: seconds from now until it stops working.
    #[serde(default)]
    pub expires_in: Option<u64>,
    /// Its own limit, in requests per minute (1 to 100000).
    #[serde(default)]
    pub rate_limit: Option<u32>,
}

/// A validated scoped-key request.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidScopedKey {
    pub container_tag: String,
    pub name: String,
    pub expires_at: Option<chrono::DateTime<chrono::Utc>>,
    pub rate_limit: Option<u32>,
}

impl ScopedKeyRequest {
    pub fn validate(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<ValidScopedKey, ValidationError> {
        engram_core::validate::container_tag("containerTag", &self.container_tag)?;
        let name = match &self.name {
            Some(n) => KeyNameRequest { name: n.clone() }.validate()?.to_string(),
            None => format!("scoped: {}", self.container_tag),
        };
        let expires_at = match (&self.expires_at, self.expires_in) {
            (Some(_), Some(_)) => {
                return Err(ValidationError::new(
                    "expiresIn",
                    "give either `expiresAt` or `expiresIn`, not both",
                ))
            }
            (Some(at), None) => {
                let t = chrono::DateTime::parse_from_rfc3339(at)
                    .map_err(|_| {
                        ValidationError::new(
                            "expiresAt",
                            format!("`{at}` is not an ISO 8601 date-time"),
                        )
                    })?
                    .with_timezone(&chrono::Utc);
                if t <= now {
                    return Err(ValidationError::new("expiresAt", "must be in the future"));
                }
                Some(t)
            }
            (None, Some(secs)) => {
                if !(1..=10 * 365 * 86_400).contains(&secs) {
                    return Err(ValidationError::new(
                        "expiresIn",
                        "must be 1 second to 10 years",
                    ));
                }
                Some(now + chrono::Duration::seconds(secs as i64))
            }
            (None, None) => None,
        };
        if let Some(n) = self.rate_limit {
            if !(1..=MAX_KEY_RATE_LIMIT).contains(&n) {
                return Err(ValidationError::new(
                    "rateLimit",
                    format!("must be 1 to {MAX_KEY_RATE_LIMIT} requests per minute"),
                ));
            }
        }
        Ok(ValidScopedKey {
            container_tag: self.container_tag.clone(),
            name,
            expires_at,
            rate_limit: self.rate_limit,
        })
    }
}

/// `POST /v3/auth/scoped-key` answer (201): the key, shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopedKeyResponse {
    pub id: String,
    pub name: String,
    /// The secret key: store it now, it is not shown again.
    pub key: String,
    pub container_tag: String,
    pub expires_at: Option<String>,
    /// Requests per minute.
    pub rate_limit: Option<u32>,
    pub created_at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoped_key_requests() {
        let now: chrono::DateTime<chrono::Utc> = "2026-11-21T12:00:00Z".parse().unwrap();
        let req = |v: serde_json::Value| serde_json::from_value::<ScopedKeyRequest>(v).unwrap();
        let ok =
            req(serde_json::json!({"containerTag": "user_1", "expiresIn": 60, "rateLimit": 5}))
                .validate(now)
                .unwrap();
        assert_eq!(ok.name, "scoped: user_1");
        assert_eq!(ok.expires_at, Some(now + chrono::Duration::seconds(60)));
        for (body, field) in [
            (
                serde_json::json!({"containerTag": "bad tag!"}),
                "containerTag",
            ),
            (
                serde_json::json!({"containerTag": "a", "expiresAt": "2026-11-21T11:00:00Z"}),
                "expiresAt",
            ),
            (
                serde_json::json!({"containerTag": "a", "expiresAt": "soon"}),
                "expiresAt",
            ),
            (
                serde_json::json!({"containerTag": "a", "expiresIn": 0}),
                "expiresIn",
            ),
            (
                serde_json::json!({"containerTag": "a", "expiresIn": 5, "expiresAt": "2027-01-01T00:00:00Z"}),
                "expiresIn",
            ),
            (
                serde_json::json!({"containerTag": "a", "rateLimit": 0}),
                "rateLimit",
            ),
            (serde_json::json!({"containerTag": "a", "name": ""}), "name"),
        ] {
            let e = req(body.clone()).validate(now).unwrap_err();
            assert_eq!(e.field, field, "{body}");
        }
    }

    #[test]
    fn slugs() {
        for (name, want) in [
            ("Acme Corp", "acme-corp"),
            ("default", "default"),
            ("  a--b!! ", "a-b"),
        ] {
            assert_eq!(super::slug(name), want);
        }
    }
}
