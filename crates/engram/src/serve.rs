//! `engram serve`: open the store, load the embedder, start workers and the
//! HTTP server, and shut down gracefully on SIGINT/SIGTERM (in-flight
//! requests finish, then workers stop and release their jobs).

use crate::config::{self, ServeArgs, Settings};
use anyhow::Context;
use engram_embed::model_files;
use engram_embed::Embedder;
use engram_engine::{fetch::FetchConfig, workers::WorkerPool, Engine, EngineConfig};
use engram_server::{AppState, ServerConfig};
use engram_store::Store;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let file = config::load_file(args.config.as_ref())?;
    let settings = config::resolve(args, file)?;
    init_tracing(&settings.log_format);
    tracing::debug!(?settings, "configuration");

    let store = crate::store::open(settings.database_url.as_deref(), &settings.data_dir).await?;
    let embedder = load_embedder(&settings).await?;
    let engine = Engine::new(store.clone(), embedder, engine_config(&settings)?).await?;

    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .with_context(|| format!("cannot listen on {}", settings.listen))?;
    let addr = listener.local_addr()?;
    let base_url = format!("http://{addr}");
    first_run(store.as_ref(), &base_url).await?;

    let warm = engine.clone();
    tokio::spawn(async move {
        if let Err(e) = warm.warm_indexes().await {
            tracing::warn!(error = %e, "loading search indexes failed; they load on first search");
        }
    });
    let workers = WorkerPool::start(engine.clone(), settings.workers);
    // the same cache as `engram docs`: vectors of the same docs and model
    let config = ServerConfig {
        docs_cache_dir: Some(model_files::default_cache_dir()),
        ..Default::default()
    };
    let state = AppState::new(engine.clone(), config);
    tracing::info!(%base_url, data_dir = %settings.data_dir.display(), model = engine.embedder.model_name(), "Engram is listening");
    eprintln!("Engram is listening on {base_url} (console: {base_url}/console)");
    engram_server::serve(listener, state, shutdown_signal())
        .await
        .context("the HTTP server failed")?;
    tracing::info!("HTTP server stopped; stopping workers");
    workers.shutdown().await;
    engine.save_indexes().await;
    store.close().await;
    tracing::info!("shut down cleanly");
    Ok(())
}

fn engine_config(s: &Settings) -> anyhow::Result<EngineConfig> {
    let llm = match &s.llm {
        Some(c) => {
            let chat = engram_llm::openai::OpenAiChat::new(c.clone())
                .map_err(|e| anyhow::anyhow!("cannot set up the LLM: {e}"))?;
            tracing::info!(url = %c.base_url, model = %c.model, "memory extraction uses an LLM");
            Some(engram_engine::LlmHandle(Arc::new(chat)))
        }
        None => None,
    };
    Ok(EngineConfig {
        llm,
        chunk_tokens: s.chunk_tokens,
        lease: Duration::from_secs(s.job_lease_secs),
        dream_delay: Duration::from_millis(s.dream_delay_ms),
        vector_index: s.vector_index.into(),
        fetch: FetchConfig {
            allow_private: s.fetch_allow_private,
            max_bytes: s.fetch_max_bytes,
            timeout: Duration::from_secs(s.fetch_timeout_secs),
            ..FetchConfig::default()
        },
        connect: connect_config(s)?,
        // this replica's own disk, on either store: a restart loads the
        // indexes from here and catches up from the store's change log
        snapshots: Some(engram_engine::snapshots::SnapshotConfig::new(
            s.data_dir.join("indexes"),
        )),
        ..EngineConfig::default()
    })
}

