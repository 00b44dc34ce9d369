//! Configuration: a TOML file, `ENGRAM_*` environment variables and flags,
//! in rising precedence (flags beat the environment, which beats the file).
//! Clap resolves flag-over-environment; the file fills what neither set.
//! Secrets (API keys) come from the environment or the file and are never
//! printed: [`Settings`]' `Debug` redacts them.

pub mod connectors;

use clap::Args;
use serde::Deserialize;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Flags of `engram serve` (each also read from its environment variable).
#[derive(Debug, Args, Default)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ENGRAM_LISTEN", value_name = "ADDR:PORT")]
    pub listen: Option<SocketAddr>,
    /// Where the database lives (default: the user's data dir + /engram).
    #[arg(long, env = "ENGRAM_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// A PostgreSQL database (`postgres://user:password@host/db`) instead of
    /// the embedded SQLite file; several replicas may share one.
    #[arg(long, env = "ENGRAM_DATABASE_URL", value_name = "URL")]
    pub database_url: Option<String>,
    /// Where large scopes get their vector candidates: `process` (an HNSW
    /// graph in each replica, the default) or `store` (the database's
    /// pgvector index: less memory per replica, slower queries).
    #[arg(long, env = "ENGRAM_VECTOR_INDEX", value_name = "process|store")]
    pub vector_index: Option<VectorIndexArg>,
    /// TOML configuration file (default: the user's config dir + /engram/config.toml, if present).
    #[arg(long, env = "ENGRAM_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A sentence-transformers model folder to use instead of the default model.
    #[arg(long, env = "ENGRAM_MODEL_DIR", value_name = "DIR")]
    pub model_dir: Option<PathBuf>,
    /// The local model's arithmetic: `mixed` (the default: short inputs
    /// such as queries read half-precision weights, batches run as bfloat16
    /// products on CPUs with AVX-512 BF16; within 2e-3 of
    /// sentence-transformers) or `f32` (within 1e-4).
    #[arg(long, env = "ENGRAM_EMBED_PRECISION", value_name = "mixed|f32")]
    pub embed_precision: Option<engram_embed::Precision>,
    /// Use an OpenAI-compatible embeddings endpoint (base URL, e.g. http://localhost:11434/v1).
    #[arg(long, env = "ENGRAM_EMBEDDINGS_URL", value_name = "URL")]
    pub embeddings_url: Option<String>,
    /// Model name for the embeddings endpoint.
    #[arg(long, env = "ENGRAM_EMBEDDINGS_MODEL")]
    pub embeddings_model: Option<String>,
    /// Embedding dimension of the endpoint's model (probed when unset).
    #[arg(long, env = "ENGRAM_EMBEDDINGS_DIMENSION")]
    pub embeddings_dimension: Option<usize>,
    /// Use an OpenAI-compatible chat endpoint for memory extraction (base
    /// URL, e.g. http://localhost:11434/v1); without one, the offline
    /// extractor runs.
    #[arg(long, env = "ENGRAM_LLM_URL", value_name = "URL")]
    pub llm_url: Option<String>,
    /// Model name for the chat endpoint.
    #[arg(long, env = "ENGRAM_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Background workers.
    #[arg(long, env = "ENGRAM_WORKERS")]
    pub workers: Option<usize>,
    /// Target chunk size in tokens.
    #[arg(long, env = "ENGRAM_CHUNK_TOKENS")]
    pub chunk_tokens: Option<usize>,
    /// Allow fetching URLs on loopback and private networks.
    #[arg(long, env = "ENGRAM_FETCH_ALLOW_PRIVATE")]
    pub fetch_allow_private: Option<bool>,
    /// The key that seals connector secrets (32 bytes, base64 or hex).
    /// Default: `secret.key` in the data directory, made on first run.
    /// Replicas sharing a database must share it.
    #[arg(long, env = "ENGRAM_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<String>,
    /// Earlier secret keys (comma separated), still accepted for opening
    /// secrets sealed before a rotation.
    #[arg(long, env = "ENGRAM_SECRET_KEYS_PREVIOUS", hide_env_values = true)]
    pub secret_keys_previous: Option<String>,
    /// The address users reach this server at (OAuth callbacks), e.g.
    /// `https://memory.example.com`. Default: the address a request used.
    #[arg(long, env = "ENGRAM_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Seconds between scheduled syncs of each connection (default 6 hours).
    #[arg(long, env = "ENGRAM_SYNC_INTERVAL_SECS", value_name = "SECS")]
    pub sync_interval_secs: Option<u64>,
    /// Seconds a worker's claim on a job lasts without renewal (a crashed
    /// replica's jobs are picked up after this).
    #[arg(long, env = "ENGRAM_JOB_LEASE_SECS")]
    pub job_lease_secs: Option<u64>,
    /// Milliseconds a `dreaming: dynamic` document waits after processing
    /// before its memories form (documents due together form as a group).
    #[arg(long, env = "ENGRAM_DREAM_DELAY_MS")]
    pub dream_delay_ms: Option<u64>,
    /// Log format: `pretty` or `json`.
    #[arg(long, env = "ENGRAM_LOG_FORMAT")]
    pub log_format: Option<String>,
}

