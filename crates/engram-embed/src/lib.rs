//! Text embeddings: the [`Embedder`] trait and its providers.
//!
//! - [`local::LocalEmbedder`]: a BERT-family sentence-transformers model
//!   (all-MiniLM-L6-v2 by default) run in-process by [`cpu_bert`]; a
//!   scheduler thread coalesces concurrent requests and runs them on one
//!   thread per core (`lanes`). Mean
//!   or CLS pooling as the model folder says, and L2 normalisation,
//!   matching sentence-transformers.
//! - [`openai::OpenAiEmbedder`]: any server speaking the OpenAI-compatible
//!   `/v1/embeddings` protocol (OpenAI, Ollama, vLLM, llama.cpp).
//! - [`model_files`]: finding the model's files on disk, or fetching them.
//!
//! Embedding never runs on the async runtime's threads. This crate knows
//! nothing of HTTP serving or storage.

pub mod attention;
pub mod attention_bf16;
pub mod bf16;
pub mod cpu_bert;
pub mod dense;
pub mod kernels;
mod lanes;
pub mod local;
pub mod model_files;
pub mod openai;
mod plain;
pub mod weights;

pub use dense::Precision;

use async_trait::async_trait;
use engram_core::tokens::TokenCounter;
use std::sync::Arc;

/// An embedding failure.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The model files are missing or unreadable.
    #[error("embedding model unavailable: {0}")]
    ModelUnavailable(String),
    /// The model failed to run on the input.
    #[error("embedding failed: {0}")]
    Inference(String),
    /// A remote provider failed in a way worth retrying (timeout, 429, 5xx).
    #[error("embedding provider unavailable: {0}")]
    Transient(String),
    /// A remote provider rejected the request or answered nonsense.
    #[error("embedding provider error: {0}")]
    Provider(String),
    /// The embedder was shut down.
    #[error("embedder stopped")]
    Stopped,
}

impl EmbedError {
    /// Whether trying again later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, EmbedError::Transient(_) | EmbedError::Stopped)
    }
}

/// Turns texts into unit-length vectors.
#[async_trait]
pub trait Embedder: Send + Sync + 'static {
    /// A stable model name, recorded in the store.
    fn model_name(&self) -> &str;
    /// Vector dimension.
    fn dimension(&self) -> usize;
    /// Longest input in tokens; longer inputs are truncated.
    fn max_tokens(&self) -> usize;
    /// The tokenizer the chunker should count with.
    fn token_counter(&self) -> Arc<dyn TokenCounter>;
    /// Embed `texts`, one L2-normalised vector each, in order.
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// Embed search queries. Models trained with an instruction for
    /// queries (bge, snowflake-arctic-embed, e5) want it here and not on
    /// documents; by default the same as [`Embedder::embed`].
    async fn embed_queries(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.embed(texts).await
    }
}

/// Scale `v` to unit length (no-op for the zero vector).
pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Dot product (cosine similarity for unit vectors).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
