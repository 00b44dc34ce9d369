//! A direct CPU forward pass for BERT-family sentence encoders.
//!
//! [`crate::weights`] reads the weights (safetensors); this module runs
//! the encoder.
//! A batch's sequences are packed one after another without padding, so
//! the dense layers, nearly all of the arithmetic, are single matrix
//! products over every token of the batch ([`crate::kernels::matmul`], the
//! `gemm` crate, or [`crate::bf16`]); only attention ([`crate::attention`]) sees sequence
//! boundaries. Weights are transposed once at load into the layout the
//! matrix kernels read without repacking. In f32 results equal
//! sentence-transformers' within 1e-4 (checked against its reference
//! vectors in the tests); the default precision stays within 2e-3
//! ([`crate::dense`]).

use crate::attention::{attend, Head, Scratch};
use crate::attention_bf16::Scratch as Scratch16;
use crate::dense::{Dense, Precision};
use crate::kernels::{add_bias, add_layer_norm, gelu_bias, layer_norm, Shared};
use crate::weights::Weights;
use crate::EmbedError;
use rayon::prelude::*;
use std::path::Path;

struct Layer {
    qkv_w: Dense,
    qkv_b: Vec<f32>,
    out_w: Dense,
    out_b: Vec<f32>,
    ln1_g: Vec<f32>,
    ln1_b: Vec<f32>,
    up_w: Dense,
    up_b: Vec<f32>,
    down_w: Dense,
    down_b: Vec<f32>,
    ln2_g: Vec<f32>,
    ln2_b: Vec<f32>,
}

/// The encoder's weights and shape.
pub struct CpuBert {
    hidden: usize,
    heads: usize,
    inter: usize,
    eps: f32,
    max_positions: usize,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    emb_g: Vec<f32>,
    emb_b: Vec<f32>,
    layers: Vec<Layer>,
    /// Attention's products in bfloat16 ([`crate::attention_bf16`]).
    bf16_attention: bool,
}

fn get_usize(config: &serde_json::Value, key: &str) -> Result<usize, EmbedError> {
    config
        .get(key)
        .and_then(|v| v.as_u64())
        .map(|v| v as usize)
        .ok_or_else(|| EmbedError::ModelUnavailable(format!("config.json has no `{key}`")))
}

