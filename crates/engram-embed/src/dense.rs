//! A dense layer's weights, kept in the two layouts its products read.
//!
//! Batches of many tokens go through [`crate::kernels::matmul`] (the
//! `gemm` crate) over the transposed weights. A query of a few tokens is
//! different: its cost is reading the weights once from memory (about
//! 42 MB for all-MiniLM-L6-v2, more than the L3 cache holds), and `gemm`
//! reads them a cache line per row, a row apart, which the prefetchers do
//! not follow: on a 2-core AMD EPYC (Zen 3) a 11-token query took 20 ms on
//! one core at about 2 GB/s. Here the weights are also stored in panels of
//! [`PANEL`] output features, each panel's `inp x PANEL` values contiguous,
//! so a few tokens stream them front to back at the memory's speed, and a
//! small kernel keeps `PANEL x 6` sums in registers.
//!
//! With [`Precision::F32`] the panels double the weights' memory (42 MB
//! more for all-MiniLM) and the results equal the definition within float
//! rounding (same products, summed in `inp` order). With the default
//! [`Precision::Mixed`] the panels hold the weights rounded to half
//! precision (21 MB more), widened back to f32 as they are read (F16C):
//! half the bytes per query, and the panels of a whole model fit in the L3
//! cache. Measured on the 2-core Zen 3 (`engram bench throughput`, three
//! interleaved runs): a 9-word query 5.1-5.4 ms in f32 against 2.3-3.7 ms;
//! embeddings move by at most 1e-4 per component, cosine to the f32
//! embedding above 0.9999; LoCoMo recall@10 moved by +0.0 (documents),
//! +0.2 (memories) and +0.2 (hybrid) points.
//!
//! Batches of more than [`SMALL_ROWS`] tokens run in f32 through `gemm`,
//! except that with [`Precision::Mixed`] on a CPU with AVX-512 BF16 they
//! run as bfloat16 products summed in f32 ([`crate::bf16`]; attention
//! then too, [`crate::attention_bf16`]): on the 2-core Zen 4 EPYC,
//! 283-291 chunks/s at batch 32 against 165-171 in f32, embeddings within
//! 1.4e-3 per component of sentence-transformers' (cosine 0.99996),
//! LoCoMo recall@10 +0.0 (documents), -0.1 (memories), +0.0 (hybrid)
//! points.

use crate::bf16::Packed;
use crate::kernels::{matmul, transpose, Shared};

/// Output features per panel: two 8-lane vectors.
pub const PANEL: usize = 16;
/// Tokens whose sums one kernel call keeps in registers (2 x 6 of the 16
/// vector registers of AVX2).
const TOKENS: usize = 6;
/// Up to this many tokens a product streams the panels; more go through
/// `gemm`, which then has enough tokens per weight read to be bound by
/// arithmetic. Measured on Zen 3 (six layers' products, weights not in
/// cache): 24 tokens 5 ms through panels against 16 ms through `gemm`, 48
/// tokens 9 against 18, about equal from 105 tokens on.
pub const SMALL_ROWS: usize = 96;

/// A dense layer's weight matrix (without its bias).
pub struct Dense {
    inp: usize,
    out: usize,
    /// `inp` rows of `out`: the layout `gemm` reads (empty when `bf16`
    /// takes the batches).
    wt: Vec<f32>,
    /// The weights in bfloat16 for batches, where the CPU has AVX-512 BF16
    /// and the precision allows it.
    bf16: Option<Packed>,
    /// Panel `p` holds features `p*PANEL..` for every input, `inp` rows of
    /// `PANEL` (the last one padded with zeros).
    panels: Panels,
}

/// Which weights the few-token path reads (see the module's notes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Half-precision weights for inputs of up to [`SMALL_ROWS`] tokens
    /// (queries, facts); bfloat16 products for longer ones where the CPU
    /// has AVX-512 BF16, else f32.
    #[default]
    Mixed,
    /// f32 throughout: equal to sentence-transformers within 1e-4.
    F32,
}

impl std::str::FromStr for Precision {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "mixed" => Ok(Self::Mixed),
            "f32" => Ok(Self::F32),
            other => Err(format!("unknown precision `{other}` (mixed or f32)")),
        }
    }
}

/// The panels' values: as read (f32), or rounded to half precision (f16
/// bits).
enum Panels {
    F32(Vec<f32>),
    F16(Vec<u16>),
}

