//! Embedding providers, end to end: the real local model against
//! sentence-transformers' own outputs, and the OpenAI-compatible provider
//! against a scripted local stand-in server.

#[path = "embed/tiny.rs"]
mod tiny;

use tiny::max_diff;

use axum::{extract::State, routing::post, Json, Router};
use engram_embed::local::LocalEmbedder;
use engram_embed::model_files::{locate_default, DEFAULT_MODEL_NAME};
use engram_embed::openai::{OpenAiConfig, OpenAiEmbedder};
use engram_embed::{dot, EmbedError, Embedder, Precision};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn start(precision: Precision) -> LocalEmbedder {
    let found =
        locate_default().expect("the embedding model (set ENGRAM_MODEL_DIR or let it download)");
    LocalEmbedder::start_with(found.dir(), DEFAULT_MODEL_NAME, precision).unwrap()
}

/// The model as `engram serve` runs it by default.
fn local() -> &'static LocalEmbedder {
    static E: OnceLock<LocalEmbedder> = OnceLock::new();
    E.get_or_init(|| start(Precision::default()))
}

/// The model in f32 throughout.
fn local_f32() -> &'static LocalEmbedder {
    static E: OnceLock<LocalEmbedder> = OnceLock::new();
    E.get_or_init(|| start(Precision::F32))
}

/// `(text, sentence-transformers' embedding)` of the reference file.
fn reference() -> Vec<(String, Vec<f32>)> {
    let reference: Value =
        serde_json::from_str(include_str!("fixtures/minilm-reference.json")).unwrap();
    reference["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let v = i["embedding"].as_array().unwrap();
            let v = v.iter().map(|x| x.as_f64().unwrap() as f32).collect();
            (i["text"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// Embed each reference text in one batch (padding in play) and one by
/// one; call `check(item, text, got, want)` on each result.
async fn against_reference(e: &LocalEmbedder, check: impl Fn(usize, &str, &[f32], &[f32])) {
    let items = reference();
    let texts: Vec<String> = items.iter().map(|(t, _)| t.clone()).collect();
    assert_eq!(e.dimension(), 384);
    assert_eq!(e.max_tokens(), 256);
    let batched = e.embed(texts.clone()).await.unwrap();
    for (i, (text, want)) in items.iter().enumerate() {
        let single = e.embed(vec![text.clone()]).await.unwrap().remove(0);
        for got in [&batched[i], &single] {
            let norm = got.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4);
            check(i, &text[..text.len().min(30)], got, want);
        }
    }
}

#[tokio::test]
async fn local_model_matches_sentence_transformers() {
    against_reference(local_f32(), |i, text, got, want| {
        let d = max_diff(got, want);
        assert!(d < 1e-4, "item {i} ({text:?}) differs by {d}");
    })
    .await;
}

/// The default keeps short inputs' weights in half precision, and runs
/// batches' products (dense layers and attention) in bfloat16 where the
/// CPU has AVX-512 BF16: the same embeddings to within that rounding
/// (measured: 1.4e-3 per component at most, cosine 0.99996).
#[tokio::test]
async fn mixed_precision_stays_next_to_sentence_transformers() {
    let most = if engram_embed::bf16::supported() {
        2e-3
    } else {
        3e-4
    };
    against_reference(local(), |i, text, got, want| {
        let d = max_diff(got, want);
        let cos = dot(got, want);
        assert!(
            d < most && cos > 0.9999,
            "item {i} ({text:?}): {d}, cosine {cos}"
        );
    })
    .await;
}

#[tokio::test]
async fn concurrent_requests_share_batches_and_keep_order() {
    let e = local();
    let texts: Vec<String> = (0..40)
        .map(|i| format!("sentence number {i} about topic {}", i % 7))
        .collect();
    let sequential = e.embed(texts.clone()).await.unwrap();
    // all in flight at once, so the scheduler gathers and cuts them together
    let handles: Vec<_> = texts
        .iter()
        .map(|t| {
            let t = t.clone();
            tokio::spawn(async move { local().embed(vec![t]).await })
        })
        .collect();
    for (a, h) in sequential.iter().zip(handles) {
        assert!(dot(a, &h.await.unwrap().unwrap()[0]) > 0.9999);
    }
    let sim = e
        .embed(vec![
            "I love my dog".into(),
            "My puppy is adorable".into(),
            "The stock market fell sharply".into(),
        ])
        .await
        .unwrap();
    assert!(dot(&sim[0], &sim[1]) > dot(&sim[0], &sim[2]) + 0.2);
}

/// A scripted stand-in for an OpenAI-compatible server.
#[derive(Clone)]
struct Script {
    calls: Arc<AtomicUsize>,
    mode: &'static str,
}

async fn embeddings(
    State(s): State<Script>,
    Json(body): Json<Value>,
) -> (axum::http::StatusCode, Json<Value>) {
    let n = s.calls.fetch_add(1, Ordering::SeqCst);
    let inputs = body["input"].as_array().cloned().unwrap_or_default();
    let ok = |inputs: &[Value]| {
        // answer in reverse order with explicit indices; vector = [len, 1, 0]
        let data: Vec<Value> = inputs
            .iter()
            .enumerate()
            .rev()
            .map(|(i, t)| json!({"index": i, "embedding": [t.as_str().unwrap().len() as f32, 1.0, 0.0]}))
            .collect();
        (
            axum::http::StatusCode::OK,
            Json(json!({"data": data, "model": "m"})),
        )
    };
    match s.mode {
        "flaky" if n == 1 => (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"error": "busy"})),
        ),
        "reject" => (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({"error": "bad model"})),
        ),
        "garbage" if n > 0 => (axum::http::StatusCode::OK, Json(json!({"nope": 1}))),
        _ => ok(&inputs),
    }
}

