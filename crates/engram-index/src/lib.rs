//! The in-memory search index of one organisation: keyword postings with
//! BM25 statistics computed inside each query's scope, the chunk vectors,
//! the reading order that links each passage to its neighbours, and the
//! fusion that turns all of it into one calibrated score.
//!
//! It is a cache of what the store holds, never the source of truth: the
//! engine fills and refreshes it from the store's change log. It knows
//! nothing of HTTP, SQL or embedding models; it only sees texts, vectors
//! and document attributes.

pub mod fusion;
mod index;
pub mod text;
pub mod vector;

pub use index::{Hit, IndexChunk, IndexDocument, OrgIndex, Query, Scope, Subject};
pub use vector::ANN_MIN_CHUNKS;
