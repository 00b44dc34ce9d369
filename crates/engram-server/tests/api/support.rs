//! `spawn_app()`: the real application on an ephemeral port, a fresh
//! database, and helpers to speak HTTP to it.
//!
//! The database is SQLite in a temporary directory, or, with
//! `ENGRAM_TEST_BACKEND=postgres`, a new database on the PostgreSQL server
//! named by `ENGRAM_TEST_DATABASE_URL` (scripts/test.sh runs the suite both
//! ways).

use async_trait::async_trait;
use engram_core::tokens::{ApproxTokenCounter, TokenCounter};
use engram_embed::{normalize, EmbedError, Embedder};
use engram_engine::workers::WorkerPool;
use engram_engine::{Engine, EngineConfig};
use engram_server::{router, AppState, ServerConfig};
use engram_store::Store;
use engram_store_postgres::PgStore;
use engram_store_sqlite::SqliteStore;
use reqwest::StatusCode;
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A deterministic bag-of-words embedder for fast tests: each lowercase word
/// adds weight to a hashed dimension. Similar word sets score high.
pub struct HashEmbedder {
    pub delay: Duration,
    /// Fail (transiently) this many calls before succeeding.
    pub fail_next: AtomicUsize,
    pub calls: AtomicUsize,
}

impl HashEmbedder {
    pub fn new() -> Self {
        Self {
            delay: Duration::ZERO,
            fail_next: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
        }
    }
}

pub const DIM: usize = 64;

pub fn hash_embed(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; DIM];
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let h = w
            .to_lowercase()
            .bytes()
            .fold(1469598103934665603u64, |h, b| {
                (h ^ b as u64).wrapping_mul(1099511628211)
            });
        v[(h % DIM as u64) as usize] += 1.0;
    }
    normalize(&mut v);
    v
}

#[async_trait]
impl Embedder for HashEmbedder {
    fn model_name(&self) -> &str {
        "test-hash"
    }
    fn dimension(&self) -> usize {
        DIM
    }
    fn max_tokens(&self) -> usize {
        256
    }
    fn token_counter(&self) -> Arc<dyn TokenCounter> {
        Arc::new(ApproxTokenCounter)
    }
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        if self
            .fail_next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
        {
            return Err(EmbedError::Transient("scripted failure".into()));
        }
        Ok(texts.iter().map(|t| hash_embed(t)).collect())
    }
}

pub struct Options {
    pub embedder: Arc<dyn Embedder>,
    pub engine: EngineConfig,
    pub workers: usize,
}

impl Default for Options {
    fn default() -> Self {
        let mut engine = EngineConfig {
            retry_base: Duration::from_millis(50),
            poll_interval: Duration::from_millis(50),
            dream_delay: Duration::from_millis(20),
            ..Default::default()
        };
        engine.fetch.allow_private = true;
        Self {
            embedder: Arc::new(HashEmbedder::new()),
            engine,
            workers: 1,
        }
    }
}

