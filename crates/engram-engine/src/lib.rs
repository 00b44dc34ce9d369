//! Engram's engine: the document service (what the routes call), the SSRF-
//! guarded URL fetcher, and the background pipeline that walks documents
//! through `queued -> extracting -> chunking -> embedding -> indexing -> done`.
//!
//! Ingest only writes the document and its job (durably, in one
//! transaction) and wakes the workers; all processing happens in
//! [`workers`]. The engine knows nothing of HTTP serving or SQL: it talks to
//! storage through [`engram_store::Store`] and to models through
//! [`engram_embed::Embedder`].

pub mod analytics;
pub mod auth;
pub mod connections;
pub mod documents;
mod dreams;
pub mod indexes;
pub mod memories;
mod pipeline;
pub mod search;
pub mod settings;
pub mod snapshots;
pub mod spaces;
pub mod workers;
mod write_groups;

use engram_embed::Embedder;
use engram_store::{Store, StoreError};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

pub use documents::{DocumentInput, FileInput};
pub use engram_connect::fetch;

/// An engine failure, mapped to HTTP by the server.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Validation(#[from] engram_core::ValidationError),
    #[error("{what} not found")]
    NotFound { what: String },
    #[error("{0}")]
    Conflict(String),
    /// The caller's key may not do this.
    #[error("{0}")]
    Permission(String),
    /// Too many requests; try again after `retry_after_secs`.
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_secs: u64,
    },
    /// The server cannot do this (501): a provider without resources.
    #[error("{0}")]
    Unsupported(String),
    /// A dependency is down or misconfigured (503).
    #[error("{0}")]
    Unavailable(String),
    /// A connection's sync failed.
    #[error(transparent)]
    Sync(engram_connect::ConnectError),
    #[error(transparent)]
    Store(StoreError),
}

/// An embedding that failed for a request: a provider that is down, slow
/// or rate-limited (or a model that cannot load) is `Unavailable`, worth
/// retrying shortly; anything else is a backend failure.
pub(crate) fn embedding_failed(e: engram_embed::EmbedError) -> EngineError {
    use engram_embed::EmbedError::{ModelUnavailable, Transient};
    match e {
        Transient(_) | ModelUnavailable(_) => {
            EngineError::Unavailable(format!("the embedding provider is unavailable: {e}"))
        }
        other => EngineError::Store(StoreError::Backend(format!("embedding failed: {other}"))),
    }
}

impl From<StoreError> for EngineError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(m) => EngineError::Conflict(m),
            other => EngineError::Store(other),
        }
    }
}

/// Tunables of the engine.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Target chunk size in tokens (clamped to the model's limit).
    pub chunk_tokens: Option<usize>,
    /// Jobs one worker claims and processes together.
    pub batch_size: usize,
    /// How long a claimed job is leased (renewed while it runs).
    pub lease: Duration,
    /// Attempts before a transient failure becomes permanent.
    pub max_attempts: i64,
    /// First retry delay; doubles each attempt (capped at 5 minutes).
    pub retry_base: Duration,
    /// How often idle workers look for work they were not woken for.
    pub poll_interval: Duration,
    /// Where large scopes get their vector candidates.
    pub vector_index: VectorIndex,
    pub fetch: fetch::FetchConfig,
    /// The chat model for memory extraction (none: the offline extractor).
    pub llm: Option<LlmHandle>,
    /// How long a request waits for the chat model (rerank, query rewrite,
    /// aggregation) before it answers by the offline path instead: a slow
    /// model must not make searches slow. Extraction, in the background,
    /// waits for the model's own timeout.
    pub llm_budget: Duration,
    /// How often expired memories are swept (forgotten).
    pub sweep_interval: Duration,
    /// How long after processing a `dreaming: dynamic` document waits
    /// before its memories form, so that related documents arriving
    /// together (the turns of a conversation, a batch) form as one group.
    pub dream_delay: Duration,
    /// Connections: secret sealing, OAuth endpoints and clients, sync
    /// schedule.
    pub connect: connections::ConnectConfig,
    /// Where search indexes are saved for fast restarts (none: rebuilt
    /// from the store at every start).
    pub snapshots: Option<snapshots::SnapshotConfig>,
}

/// A shared chat model, as configuration holds it.
#[derive(Clone)]
pub struct LlmHandle(pub Arc<dyn engram_llm::Llm>);

impl std::fmt::Debug for LlmHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

/// Where search gets the vector candidates of large scopes (at least
/// [`engram_index::ANN_MIN_CHUNKS`] chunks; smaller ones are scanned
/// exactly in memory either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VectorIndex {
    /// An HNSW graph in each process's index: fastest queries, but every
    /// replica builds and holds its own.
    #[default]
    InProcess,
    /// The store's own index (pgvector on PostgreSQL): replicas hold no
    /// graph and load faster; queries take a database round trip, and
    /// every chunk write maintains the index.
    Store,
}

