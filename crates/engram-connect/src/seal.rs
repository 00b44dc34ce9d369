//! Secrets at rest: connector tokens and access keys are sealed with
//! AES-256-GCM before the store sees them.
//!
//! A sealed value is `v1 | key id (4 bytes) | nonce (12) | ciphertext+tag`.
//! The key id (the first bytes of the key's SHA-256) says which key sealed
//! it, so keys can rotate: the sealer seals with its current key and opens
//! with the current or any previous key, and a value sealed with an old key
//! is resealed with the current one the next time it is written (every sync
//! rewrites a refreshed token). Random 96-bit nonces; the organisation and
//! connection id are the associated data, so a sealed blob copied to
//! another row does not open.

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use base64::Engine as _;
use sha2::{Digest, Sha256};

const VERSION: u8 = 1;

/// Why a secret could not be sealed or opened.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("a secret key must be 32 bytes, base64 or hex encoded")]
    BadKey,
    #[error("the secret was sealed with a key this server does not have (key id {0}); configure it among the previous keys")]
    UnknownKey(String),
    #[error("the sealed secret is damaged or belongs elsewhere")]
    Damaged,
}

struct Key {
    id: [u8; 4],
    key: LessSafeKey,
    /// For derived secrets (a separate use of the same key material).
    mac: aws_lc_rs::hmac::Key,
}

impl Key {
    fn new(raw: &[u8; 32]) -> Self {
        let digest = Sha256::digest(raw);
        let mut id = [0u8; 4];
        id.copy_from_slice(&digest[..4]);
        let key = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, raw).expect("32-byte key"));
        let mac = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, raw);
        Key { id, key, mac }
    }
}

/// Seals and opens secrets with the configured keys.
pub struct Sealer {
    current: Key,
    previous: Vec<Key>,
    rng: SystemRandom,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sealer(key id {})", hex::encode(self.current.id))
    }
}

/// Read a key written as base64 (standard or URL-safe) or hex.
pub fn parse_key(s: &str) -> Result<[u8; 32], SealError> {
    let s = s.trim();
    let bytes = hex::decode(s)
        .ok()
        .or_else(|| base64::engine::general_purpose::STANDARD.decode(s).ok())
        .or_else(|| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(s)
                .ok()
        })
        .ok_or(SealError::BadKey)?;
    bytes.try_into().map_err(|_| SealError::BadKey)
}

/// A new random key, base64 encoded (what `engram serve` writes on first
/// run).
pub fn generate_key() -> String {
    let mut k = [0u8; 32];
    SystemRandom::new().fill(&mut k).expect("system randomness");
    base64::engine::general_purpose::STANDARD.encode(k)
}

impl Sealer {
    /// A sealer sealing with `current` and also opening with `previous`.
    pub fn new(current: &[u8; 32], previous: &[[u8; 32]]) -> Self {
        Sealer {
            current: Key::new(current),
            previous: previous.iter().map(Key::new).collect(),
            rng: SystemRandom::new(),
        }
    }

    /// Seal `plain`, bound to `context` (who it belongs to).
    pub fn seal(&self, plain: &[u8], context: &str) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).expect("system randomness");
        let mut buf = plain.to_vec();
        self.current
            .key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut buf,
            )
            .expect("sealing cannot fail for in-memory buffers");
        let mut out = Vec::with_capacity(1 + 4 + NONCE_LEN + buf.len());
        out.push(VERSION);
        out.extend_from_slice(&self.current.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&buf);
        out
    }

    /// Open a sealed value bound to `context`.
    pub fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, SealError> {
        if sealed.len() < 1 + 4 + NONCE_LEN + 16 || sealed[0] != VERSION {
            return Err(SealError::Damaged);
        }
        let id = &sealed[1..5];
        let key = std::iter::once(&self.current)
            .chain(&self.previous)
            .find(|k| k.id == id)
            .ok_or_else(|| SealError::UnknownKey(hex::encode(id)))?;
        let nonce: [u8; NONCE_LEN] = sealed[5..5 + NONCE_LEN].try_into().expect("length checked");
        let mut buf = sealed[5 + NONCE_LEN..].to_vec();
        let plain = key
            .key
            .open_in_place(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut buf,
            )
            .map_err(|_| SealError::Damaged)?;
        Ok(plain.to_vec())
    }

    /// Secrets derived for `context` (e.g. a webhook's signing secret),
    /// the current key's first, then one per previous key: nothing to
    /// store, and a secret handed out before a rotation still checks
    /// while the old key is configured.
    pub fn derive(&self, context: &str) -> Vec<String> {
        std::iter::once(&self.current)
            .chain(&self.previous)
            .map(|k| {
                let tag =
                    aws_lc_rs::hmac::sign(&k.mac, format!("engram-derive/{context}").as_bytes());
                hex::encode(&tag.as_ref()[..24])
            })
            .collect()
    }

    /// Whether `sealed` was sealed with an older key (and should be
    /// resealed).
    pub fn is_stale(&self, sealed: &[u8]) -> bool {
        sealed.get(1..5).is_some_and(|id| id != self.current.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_binding_and_rotation() {
        let k1 = parse_key(&generate_key()).unwrap();
        let k2 = parse_key(&hex::encode([7u8; 32])).unwrap();
        let old = Sealer::new(&k1, &[]);
        let sealed = old.seal(b"gho_token", "org1/conn1");
        assert!(!sealed.windows(9).any(|w| w == b"gho_token"));
        assert_eq!(old.open(&sealed, "org1/conn1").unwrap(), b"gho_token");
        assert!(matches!(
            old.open(&sealed, "org2/conn1"),
            Err(SealError::Damaged)
        ));
        let mut bad = sealed.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(matches!(
            old.open(&bad, "org1/conn1"),
            Err(SealError::Damaged)
        ));
        // rotated: the new key seals, the old one still opens
        let rotated = Sealer::new(&k2, &[k1]);
        assert!(rotated.is_stale(&sealed));
        assert_eq!(rotated.open(&sealed, "org1/conn1").unwrap(), b"gho_token");
        let resealed = rotated.seal(b"gho_token", "org1/conn1");
        assert!(!rotated.is_stale(&resealed));
        // without the old key: a clear error
        let only_new = Sealer::new(&k2, &[]);
        assert!(matches!(
            only_new.open(&sealed, "org1/conn1"),
            Err(SealError::UnknownKey(_))
        ));
        assert!(parse_key("short").is_err());
        // derived secrets: stable, per context, and the old key's still known
        let d = old.derive("webhook/a");
        assert_eq!(d, old.derive("webhook/a"));
        assert_ne!(d, old.derive("webhook/b"));
        assert_eq!(rotated.derive("webhook/a")[1], d[0]);
        assert_ne!(rotated.derive("webhook/a")[0], d[0]);
    }
}
