//! API keys: generation, hashing and verification.
//!
//! A key reads `em_<id>_<secret>`: the id (22 base62 characters) finds the
//! record, and the SHA-256 of the whole key is compared in constant time
//! with the stored hash. Secrets are high-entropy (190 bits), so a fast hash
//! is enough; the plain key exists only in the answer to whoever created it.

use engram_store::{now, ApiKeyRecord, Store, StoreError};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const PREFIX: &str = "em_";
const SECRET_LEN: usize = 32;

/// Who a verified key belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthContext {
    pub org_id: String,
    pub key_id: String,
    pub key_name: String,
}

/// Hex SHA-256 of a key.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// A new key for `org_id`: the record to store and the secret to show once.
pub fn generate_key(org_id: &str, name: &str) -> (ApiKeyRecord, String) {
    let id = engram_core::ids::new_id();
    let key = format!(
        "{PREFIX}{id}_{}",
        engram_core::ids::random_base62(SECRET_LEN)
    );
    let rec = ApiKeyRecord {
        id,
        org_id: org_id.to_string(),
        name: name.to_string(),
        secret_hash: hash_key(&key),
        created_at: now(),
        revoked_at: None,
        container_tag: None,
        expires_at: None,
        rate_limit: None,
    };
    (rec, key)
}

/// The key id part of a presented key, if it has the right shape.
pub fn key_id(presented: &str) -> Option<&str> {
    let rest = presented.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    (engram_core::ids::looks_like_id(id) && secret.len() == SECRET_LEN).then_some(id)
}

/// Verify a presented key: `Ok(None)` for unknown, revoked or wrong keys.
pub async fn verify(store: &dyn Store, presented: &str) -> Result<Option<AuthContext>, StoreError> {
    let Some(id) = key_id(presented) else {
        return Ok(None);
    };
    let Some(rec) = store.get_api_key(id).await? else {
        return Ok(None);
    };
    let matches: bool = hash_key(presented)
        .as_bytes()
        .ct_eq(rec.secret_hash.as_bytes())
        .into();
    if !matches || rec.revoked_at.is_some() {
        return Ok(None);
    }
    Ok(Some(AuthContext {
        org_id: rec.org_id,
        key_id: rec.id,
        key_name: rec.name,
    }))
}

/// Create an organisation if needed and a key in it; returns the record and
/// the plain key.
pub async fn create_key(
    store: &dyn Store,
    org_name: &str,
    key_name: &str,
) -> Result<(ApiKeyRecord, String), StoreError> {
    let org = store.ensure_org(org_name).await?;
    let (rec, key) = generate_key(&org.id, key_name);
    store.insert_api_key(&rec).await?;
    Ok((rec, key))
}

impl crate::Engine {
    /// The organisation a key belongs to.
    pub async fn org(&self, org_id: &str) -> Result<engram_store::Org, crate::EngineError> {
        self.store
            .get_org(org_id)
            .await?
            .ok_or_else(|| crate::EngineError::NotFound {
                what: format!("organisation `{org_id}`"),
            })
    }

    /// The organisation's keys (revoked ones too), oldest first.
    pub async fn list_keys(&self, org_id: &str) -> Result<Vec<ApiKeyRecord>, crate::EngineError> {
        Ok(self.store.list_api_keys(Some(org_id)).await?)
    }

    /// A new key of the organisation: the record and the plain key (shown
    /// once, never stored).
    pub async fn create_org_key(
        &self,
        org_id: &str,
        name: &str,
    ) -> Result<(ApiKeyRecord, String), crate::EngineError> {
        let (rec, key) = generate_key(org_id, name);
        self.store.insert_api_key(&rec).await?;
        Ok((rec, key))
    }

    /// One of the organisation's keys; another organisation's is unknown.
    async fn own_key(&self, org_id: &str, id: &str) -> Result<ApiKeyRecord, crate::EngineError> {
        self.store
            .get_api_key(id)
            .await?
            .filter(|k| k.org_id == org_id)
            .ok_or_else(|| crate::EngineError::NotFound {
                what: format!("key `{id}`"),
            })
    }

    /// Rename one of the organisation's keys.
    pub async fn rename_key(
        &self,
        org_id: &str,
        id: &str,
        name: &str,
    ) -> Result<ApiKeyRecord, crate::EngineError> {
        self.own_key(org_id, id).await?;
        self.store.rename_api_key(id, name).await?;
        self.own_key(org_id, id).await
    }

    /// Revoke one of the organisation's keys (requests with it get 401 from
    /// then on); `Conflict` when it is revoked already.
    pub async fn revoke_key(
        &self,
        org_id: &str,
        id: &str,
    ) -> Result<ApiKeyRecord, crate::EngineError> {
        self.own_key(org_id, id).await?;
        if !self.store.revoke_api_key(id).await? {
            return Err(crate::EngineError::Conflict(format!(
                "key `{id}` is already revoked"
            )));
        }
        self.own_key(org_id, id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_a_parseable_shape() {
        let (rec, key) = generate_key("org", "k");
        assert_eq!(key_id(&key), Some(rec.id.as_str()));
        assert_eq!(rec.secret_hash, hash_key(&key));
        assert!(!rec.secret_hash.contains(&key));
        for bad in [
            "",
            "em_",
            "em_short_x",
            "xx_aaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            &key[..key.len() - 1],
        ] {
            assert_eq!(key_id(bad), None, "{bad}");
        }
    }
}