/// [`EngineConfig::dream_delay`] unless configured.
pub const DEFAULT_DREAM_DELAY: Duration = Duration::from_secs(1);

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            chunk_tokens: None,
            batch_size: 32,
            lease: engram_store::DEFAULT_LEASE,
            max_attempts: 5,
            retry_base: Duration::from_secs(2),
            poll_interval: Duration::from_millis(500),
            vector_index: VectorIndex::InProcess,
            fetch: fetch::FetchConfig::default(),
            llm: None,
            llm_budget: Duration::from_secs(10),
            sweep_interval: Duration::from_secs(30),
            dream_delay: DEFAULT_DREAM_DELAY,
            connect: Default::default(),
            snapshots: None,
        }
    }
}

/// The engine: shared by the routes and the workers.
pub struct Engine {
    pub store: Arc<dyn Store>,
    pub embedder: Arc<dyn Embedder>,
    pub config: EngineConfig,
    fetcher: fetch::Fetcher,
    wake: Arc<Notify>,
    indexes: indexes::Indexes,
    memory_indexes: memories::index::MemoryIndexes,
    /// Built profiles by (organisation, space), with the memory change
    /// they reflect.
    profiles: std::sync::Mutex<ProfileCache>,
    /// Embeddings of short texts asked for again and again (profile
    /// bucket descriptions, names searches hold), by text.
    short_vectors: std::sync::Mutex<std::collections::HashMap<String, Vec<f32>>>,
    /// The chat model for extraction, when one is configured.
    llm: Option<Arc<dyn engram_llm::Llm>>,
    /// The fact/not-a-fact judge of offline extraction, built on first
    /// use with this engine's embedder.
    judge: tokio::sync::OnceCell<Arc<engram_memory::judge::Judge>>,
    /// Where request logs go.
    recorder: analytics::Recorder,
    /// Wakes the connection sync runner.
    sync_wake: Arc<Notify>,
    /// For providers' APIs and token endpoints (fixed, configured hosts;
    /// user-given URLs go through `fetcher`).
    api_http: reqwest::Client,
    /// Serialises token refreshes per connection.
    refresh_locks: std::sync::Mutex<std::collections::HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Concurrent document writes, committed together.
    write_groups: write_groups::WriteGroups,
}

type ProfileCache = std::collections::HashMap<(String, String), (i64, Arc<memories::Profile>)>;

impl Engine {
    /// Build an engine. Fails when the store's recorded embedding model is not
    /// the embedder's (vectors of two models must never mix).
    pub async fn new(
        store: Arc<dyn Store>,
        embedder: Arc<dyn Embedder>,
        config: EngineConfig,
    ) -> Result<Arc<Self>, EngineError> {
        let want = engram_store::ModelInfo {
            name: embedder.model_name().to_string(),
            dimension: embedder.dimension(),
        };
        let recorded = store.record_embedding_model(&want).await?;
        if recorded != want {
            return Err(EngineError::Store(StoreError::Incompatible(format!(
                "this data directory holds embeddings from model `{}` ({} dimensions), but Engram was started \
                 with `{}` ({} dimensions). Start with the original model, or use a fresh data directory.",
                recorded.name, recorded.dimension, want.name, want.dimension
            ))));
        }
        if config.vector_index == VectorIndex::Store {
            if !store.supports_vector_index() {
                return Err(EngineError::Store(StoreError::Incompatible(
                    "store-side vector candidates need a store with a vector index (PostgreSQL)"
                        .into(),
                )));
            }
            store.prepare_vector_index(want.dimension).await?;
        }
        let fetcher = fetch::Fetcher::new(config.fetch.clone());
        let store_for_recorder = store.clone();
        let engine = Arc::new(Self {
            store,
            embedder,
            fetcher,
            wake: Arc::new(Notify::new()),
            indexes: indexes::Indexes::default(),
            memory_indexes: Default::default(),
            profiles: Default::default(),
            short_vectors: Default::default(),
            judge: Default::default(),
            write_groups: Default::default(),
            llm: config.llm.clone().map(|l| l.0),
            recorder: analytics::Recorder::start(store_for_recorder),
            sync_wake: Arc::new(Notify::new()),
            refresh_locks: Default::default(),
            api_http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .connect_timeout(Duration::from_secs(10))
                .user_agent(concat!("Engram/", env!("CARGO_PKG_VERSION")))
                .build()
                .unwrap_or_default(),
            config,
        });
        // jobs enqueued by other replicas wake this one's workers too
        let weak = Arc::downgrade(&engine);
        engine
            .store
            .subscribe_jobs(Arc::new(move || {
                if let Some(e) = weak.upgrade() {
                    e.wake.notify_waiters();
                }
            }))
            .await?;
        Ok(engine)
    }

    /// Wake idle workers (new work was enqueued).
    pub fn notify_workers(&self) {
        self.wake.notify_waiters();
    }
}

/// A timestamp as the API writes it (RFC 3339, milliseconds, `Z`).
pub fn iso(t: engram_store::Timestamp) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
