//! Engram's domain vocabulary: identifiers, document types and states,
//! metadata and container-tag validation, and the token-counting trait the
//! chunker is written against.
//!
//! This crate performs no IO and knows nothing of HTTP, SQL or models. Every
//! other crate agrees on these types; rules that must hold everywhere (what a
//! valid container tag is, which status follows which) live here once.

pub mod error;
pub mod filter;
pub mod ids;
pub mod model;
pub mod tokens;
pub mod validate;

pub use error::ValidationError;
pub use model::*;
