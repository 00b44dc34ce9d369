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
    /// Set for a scoped key: what it is limited to.
    pub scope: Option<KeyScope>,
}

/// What a scoped key may reach: one container tag, until an expiry, at
/// its own rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyScope {
    pub container_tag: String,
    pub expires_at: Option<engram_store::Timestamp>,
    /// Requests per minute.
    pub rate_limit: Option<u32>,
}

/// The outcome of checking a presented key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verified {
    Key(AuthContext),
    /// Unknown, malformed, wrong or revoked.
    Invalid,
    /// Valid but past its expiry.
    Expired(engram_store::Timestamp),
}

impl AuthContext {
    fn outside(&self, tag: &str) -> crate::EngineError {
        crate::EngineError::Permission(format!("this key is scoped to the container tag `{tag}`"))
    }

    /// Scope the container tags a request names: a full key's pass as
    /// they are; a scoped key's must all be its tag (none named means its
    /// tag), else `Permission`.
    pub fn scope_tags(&self, tags: &mut Vec<String>) -> Result<(), crate::EngineError> {
        let Some(scope) = &self.scope else {
            return Ok(());
        };
        if tags.iter().any(|t| *t != scope.container_tag) {
            return Err(self.outside(&scope.container_tag));
        }
        tags.clear();
        tags.push(scope.container_tag.clone());
        Ok(())
    }

    /// [`AuthContext::scope_tags`] for an optional list (absent stays
    /// absent for a full key, becomes the scope's tag for a scoped one).
    pub fn scope_opt_tags(&self, tags: &mut Option<Vec<String>>) -> Result<(), crate::EngineError> {
        if self.scope.is_none() {
            return Ok(());
        }
        let mut v = tags.take().unwrap_or_default();
        self.scope_tags(&mut v)?;
        *tags = Some(v);
        Ok(())
    }

    /// The one space a write goes to: the tag it named (a scoped key may
    /// only name its own), else a scoped key's tag; a full key must name
    /// one.
    pub fn write_space(&self, tag: Option<String>) -> Result<String, crate::EngineError> {
        match (tag, &self.scope) {
            (Some(t), _) => {
                self.require_tag(&t)?;
                Ok(t)
            }
            (None, Some(s)) => Ok(s.container_tag.clone()),
            (None, None) => Err(engram_core::ValidationError::new(
                "containerTag",
                "is required (or send `containerTags` with one tag)",
            )
            .into()),
        }
    }

    /// A request about exactly one container tag: a scoped key may only
    /// name its own.
    pub fn require_tag(&self, tag: &str) -> Result<(), crate::EngineError> {
        match &self.scope {
            Some(s) if s.container_tag != tag => Err(self.outside(&s.container_tag)),
            _ => Ok(()),
        }
    }

    /// Whether something carrying `tags` is visible to this key (a scoped
    /// key sees only what carries its tag).
    pub fn sees(&self, tags: &[String]) -> bool {
        match &self.scope {
            Some(s) => tags.contains(&s.container_tag),
            None => true,
        }
    }

