//! Language models as an optional provider: the [`Llm`] trait (one chat
//! completion), an OpenAI-compatible implementation ([`openai::OpenAiChat`]:
//! OpenAI, Ollama, vLLM, llama.cpp servers), and [`complete_json`], which
//! asks for a JSON answer and validates it into a Rust type.
//!
//! Engram works without any model here: every caller has an offline path
//! and falls back to it when a call fails. This crate knows nothing of
//! memories, storage or HTTP serving; it only speaks to a model.

pub mod openai;

use async_trait::async_trait;
use serde::de::DeserializeOwned;

/// Why a call failed.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum LlmError {
    /// Worth retrying later: timeouts, connection errors, 429 and 5xx
    /// (after this provider's own retries ran out).
    #[error("the language model is unavailable: {0}")]
    Transient(String),
    /// The provider refused the request (bad key, unknown model, 4xx).
    #[error("the language model refused the request: {0}")]
    Provider(String),
    /// The answer did not have the expected shape.
    #[error("the language model's answer was malformed: {0}")]
    Malformed(String),
}

/// One message of a chat.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: "user".into(),
            content: content.into(),
        }
    }
}

/// A chat completion request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    /// Ask for a JSON object as the answer.
    pub json: bool,
    pub max_tokens: Option<u32>,
    pub temperature: f32,
}

impl ChatRequest {
    /// A deterministic request (temperature 0) from a system and a user message.
    pub fn new(system: impl Into<String>, user: impl Into<String>) -> Self {
        Self {
            messages: vec![Message::system(system), Message::user(user)],
            json: false,
            max_tokens: None,
            temperature: 0.0,
        }
    }
}

/// Tokens a call used, as the provider reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// A chat completion.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    pub content: String,
    pub usage: Usage,
}

/// A chat model.
#[async_trait]
pub trait Llm: Send + Sync {
    /// A name for logs and diagnostics (provider and model).
    fn name(&self) -> &str;
    /// One completion.
    async fn complete(&self, req: ChatRequest) -> Result<ChatResponse, LlmError>;
}

/// Ask for JSON and deserialize it into `T` (which validates its shape).
/// Tolerates a Markdown code fence or prose around one JSON object, which
/// small local models often add even in JSON mode.
pub async fn complete_json<T: DeserializeOwned>(
    llm: &dyn Llm,
    mut req: ChatRequest,
) -> Result<(T, Usage), LlmError> {
    req.json = true;
    let resp = llm.complete(req).await?;
    let raw = json_part(&resp.content).ok_or_else(|| {
        LlmError::Malformed(format!("no JSON object in: {}", clip(&resp.content)))
    })?;
    let value = serde_json::from_str(raw)
        .map_err(|e| LlmError::Malformed(format!("{e} in: {}", clip(raw))))?;
    Ok((value, resp.usage))
}

/// The outermost `{...}` of a text (or the whole text when it is JSON).
pub fn json_part(text: &str) -> Option<&str> {
    let t = text.trim();
    if serde_json::from_str::<serde_json::Value>(t).is_ok() {
        return Some(t);
    }
    let start = t.find('{')?;
    let end = t.rfind('}')?;
    (end > start).then(|| &t[start..=end])
}

fn clip(s: &str) -> String {
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::json_part;

    #[test]
    fn json_is_found_inside_fences_and_prose() {
        for (text, want) in [
            (r#"{"a": 1}"#, Some(r#"{"a": 1}"#)),
            ("```json\n{\"a\": [1, 2]}\n```", Some("{\"a\": [1, 2]}")),
            (
                "Here you go: {\"a\": {\"b\": 2}} hope it helps",
                Some("{\"a\": {\"b\": 2}}"),
            ),
            ("no json here", None),
            ("} backwards {", None),
        ] {
            assert_eq!(json_part(text), want, "{text}");
        }
    }
}
