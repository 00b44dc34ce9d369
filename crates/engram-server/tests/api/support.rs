//! `spawn_app()`: the real application on an ephemeral port, a fresh
//! database, and helpers to speak HTTP to it.

use async_trait::async_trait;
use engram_core::tokens::{ApproxTokenCounter, TokenCounter};
use engram_embed::{normalize, EmbedError, Embedder};
use engram_engine::workers::WorkerPool;
use engram_engine::{Engine, EngineConfig};
use engram_server::{router, AppState, ServerConfig};
use engram_store::Store;
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
    pub store: Arc<SqliteStore>,
    pub workers: Option<WorkerPool>,
    pub _dir: tempfile::TempDir,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(opts: Options) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(
        SqliteStore::open(&dir.path().join("engram.db"))
            .await
            .unwrap(),
    );
    let engine = Engine::new(store.clone(), opts.embedder, opts.engine)
        .await
        .unwrap();
    let (rec, key) = engram_engine::auth::create_key(store.as_ref(), "default", "default")
        .await
        .unwrap();
    let workers = (opts.workers > 0).then(|| WorkerPool::start(engine.clone(), opts.workers));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(AppState::new(engine.clone(), ServerConfig::default()));
    tokio::spawn(async move { axum_serve(listener, app).await });
    TestApp {
        base: format!("http://{addr}"),
        key,
        org_id: rec.org_id,
        client: reqwest::Client::new(),
        engine,
        store,
        workers,
        _dir: dir,
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
            if v["status"] == "done" || v["status"] == "failed" {
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
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{}\nendstream", content.len(), content),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{}\nendobj\n", i + 1, o).as_bytes());
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