    /// Only a full key may do this.
    pub fn require_full(&self, what: &str) -> Result<(), crate::EngineError> {
        match &self.scope {
            Some(s) => Err(crate::EngineError::Permission(format!(
                "{what} needs a full key; this key is scoped to the container tag `{}`",
                s.container_tag
            ))),
            None => Ok(()),
        }
    }
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

/// Verify a presented key.
pub async fn verify(store: &dyn Store, presented: &str) -> Result<Verified, StoreError> {
    let Some(id) = key_id(presented) else {
        return Ok(Verified::Invalid);
    };
    let Some(rec) = store.get_api_key(id).await? else {
        return Ok(Verified::Invalid);
    };
    let matches: bool = hash_key(presented)
        .as_bytes()
        .ct_eq(rec.secret_hash.as_bytes())
        .into();
    if !matches || rec.revoked_at.is_some() {
        return Ok(Verified::Invalid);
    }
    if let Some(at) = rec.expires_at.filter(|at| *at <= now()) {
        return Ok(Verified::Expired(at));
    }
    Ok(Verified::Key(AuthContext {
        org_id: rec.org_id,
        key_id: rec.id,
        key_name: rec.name,
        scope: rec.container_tag.map(|container_tag| KeyScope {
            container_tag,
            expires_at: rec.expires_at,
            rate_limit: rec.rate_limit,
        }),
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

    /// A new key of the organisation, full or (with `scope`) scoped: the
    /// record and the plain key (shown once, never stored).
    pub async fn create_org_key(
        &self,
        org_id: &str,
        name: &str,
        scope: Option<KeyScope>,
    ) -> Result<(ApiKeyRecord, String), crate::EngineError> {
        let (mut rec, key) = generate_key(org_id, name);
        if let Some(scope) = scope {
            rec.container_tag = Some(scope.container_tag);
            rec.expires_at = scope.expires_at;
            rec.rate_limit = scope.rate_limit;
        }
        self.store.insert_api_key(&rec).await?;
        Ok((rec, key))
    }

    /// Revoke one of the organisation's scoped keys (a full key's id is
    /// not one: `NotFound`).
    pub async fn revoke_scoped_key(
        &self,
        org_id: &str,
        id: &str,
    ) -> Result<ApiKeyRecord, crate::EngineError> {
        let k = self.own_key(org_id, id).await?;
        if k.container_tag.is_none() {
            return Err(crate::EngineError::NotFound {
                what: format!("scoped key `{id}`"),
            });
        }
        self.revoke_key(org_id, id).await
    }

    /// For a scoped key: the document (by id or custom id) must carry its
    /// tag, else it is `NotFound`, as if absent. A full key passes without
    /// a read.
    pub async fn check_document_scope(
        &self,
        who: &AuthContext,
        id: &str,
    ) -> Result<(), crate::EngineError> {
        if who.scope.is_none() {
            return Ok(());
        }
        let d = self.get_document(&who.org_id, id).await?;
        if who.sees(&d.container_tags) {
            Ok(())
        } else {
            Err(crate::EngineError::NotFound {
                what: format!("document `{id}`"),
            })
        }
    }

    /// Scope a document write: its tags become the key's (see
    /// [`AuthContext::scope_tags`]), and a scoped key may not replace, by
    /// its custom id, a document it cannot see.
    pub async fn scope_document_input(
        &self,
        who: &AuthContext,
        input: &mut engram_core::DocumentInput,
    ) -> Result<(), crate::EngineError> {
        who.scope_tags(&mut input.container_tags)?;
        let (Some(_), Some(custom)) = (&who.scope, &input.custom_id) else {
            return Ok(());
        };
        match self.store.get_document(&who.org_id, custom).await? {
            Some(d) if !who.sees(&d.container_tags) => Err(crate::EngineError::Permission(
                format!("the customId `{custom}` belongs to a document outside this key's container tag"),
            )),
            _ => Ok(()),
        }
    }

    /// For a scoped key: the memory must belong to its tag, else it is
    /// `NotFound`. A full key passes without a read.
    pub async fn check_memory_scope(
        &self,
        who: &AuthContext,
        id: &str,
    ) -> Result<(), crate::EngineError> {
        if who.scope.is_none() {
            return Ok(());
        }
        match self.store.get_memory(&who.org_id, id).await? {
            Some(m) if who.sees(std::slice::from_ref(&m.container_tag)) => Ok(()),
            _ => Err(crate::EngineError::NotFound {
                what: format!("memory `{id}`"),
            }),
        }
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

    /// Rename one of the organisation's keys; `Conflict` when it is
    /// revoked (it stays listed as it was, a record of what it was called).
    pub async fn rename_key(
        &self,
        org_id: &str,
        id: &str,
        name: &str,
    ) -> Result<ApiKeyRecord, crate::EngineError> {
        if self.own_key(org_id, id).await?.revoked_at.is_some() {
            return Err(crate::EngineError::Conflict(format!(
                "key `{id}` is revoked; it can no longer be renamed"
            )));
        }
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