/// The TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub listen: Option<SocketAddr>,
    pub data_dir: Option<PathBuf>,
    pub database_url: Option<String>,
    pub vector_index: Option<VectorIndexArg>,
    pub model_dir: Option<PathBuf>,
    pub embed_precision: Option<String>,
    pub workers: Option<usize>,
    pub chunk_tokens: Option<usize>,
    pub job_lease_secs: Option<u64>,
    pub dream_delay_ms: Option<u64>,
    pub log_format: Option<String>,
    pub public_url: Option<String>,
    pub sync_interval_secs: Option<u64>,
    #[serde(default)]
    pub embeddings: EmbeddingsFile,
    #[serde(default)]
    pub fetch: FetchFile,
    #[serde(default)]
    pub llm: LlmFile,
    /// `[connectors.<provider>]`: OAuth clients and endpoints.
    #[serde(default)]
    pub connectors: std::collections::BTreeMap<String, connectors::ConnectorFile>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmFile {
    pub url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
    pub timeout_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmbeddingsFile {
    pub url: Option<String>,
    pub model: Option<String>,
    pub dimension: Option<usize>,
    pub api_key: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchFile {
    pub allow_private: Option<bool>,
    pub max_bytes: Option<usize>,
    pub timeout_secs: Option<u64>,
}

/// The resolved settings.
pub struct Settings {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    /// PostgreSQL instead of SQLite in `data_dir`.
    pub database_url: Option<String>,
    pub vector_index: VectorIndexArg,
    pub model_dir: Option<PathBuf>,
    /// The local model's weights for short inputs.
    pub embed_precision: engram_embed::Precision,
    pub embeddings: Option<RemoteEmbeddings>,
    /// The chat model for memory extraction, if any.
    pub llm: Option<engram_llm::openai::ChatConfig>,
    pub workers: usize,
    pub chunk_tokens: Option<usize>,
    pub fetch_allow_private: bool,
    pub fetch_max_bytes: usize,
    pub fetch_timeout_secs: u64,
    pub job_lease_secs: u64,
    pub dream_delay_ms: u64,
    pub log_format: String,
    pub secret_key: Option<String>,
    pub secret_keys_previous: Vec<String>,
    pub public_url: Option<String>,
    pub sync_interval_secs: u64,
    pub connectors: connectors::Connectors,
}

/// Default time between scheduled syncs of a connection.
pub const DEFAULT_SYNC_INTERVAL_SECS: u64 = 6 * 3600;

pub struct RemoteEmbeddings {
    pub url: String,
    pub model: String,
    pub dimension: Option<usize>,
    pub api_key: Option<String>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("listen", &self.listen)
            .field("data_dir", &self.data_dir)
            .field(
                "database_url",
                &self.database_url.as_deref().map(redact_url),
            )
            .field("model_dir", &self.model_dir)
            .field("llm", &self.llm)
            .field(
                "embeddings",
                &self.embeddings.as_ref().map(|e| {
                    format!(
                        "{} model={} key={}",
                        e.url,
                        e.model,
                        if e.api_key.is_some() {
                            "<redacted>"
                        } else {
                            "none"
                        }
                    )
                }),
            )
            .field("workers", &self.workers)
            .field("chunk_tokens", &self.chunk_tokens)
            .field("fetch_allow_private", &self.fetch_allow_private)
            .field("public_url", &self.public_url)
            .field("sync_interval_secs", &self.sync_interval_secs)
            .field("connectors", &self.connectors)
            .finish()
    }
}

/// Where large scopes get their vector candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VectorIndexArg {
    Process,
    Store,
}

