//! The in-process embedder: a BERT-family model on the CPU ([`CpuBert`]).
//!
//! [`LocalEmbedder`] hands requests to a scheduler thread (`lanes`), which
//! gathers whatever is waiting, cuts it into units and runs each on a
//! thread of its own per core, or a lone small one on every core.
//! Concurrent small requests (query embeddings, many tiny documents)
//! therefore share forward passes instead of queueing one by one. Within a
//! unit, [`BertEncoder`]'s model runs passes of at most [`PASS_TOKENS`].

use crate::cpu_bert::{CpuBert, Pooling};
use crate::lanes::{Msg, Scheduler};
use crate::plain::Tokenizers;
use crate::{normalize, EmbedError, Embedder, Precision};
use async_trait::async_trait;
use engram_core::tokens::TokenCounter;
use rayon::prelude::*;
use std::path::Path;
use std::sync::mpsc;
use std::sync::Arc;
use tokenizers::{Tokenizer, TruncationParams};
use tokio::sync::oneshot;

/// Tokens per forward pass (see [`BertEncoder::encode`]): packed sequences
/// make products large enough to keep both cores busy, and passes past
/// ~2 000 tokens fall out of cache (measured with `engram bench
/// throughput`: 1 536 tokens 134 chunks/s, one pass of 32 texts 112).
pub const PASS_TOKENS: usize = 1536;

/// The model and tokenizer, with the threads that run one call's passes
/// on every core.
pub struct BertEncoder {
    core: Arc<Core>,
    /// The threads a forward pass runs on. A pass is entered once, from
    /// inside the pool: a pass has about a hundred parallel steps, and
    /// each step entered from outside would hand the work over and back
    /// across threads (measured: 3 points of ingest throughput).
    pool: rayon::ThreadPool,
}

/// What every thread that runs passes shares: immutable once loaded.
pub(crate) struct Core {
    model: CpuBert,
    pooling: Pooling,
    tokenizer: Tokenizers,
    pub(crate) dimension: usize,
}

impl BertEncoder {
    /// Load a sentence-transformers folder (`config.json`, `tokenizer.json`,
    /// `model.safetensors`), truncating inputs at `max_tokens`, in the
    /// default [`Precision`].
    pub fn load(dir: &Path, max_tokens: usize) -> Result<Self, EmbedError> {
        Self::load_with(dir, max_tokens, Precision::default())
    }

    /// [`Self::load`] in the given precision.
    pub fn load_with(
        dir: &Path,
        max_tokens: usize,
        precision: Precision,
    ) -> Result<Self, EmbedError> {
        let unavailable = |what: &str, e: &dyn std::fmt::Display| {
            EmbedError::ModelUnavailable(format!("{what} in {}: {e}", dir.display()))
        };
        let config: serde_json::Value = std::fs::read_to_string(dir.join("config.json"))
            .map_err(|e| unavailable("config.json", &e))
            .and_then(|s| serde_json::from_str(&s).map_err(|e| unavailable("config.json", &e)))?;
        let dimension = config
            .get("hidden_size")
            .and_then(|h| h.as_u64())
            .ok_or_else(|| unavailable("config.json", &"no hidden_size"))?
            as usize;
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| unavailable("tokenizer.json", &e))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..Default::default()
            }))
            .map_err(|e| unavailable("tokenizer.json", &e))?;
        // sequences run packed, not padded (see `CpuBert::embed_batch`)
        tokenizer.with_padding(None);
        if !dir.join("model.safetensors").is_file() {
            return Err(unavailable("model.safetensors", &"missing"));
        }
        let model = CpuBert::load(dir, &config, precision)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1),
            )
            .thread_name(|i| format!("engram-embed-{i}"))
            .build()
            .map_err(|e| unavailable("threads", &e))?;
        Ok(Self {
            core: Arc::new(Core {
                model,
                pooling: read_pooling(dir),
                tokenizer: Tokenizers::new(tokenizer),
                dimension,
            }),
            pool,
        })
    }

    /// The encoder itself.
    pub fn model(&self) -> &CpuBert {
        &self.core.model
    }

    /// Embed one batch (no size limit applied here), every pass on every
    /// core.
    pub fn encode(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.pool.install(|| self.core.encode_here(texts))
    }

    /// The shared model and the all-core pool, for [`crate::lanes`].
    pub(crate) fn into_parts(self) -> (Arc<Core>, rayon::ThreadPool) {
        (self.core, self.pool)
    }
}

