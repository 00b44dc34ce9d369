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
    /// The backend failed (IO, connection, corruption).
    #[error("storage backend: {0}")]
    Backend(String),
}