pub struct TestApp {
    pub base: String,
    pub key: String,
    pub org_id: String,
    pub client: reqwest::Client,
    pub engine: Arc<Engine>,
    pub store: Arc<dyn Store>,
    pub workers: Option<WorkerPool>,
    pub server: tokio::task::JoinHandle<()>,
    pub db: Arc<SharedDb>,
    pub _dir: Arc<tempfile::TempDir>,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(opts: Options) -> TestApp {
    spawn_app_in(&std::env::temp_dir(), opts).await
}

/// [`spawn_app_with`], its SQLite database in a new directory under
/// `parent` (a small file system, say).
pub async fn spawn_app_in(parent: &std::path::Path, opts: Options) -> TestApp {
    let dir = Arc::new(tempfile::tempdir_in(parent).unwrap());
    let db = Arc::new(SharedDb::new(&dir).await);
    let store = db.open().await;
    let (rec, key) = engram_engine::auth::create_key(store.as_ref(), "default", "default")
        .await
        .unwrap();
    start(store, opts, key, rec.org_id, db, dir).await
}

/// Another replica on `app`'s database: its own engine (and so its own
/// search index), workers, connection pool and port; the same key works.
pub async fn replica_of(app: &TestApp, opts: Options) -> TestApp {
    let store = app.db.open().await;
    start(
        store,
        opts,
        app.key.clone(),
        app.org_id.clone(),
        app.db.clone(),
        app._dir.clone(),
    )
    .await
}

async fn start(
    store: Arc<dyn Store>,
    opts: Options,
    key: String,
    org_id: String,
    db: Arc<SharedDb>,
    dir: Arc<tempfile::TempDir>,
) -> TestApp {
    let engine = Engine::new(store.clone(), opts.embedder, opts.engine)
        .await
        .unwrap();
    let workers = (opts.workers > 0).then(|| WorkerPool::start(engine.clone(), opts.workers));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(AppState::new(engine.clone(), ServerConfig::default()));
    let server = tokio::spawn(async move { axum_serve(listener, app).await });
    TestApp {
        base: format!("http://{addr}"),
        key,
        org_id,
        client: reqwest::Client::new(),
        engine,
        store,
        workers,
        server,
        db,
        _dir: dir,
    }
}

/// Whether the suite runs on PostgreSQL (`ENGRAM_TEST_BACKEND=postgres`).
pub fn on_postgres() -> bool {
    std::env::var("ENGRAM_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// A test's database, by what a second replica needs to open it.
pub enum SharedDb {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl SharedDb {
    /// A new, empty database of the backend under test.
    pub async fn new(dir: &tempfile::TempDir) -> Self {
        if on_postgres() {
            let url = std::env::var("ENGRAM_TEST_DATABASE_URL")
                .expect("ENGRAM_TEST_BACKEND=postgres needs ENGRAM_TEST_DATABASE_URL");
            SharedDb::Postgres(PgStore::create_database(&url).await.unwrap())
        } else {
            SharedDb::Sqlite(dir.path().join("engram.db"))
        }
    }

    /// A new connection (pool) to it, migrated.
    pub async fn open(&self) -> Arc<dyn Store> {
        match self {
            SharedDb::Sqlite(path) => Arc::new(SqliteStore::open(path).await.unwrap()),
            SharedDb::Postgres(url) => Arc::new(PgStore::connect(url).await.unwrap()),
        }
    }
}

async fn axum_serve(listener: tokio::net::TcpListener, app: axum::Router) {
    axum::serve(listener, app).await.unwrap();
}

impl TestApp {
    /// A key of another organisation.
    pub async fn other_org_key(&self, org: &str) -> String {
        engram_engine::auth::create_key(self.store.as_ref(), org, "k")
            .await
            .unwrap()
            .1
    }

    pub async fn send(
        &self,
        method: &str,
        path: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .client
            .request(method.parse().unwrap(), format!("{}{}", self.base, path));
        if let Some(k) = key {
            req = req.bearer_auth(k);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let text = resp.text().await.unwrap();
        let v = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, v)
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send("POST", path, Some(&self.key.clone()), Some(body))
            .await
    }
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, Some(&self.key.clone()), None).await
    }
    pub async fn patch(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send("PATCH", path, Some(&self.key.clone()), Some(body))
            .await
    }
    pub async fn delete(&self, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        self.send("DELETE", path, Some(&self.key.clone()), body)
            .await
    }

    /// Raw body with a chosen content type.
    pub async fn post_raw(
        &self,
        path: &str,
        content_type: &str,
        body: &'static str,
    ) -> (StatusCode, Value) {
        let resp = self
            .client
            .post(format!("{}{}", self.base, path))
            .bearer_auth(&self.key)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// Upload a file (`POST /v3/documents/file`), returning its id.
    pub async fn upload_file(&self, bytes: Vec<u8>, name: &str, mime: &str) -> String {
        let part = reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str(mime)
            .unwrap();
        let resp = self
            .client
            .post(format!("{}/v3/documents/file", self.base))
            .bearer_auth(&self.key)
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        resp.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Add a document, returning its id.
    pub async fn add(&self, body: Value) -> String {
        let (s, v) = self.post("/v3/documents", body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["status"], "queued");
        v["id"].as_str().unwrap().to_string()
    }

    /// Poll until the document is `done` or `failed`; returns it.
    pub async fn wait_processed(&self, id: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (s, v) = self.get(&format!("/v3/documents/{id}")).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            // settled: processed, and (`dreaming: dynamic`) dreamt too
            if (v["status"] == "done" || v["status"] == "failed") && v["dreamingStatus"] == "done" {
                return v;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "document {id} stuck in {}",
                v["status"]
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn wait_done(&self, id: &str) -> Value {
        let v = self.wait_processed(id).await;
        assert_eq!(v["status"], "done", "{v}");
        v
    }

    /// Wait until the document is `done`, then check that its chunks are
    /// exactly `text` chunked at `chunk_tokens`, each once, in position
    /// order (what a crash or a second worker must never break).
    pub async fn assert_chunked_once(&self, id: &str, text: &str, chunk_tokens: usize) {
        let d = self.wait_done(id).await;
        let cfg = engram_extract::chunk::ChunkConfig::for_model(Some(chunk_tokens), 256);
        let want =
            engram_extract::chunk::chunk_text(text, &engram_core::tokens::ApproxTokenCounter, cfg);
        assert!(want.len() > 1, "the text must make several chunks");
        let (_, c) = self.get(&format!("/v3/documents/{id}/chunks")).await;
        let got: Vec<(u64, &str)> = c["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["position"].as_u64().unwrap(),
                    c["content"].as_str().unwrap(),
                )
            })
            .collect();
        let want: Vec<(u64, &str)> = want
            .iter()
            .enumerate()
            .map(|(p, c)| (p as u64, c.content.as_str()))
            .collect();
        assert_eq!(got, want, "document {id}");
        assert_eq!(d["chunkCount"], want.len() as u64);
    }

    /// Wait until no job is pending.
    pub async fn wait_idle(&self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while self.store.pending_jobs().await.unwrap() > 0 {
            assert!(tokio::time::Instant::now() < deadline, "jobs still pending");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Assert an error response: status and `type`, and that `details` (or
/// `error`) mentions `needle`.
pub fn assert_error(got: &(StatusCode, Value), status: StatusCode, kind: &str, needle: &str) {
    let (s, v) = got;
    assert_eq!(*s, status, "{v}");
    assert_eq!(v["type"], kind, "{v}");
    let text = format!(
        "{} {}",
        v["error"].as_str().unwrap_or(""),
        v["details"].as_str().unwrap_or("")
    );
    assert!(text.contains(needle), "`{needle}` not in {v}");
}

/// A minimal valid one-page PDF showing `lines` in Helvetica.
pub fn make_pdf(lines: &[&str]) -> Vec<u8> {
    let mut content = String::from("BT /F1 14 Tf 72 720 Td 18 TL\n");
    for l in lines {
        content.push_str(&format!(
            "({}) Tj T*\n",
            l.replace('(', "\\(").replace(')', "\\)")
        ));
    }
    content.push_str("ET");
    pdf_with_contents("", content.as_bytes())
}

/// A one-page PDF whose page content stream is `stream` (already encoded
/// as `filter` says, e.g. `/Filter /FlateDecode`, or "" for none).
pub fn pdf_with_contents(filter: &str, stream: &[u8]) -> Vec<u8> {
    let mut contents = format!("<< /Length {} {filter}>>\nstream\n", stream.len()).into_bytes();
    contents.extend_from_slice(stream);
    contents.extend_from_slice(b"\nendstream");
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
        contents,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_vec(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The real embedding model (all-MiniLM-L6-v2), which tests find through
/// the same search as `engram serve`.
pub async fn real_embedder() -> Arc<dyn Embedder> {
    let found = engram_embed::model_files::locate_default()
        .expect("the embedding model must be available (ENGRAM_MODEL_DIR, caches, or pip)");
    let dir = found.dir().to_path_buf();
    Arc::new(
        tokio::task::spawn_blocking(move || {
            engram_embed::local::LocalEmbedder::start(
                &dir,
                engram_embed::model_files::DEFAULT_MODEL_NAME,
            )
        })
        .await
        .unwrap()
        .unwrap(),
    )
}
