//! A chat model behind the OpenAI-compatible `POST {base}/chat/completions`
//! protocol: OpenAI itself, Ollama (`http://localhost:11434/v1`), vLLM,
//! llama.cpp's server and friends.
//!
//! Each call has a timeout; timeouts, connection errors, 429 and 5xx are
//! retried with exponential backoff (a 429's `Retry-After` is honoured up to
//! a cap); other 4xx and malformed bodies are not. Token counts from every
//! answer are added to running totals ([`OpenAiChat::totals`]).

use crate::{ChatRequest, ChatResponse, Llm, LlmError, Usage};
use async_trait::async_trait;
use serde::Deserialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Settings of a chat provider.
#[derive(Clone)]
pub struct ChatConfig {
    /// Base URL up to and including the version, e.g. `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Per attempt.
    pub timeout: Duration,
    /// Attempts in all (at least 1).
    pub attempts: u32,
    /// Wait before the first retry; doubled for each further one.
    pub backoff: Duration,
}

impl ChatConfig {
    /// Defaults: 60 s per attempt, 3 attempts, 500 ms first backoff.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(60),
            attempts: 3,
            backoff: Duration::from_millis(500),
        }
    }
}

impl std::fmt::Debug for ChatConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("attempts", &self.attempts)
            .finish()
    }
}

/// Running totals of what a provider was asked and answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Completions that succeeded.
    pub calls: u64,
    /// Attempts that failed (each retry counts).
    pub failures: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// An OpenAI-compatible chat provider.
pub struct OpenAiChat {
    cfg: ChatConfig,
    name: String,
    client: reqwest::Client,
    calls: AtomicU64,
    failures: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

#[derive(Deserialize)]
struct Response {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<ResponseUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct ResponseUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// Longest wait a `Retry-After` header can impose.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

impl OpenAiChat {
    pub fn new(cfg: ChatConfig) -> Result<Self, LlmError> {
        let client = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .build()
            .map_err(|e| LlmError::Provider(e.to_string()))?;
        Ok(Self {
            name: format!("openai-compatible:{}", cfg.model),
            cfg,
            client,
            calls: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            prompt_tokens: AtomicU64::new(0),
            completion_tokens: AtomicU64::new(0),
        })
    }

    /// What this provider has used so far.
    pub fn totals(&self) -> Totals {
        Totals {
            calls: self.calls.load(Ordering::Relaxed),
            failures: self.failures.load(Ordering::Relaxed),
            prompt_tokens: self.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: self.completion_tokens.load(Ordering::Relaxed),
        }
    }

    fn body(&self, req: &ChatRequest) -> serde_json::Value {
        let mut body = serde_json::json!({
            "model": self.cfg.model,
            "messages": req.messages,
            "temperature": req.temperature,
            "stream": false,
        });
        if req.json {
            body["response_format"] = serde_json::json!({"type": "json_object"});
        }
        if let Some(m) = req.max_tokens {
            body["max_tokens"] = m.into();
        }
        body
    }

    /// One attempt: Ok, or Err with whether to retry and how long to wait
    /// at least.
    async fn attempt(
        &self,
        url: &str,
        body: &serde_json::Value,
    ) -> Result<ChatResponse, (LlmError, Option<Duration>)> {
        let mut req = self.client.post(url).json(body);
        if let Some(k) = &self.cfg.api_key {
            req = req.bearer_auth(k);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| (LlmError::Transient(e.to_string()), Some(Duration::ZERO)))?;
        let status = resp.status();
        if status.as_u16() == 429 || status.is_server_error() {
            let wait = resp
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|s| Duration::from_secs(s).min(MAX_RETRY_AFTER))
                .unwrap_or(Duration::ZERO);
            return Err((
                LlmError::Transient(format!("{url} answered {status}")),
                Some(wait),
            ));
        }
        let text = resp
            .text()
            .await
            .map_err(|e| (LlmError::Transient(e.to_string()), Some(Duration::ZERO)))?;
        if !status.is_success() {
            let msg = format!("{url} answered {status}: {}", clip(&text));
            return Err((LlmError::Provider(msg), None));
        }
        let parsed: Response = serde_json::from_str(&text).map_err(|e| {
            let msg = format!("{url}: {e}: {}", clip(&text));
            (LlmError::Malformed(msg), None)
        })?;
        let content = parsed
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content)
            .ok_or_else(|| {
                (
                    LlmError::Malformed(format!("{url}: no message content")),
                    None,
                )
            })?;
        let usage = parsed.usage.map_or(Usage::default(), |u| Usage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
        });
        Ok(ChatResponse { content, usage })
    }
}

fn clip(s: &str) -> String {
    s.chars().take(300).collect()
}

#[async_trait]
impl Llm for OpenAiChat {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(&self, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        let url = format!(
            "{}/chat/completions",
            self.cfg.base_url.trim_end_matches('/')
        );
        let body = self.body(&req);
        let mut backoff = self.cfg.backoff;
        let attempts = self.cfg.attempts.max(1);
        for n in 1..=attempts {
            match self.attempt(&url, &body).await {
                Ok(r) => {
                    self.calls.fetch_add(1, Ordering::Relaxed);
                    self.prompt_tokens
                        .fetch_add(r.usage.prompt_tokens, Ordering::Relaxed);
                    self.completion_tokens
                        .fetch_add(r.usage.completion_tokens, Ordering::Relaxed);
                    return Ok(r);
                }
                Err((e, retry)) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    let Some(at_least) = retry.filter(|_| n < attempts) else {
                        tracing::warn!(provider = %self.name, attempt = n, error = %e, "chat completion failed");
                        return Err(e);
                    };
                    tracing::debug!(provider = %self.name, attempt = n, error = %e, "chat completion failed; retrying");
                    tokio::time::sleep(backoff.max(at_least)).await;
                    backoff *= 2;
                }
            }
        }
        unreachable!("the last attempt returns")
    }
}