impl CpuBert {
    /// Load `model.safetensors` of a BERT model described by `config`.
    pub fn load(
        dir: &Path,
        config: &serde_json::Value,
        precision: Precision,
    ) -> Result<Self, EmbedError> {
        let bad = |e: String| EmbedError::ModelUnavailable(format!("{}: {e}", dir.display()));
        if let Some(act) = config.get("hidden_act").and_then(|v| v.as_str()) {
            if act != "gelu" {
                return Err(bad(format!("unsupported activation `{act}`")));
            }
        }
        let hidden = get_usize(config, "hidden_size")?;
        let heads = get_usize(config, "num_attention_heads")?;
        let inter = get_usize(config, "intermediate_size")?;
        let n_layers = get_usize(config, "num_hidden_layers")?;
        let max_positions = get_usize(config, "max_position_embeddings")?;
        let eps = config
            .get("layer_norm_eps")
            .and_then(|v| v.as_f64())
            .unwrap_or(1e-12) as f32;
        if hidden % heads != 0 {
            return Err(bad("hidden size not divisible by heads".into()));
        }
        let weights = Weights::read(&dir.join("model.safetensors"))?;
        // BertModel checkpoints name tensors `embeddings…`, BertFor… ones
        // `bert.embeddings…`
        let prefix = if weights
            .len_of("embeddings.word_embeddings.weight")
            .is_some()
        {
            ""
        } else {
            "bert."
        };
        let take = |name: &str, len: usize| weights.f32s(&format!("{prefix}{name}"), len);
        let word_len = weights
            .len_of(&format!("{prefix}embeddings.word_embeddings.weight"))
            .ok_or_else(|| bad("missing word embeddings".into()))?;
        let h = hidden;
        let mut layers = Vec::with_capacity(n_layers);
        for l in 0..n_layers {
            let p = format!("encoder.layer.{l}");
            let mut qkv_w = take(&format!("{p}.attention.self.query.weight"), h * h)?;
            qkv_w.extend(take(&format!("{p}.attention.self.key.weight"), h * h)?);
            qkv_w.extend(take(&format!("{p}.attention.self.value.weight"), h * h)?);
            let mut qkv_b = take(&format!("{p}.attention.self.query.bias"), h)?;
            qkv_b.extend(take(&format!("{p}.attention.self.key.bias"), h)?);
            qkv_b.extend(take(&format!("{p}.attention.self.value.bias"), h)?);
            layers.push(Layer {
                qkv_w: Dense::new(&qkv_w, 3 * h, h, precision),
                qkv_b,
                out_w: Dense::new(
                    &take(&format!("{p}.attention.output.dense.weight"), h * h)?,
                    h,
                    h,
                    precision,
                ),
                out_b: take(&format!("{p}.attention.output.dense.bias"), h)?,
                ln1_g: take(&format!("{p}.attention.output.LayerNorm.weight"), h)?,
                ln1_b: take(&format!("{p}.attention.output.LayerNorm.bias"), h)?,
                up_w: Dense::new(
                    &take(&format!("{p}.intermediate.dense.weight"), inter * h)?,
                    inter,
                    h,
                    precision,
                ),
                up_b: take(&format!("{p}.intermediate.dense.bias"), inter)?,
                down_w: Dense::new(
                    &take(&format!("{p}.output.dense.weight"), h * inter)?,
                    h,
                    inter,
                    precision,
                ),
                down_b: take(&format!("{p}.output.dense.bias"), h)?,
                ln2_g: take(&format!("{p}.output.LayerNorm.weight"), h)?,
                ln2_b: take(&format!("{p}.output.LayerNorm.bias"), h)?,
            });
        }
        Ok(Self {
            hidden,
            heads,
            inter,
            eps,
            max_positions,
            word: take("embeddings.word_embeddings.weight", word_len)?,
            position: take("embeddings.position_embeddings.weight", max_positions * h)?,
            token_type: take("embeddings.token_type_embeddings.weight", 2 * h)
                .or_else(|_| take("embeddings.token_type_embeddings.weight", h))?,
            emb_g: take("embeddings.LayerNorm.weight", h)?,
            emb_b: take("embeddings.LayerNorm.bias", h)?,
            layers,
            bf16_attention: precision == Precision::Mixed
                && crate::attention_bf16::suits(hidden / heads),
        })
    }

    /// Embed a batch of tokenised sequences (ids already truncated to the
    /// model's limit), one pooled vector each, not normalised.
    ///
    /// The sequences are packed one after another, without padding: the
    /// dense layers (almost all the arithmetic) run as single matrix
    /// products over every token of the batch, and only attention looks at
    /// sequence boundaries, one (sequence, head) pair per task.
    pub fn embed_batch(&self, seqs: &[Vec<u32>], pooling: Pooling) -> Vec<Vec<f32>> {
        let h = self.hidden;
        let lens: Vec<usize> = seqs
            .iter()
            .map(|s| s.len().min(self.max_positions))
            .collect();
        let mut starts = Vec::with_capacity(lens.len());
        let mut total = 0;
        for &l in &lens {
            starts.push(total);
            total += l;
        }
        if total == 0 {
            return vec![vec![0.0; h]; seqs.len()];
        }
        // the activations live in buffers kept by the thread that runs the
        // pass (one of the embedder's pool): a pass of 1 536 tokens needs
        // about 24 MB, and fresh allocations of that size are fresh pages
        // from the kernel each time (reusing them: ingest 92 -> 96 chunks/s)
        BUFFERS.with_borrow_mut(|b| self.forward(seqs, pooling, &lens, &starts, total, b))
    }

