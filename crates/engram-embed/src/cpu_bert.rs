//! A direct CPU forward pass for BERT-family sentence encoders, one
//! sequence at a time, without padding.
//!
//! candle loads the weights (safetensors); this module runs the encoder
//! with [`crate::kernels`]. General tensor libraries repack every weight
//! matrix on each matrix product and allocate for each of a few hundred
//! small operations, which dominates the cost of a 10-token query; here a
//! query embeds in a few milliseconds. Results equal sentence-transformers'
//! within float rounding (checked against its reference vectors in the
//! tests).

use crate::kernels::{dense, gelu, layer_norm, softmax};
use crate::EmbedError;
use candle_core::{Device, Tensor};
use std::collections::HashMap;
use std::path::Path;

struct Layer {
    qkv_w: Vec<f32>,
    qkv_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: Vec<f32>,
    ln1_g: Vec<f32>,
    ln1_b: Vec<f32>,
    up_w: Vec<f32>,
    up_b: Vec<f32>,
    down_w: Vec<f32>,
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
    /// The second thread a single query's layers are split over.
    pair: Option<crate::pair::Pair>,
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
    pub fn load(dir: &Path, config: &serde_json::Value) -> Result<Self, EmbedError> {
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
        let tensors: HashMap<String, Tensor> =
            candle_core::safetensors::load(dir.join("model.safetensors"), &Device::Cpu)
                .map_err(|e| bad(e.to_string()))?;
        let take = |name: &str, len: usize| -> Result<Vec<f32>, EmbedError> {
            let t = tensors
                .get(name)
                .or_else(|| tensors.get(&format!("bert.{name}")))
                .ok_or_else(|| bad(format!("missing tensor {name}")))?;
            let v: Vec<f32> = t
                .to_dtype(candle_core::DType::F32)
                .and_then(|t| t.flatten_all())
                .and_then(|t| t.to_vec1())
                .map_err(|e| bad(e.to_string()))?;
            if v.len() != len {
                return Err(bad(format!(
                    "tensor {name} has {} values, want {len}",
                    v.len()
                )));
            }
            Ok(v)
        };
        let word_len = tensors
            .get("embeddings.word_embeddings.weight")
            .or_else(|| tensors.get("bert.embeddings.word_embeddings.weight"))
            .map(|t| t.elem_count())
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
                qkv_w,
                qkv_b,
                out_w: take(&format!("{p}.attention.output.dense.weight"), h * h)?,
                out_b: take(&format!("{p}.attention.output.dense.bias"), h)?,
                ln1_g: take(&format!("{p}.attention.output.LayerNorm.weight"), h)?,
                ln1_b: take(&format!("{p}.attention.output.LayerNorm.bias"), h)?,
                up_w: take(&format!("{p}.intermediate.dense.weight"), inter * h)?,
                up_b: take(&format!("{p}.intermediate.dense.bias"), inter)?,
                down_w: take(&format!("{p}.output.dense.weight"), h * inter)?,
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
            pair: crate::pair::Pair::start(),
        })
    }

    fn join2<A: FnOnce() + Send, B: FnOnce()>(&self, a: A, b: B) {
        match &self.pair {
            Some(p) => p.join(a, b),
            None => {
                a();
                b();
            }
        }
    }

    /// A dense layer, followed by GELU when `act`; with `par`, its output
    /// features are split over two threads (each reads half the weights).
    #[allow(clippy::too_many_arguments)]
    fn dense(
        &self,
        x: &[f32],
        rows: usize,
        inp: usize,
        w: &[f32],
        b: &[f32],
        y: &mut [f32],
        par: bool,
        act: bool,
    ) {
        let out = b.len();
        let run = |w: &[f32], b: &[f32], y: &mut [f32]| {
            dense(x, rows, inp, w, b, y);
            if act {
                gelu(y);
            }
        };
        if !par || out < 64 {
            run(w, b, y);
            return;
        }
        let half = (out / 2).next_multiple_of(4);
        let mut lo = vec![0f32; rows * half];
        let mut hi = vec![0f32; rows * (out - half)];
        self.join2(
            || run(&w[..half * inp], &b[..half], &mut lo),
            || run(&w[half * inp..], &b[half..], &mut hi),
        );
        for t in 0..rows {
            y[t * out..t * out + half].copy_from_slice(&lo[t * half..(t + 1) * half]);
            y[t * out + half..(t + 1) * out]
                .copy_from_slice(&hi[t * (out - half)..(t + 1) * (out - half)]);
        }
    }

    /// Self-attention of heads `heads` over the fused Q|K|V rows of `t`
    /// tokens; writes each token's context for those heads (`t` rows of
    /// `heads.len() * head_dim`) into `out`.
    ///
    /// Per head: scores = Q K^T (a dense layer against K's rows), softmax,
    /// context = P V (against V transposed). Keys are padded to a multiple
    /// of 16 with zero rows so the vector kernels apply; padded scores are
    /// masked out.
    fn attend(&self, qkv: &[f32], t: usize, heads: std::ops::Range<usize>, out: &mut [f32]) {
        let h = self.hidden;
        let hd = h / self.heads;
        let scale = 1.0 / (hd as f32).sqrt();
        let tp = t.next_multiple_of(16);
        let width = heads.len() * hd;
        let mut qh = vec![0f32; t * hd];
        let mut kh = vec![0f32; tp * hd];
        let mut vt = vec![0f32; hd * tp];
        let mut scores = vec![0f32; t * tp];
        let mut ch = vec![0f32; t * hd];
        let zeros = vec![0f32; tp.max(hd)];
        for (n, hh) in heads.enumerate() {
            let off = hh * hd;
            for i in 0..t {
                let r = i * 3 * h;
                qh[i * hd..(i + 1) * hd].copy_from_slice(&qkv[r + off..r + off + hd]);
                kh[i * hd..(i + 1) * hd].copy_from_slice(&qkv[r + h + off..r + h + off + hd]);
                for d in 0..hd {
                    vt[d * tp + i] = qkv[r + 2 * h + off + d];
                }
            }
            dense(&qh, t, hd, &kh, &zeros[..tp], &mut scores);
            for row in scores.chunks_exact_mut(tp) {
                row[..t].iter_mut().for_each(|s| *s *= scale);
                softmax(&mut row[..t]);
                row[t..].fill(0.0);
            }
            dense(&scores, t, tp, &vt, &zeros[..hd], &mut ch);
            for i in 0..t {
                out[i * width + n * hd..i * width + (n + 1) * hd]
                    .copy_from_slice(&ch[i * hd..(i + 1) * hd]);
            }
        }
    }

    /// Mean-pooled last hidden state of one tokenised sequence (token ids
    /// already truncated to the model's limit). `par` splits the work over
    /// threads (for a single query); batches run sequences side by side
    /// instead.
    pub fn embed_ids(&self, ids: &[u32], par: bool) -> Vec<f32> {
        let h = self.hidden;
        let t = ids.len().min(self.max_positions);
        if t == 0 {
            return vec![0.0; h];
        }
        let vocab = self.word.len() / h;
        let mut x = vec![0f32; t * h];
        for (i, &id) in ids.iter().take(t).enumerate() {
            let id = (id as usize).min(vocab - 1);
            let row = &mut x[i * h..(i + 1) * h];
            let (w, p, ty) = (
                &self.word[id * h..(id + 1) * h],
                &self.position[i * h..(i + 1) * h],
                &self.token_type[..h],
            );
            for k in 0..h {
                row[k] = w[k] + p[k] + ty[k];
            }
        }
        layer_norm(&mut x, h, &self.emb_g, &self.emb_b, self.eps);

        let heads = self.heads;
        let hd = h / heads;
        let mut qkv = vec![0f32; t * 3 * h];
        let mut ctx = vec![0f32; t * h];
        let mut attn_out = vec![0f32; t * h];
        let mut up = vec![0f32; t * self.inter];
        let mut down = vec![0f32; t * h];
        for l in &self.layers {
            self.dense(&x, t, h, &l.qkv_w, &l.qkv_b, &mut qkv, par, false);
            if par {
                let split = heads / 2;
                let (w0, w1) = (split * hd, (heads - split) * hd);
                let mut a0 = vec![0f32; t * w0];
                let mut a1 = vec![0f32; t * w1];
                self.join2(
                    || self.attend(&qkv, t, 0..split, &mut a0),
                    || self.attend(&qkv, t, split..heads, &mut a1),
                );
                for i in 0..t {
                    ctx[i * h..i * h + w0].copy_from_slice(&a0[i * w0..(i + 1) * w0]);
                    ctx[i * h + w0..(i + 1) * h].copy_from_slice(&a1[i * w1..(i + 1) * w1]);
                }
            } else {
                self.attend(&qkv, t, 0..heads, &mut ctx);
            }
            self.dense(&ctx, t, h, &l.out_w, &l.out_b, &mut attn_out, par, false);
            for (a, r) in attn_out.iter_mut().zip(&x) {
                *a += r;
            }
            layer_norm(&mut attn_out, h, &l.ln1_g, &l.ln1_b, self.eps);
            self.dense(&attn_out, t, h, &l.up_w, &l.up_b, &mut up, par, true);
            self.dense(
                &up, t, self.inter, &l.down_w, &l.down_b, &mut down, par, false,
            );
            for (d, r) in down.iter_mut().zip(&attn_out) {
                *d += r;
            }
            layer_norm(&mut down, h, &l.ln2_g, &l.ln2_b, self.eps);
            std::mem::swap(&mut x, &mut down);
        }
        let mut pooled = vec![0f32; h];
        for row in x.chunks_exact(h) {
            for (p, v) in pooled.iter_mut().zip(row) {
                *p += v;
            }
        }
        pooled.iter_mut().for_each(|p| *p /= t as f32);
        pooled
    }
}