impl From<VectorIndexArg> for engram_engine::VectorIndex {
    fn from(v: VectorIndexArg) -> Self {
        match v {
            VectorIndexArg::Process => engram_engine::VectorIndex::InProcess,
            VectorIndexArg::Store => engram_engine::VectorIndex::Store,
        }
    }
}

/// A database URL with its password replaced (for logs).
pub fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("<redacted>"));
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => "<unparsable URL>".into(),
    }
}

/// Default port.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:6767";

/// The user's data directory for Engram.
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("engram")
}

/// Engram's config directory (`$ENGRAM_CONFIG_DIR` overrides).
pub fn config_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("ENGRAM_CONFIG_DIR") {
        return PathBuf::from(p);
    }
    dirs::config_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("engram")
}

/// Read the config file (an explicitly named one must exist).
pub fn load_file(explicit: Option<&PathBuf>) -> anyhow::Result<FileConfig> {
    let (path, required) = match explicit {
        Some(p) => (p.clone(), true),
        None => (config_dir().join("config.toml"), false),
    };
    match std::fs::read_to_string(&path) {
        Ok(s) => toml::from_str(&s).map_err(|e| anyhow::anyhow!("{}: {e}", path.display())),
        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
            Ok(FileConfig::default())
        }
        Err(e) => Err(anyhow::anyhow!(
            "cannot read config file {}: {e}",
            path.display()
        )),
    }
}

