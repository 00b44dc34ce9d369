//! A complete Engram for benchmarks: SQLite in a temporary directory (or a
//! fresh database on a PostgreSQL server), the local model, workers, and the
//! HTTP API on a loopback port.

use engram_embed::local::LocalEmbedder;
use engram_embed::model_files;
use engram_engine::{workers::WorkerPool, Engine, EngineConfig};
use engram_server::{AppState, ServerConfig};
use engram_store::Store;
use engram_store_sqlite::SqliteStore;
use std::path::Path;
use std::sync::Arc;

pub struct BenchServer {
    pub base: String,
    pub key: String,
    pub store: Arc<dyn Store>,
    pub engine: Arc<Engine>,
    /// None when the bench processes jobs itself (`workers` 0).
    workers: Option<WorkerPool>,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    /// The data directory (SQLite's file, index snapshots).
    pub dir: tempfile::TempDir,
    /// The PostgreSQL database this server uses, when not SQLite.
    pub database_url: Option<String>,
}

impl BenchServer {
    /// A bearer-authenticated JSON `POST` to `path`.
    pub fn post(
        &self,
        client: &reqwest::Client,
        path: &str,
        body: &serde_json::Value,
    ) -> reqwest::RequestBuilder {
        client
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .header("accept", "application/json, text/event-stream")
            .json(body)
    }

    /// Wait until no document is being processed (asked over HTTP) and
    /// no memories are still to form.
    pub async fn wait_processed(&self, client: &reqwest::Client) -> anyhow::Result<()> {
        loop {
            let v: serde_json::Value = client
                .get(format!("{}/v3/documents/processing", self.base))
                .header("authorization", format!("Bearer {}", self.key))
                .send()
                .await?
                .json()
                .await?;
            // and no memory formation (`dreaming: dynamic`) still due
            if v["totalCount"] == 0 && self.store.pending_jobs().await? == 0 {
                return Ok(());
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }

    /// Start with the model in `model_dir` and `workers` workers (none for
    /// 0), on SQLite
    /// or, given a server URL, on a new database of that PostgreSQL server.
    pub async fn start(
        model_dir: &Path,
        workers: usize,
        database_url: Option<&str>,
        vector_index: engram_engine::VectorIndex,
    ) -> anyhow::Result<Self> {
        let config = EngineConfig {
            vector_index,
            ..EngineConfig::default()
        };
        Self::start_with(model_dir, workers, database_url, config).await
    }

    /// [`Self::start`] with the engine's configuration given whole.
    pub async fn start_with(
        model_dir: &Path,
        workers: usize,
        database_url: Option<&str>,
        config: EngineConfig,
    ) -> anyhow::Result<Self> {
        Self::start_in(
            tempfile::tempdir()?,
            model_dir,
            workers,
            database_url,
            config,
        )
        .await
    }

    /// [`Self::start_with`] in the given data directory (laid out as
    /// `engram serve --data-dir` lays it out).
    pub async fn start_in(
        dir: tempfile::TempDir,
        model_dir: &Path,
        workers: usize,
        server_url: Option<&str>,
        config: EngineConfig,
    ) -> anyhow::Result<Self> {
        let database_url = match server_url {
            Some(url) => Some(engram_store_postgres::PgStore::create_database(url).await?),
            None => None,
        };
        let store: Arc<dyn Store> = match &database_url {
            Some(url) => Arc::new(engram_store_postgres::PgStore::connect(url).await?),
            None => Arc::new(SqliteStore::open(&dir.path().join("engram.db")).await?),
        };
        let d = model_dir.to_path_buf();
        let precision = super::precision()?;
        let embedder = tokio::task::spawn_blocking(move || {
            LocalEmbedder::start_with(&d, model_files::DEFAULT_MODEL_NAME, precision)
        })
        .await??;
        let engine = Engine::new(store.clone(), Arc::new(embedder), config).await?;
        let (_, key) = engram_engine::auth::create_key(store.as_ref(), "bench", "bench").await?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let state = AppState::new(engine.clone(), ServerConfig::default());
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(engram_server::serve(listener, state, async {
            let _ = stop_rx.await;
        }));
        let workers = (workers > 0).then(|| WorkerPool::start(engine.clone(), workers));
        // warm the model up
        engine.embedder.embed(vec!["warm up".into(); 8]).await?;
        Ok(Self {
            base,
            key,
            store,
            engine,
            workers,
            stop,
            server,
            dir,
            database_url,
        })
    }

    /// Stop, and drop the PostgreSQL database it made, if any.
    pub async fn stop(self) {
        let (_, database_url) = self.stop_keep().await;
        if let Some(url) = database_url {
            if let Err(e) = engram_store_postgres::PgStore::drop_database(&url).await {
                eprintln!("warning: the bench database stays: {e}");
            }
        }
    }

    /// Stop, and hand over the data directory (to start again on it).
    pub async fn stop_keep(self) -> (tempfile::TempDir, Option<String>) {
        if let Some(w) = self.workers {
            w.shutdown().await;
        }
        let _ = self.stop.send(());
        let _ = self.server.await;
        self.store.close().await;
        (self.dir, self.database_url)
    }
}