impl Dense {
    /// From a weight in PyTorch's layout: `out` rows of `inp`.
    pub fn new(w: &[f32], out: usize, inp: usize, precision: Precision) -> Self {
        assert_eq!(w.len(), out * inp, "dense weight shape");
        let n_panels = out.div_ceil(PANEL);
        let mut panels = vec![0f32; n_panels * inp * PANEL];
        for o in 0..out {
            let (p, lane) = (o / PANEL, o % PANEL);
            let base = p * inp * PANEL;
            for i in 0..inp {
                panels[base + i * PANEL + lane] = w[o * inp + i];
            }
        }
        let panels = match precision {
            Precision::Mixed => Panels::F16(
                panels
                    .iter()
                    .map(|v| half::f16::from_f32(*v).to_bits())
                    .collect(),
            ),
            Precision::F32 => Panels::F32(panels),
        };
        let bf16 = (precision == Precision::Mixed && crate::bf16::supported())
            .then(|| Packed::new(w, out, inp));
        Self {
            inp,
            out,
            wt: if bf16.is_some() {
                Vec::new()
            } else {
                transpose(w, out, inp)
            },
            bf16,
            panels,
        }
    }

    pub fn inputs(&self) -> usize {
        self.inp
    }

    pub fn outputs(&self) -> usize {
        self.out
    }

    /// `y[t][o] = sum_i x[t][i] * w[o][i]` for `t < rows` (no bias).
    pub fn apply(&self, x: &[f32], rows: usize, y: &mut [f32]) {
        assert_eq!(x.len(), rows * self.inp, "dense input shape");
        assert_eq!(y.len(), rows * self.out, "dense output shape");
        if rows == 0 {
            return;
        }
        if rows > SMALL_ROWS {
            if let Some(packed) = &self.bf16 {
                return packed.apply(x, rows, y);
            }
            return matmul(x, rows, self.inp, &self.wt, self.out, y);
        }
        self.apply_panels(x, rows, y)
    }

    /// [`Self::apply`] through the panels, whatever the number of rows.
    fn apply_panels(&self, x: &[f32], rows: usize, y: &mut [f32]) {
        let n_panels = self.out.div_ceil(PANEL);
        let at = Shared(y.as_mut_ptr());
        let run = |from: usize, to: usize| {
            for p in from..to {
                // SAFETY: each call writes only features of panel `p` of
                // every row, inside `y`; concurrent ranges of panels are
                // disjoint.
                unsafe { self.panel(p, x, rows, at) };
            }
        };
        if n_panels >= 4 && rayon::current_num_threads() > 1 {
            let half = n_panels / 2;
            rayon::join(|| run(0, half), || run(half, n_panels));
        } else {
            run(0, n_panels);
        }
    }

    /// Panel `p` of the product for every row, written through `y`.
    ///
    /// # Safety
    /// `y` must point at a buffer of `rows * self.out` values that nothing
    /// else writes these features of while this runs.
    unsafe fn panel(&self, p: usize, x: &[f32], rows: usize, y: Shared) {
        let span = p * self.inp * PANEL..(p + 1) * self.inp * PANEL;
        let f0 = p * PANEL;
        let width = PANEL.min(self.out - f0);
        let mut t0 = 0;
        while t0 < rows {
            let n = TOKENS.min(rows - t0);
            let mut sums = [[0f32; PANEL]; TOKENS];
            let xs = &x[t0 * self.inp..(t0 + n) * self.inp];
            match &self.panels {
                Panels::F32(w) => sums_for(&w[span.clone()], self.inp, xs, n, &mut sums),
                Panels::F16(w) => sums_for(&w[span.clone()], self.inp, xs, n, &mut sums),
            }
            for (j, s) in sums.iter().take(n).enumerate() {
                // SAFETY: row `t0 + j` < rows, features f0..f0+width < out.
                let dst = std::slice::from_raw_parts_mut(y.at((t0 + j) * self.out + f0), width);
                dst.copy_from_slice(&s[..width]);
            }
            t0 += n;
        }
    }
}

/// `sums[j][l] = sum_i x[j][i] * w[i][l]` for `j < n` tokens (`x` holds
/// `n` rows of `inp`, `w` one panel: `inp` rows of [`PANEL`]).
fn sums_for<W: Weight>(
    w: &[W],
    inp: usize,
    x: &[f32],
    n: usize,
    sums: &mut [[f32; PANEL]; TOKENS],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
        {
            // SAFETY: the features are present; the shapes are as documented.
            unsafe {
                match n {
                    1 => avx2::sums::<W, 1>(w, inp, x, sums),
                    2 => avx2::sums::<W, 2>(w, inp, x, sums),
                    3 => avx2::sums::<W, 3>(w, inp, x, sums),
                    4 => avx2::sums::<W, 4>(w, inp, x, sums),
                    5 => avx2::sums::<W, 5>(w, inp, x, sums),
                    _ => avx2::sums::<W, 6>(w, inp, x, sums),
                }
            }
            return;
        }
    }
    for j in 0..n {
        let row = &x[j * inp..(j + 1) * inp];
        let s = &mut sums[j];
        for (i, &xi) in row.iter().enumerate() {
            let wi = &w[i * PANEL..(i + 1) * PANEL];
            for l in 0..PANEL {
                s[l] = xi.mul_add(wi[l].value(), s[l]);
            }
        }
    }
}

