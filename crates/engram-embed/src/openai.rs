//! An embedder that speaks the OpenAI-compatible `POST {base}/embeddings`
//! protocol: OpenAI itself, Ollama, vLLM, llama.cpp and friends.

use crate::{normalize, EmbedError, Embedder};
use async_trait::async_trait;
use engram_core::tokens::{ApproxTokenCounter, TokenCounter};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

/// Most inputs in one request.
pub const MAX_INPUTS_PER_REQUEST: usize = 64;
const ATTEMPTS: u32 = 4;

/// Settings of a remote embedder.
#[derive(Clone)]
pub struct OpenAiConfig {
    /// Base URL up to and including the version, e.g. `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Known dimension; probed with one request when `None`.
    pub dimension: Option<usize>,
    pub timeout: Duration,
    /// Longest input in tokens (approximate).
    pub max_tokens: usize,
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("dimension", &self.dimension)
            .finish()
    }
}

/// A remote embedder.
pub struct OpenAiEmbedder {
    cfg: OpenAiConfig,
    name: String,
    dimension: usize,
    client: reqwest::Client,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    index: Option<usize>,
    embedding: Vec<f32>,
}

impl OpenAiEmbedder {
    /// Connect, probing the dimension if it is not configured.
    pub async fn connect(cfg: OpenAiConfig) -> Result<Self, EmbedError> {
        let client = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .build()
            .map_err(|e| EmbedError::Provider(e.to_string()))?;
        let name = format!("openai-compatible:{}", cfg.model);
        let mut me = Self {
            dimension: cfg.dimension.unwrap_or(0),
            cfg,
            name,
            client,
        };
        if me.dimension == 0 {
            let v = me.request(&["dimension probe".to_string()]).await?;
            me.dimension = v[0].len();
        }
        Ok(me)
    }

    async fn request(&self, inputs: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let url = format!("{}/embeddings", self.cfg.base_url.trim_end_matches('/'));
        let body = serde_json::json!({"model": self.cfg.model, "input": inputs});
        let mut delay = Duration::from_millis(200);
        let mut last = EmbedError::Transient("no attempt made".into());
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
            let mut req = self.client.post(&url).json(&body);
            if let Some(k) = &self.cfg.api_key {
                req = req.bearer_auth(k);
            }
            let resp = match req.send().await {
                Ok(r) => r,
                Err(e) => {
                    last = EmbedError::Transient(e.to_string());
                    continue;
                }
            };
            let status = resp.status();
            if status.as_u16() == 429 || status.is_server_error() {
                last = EmbedError::Transient(format!("{url} answered {status}"));
                continue;
            }
            if !status.is_success() {
                let text = resp.text().await.unwrap_or_default();
                return Err(EmbedError::Provider(format!(
                    "{url} answered {status}: {}",
                    truncate(&text)
                )));
            }
            let parsed: Response = resp
                .json()
                .await
                .map_err(|e| EmbedError::Provider(format!("{url}: malformed answer: {e}")))?;
            return order(parsed, inputs.len());
        }
        Err(last)
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(300).collect()
}

fn order(r: Response, n: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
    if r.data.len() != n {
        return Err(EmbedError::Provider(format!(
            "asked for {n} embeddings, got {}",
            r.data.len()
        )));
    }
    let mut out: Vec<Option<Vec<f32>>> = vec![None; n];
    for (i, item) in r.data.into_iter().enumerate() {
        let idx = item.index.unwrap_or(i);
        if idx >= n || out[idx].is_some() {
            return Err(EmbedError::Provider(format!("bad embedding index {idx}")));
        }
        let mut v = item.embedding;
        normalize(&mut v);
        out[idx] = Some(v);
    }
    Ok(out.into_iter().map(|v| v.unwrap_or_default()).collect())
}

#[async_trait]
impl Embedder for OpenAiEmbedder {
    fn model_name(&self) -> &str {
        &self.name
    }
    fn dimension(&self) -> usize {
        self.dimension
    }
    fn max_tokens(&self) -> usize {
        self.cfg.max_tokens
    }
    fn token_counter(&self) -> Arc<dyn TokenCounter> {
        Arc::new(ApproxTokenCounter)
    }
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(MAX_INPUTS_PER_REQUEST) {
            let vecs = self.request(batch).await?;
            if let Some(v) = vecs.iter().find(|v| v.len() != self.dimension) {
                return Err(EmbedError::Provider(format!(
                    "expected {}-dimensional embeddings, got {}",
                    self.dimension,
                    v.len()
                )));
            }
            out.extend(vecs);
        }
        Ok(out)
    }
}
