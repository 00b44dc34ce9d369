//! Wire types of Engram's HTTP interface: request and response bodies exactly
//! as clients see them (camelCase JSON, wire-compatible with the public
//! Supermemory v3/v4 API), shared by the server and the CLI.
//!
//! This crate owns serde shapes and the request-level validation that follows
//! from them; it does no IO and knows nothing of axum or storage.

pub mod analytics;
pub mod connections;
pub mod documents;
pub mod error;
pub mod graph;
pub mod keys;
pub mod lenient;
pub mod memories;
pub mod search;
pub mod settings;
pub mod spaces;
pub mod upload;
pub mod v4;

pub use analytics::*;
pub use connections::*;
pub use documents::*;
pub use error::ErrorBody;
pub use graph::*;
pub use keys::*;
pub use memories::*;
pub use search::*;
pub use settings::{OrgSettingsBody, ResetRequest, ResetResponse, SettingsUpdated};
pub use spaces::*;
pub use upload::UploadFileForm;
pub use v4::*;

/// The highest page number a list accepts: past it no organisation has
/// anything, and the offset it would ask the database for is refused
/// rather than computed.
pub const MAX_PAGE: u64 = 1_000_000;
