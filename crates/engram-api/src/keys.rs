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
pub struct SessionScope {
    /// `full`: every route and container tag of the organisation.
    #[serde(rename = "type")]
    pub kind: String,
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

#[cfg(test)]
mod tests {
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