    /// [`Self::embed_batch`] in the buffers `b`.
    fn forward(
        &self,
        seqs: &[Vec<u32>],
        pooling: Pooling,
        lens: &[usize],
        starts: &[usize],
        total: usize,
        b: &mut Buffers,
    ) -> Vec<Vec<f32>> {
        let h = self.hidden;
        let vocab = self.word.len() / h;
        let Buffers {
            x,
            qkv,
            ctx,
            mid,
            up,
        } = b;
        for (buf, n) in [
            (&mut *x, total * h),
            (&mut *qkv, total * 3 * h),
            (&mut *ctx, total * h),
            (&mut *mid, total * h),
            (&mut *up, total * self.inter),
        ] {
            // every element is written before it is read
            buf.resize(n, 0.0);
        }
        for (s, ids) in seqs.iter().enumerate() {
            for (i, &id) in ids.iter().take(lens[s]).enumerate() {
                let id = (id as usize).min(vocab - 1);
                let row = &mut x[(starts[s] + i) * h..(starts[s] + i + 1) * h];
                let (w, p, ty) = (
                    &self.word[id * h..(id + 1) * h],
                    &self.position[i * h..(i + 1) * h],
                    &self.token_type[..h],
                );
                for k in 0..h {
                    row[k] = w[k] + p[k] + ty[k];
                }
            }
        }
        layer_norm(x, h, &self.emb_g, &self.emb_b, self.eps);

        for l in &self.layers {
            l.qkv_w.apply(x, total, qkv);
            add_bias(qkv, &l.qkv_b);
            self.attention(qkv, starts, lens, ctx);
            l.out_w.apply(ctx, total, mid);
            add_layer_norm(mid, &l.out_b, x, &l.ln1_g, &l.ln1_b, self.eps);
            l.up_w.apply(mid, total, up);
            gelu_bias(up, &l.up_b);
            l.down_w.apply(up, total, x);
            add_layer_norm(x, &l.down_b, mid, &l.ln2_g, &l.ln2_b, self.eps);
        }
        starts
            .iter()
            .zip(lens)
            .map(|(&start, &len)| {
                let mut pooled = vec![0f32; h];
                if len == 0 {
                    return pooled;
                }
                match pooling {
                    Pooling::Cls => pooled.copy_from_slice(&x[start * h..(start + 1) * h]),
                    Pooling::Mean => {
                        for row in x[start * h..(start + len) * h].chunks_exact(h) {
                            for (p, v) in pooled.iter_mut().zip(row) {
                                *p += v;
                            }
                        }
                        pooled.iter_mut().for_each(|p| *p /= len as f32);
                    }
                }
                pooled
            })
            .collect()
    }

    /// Self-attention over the fused Q|K|V rows of every sequence, written
    /// into `ctx` (each token's heads side by side). Each (sequence, head)
    /// pair is one task: scores = Q K^T / sqrt(d), a softmax per row, then
    /// P V, with Q, K and V read in place from `qkv` through strides.
    fn attention(&self, qkv: &[f32], starts: &[usize], lens: &[usize], ctx: &mut [f32]) {
        let h = self.hidden;
        let hd = h / self.heads;
        let out = Shared(ctx.as_mut_ptr());
        let tasks: Vec<(usize, usize)> = (0..lens.len())
            .filter(|&s| lens[s] > 0)
            .flat_map(|s| (0..self.heads).map(move |hh| (s, hh)))
            .collect();
        tasks.par_iter().for_each_init(
            Default::default,
            |scratch: &mut (Scratch, Scratch16), &(s, hh)| {
                let base = starts[s];
                let head = Head {
                    qkv: &qkv[base * 3 * h..(base + lens[s]) * 3 * h],
                    row: 3 * h,
                    t: lens[s],
                    q: hh * hd,
                    k: h + hh * hd,
                    v: 2 * h + hh * hd,
                    dim: hd,
                };
                let at = Shared(out.at(base * h + hh * hd));
                // SAFETY: this task alone writes this sequence's rows and
                // this head's columns of `ctx`, which outlives the loop;
                // the bfloat16 kernel suits the head (checked at load).
                unsafe {
                    if self.bf16_attention {
                        crate::attention_bf16::attend(&head, at, h, &mut scratch.1)
                    } else {
                        attend(&head, at, h, &mut scratch.0)
                    }
                };
            },
        );
    }
}

/// The activations of a forward pass, reused from pass to pass.
#[derive(Default)]
struct Buffers {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    mid: Vec<f32>,
    up: Vec<f32>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// How a sequence's token vectors become one sentence vector (from the
/// model folder's `1_Pooling/config.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pooling {
    /// The mean of every token's vector (all-MiniLM, e5, gte).
    #[default]
    Mean,
    /// The first token's vector, `[CLS]` (bge, snowflake-arctic-embed).
    Cls,
}
