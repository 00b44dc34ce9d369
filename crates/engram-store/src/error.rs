//! The store's error type. Backends map their driver errors into it; the
//! server maps it to HTTP in one place.

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule was broken (for example, a custom id already taken
    /// by another document when patching).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The stored data is not what this version of Engram expects.
    #[error("incompatible store: {0}")]
    Incompatible(String),
    /// The database cannot be reached now (down, restarting, refusing
    /// connections, out of connections): worth trying again shortly.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// The disk the database writes to is full: reads still work, writes
    /// will again once space is freed.
    #[error("storage full: {0}")]
    Full(String),
    /// The backend failed (IO, corruption, a statement it refused).
    #[error("storage backend: {0}")]
    Backend(String),
}

impl StoreError {
    /// A backend's unique-constraint violation, in the API's words: what
    /// clashed, never the database's message (which names tables and
    /// columns). `raw` is that message; the constraint is read from it.
    pub fn unique_violation(raw: &str) -> Self {
        let what = if raw.contains("custom_id") {
            "another document already has this customId"
        } else {
            "this would duplicate something that exists already"
        };
        StoreError::Conflict(what.into())
    }
}
