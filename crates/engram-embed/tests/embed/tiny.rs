//! Any BERT-family sentence-transformers folder: a tiny BERT written by the
//! test (random weights, its own vocabulary) with CLS pooling, a head size
//! of 16 and a query prompt in `config_sentence_transformers.json`. The
//! encoder must equal a plain double-precision forward pass written here,
//! pool as `1_Pooling/config.json` says, and prefix queries (only queries)
//! with the model's prompt.

use engram_embed::local::LocalEmbedder;
use engram_embed::{Embedder, Precision};
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use tokenizers::Tokenizer;

const HIDDEN: usize = 32;
const HEADS: usize = 2;
const LAYERS: usize = 2;
const INTER: usize = 64;
const POSITIONS: usize = 64;
const QUERY_PROMPT: &str = "represent this sentence for searching relevant passages: ";

const WORDS: &[&str] = &[
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "represent",
    "this",
    "sentence",
    "for",
    "searching",
    "relevant",
    "passages",
    ":",
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "dog",
    "##s",
    "bark",
    "at",
    "night",
    "ada",
    "drinks",
    "green",
    "tea",
    "in",
    "lisbon",
    ".",
    "who",
];

/// Deterministic weights in [-scale, scale].
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, scale: f32) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }
    fn vec(&mut self, n: usize, scale: f32, around: f32) -> Vec<f32> {
        (0..n).map(|_| around + self.next(scale)).collect()
    }
}