impl Core {
    /// Tokenise and embed `texts` on the current thread's rayon pool
    /// (in order, normalised).
    pub(crate) fn encode_here(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let inf = |e: &dyn std::fmt::Display| EmbedError::Inference(e.to_string());
        let ids: Vec<Vec<u32>> = texts
            .par_iter()
            .map(|t| self.tokenizer.encode(t, true).map(|e| e.ids))
            .collect::<Result<_, _>>()
            .map_err(|e| inf(&e))?;
        let mut rows = Vec::with_capacity(ids.len());
        for (start, end) in passes(&ids) {
            rows.extend(self.model.embed_batch(&ids[start..end], self.pooling));
        }
        rows.iter_mut().for_each(|r| normalize(r));
        debug_assert!(rows.iter().all(|r| r.len() == self.dimension));
        Ok(rows)
    }
}

/// Cut tokenised texts, in order, into forward passes of at most about
/// [`PASS_TOKENS`] tokens (larger ones no longer fit the caches and run
/// slower per token), as even as the texts allow: 32 texts of 105 tokens
/// run as 11 + 11 + 10, not 14 + 14 + 4, since a small last pass keeps
/// fewer lanes busy for the same fixed cost per layer.
fn passes(ids: &[Vec<u32>]) -> Vec<(usize, usize)> {
    let total: usize = ids.iter().map(Vec::len).sum();
    let n = total.div_ceil(PASS_TOKENS).max(1);
    let target = total.div_ceil(n);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < ids.len() {
        let mut end = start;
        let mut tokens = 0;
        // take texts until the pass holds its share; a text that would
        // overshoot the share by more than half its own length waits
        while end < ids.len() {
            let len = ids[end].len();
            if end > start && (tokens + len > PASS_TOKENS || tokens + len / 2 > target) {
                break;
            }
            tokens += len;
            end += 1;
        }
        out.push((start, end));
        start = end;
    }
    out
}

/// The pooling a sentence-transformers folder asks for: the folder named by
/// the `Pooling` entry of `modules.json` (usually `1_Pooling`), whose
/// `config.json` sets `pooling_mode_cls_token` or
/// `pooling_mode_mean_tokens`. Mean pooling when nothing says otherwise.
pub fn read_pooling(dir: &Path) -> Pooling {
    let read = |p: std::path::PathBuf| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
    };
    let folder = read(dir.join("modules.json"))
        .and_then(|m| {
            m.as_array()?.iter().find_map(|module| {
                let ty = module.get("type")?.as_str()?;
                ty.ends_with("Pooling")
                    .then(|| module.get("path")?.as_str().map(str::to_string))?
            })
        })
        .unwrap_or_else(|| "1_Pooling".to_string());
    let Some(config) = read(dir.join(folder).join("config.json")) else {
        return Pooling::Mean;
    };
    let on = |key: &str| config.get(key).and_then(|v| v.as_bool()).unwrap_or(false);
    if on("pooling_mode_cls_token") && !on("pooling_mode_mean_tokens") {
        Pooling::Cls
    } else {
        Pooling::Mean
    }
}

/// The instructions a model folder asks to put before texts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prompts {
    /// Before each search query.
    pub query: String,
    /// Before each document (rarely set).
    pub document: String,
}