/// A stored weight: f32, or f16 bits.
trait Weight: Copy {
    fn value(self) -> f32;
    /// Eight consecutive weights as one vector.
    ///
    /// # Safety
    /// `p..p+8` must be readable; AVX2 and F16C must be present.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m256;
}

impl Weight for f32 {
    fn value(self) -> f32 {
        self
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m256 {
        std::arch::x86_64::_mm256_loadu_ps(p)
    }
}

impl Weight for u16 {
    fn value(self) -> f32 {
        half::f16::from_bits(self).to_f32()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m256 {
        use std::arch::x86_64::*;
        _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Weight, PANEL, TOKENS};
    use std::arch::x86_64::*;

    /// How far ahead of the sums the panel is fetched, in values.
    const PREFETCH: usize = 2048;

    /// [`super::sums_for`] for `N` tokens: `2 x N` vectors of sums in
    /// registers, one pass over the panel.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn sums<W: Weight, const N: usize>(
        w: &[W],
        inp: usize,
        x: &[f32],
        out: &mut [[f32; PANEL]; TOKENS],
    ) {
        debug_assert!(w.len() >= inp * PANEL && x.len() >= N * inp);
        let mut lo = [_mm256_setzero_ps(); N];
        let mut hi = [_mm256_setzero_ps(); N];
        let wp = w.as_ptr();
        let xp = x.as_ptr();
        for i in 0..inp {
            _mm_prefetch::<_MM_HINT_T0>(wp.add(i * PANEL + PREFETCH) as *const i8);
            let w0 = W::load8(wp.add(i * PANEL));
            let w1 = W::load8(wp.add(i * PANEL + 8));
            for j in 0..N {
                let b = _mm256_broadcast_ss(&*xp.add(j * inp + i));
                lo[j] = _mm256_fmadd_ps(w0, b, lo[j]);
                hi[j] = _mm256_fmadd_ps(w1, b, hi[j]);
            }
        }
        for j in 0..N {
            _mm256_storeu_ps(out[j].as_mut_ptr(), lo[j]);
            _mm256_storeu_ps(out[j].as_mut_ptr().add(8), hi[j]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_match_the_definition_for_queries_and_batches() {
        for (rows, inp, out) in [
            (1, 8, 1),
            (3, 16, 5),
            (7, 33, 17),
            (11, 384, 1152),
            (13, 40, 64),
            (48, 64, 90),
            (49, 64, 90),
            (130, 64, 90),
        ] {
            let x: Vec<f32> = (0..rows * inp)
                .map(|i| ((i * 7) % 13) as f32 * 0.1 - 0.5)
                .collect();
            let w: Vec<f32> = (0..out * inp)
                .map(|i| ((i * 5) % 11) as f32 * 0.07 - 0.3)
                .collect();
            for precision in [Precision::F32, Precision::Mixed] {
                let d = Dense::new(&w, out, inp, precision);
                let mut y = vec![f32::NAN; rows * out];
                d.apply(&x, rows, &mut y);
                // in f32 exact to rounding; half-precision weights (only
                // up to SMALL_ROWS rows) within their rounding: 2^-11 of
                // each product; bfloat16 operands (more rows, where the CPU
                // has them) within 2^-8 of each product
                let half = precision == Precision::Mixed && rows <= SMALL_ROWS;
                let bf16 = precision == Precision::Mixed && !half && crate::bf16::supported();
                for t in 0..rows {
                    for o in 0..out {
                        let terms = (0..inp).map(|i| x[t * inp + i] as f64 * w[o * inp + i] as f64);
                        let want: f64 = terms.clone().sum();
                        let scale: f64 = terms.map(f64::abs).sum();
                        let tolerance = match (half, bf16) {
                            (true, _) => scale / 2048.0 + 1e-6,
                            (_, true) => scale / 256.0 + 1e-6,
                            _ => 1e-4,
                        };
                        let got = y[t * out + o] as f64;
                        assert!(
                            (got - want).abs() < tolerance,
                            "{precision:?} {rows}x{inp}x{out} [{t},{o}]: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
