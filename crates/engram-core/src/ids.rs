//! Opaque identifiers: 22 random base62 characters (about 131 bits), the same
//! shape the public API uses, so clients that check id length keep working.

use rand::RngExt;

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Length of every generated identifier.
pub const ID_LEN: usize = 22;

/// A fresh random identifier.
pub fn new_id() -> String {
    random_base62(ID_LEN)
}

/// `n` random base62 characters from the thread-local CSPRNG.
pub fn random_base62(n: usize) -> String {
    let mut rng = rand::rng();
    (0..n)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Whether `s` has the shape of an identifier this crate generates.
pub fn looks_like_id(s: &str) -> bool {
    s.len() == ID_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_22_base62_chars_and_distinct() {
        let a = new_id();
        let b = new_id();
        assert!(looks_like_id(&a));
        assert_ne!(a, b);
    }
}
