//! Opaque identifiers: 22 base62 characters, the same shape the public API
//! uses, so clients that check id length keep working.
//!
//! An id opens with its creation time (milliseconds since the Unix epoch,
//! eight base62 digits in an alphabet that sorts as ASCII) and ends with
//! fourteen random characters (about 83 bits). Ids made one after another
//! therefore sit next to each other in every B-tree index keyed by them: a
//! group commit of new documents, their jobs, tags and chunks touches a few
//! index pages instead of one random page per row and index (random ids had
//! SQLite writing ~70 WAL pages for a commit of seven documents). Nothing
//! may rely on an id being unguessable; secrets use [`random_base62`].

use rand::RngExt;

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Length of every generated identifier.
pub const ID_LEN: usize = 22;

/// Leading characters that hold the creation time: 62^8 ms is ~6900 years.
const TIME_LEN: usize = 8;

/// A fresh identifier: its creation time, then random characters.
pub fn new_id() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let mut id = String::with_capacity(ID_LEN);
    id.push_str(&time_prefix(ms));
    id.push_str(&random_base62(ID_LEN - TIME_LEN));
    id
}

/// `ms` as `TIME_LEN` base62 digits, most significant first.
fn time_prefix(ms: u64) -> String {
    let mut digits = [b'0'; TIME_LEN];
    let mut t = ms;
    for d in digits.iter_mut().rev() {
        *d = ALPHABET[(t % 62) as usize];
        t /= 62;
    }
    String::from_utf8_lossy(&digits).into_owned()
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

    #[test]
    fn ids_open_with_their_time_and_sort_by_it() {
        assert_eq!(time_prefix(0), "00000000");
        assert_eq!(time_prefix(61), "0000000z");
        assert_eq!(time_prefix(62), "00000010");
        // the largest time that fits (year ~8900)
        assert_eq!(time_prefix(62u64.pow(8) - 1), "zzzzzzzz");
        let mut earlier = Vec::new();
        for _ in 0..50 {
            earlier.push(new_id());
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
        let later = new_id();
        assert!(earlier.iter().all(|e| e.as_str() < later.as_str()));
        // the random tail keeps ids of the same millisecond apart
        let same: std::collections::HashSet<String> = (0..1000).map(|_| new_id()).collect();
        assert_eq!(same.len(), 1000);
    }
}