/// Read the prompts of `config_sentence_transformers.json` (`prompts.query`,
/// and `prompts.document` or `prompts.passage`); none when absent.
pub fn read_prompts(dir: &Path) -> Prompts {
    let Some(config) = std::fs::read_to_string(dir.join("config_sentence_transformers.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
    else {
        return Prompts::default();
    };
    let prompt = |keys: &[&str]| -> String {
        keys.iter()
            .find_map(|k| config.get("prompts")?.get(*k)?.as_str())
            .unwrap_or_default()
            .to_string()
    };
    Prompts {
        query: prompt(&["query"]),
        document: prompt(&["document", "passage"]),
    }
}

/// Counts tokens with a Hugging Face tokenizer (no truncation, no specials).
pub struct HfTokenCounter {
    tokenizer: Tokenizers,
}

impl HfTokenCounter {
    /// Load `tokenizer.json` from a model folder.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| EmbedError::ModelUnavailable(format!("tokenizer.json: {e}")))?;
        tokenizer.with_truncation(None).ok();
        tokenizer.with_padding(None);
        Ok(Self {
            tokenizer: Tokenizers::new(tokenizer),
        })
    }
}

impl TokenCounter for HfTokenCounter {
    fn token_offsets(&self, text: &str) -> Vec<(usize, usize)> {
        match self.tokenizer.encode(text, false) {
            Ok(e) => e.offsets,
            Err(_) => engram_core::tokens::ApproxTokenCounter.token_offsets(text),
        }
    }
}

/// The in-process embedder; cheap to share.
pub struct LocalEmbedder {
    name: String,
    prompts: Prompts,
    dimension: usize,
    max_tokens: usize,
    counter: Arc<HfTokenCounter>,
    tx: mpsc::Sender<Msg>,
}

/// Read `max_seq_length` from `sentence_bert_config.json` (default 256).
pub fn max_seq_length(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("sentence_bert_config.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
        .and_then(|v| v.get("max_seq_length").and_then(|m| m.as_u64()))
        .map(|m| m as usize)
        .unwrap_or(256)
}

impl LocalEmbedder {
    /// Load the model in `dir` and start its worker thread. `name` is the
    /// model name recorded in the store.
    pub fn start(dir: &Path, name: &str) -> Result<Self, EmbedError> {
        Self::start_with(dir, name, Precision::default())
    }

    /// [`Self::start`] in the given precision.
    pub fn start_with(dir: &Path, name: &str, precision: Precision) -> Result<Self, EmbedError> {
        let max_tokens = max_seq_length(dir);
        let encoder = BertEncoder::load_with(dir, max_tokens, precision)?;
        let dimension = encoder.core.dimension;
        let counter = Arc::new(HfTokenCounter::load(dir)?);
        let (tx, rx) = mpsc::channel::<Msg>();
        let (core, wide) = encoder.into_parts();
        let scheduler = Scheduler::new(core, wide, max_tokens, tx.clone())?;
        std::thread::Builder::new()
            .name("engram-embed".into())
            .spawn(move || scheduler.run(rx))
            .map_err(|e| {
                EmbedError::ModelUnavailable(format!("cannot start embedding thread: {e}"))
            })?;
        Ok(Self {
            name: name.to_string(),
            prompts: read_prompts(dir),
            dimension,
            max_tokens,
            counter,
            tx,
        })
    }
}

impl Drop for LocalEmbedder {
    fn drop(&mut self) {
        // the scheduler answers what it holds, then exits
        let _ = self.tx.send(Msg::Stop);
    }
}

#[async_trait]
impl Embedder for LocalEmbedder {
    fn model_name(&self) -> &str {
        &self.name
    }
    fn dimension(&self) -> usize {
        self.dimension
    }
    fn max_tokens(&self) -> usize {
        self.max_tokens
    }
    fn token_counter(&self) -> Arc<dyn TokenCounter> {
        self.counter.clone()
    }
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.run(with_prompt(&self.prompts.document, texts), false)
            .await
    }
    async fn embed_queries(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.run(with_prompt(&self.prompts.query, texts), true)
            .await
    }
}

fn with_prompt(prompt: &str, texts: Vec<String>) -> Vec<String> {
    if prompt.is_empty() {
        return texts;
    }
    texts.into_iter().map(|t| format!("{prompt}{t}")).collect()
}

impl LocalEmbedder {
    async fn run(&self, texts: Vec<String>, urgent: bool) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Msg::Embed {
                texts,
                urgent,
                reply,
            })
            .map_err(|_| EmbedError::Stopped)?;
        rx.await.map_err(|_| EmbedError::Stopped)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(lens: &[usize]) -> Vec<usize> {
        let ids: Vec<Vec<u32>> = lens.iter().map(|&n| vec![0; n]).collect();
        let cut = passes(&ids);
        // in order, every text once, no pass over the budget unless alone
        assert_eq!(cut.first().map(|c| c.0), Some(0));
        assert_eq!(cut.last().map(|c| c.1), Some(lens.len()));
        for w in cut.windows(2) {
            assert_eq!(w[0].1, w[1].0);
        }
        for &(a, b) in &cut {
            let t: usize = lens[a..b].iter().sum();
            assert!(b - a == 1 || t <= PASS_TOKENS, "{a}..{b}: {t} tokens");
        }
        cut.iter().map(|(a, b)| b - a).collect()
    }

    #[test]
    fn passes_are_even_and_within_the_budget() {
        assert_eq!(sizes(&[105; 32]), vec![11, 11, 10]);
        assert_eq!(sizes(&[105; 14]), vec![14]);
        assert_eq!(sizes(&[105; 16]), vec![8, 8]);
        assert_eq!(sizes(&[12]), vec![1]);
        // a text longer than the budget runs alone
        assert_eq!(sizes(&[2000, 10, 10]), vec![1, 2]);
        assert_eq!(sizes(&[10, 2000, 10]), vec![1, 1, 1]);
        let mixed: Vec<usize> = (0..100).map(|i| 5 + (i * 37) % 250).collect();
        let s = sizes(&mixed);
        assert_eq!(s.iter().sum::<usize>(), 100);
    }
}