fn write_model(dir: &Path, pooling_cls: bool) -> HashMap<String, Vec<f32>> {
    let mut rng = Lcg(42);
    let mut w: HashMap<String, (Vec<f32>, Vec<usize>)> = HashMap::new();
    let mut put = |name: &str, shape: Vec<usize>, scale: f32, around: f32, rng: &mut Lcg| {
        let n = shape.iter().product();
        w.insert(name.to_string(), (rng.vec(n, scale, around), shape));
    };
    let h = HIDDEN;
    put(
        "embeddings.word_embeddings.weight",
        vec![WORDS.len(), h],
        0.5,
        0.0,
        &mut rng,
    );
    put(
        "embeddings.position_embeddings.weight",
        vec![POSITIONS, h],
        0.1,
        0.0,
        &mut rng,
    );
    put(
        "embeddings.token_type_embeddings.weight",
        vec![2, h],
        0.1,
        0.0,
        &mut rng,
    );
    put("embeddings.LayerNorm.weight", vec![h], 0.1, 1.0, &mut rng);
    put("embeddings.LayerNorm.bias", vec![h], 0.1, 0.0, &mut rng);
    for l in 0..LAYERS {
        let p = format!("encoder.layer.{l}");
        for m in ["query", "key", "value"] {
            put(
                &format!("{p}.attention.self.{m}.weight"),
                vec![h, h],
                0.3,
                0.0,
                &mut rng,
            );
            put(
                &format!("{p}.attention.self.{m}.bias"),
                vec![h],
                0.1,
                0.0,
                &mut rng,
            );
        }
        put(
            &format!("{p}.attention.output.dense.weight"),
            vec![h, h],
            0.3,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.attention.output.dense.bias"),
            vec![h],
            0.1,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.attention.output.LayerNorm.weight"),
            vec![h],
            0.1,
            1.0,
            &mut rng,
        );
        put(
            &format!("{p}.attention.output.LayerNorm.bias"),
            vec![h],
            0.1,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.intermediate.dense.weight"),
            vec![INTER, h],
            0.3,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.intermediate.dense.bias"),
            vec![INTER],
            0.1,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.output.dense.weight"),
            vec![h, INTER],
            0.3,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.output.dense.bias"),
            vec![h],
            0.1,
            0.0,
            &mut rng,
        );
        put(
            &format!("{p}.output.LayerNorm.weight"),
            vec![h],
            0.1,
            1.0,
            &mut rng,
        );
        put(
            &format!("{p}.output.LayerNorm.bias"),
            vec![h],
            0.1,
            0.0,
            &mut rng,
        );
    }
    let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = w
        .iter()
        .map(|(k, (v, shape))| {
            let le = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            (k.clone(), shape.clone(), le)
        })
        .collect();
    let views = bytes.iter().map(|(k, shape, le)| {
        let view = safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), le);
        (k.clone(), view.unwrap())
    });
    safetensors::serialize_to_file(views, None, &dir.join("model.safetensors")).unwrap();
    let file = |name: &str, v: serde_json::Value| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    };
    file(
        "config.json",
        json!({"architectures": ["BertModel"], "model_type": "bert", "hidden_size": HIDDEN,
               "num_attention_heads": HEADS, "num_hidden_layers": LAYERS, "intermediate_size": INTER,
               "max_position_embeddings": POSITIONS, "type_vocab_size": 2, "vocab_size": WORDS.len(),
               "hidden_act": "gelu", "layer_norm_eps": 1e-12}),
    );
    file(
        "sentence_bert_config.json",
        json!({"max_seq_length": 48, "do_lower_case": true}),
    );
    file(
        "modules.json",
        json!([{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
               {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]),
    );
    file(
        "1_Pooling/config.json",
        json!({"word_embedding_dimension": HIDDEN, "pooling_mode_cls_token": pooling_cls,
               "pooling_mode_mean_tokens": !pooling_cls}),
    );
    file(
        "config_sentence_transformers.json",
        json!({"prompts": {"query": QUERY_PROMPT, "document": ""}, "default_prompt_name": null}),
    );
    let vocab: serde_json::Map<String, serde_json::Value> = WORDS
        .iter()
        .enumerate()
        .map(|(i, w)| (w.to_string(), json!(i)))
        .collect();
    let added: Vec<serde_json::Value> = WORDS[..4]
        .iter()
        .enumerate()
        .map(|(i, w)| {
            json!({"id": i, "content": w, "single_word": false, "lstrip": false,
                              "rstrip": false, "normalized": false, "special": true})
        })
        .collect();
    file(
        "tokenizer.json",
        json!({"version": "1.0", "truncation": null, "padding": null, "added_tokens": added,
               "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                              "strip_accents": null, "lowercase": true},
               "pre_tokenizer": {"type": "BertPreTokenizer"},
               "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
               "decoder": null,
               "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                         "max_input_chars_per_word": 100, "vocab": vocab}}),
    );
    w.into_iter().map(|(k, (v, _))| (k, v)).collect()
}

/// erf in double precision (Numerical Recipes' erfc fit, relative error
/// below 1.2e-7).
fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// The textbook forward pass, in f64, one token at a time.
fn reference(w: &HashMap<String, Vec<f32>>, ids: &[u32], cls: bool) -> Vec<f32> {
    let h = HIDDEN;
    let g = |name: &str| -> Vec<f64> { w[name].iter().map(|&v| v as f64).collect() };
    let norm = |x: &mut [f64], gamma: &[f64], beta: &[f64]| {
        let mean = x.iter().sum::<f64>() / x.len() as f64;
        let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / x.len() as f64;
        for (i, v) in x.iter_mut().enumerate() {
            *v = (*v - mean) / (var + 1e-12).sqrt() * gamma[i] + beta[i];
        }
    };
    // y = W x + b, W of shape (out, inp)
    let dense = |x: &[f64], wname: &str, bname: &str| -> Vec<f64> {
        let (wm, b) = (g(wname), g(bname));
        (0..b.len())
            .map(|o| {
                b[o] + (0..x.len())
                    .map(|i| wm[o * x.len() + i] * x[i])
                    .sum::<f64>()
            })
            .collect()
    };
    let (word, pos, ty) = (
        g("embeddings.word_embeddings.weight"),
        g("embeddings.position_embeddings.weight"),
        g("embeddings.token_type_embeddings.weight"),
    );
    let mut x: Vec<Vec<f64>> = ids
        .iter()
        .enumerate()
        .map(|(t, &id)| {
            let mut e: Vec<f64> = (0..h)
                .map(|k| word[id as usize * h + k] + pos[t * h + k] + ty[k])
                .collect();
            norm(
                &mut e,
                &g("embeddings.LayerNorm.weight"),
                &g("embeddings.LayerNorm.bias"),
            );
            e
        })
        .collect();
    let hd = h / HEADS;
    for l in 0..LAYERS {
        let p = format!("encoder.layer.{l}");
        let proj = |m: &str| -> Vec<Vec<f64>> {
            x.iter()
                .map(|r| {
                    dense(
                        r,
                        &format!("{p}.attention.self.{m}.weight"),
                        &format!("{p}.attention.self.{m}.bias"),
                    )
                })
                .collect()
        };
        let (q, k, v) = (proj("query"), proj("key"), proj("value"));
        let n = x.len();
        let mut ctx = vec![vec![0f64; h]; n];
        for head in 0..HEADS {
            let o = head * hd;
            for i in 0..n {
                let s: Vec<f64> = (0..n)
                    .map(|j| {
                        (0..hd).map(|d| q[i][o + d] * k[j][o + d]).sum::<f64>() / (hd as f64).sqrt()
                    })
                    .collect();
                let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = s.iter().map(|v| (v - m).exp()).collect();
                let z: f64 = e.iter().sum();
                for d in 0..hd {
                    ctx[i][o + d] = (0..n).map(|j| e[j] / z * v[j][o + d]).sum();
                }
            }
        }
        for i in 0..n {
            let mut a = dense(
                &ctx[i],
                &format!("{p}.attention.output.dense.weight"),
                &format!("{p}.attention.output.dense.bias"),
            );
            for (av, xv) in a.iter_mut().zip(&x[i]) {
                *av += xv;
            }
            norm(
                &mut a,
                &g(&format!("{p}.attention.output.LayerNorm.weight")),
                &g(&format!("{p}.attention.output.LayerNorm.bias")),
            );
            let up: Vec<f64> = dense(
                &a,
                &format!("{p}.intermediate.dense.weight"),
                &format!("{p}.intermediate.dense.bias"),
            )
            .into_iter()
            .map(|u| 0.5 * u * (1.0 + erf(u / 2f64.sqrt())))
            .collect();
            let mut d = dense(
                &up,
                &format!("{p}.output.dense.weight"),
                &format!("{p}.output.dense.bias"),
            );
            for (dv, av) in d.iter_mut().zip(&a) {
                *dv += av;
            }
            norm(
                &mut d,
                &g(&format!("{p}.output.LayerNorm.weight")),
                &g(&format!("{p}.output.LayerNorm.bias")),
            );
            x[i] = d;
        }
    }
    let pooled: Vec<f64> = if cls {
        x[0].clone()
    } else {
        (0..h)
            .map(|k| x.iter().map(|r| r[k]).sum::<f64>() / x.len() as f64)
            .collect()
    };
    let n = pooled.iter().map(|v| v * v).sum::<f64>().sqrt();
    pooled.iter().map(|v| (v / n) as f32).collect()
}

/// The largest difference between two vectors' components.
pub(super) fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[tokio::test]
async fn a_tiny_bert_folder_embeds_as_its_config_says() {
    let texts = [
        "the cat sat on the mat.",
        "dogs bark at night",
        "ada drinks green tea in lisbon.",
        "who",
        "the cat sat on the mat. dogs bark at night. ada drinks green tea in lisbon. the cat sat on the mat. dogs bark at night. ada drinks green tea in lisbon.",
    ];
    for cls in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let weights = write_model(dir.path(), cls);
        let tokenizer = Tokenizer::from_file(dir.path().join("tokenizer.json")).unwrap();
        // f32 throughout: this checks the arithmetic against the definition
        let e = LocalEmbedder::start_with(dir.path(), "tiny", Precision::F32).unwrap();
        assert_eq!((e.dimension(), e.max_tokens()), (HIDDEN, 48));
        let batch = e
            .embed(texts.iter().map(|t| t.to_string()).collect())
            .await
            .unwrap();
        for (text, got) in texts.iter().zip(&batch) {
            let mut ids = tokenizer.encode(*text, true).unwrap().get_ids().to_vec();
            if ids.len() > 48 {
                // truncation keeps [SEP] last
                ids.truncate(47);
                ids.push(3);
            }
            let want = reference(&weights, &ids, cls);
            let d = max_diff(got, &want);
            assert!(d < 1e-4, "cls={cls} {text:?}: differs by {d}");
            let alone = e.embed(vec![text.to_string()]).await.unwrap().remove(0);
            assert!(max_diff(&alone, &want) < 1e-4, "cls={cls} {text:?} alone");
        }
        // queries carry the model's prompt, documents do not
        let q = e
            .embed_queries(vec![texts[2].to_string()])
            .await
            .unwrap()
            .remove(0);
        let prompted = e
            .embed(vec![format!("{QUERY_PROMPT}{}", texts[2])])
            .await
            .unwrap()
            .remove(0);
        assert!(
            max_diff(&q, &prompted) < 1e-6,
            "the query prompt is applied"
        );
        assert!(max_diff(&q, &batch[2]) > 1e-3, "and it changes the vector");
    }
}

/// At the default precision a batch of more than 96 tokens runs its
/// products in bfloat16 where the CPU has AVX-512 BF16 (dense layers of
/// 32 and 64 features, heads of 16): still next to the definition.
#[tokio::test]
async fn a_tiny_bert_folder_at_the_default_precision_stays_next_to_the_definition() {
    let texts: Vec<String> = (0..12)
        .map(|i| format!("the cat sat on mat {i}. dogs bark at night. ada drinks green tea."))
        .collect();
    for cls in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let weights = write_model(dir.path(), cls);
        let tokenizer = Tokenizer::from_file(dir.path().join("tokenizer.json")).unwrap();
        let e = LocalEmbedder::start_with(dir.path(), "tiny", Precision::default()).unwrap();
        let batch = e.embed(texts.clone()).await.unwrap();
        for (text, got) in texts.iter().zip(&batch) {
            let ids = tokenizer
                .encode(text.as_str(), true)
                .unwrap()
                .get_ids()
                .to_vec();
            let want = reference(&weights, &ids, cls);
            let cos: f32 = got.iter().zip(&want).map(|(a, b)| a * b).sum();
            let d = max_diff(got, &want);
            assert!(
                cos > 0.999 && d < 2e-2,
                "cls={cls} {text:?}: {d}, cosine {cos}"
            );
        }
    }
}

/// Many requests at once, large and small, documents and queries: the
/// scheduler cuts them into units over its lanes (and runs lone small ones
/// on every core), and every caller still gets its own vectors, in order,
/// each what the definition gives for its text alone.
#[tokio::test]
async fn a_tiny_bert_folder_answers_concurrent_requests_across_lanes() {
    let dir = tempfile::tempdir().unwrap();
    let weights = write_model(dir.path(), false);
    let tokenizer = Tokenizer::from_file(dir.path().join("tokenizer.json")).unwrap();
    let e =
        std::sync::Arc::new(LocalEmbedder::start_with(dir.path(), "tiny", Precision::F32).unwrap());
    let text = |i: usize| -> String {
        (0..1 + i % 9)
            .map(|k| WORDS[(i * 7 + k * 3) % WORDS.len()])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let want = |t: &str| {
        let mut ids = tokenizer.encode(t, true).unwrap().get_ids().to_vec();
        if ids.len() > 48 {
            ids.truncate(47);
            ids.push(3);
        }
        reference(&weights, &ids, false)
    };
    let mut tasks = tokio::task::JoinSet::new();
    // three large requests (many units each), twenty single texts, ten queries
    for r in 0..3 {
        let (e, texts) = (
            e.clone(),
            (0..70).map(|i| text(r * 70 + i)).collect::<Vec<_>>(),
        );
        tasks.spawn(async move { (texts.clone(), false, e.embed(texts).await) });
    }
    for i in 0..30 {
        let (e, texts) = (e.clone(), vec![text(500 + i)]);
        let query = i % 3 == 0;
        tasks.spawn(async move {
            let got = if query {
                e.embed_queries(texts.clone()).await
            } else {
                e.embed(texts.clone()).await
            };
            (texts, query, got)
        });
    }
    let mut answered = 0;
    while let Some(done) = tasks.join_next().await {
        let (texts, query, got) = done.unwrap();
        let got = got.unwrap();
        assert_eq!(got.len(), texts.len());
        for (t, v) in texts.iter().zip(&got) {
            let prompted = if query {
                format!("{QUERY_PROMPT}{t}")
            } else {
                t.clone()
            };
            let d = max_diff(v, &want(&prompted));
            assert!(d < 1e-4, "{prompted:?} differs by {d}");
        }
        answered += 1;
    }
    assert_eq!(answered, 33);
    // an empty request is answered at once
    assert!(e.embed(Vec::new()).await.unwrap().is_empty());
}