/// Connections: the sealing key (configured, or `secret.key` in the data
/// directory, made on first run with mode 0600) and the public URL.
fn connect_config(s: &Settings) -> anyhow::Result<engram_engine::connections::ConnectConfig> {
    use engram_connect::seal::{generate_key, parse_key, Sealer};
    let current = match &s.secret_key {
        Some(k) => k.clone(),
        None => {
            let path = s.data_dir.join("secret.key");
            if !path.exists() {
                if s.database_url.is_some() {
                    tracing::warn!(
                        "no ENGRAM_SECRET_KEY: connector secrets are sealed with {}; replicas sharing \
                         the database need the same key",
                        path.display()
                    );
                }
                std::fs::create_dir_all(&s.data_dir)?;
                write_private(&path, &generate_key())?;
            }
            std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?
        }
    };
    let key = parse_key(&current).map_err(|e| anyhow::anyhow!("the secret key: {e}"))?;
    let previous = s
        .secret_keys_previous
        .iter()
        .map(|k| parse_key(k))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("a previous secret key: {e}"))?;
    Ok(engram_engine::connections::ConnectConfig {
        sealer: Arc::new(Sealer::new(&key, &previous)),
        public_url: s.public_url.clone(),
        endpoints: s.connectors.endpoints.clone(),
        clients: s.connectors.clients.clone(),
        sync_interval: std::time::Duration::from_secs(s.sync_interval_secs),
        // a crashed replica's sync is taken over as soon as its jobs are
        lease: std::time::Duration::from_secs(s.job_lease_secs),
        ..Default::default()
    })
}

fn write_private(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(text.as_bytes())?;
    Ok(())
}

async fn load_embedder(s: &Settings) -> anyhow::Result<Arc<dyn Embedder>> {
    if let Some(r) = &s.embeddings {
        let cfg = engram_embed::openai::OpenAiConfig {
            base_url: r.url.clone(),
            model: r.model.clone(),
            api_key: r.api_key.clone(),
            dimension: r.dimension,
            timeout: Duration::from_secs(60),
            max_tokens: 512,
        };
        let e = engram_embed::openai::OpenAiEmbedder::connect(cfg).await?;
        return Ok(Arc::new(e));
    }
    let found = locate_model(s.model_dir.clone()).await?;
    let name = match &found {
        model_files::Found::Configured(dir) => configured_model_name(dir),
        _ => model_files::DEFAULT_MODEL_NAME.to_string(),
    };
    let dir = found.dir().to_path_buf();
    let precision = s.embed_precision;
    let e = tokio::task::spawn_blocking(move || {
        engram_embed::local::LocalEmbedder::start_with(&dir, &name, precision)
    })
    .await??;
    Ok(Arc::new(e))
}

/// Find the model (a configured folder, the caches, or a download), off the
/// async runtime.
pub async fn locate_model(
    model_dir: Option<std::path::PathBuf>,
) -> anyhow::Result<model_files::Found> {
    let found = tokio::task::spawn_blocking(move || {
        model_files::locate(
            model_dir.as_deref(),
            &model_files::default_cache_dir(),
            true,
        )
    })
    .await??;
    if let model_files::Found::Downloaded(dir) = &found {
        eprintln!("Fetched the embedding model into {}", dir.display());
    }
    Ok(found)
}

fn configured_model_name(dir: &Path) -> String {
    // a folder holding the default model keeps the default's name
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if name.eq_ignore_ascii_case("all-MiniLM-L6-v2") || name == "model" {
        model_files::DEFAULT_MODEL_NAME.to_string()
    } else {
        format!("local:{name}")
    }
}

/// On an empty store: create the default organisation and a key, print the
/// key once, and write credentials for the CLI.
async fn first_run(store: &dyn Store, base_url: &str) -> anyhow::Result<()> {
    if !store.list_orgs().await?.is_empty() {
        return Ok(());
    }
    let (rec, key) = engram_engine::auth::create_key(store, "default", "default").await?;
    let path = crate::keys::write_credentials(base_url, &key, &rec.org_id)?;
    eprintln!(
        "\nFirst run: created organisation \"default\" and an API key (shown once, keep it safe):\n\n    {key}\n\n\
         Credentials saved to {} (mode 0600).\n",
        path.display()
    );
    Ok(())
}

/// Colour in log lines only for a person at a terminal, never into a file
/// or a pipe (and never with `NO_COLOR`).
pub(crate) fn log_colour() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn init_tracing(format: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("ENGRAM_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(log_colour())
        .with_writer(std::io::stderr);
    if format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutdown requested; finishing in-flight requests");
}
