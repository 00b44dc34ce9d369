//! The OpenAI-compatible chat provider against a local stand-in server with
//! scripted answers: good, fenced, malformed, failing and slow ones.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use engram_llm::openai::{ChatConfig, OpenAiChat};
use engram_llm::{complete_json, ChatRequest, Llm, LlmError};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer: status, body, delay before answering, extra header.
#[derive(Clone)]
struct Answer {
    status: u16,
    body: String,
    delay: Duration,
    retry_after: Option<&'static str>,
}

fn ok(content: &str) -> Answer {
    let body = json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5}
    });
    Answer {
        status: 200,
        body: body.to_string(),
        delay: Duration::ZERO,
        retry_after: None,
    }
}

fn status(code: u16) -> Answer {
    Answer {
        status: code,
        body: json!({"error": {"message": "scripted"}}).to_string(),
        delay: Duration::ZERO,
        retry_after: None,
    }
}

#[derive(Default)]
struct Script {
    answers: Mutex<VecDeque<Answer>>,
    /// (authorization header, request body) of every request.
    seen: Mutex<Vec<(Option<String>, Value)>>,
}

async fn chat(State(s): State<Arc<Script>>, headers: HeaderMap, body: String) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    s.seen
        .lock()
        .unwrap()
        .push((auth, serde_json::from_str(&body).unwrap_or(Value::Null)));
    let a = s
        .answers
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or_else(|| status(500));
    tokio::time::sleep(a.delay).await;
    let mut resp = (StatusCode::from_u16(a.status).unwrap(), a.body).into_response();
    if let Some(r) = a.retry_after {
        resp.headers_mut().insert("retry-after", r.parse().unwrap());
    }
    resp
}

async fn stand_in(answers: Vec<Answer>) -> (String, Arc<Script>) {
    let script = Arc::new(Script {
        answers: Mutex::new(answers.into()),
        ..Default::default()
    });
    let app = Router::new()
        .route("/v1/chat/completions", post(chat))
        .with_state(script.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), script)
}

fn provider(base: String) -> OpenAiChat {
    OpenAiChat::new(ChatConfig {
        api_key: Some("sk-test".into()),
        timeout: Duration::from_millis(400),
        backoff: Duration::from_millis(20),
        ..ChatConfig::new(base, "tiny-model")
    })
    .unwrap()
}

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Facts {
    facts: Vec<String>,
}

#[tokio::test]
async fn a_completion_sends_the_request_and_counts_tokens() {
    let (base, script) = stand_in(vec![ok("hello")]).await;
    let llm = provider(base);
    let r = llm
        .complete(ChatRequest::new("be brief", "say hello"))
        .await
        .unwrap();
    assert_eq!(r.content, "hello");
    assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), (12, 5));
    let totals = llm.totals();
    assert_eq!(
        (totals.calls, totals.prompt_tokens, totals.completion_tokens),
        (1, 12, 5)
    );
    let seen = script.seen.lock().unwrap();
    assert_eq!(seen[0].0.as_deref(), Some("Bearer sk-test"));
    let body = &seen[0].1;
    assert_eq!(body["model"], "tiny-model");
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "be brief"})
    );
    assert_eq!(body["messages"][1]["role"], "user");
    assert!(body.get("response_format").is_none());
    assert_eq!(llm.name(), "openai-compatible:tiny-model");
}

#[tokio::test]
async fn json_answers_are_validated_even_inside_fences() {
    let (base, script) = stand_in(vec![
        ok("```json\n{\"facts\": [\"Ada lives in Lisbon\"]}\n```"),
        ok("{\"facts\": \"not a list\"}"),
        ok("I cannot help with that."),
    ])
    .await;
    let llm = provider(base);
    let req = || ChatRequest::new("extract facts", "Ada lives in Lisbon.");
    let (facts, usage): (Facts, _) = complete_json(&llm, req()).await.unwrap();
    assert_eq!(facts.facts, ["Ada lives in Lisbon"]);
    assert_eq!(usage.completion_tokens, 5);
    assert_eq!(
        script.seen.lock().unwrap()[0].1["response_format"],
        json!({"type": "json_object"})
    );
    // the wrong shape and no JSON at all are malformed, and not retried
    for _ in 0..2 {
        let err = complete_json::<Facts>(&llm, req()).await.unwrap_err();
        assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    }
    assert_eq!(script.seen.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn transient_failures_are_retried_with_backoff() {
    let throttled = Answer {
        retry_after: Some("0"),
        ..status(429)
    };
    let (base, script) = stand_in(vec![status(503), throttled, ok("finally")]).await;
    let llm = provider(base);
    let r = llm.complete(ChatRequest::new("s", "u")).await.unwrap();
    assert_eq!(r.content, "finally");
    assert_eq!(script.seen.lock().unwrap().len(), 3);
    let t = llm.totals();
    assert_eq!((t.calls, t.failures), (1, 2));
}

#[tokio::test]
async fn slow_answers_time_out_and_give_up_after_the_attempts() {
    let slow = Answer {
        delay: Duration::from_secs(2),
        ..ok("too late")
    };
    let (base, script) = stand_in(vec![slow.clone(), slow.clone(), slow]).await;
    let llm = provider(base);
    let started = std::time::Instant::now();
    let err = llm.complete(ChatRequest::new("s", "u")).await.unwrap_err();
    assert!(matches!(err, LlmError::Transient(_)), "{err:?}");
    assert_eq!(script.seen.lock().unwrap().len(), 3);
    // three timeouts of 400 ms and two short backoffs; waiting for the
    // three 2 s answers would take 6 s
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn refusals_and_garbage_are_not_retried() {
    let garbage = Answer {
        body: "<html>proxy error</html>".into(),
        ..ok("")
    };
    let no_content = Answer {
        body: json!({"choices": []}).to_string(),
        ..ok("")
    };
    let (base, script) = stand_in(vec![status(401), garbage, no_content]).await;
    let llm = provider(base);
    let err = llm.complete(ChatRequest::new("s", "u")).await.unwrap_err();
    assert!(
        matches!(&err, LlmError::Provider(m) if m.contains("401")),
        "{err:?}"
    );
    for _ in 0..2 {
        let err = llm.complete(ChatRequest::new("s", "u")).await.unwrap_err();
        assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    }
    assert_eq!(script.seen.lock().unwrap().len(), 3);
}