async fn stand_in(mode: &'static str) -> (String, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route("/v1/embeddings", post(embeddings))
        .with_state(Script {
            calls: calls.clone(),
            mode,
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), calls)
}

fn cfg(base_url: String) -> OpenAiConfig {
    OpenAiConfig {
        base_url,
        model: "m".into(),
        api_key: Some("secret".into()),
        dimension: None,
        timeout: Duration::from_secs(5),
        max_tokens: 512,
    }
}

#[tokio::test]
async fn openai_provider_probes_orders_and_normalises() {
    let (url, calls) = stand_in("ok").await;
    let e = OpenAiEmbedder::connect(cfg(url)).await.unwrap();
    assert_eq!(e.dimension(), 3);
    assert_eq!(e.model_name(), "openai-compatible:m");
    let texts: Vec<String> = (0..70).map(|i| "x".repeat(i + 1)).collect();
    let v = e.embed(texts).await.unwrap();
    assert_eq!(v.len(), 70);
    // 1 probe + 2 requests (64 + 6)
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    let norm = |v: &Vec<f32>| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm(&v[5]) - 1.0).abs() < 1e-6);
    // order restored from `index`: longer input, larger first component
    assert!(v[69][0] > v[0][0]);
    assert!(format!("{:?}", cfg("u".into())).contains("<redacted>"));
}

#[tokio::test]
async fn openai_provider_retries_transient_failures_and_reports_others() {
    let (url, calls) = stand_in("flaky").await;
    let e = OpenAiEmbedder::connect(cfg(url)).await.unwrap();
    assert_eq!(e.embed(vec!["a".into()]).await.unwrap().len(), 1);
    assert_eq!(calls.load(Ordering::SeqCst), 3, "probe, 503, retry");

    let (url, _) = stand_in("reject").await;
    let err = OpenAiEmbedder::connect(cfg(url)).await.err().unwrap();
    assert!(matches!(err, EmbedError::Provider(_)), "{err}");
    assert!(!err.is_transient());

    let (url, _) = stand_in("garbage").await;
    let e = OpenAiEmbedder::connect(cfg(url)).await.unwrap();
    let err = e.embed(vec!["a".into()]).await.unwrap_err();
    assert!(err.to_string().contains("malformed"), "{err}");

    let err = OpenAiEmbedder::connect(cfg("http://127.0.0.1:9/v1".into()))
        .await
        .err()
        .unwrap();
    assert!(err.is_transient(), "{err}");
}

#[tokio::test]
async fn model_downloads_from_a_hub_endpoint() {
    use axum::extract::Path;
    use axum::http::StatusCode;
    // a stand-in hub: required files present, one optional file missing
    let app = Router::new().route(
        "/{org}/{model}/resolve/main/{*file}",
        axum::routing::get(
            |Path((org, model, file)): Path<(String, String, String)>| async move {
                assert_eq!(
                    (org.as_str(), model.as_str()),
                    ("sentence-transformers", "all-MiniLM-L6-v2")
                );
                if file == "vocab.txt" {
                    return (StatusCode::NOT_FOUND, Vec::new());
                }
                (StatusCode::OK, format!("contents of {file}").into_bytes())
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_path_buf();
    let ep = endpoint.clone();
    let got = tokio::task::spawn_blocking(move || {
        engram_embed::model_files::download_from_hub(&dir, &ep)
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(got, cache.path().join("all-MiniLM-L6-v2"));
    assert_eq!(
        std::fs::read_to_string(got.join("model.safetensors")).unwrap(),
        "contents of model.safetensors"
    );
    assert!(got.join("1_Pooling/config.json").is_file());
    assert!(!got.join("vocab.txt").exists());
    // an endpoint missing a required file fails cleanly
    let dir = cache.path().join("other");
    let err = tokio::task::spawn_blocking(move || {
        engram_embed::model_files::download_from_hub(&dir, "http://127.0.0.1:9")
    })
    .await
    .unwrap()
    .unwrap_err();
    assert!(err.contains("127.0.0.1:9"), "{err}");
}