/// Resolve flags/environment over the file over defaults.
pub fn resolve(args: ServeArgs, file: FileConfig) -> anyhow::Result<Settings> {
    let embeddings_url = args.embeddings_url.or(file.embeddings.url);
    let embeddings = match embeddings_url {
        Some(url) => Some(RemoteEmbeddings {
            url,
            model: args
                .embeddings_model
                .or(file.embeddings.model)
                .ok_or_else(|| anyhow::anyhow!("an embeddings URL needs a model name (--embeddings-model / ENGRAM_EMBEDDINGS_MODEL)"))?,
            dimension: args.embeddings_dimension.or(file.embeddings.dimension),
            api_key: std::env::var("ENGRAM_EMBEDDINGS_API_KEY")
                .ok()
                .or(file.embeddings.api_key)
                .or_else(|| std::env::var("OPENAI_API_KEY").ok())
                .filter(|k| !k.is_empty()),
        }),
        None => None,
    };
    let llm = match args.llm_url.or(file.llm.url).filter(|u| !u.is_empty()) {
        Some(url) => {
            let model = args.llm_model.or(file.llm.model).ok_or_else(|| {
                anyhow::anyhow!("an LLM URL needs a model name (--llm-model / ENGRAM_LLM_MODEL)")
            })?;
            let mut c = engram_llm::openai::ChatConfig::new(url, model);
            c.api_key = std::env::var("ENGRAM_LLM_API_KEY")
                .ok()
                .or(file.llm.api_key)
                .or_else(|| std::env::var("OPENAI_API_KEY").ok())
                .filter(|k| !k.is_empty());
            if let Some(t) = file.llm.timeout_secs {
                c.timeout = std::time::Duration::from_secs(t.max(1));
            }
            Some(c)
        }
        None => None,
    };
    let embed_precision = match args.embed_precision {
        Some(p) => p,
        None => file
            .embed_precision
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e: String| anyhow::anyhow!("embed_precision: {e}"))?
            .unwrap_or_default(),
    };
    Ok(Settings {
        llm,
        embed_precision,
        listen: args
            .listen
            .or(file.listen)
            .unwrap_or_else(|| DEFAULT_LISTEN.parse().expect("valid default address")),
        data_dir: args
            .data_dir
            .or(file.data_dir)
            .unwrap_or_else(default_data_dir),
        model_dir: args.model_dir.or(file.model_dir),
        database_url: args
            .database_url
            .or(file.database_url)
            .filter(|u| !u.is_empty()),
        vector_index: args
            .vector_index
            .or(file.vector_index)
            .unwrap_or(VectorIndexArg::Process),
        embeddings,
        workers: args.workers.or(file.workers).unwrap_or(2).max(1),
        chunk_tokens: args.chunk_tokens.or(file.chunk_tokens),
        fetch_allow_private: args
            .fetch_allow_private
            .or(file.fetch.allow_private)
            .unwrap_or(false),
        fetch_max_bytes: file.fetch.max_bytes.unwrap_or(50 * 1024 * 1024),
        fetch_timeout_secs: file.fetch.timeout_secs.unwrap_or(30),
        job_lease_secs: args
            .job_lease_secs
            .or(file.job_lease_secs)
            .unwrap_or(60)
            .max(1),
        dream_delay_ms: args
            .dream_delay_ms
            .or(file.dream_delay_ms)
            .unwrap_or(engram_engine::DEFAULT_DREAM_DELAY.as_millis() as u64),
        log_format: args
            .log_format
            .or(file.log_format)
            .unwrap_or_else(|| "pretty".into()),
        secret_key: args.secret_key.filter(|k| !k.trim().is_empty()),
        secret_keys_previous: args
            .secret_keys_previous
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(str::to_string)
            .collect(),
        public_url: args
            .public_url
            .or(file.public_url)
            .filter(|u| !u.is_empty()),
        sync_interval_secs: args
            .sync_interval_secs
            .or(file.sync_interval_secs)
            .unwrap_or(DEFAULT_SYNC_INTERVAL_SECS)
            .max(60),
        connectors: connectors::resolve(
            &file.connectors,
            &connectors::from_env(|k| std::env::var(k).ok()),
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_beat_file_beat_defaults() {
        let file: FileConfig = toml::from_str(
            r#"
            listen = "127.0.0.1:7000"
            workers = 3
            vector_index = "store"
            [fetch]
            allow_private = true
            "#,
        )
        .unwrap();
        let args = ServeArgs {
            workers: Some(5),
            ..Default::default()
        };
        let s = resolve(args, file).unwrap();
        assert_eq!(s.listen.port(), 7000);
        assert_eq!(s.workers, 5);
        assert_eq!(s.vector_index, VectorIndexArg::Store);
        assert!(s.fetch_allow_private);
        let s = resolve(ServeArgs::default(), FileConfig::default()).unwrap();
        assert_eq!(s.listen.to_string(), DEFAULT_LISTEN);
        assert!(!s.fetch_allow_private);
        assert_eq!(s.vector_index, VectorIndexArg::Process);
        assert!(toml::from_str::<FileConfig>("bogus = 1").is_err());
        assert!(toml::from_str::<FileConfig>("vector_index = \"gpu\"").is_err());
    }

    /// Every TOML example in the documentation is a valid configuration.
    #[test]
    fn documented_files_are_valid() {
        let mut n = 0;
        for (page, md) in engram_docs::PAGES {
            let mut block: Option<String> = None;
            for line in md.lines() {
                match &mut block {
                    None if line.trim_start().starts_with("```toml") => block = Some(String::new()),
                    Some(b) if line.trim_start().starts_with("```") => {
                        let file: FileConfig =
                            toml::from_str(b).unwrap_or_else(|e| panic!("{page}: {e}\n{b}"));
                        resolve(ServeArgs::default(), file)
                            .unwrap_or_else(|e| panic!("{page}: {e}\n{b}"));
                        n += 1;
                        block = None;
                    }
                    Some(b) => {
                        b.push_str(line);
                        b.push('\n');
                    }
                    None => {}
                }
            }
        }
        assert!(n >= 2, "{n} TOML examples");
    }

    #[test]
    fn secrets_are_redacted() {
        let args = ServeArgs {
            embeddings_url: Some("http://x/v1".into()),
            embeddings_model: Some("m".into()),
            ..Default::default()
        };
        let file: FileConfig = toml::from_str(
            "[embeddings]\napi_key = \"sk-secret\"\n[llm]\nurl = \"http://l/v1\"\nmodel = \"m\"\napi_key = \"sk-llm\"",
        )
        .unwrap();
        let s = resolve(args, file).unwrap();
        assert_eq!(s.llm.as_ref().map(|c| c.model.as_str()), Some("m"));
        let dbg = format!("{s:?}");
        assert!(
            !dbg.contains("sk-secret") && !dbg.contains("sk-llm") && dbg.contains("<redacted>"),
            "{dbg}"
        );
    }
}
