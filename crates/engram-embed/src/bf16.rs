//! Dense products of many tokens in bfloat16, on CPUs with AVX-512 BF16.
//!
//! `vdpbf16ps` multiplies pairs of bfloat16 values and adds both products
//! to an f32 sum: on the 2-core AMD EPYC (Zen 4) it runs twice per cycle
//! on 512-bit registers, 64 multiply-adds a cycle against 16 (one 512-bit
//! FMA) for f32, measured at 7.6e9 against 3.5e9 instructions a second on
//! one core. A batch's dense layers (nearly all of an encoder's
//! arithmetic) then run at several times the speed of the f32 path.
//!
//! Weights are rounded to bfloat16 once at load and packed for the kernel:
//! blocks of 16 output features, and in each block, for each pair of
//! inputs `(2p, 2p+1)`, the 16 features' two weights side by side (64
//! bytes, one register). Activations are rounded to bfloat16 per product
//! (round to nearest even), so a row's pair of inputs is one 32-bit word,
//! broadcast to every lane. Sums stay in f32. The kernel runs at about 90 %
//! of the instruction's measured peak (448 of 488 GFLOP/s a core); int8
//! with VNNI (`vpdpbusd`) measured only 16 % more a core here, not worth
//! its scales and zero points. Rounding both operands to 8 significant
//! bits moves an all-MiniLM embedding by at most 7.4e-4 per component
//! (cosine 0.99999); what that does to retrieval is measured in
//! `docs/providers.md`.
//!
//! This module knows nothing of the model: [`crate::dense::Dense`] decides
//! when to use it.

use crate::kernels::Shared;
use rayon::prelude::*;

/// Output features per block: one 512-bit register of f32 sums.
const LANES: usize = 16;
/// Blocks one kernel call computes side by side.
const BLOCKS: usize = 3;
/// Rows (tokens) one kernel call computes: 8 x 3 sums of the 32 vector
/// registers, 3 for weights, one for the broadcast row.
const ROWS: usize = 8;
/// Rows per parallel task; a task runs every block over its rows, so its
/// activations (at most 1 536 inputs: 192 KB) stay in the core's L2.
const TASK_ROWS: usize = 64;

/// Whether this CPU runs the kernel.
pub fn supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `x` rounded to bfloat16, to nearest even (as `vcvtneps2bf16` rounds).
pub fn round(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

/// The value of a bfloat16.
pub fn widen(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// A weight matrix rounded to bfloat16 and packed for the kernel.
pub struct Packed {
    inp: usize,
    out: usize,
    /// `inp.div_ceil(2)`.
    pairs: usize,
    /// Block `b`, pair `p`, lane `j`: at `(b * pairs + p) * LANES + j`,
    /// the weights of feature `b * LANES + j` for inputs `2p` (low half)
    /// and `2p + 1` (high half); zero past `inp` or `out`.
    words: Vec<u32>,
}

impl Packed {
    /// From a weight in PyTorch's layout: `out` rows of `inp`.
    pub fn new(w: &[f32], out: usize, inp: usize) -> Self {
        assert_eq!(w.len(), out * inp, "packed weight shape");
        let pairs = inp.div_ceil(2);
        // whole groups of BLOCKS, so the kernel never reads past the end
        let blocks = out.div_ceil(LANES * BLOCKS) * BLOCKS;
        let mut words = vec![0u32; blocks * pairs * LANES];
        for o in 0..out {
            let (b, j) = (o / LANES, o % LANES);
            let row = &w[o * inp..(o + 1) * inp];
            for p in 0..pairs {
                let lo = round(row[2 * p]) as u32;
                let hi = row.get(2 * p + 1).map_or(0, |v| round(*v) as u32);
                words[(b * pairs + p) * LANES + j] = lo | (hi << 16);
            }
        }
        Self {
            inp,
            out,
            pairs,
            words,
        }
    }

    /// `y[t][o] = sum_i x[t][i] * w[o][i]` for `t < rows`, in bfloat16
    /// products summed in f32. Only where [`supported`].
    pub fn apply(&self, x: &[f32], rows: usize, y: &mut [f32]) {
        assert!(supported(), "bfloat16 products need AVX-512 BF16");
        assert_eq!(x.len(), rows * self.inp, "bf16 input shape");
        assert_eq!(y.len(), rows * self.out, "bf16 output shape");
        ROUNDED.with_borrow_mut(|xb| {
            xb.resize(rows * self.pairs, 0);
            xb.par_chunks_mut(TASK_ROWS * self.pairs)
                .zip(x.par_chunks(TASK_ROWS * self.inp))
                .for_each(|(dst, src)| round_rows(src, self.inp, dst, self.pairs));
            let at = Shared(y.as_mut_ptr());
            let xb = &xb[..];
            (0..rows.div_ceil(TASK_ROWS))
                .into_par_iter()
                .for_each(|task| {
                    let (r0, r1) = (task * TASK_ROWS, ((task + 1) * TASK_ROWS).min(rows));
                    // SAFETY: this task alone writes rows r0..r1 of `y`.
                    unsafe { self.rows(xb, r0, r1, at) };
                });
        });
    }

    /// Every feature of rows `r0..r1`.
    ///
    /// # Safety
    /// `y` points at `rows * out` values whose rows `r0..r1` nothing else
    /// touches meanwhile; `xb` holds the rounded rows.
    unsafe fn rows(&self, xb: &[u32], r0: usize, r1: usize, y: Shared) {
        let groups = self.out.div_ceil(LANES * BLOCKS);
        for g in 0..groups {
            let o0 = g * LANES * BLOCKS;
            let width = (self.out - o0).min(LANES * BLOCKS);
            let w = self.words[g * BLOCKS * self.pairs * LANES..].as_ptr();
            let mut t = r0;
            while t < r1 {
                let n = ROWS.min(r1 - t);
                let tile = Tile {
                    x: xb[t * self.pairs..].as_ptr(),
                    pairs: self.pairs,
                    w,
                    y: y.at(t * self.out + o0),
                    y_stride: self.out,
                    width,
                };
                // SAFETY: `n` rows from row t, inside r0..r1; features
                // o0..o0 + width inside `out`; the packed weights hold
                // whole groups.
                unsafe {
                    match n {
                        8 => avx512::tile::<8>(&tile),
                        7 => avx512::tile::<7>(&tile),
                        6 => avx512::tile::<6>(&tile),
                        5 => avx512::tile::<5>(&tile),
                        4 => avx512::tile::<4>(&tile),
                        3 => avx512::tile::<3>(&tile),
                        2 => avx512::tile::<2>(&tile),
                        _ => avx512::tile::<1>(&tile),
                    }
                }
                t += n;
            }
        }
    }
}

thread_local! {
    /// The activations rounded to bfloat16, reused from product to product.
    static ROUNDED: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Rows of `inp` f32 rounded into rows of `pairs` words (zero-padded).
fn round_rows(src: &[f32], inp: usize, dst: &mut [u32], pairs: usize) {
    for (s, d) in src.chunks_exact(inp).zip(dst.chunks_exact_mut(pairs)) {
        #[cfg(target_arch = "x86_64")]
        if inp.is_multiple_of(2 * LANES) {
            // SAFETY: `supported()` was checked by the caller; the row
            // holds whole 32-value chunks.
            unsafe { avx512::round_row(s, d) };
            continue;
        }
        for (p, word) in d.iter_mut().enumerate() {
            let lo = round(s[2 * p]) as u32;
            let hi = s.get(2 * p + 1).map_or(0, |v| round(*v) as u32);
            *word = lo | (hi << 16);
        }
    }
}

/// One kernel call's operands.
struct Tile {
    /// The first row's rounded pairs; row `r` at `r * pairs`.
    x: *const u32,
    pairs: usize,
    /// The group's first block; block `k` at `k * pairs * LANES`.
    w: *const u32,
    /// The first row's first feature; row `r` at `r * y_stride`.
    y: *mut f32,
    y_stride: usize,
    /// Features to write (up to `LANES * BLOCKS`).
    width: usize,
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Tile, BLOCKS, LANES};
    use std::arch::x86_64::*;

    /// `N` rows by `BLOCKS * LANES` features: every sum in a register for
    /// the whole input, then stored (masked past `width`).
    ///
    /// # Safety
    /// AVX-512 F and BF16 are present, and the tile's pointers cover `N`
    /// rows of `pairs` words, `BLOCKS` blocks of weights, and `N` rows of
    /// `width` outputs.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub unsafe fn tile<const N: usize>(t: &Tile) {
        let mut acc = [[_mm512_setzero_ps(); BLOCKS]; N];
        let block = t.pairs * LANES;
        for p in 0..t.pairs {
            let mut w = [_mm512_setzero_ps(); BLOCKS];
            for (k, wk) in w.iter_mut().enumerate() {
                // SAFETY: inside block k of the group, as the caller vouches.
                *wk = unsafe { _mm512_loadu_ps(t.w.add(k * block + p * LANES) as *const f32) };
            }
            for (r, row) in acc.iter_mut().enumerate() {
                // SAFETY: row r's pair p.
                let a = unsafe { _mm512_set1_epi32(*t.x.add(r * t.pairs + p) as i32) };
                let a: __m512bh = std::mem::transmute(a);
                for (sum, wk) in row.iter_mut().zip(&w) {
                    *sum = _mm512_dpbf16_ps(*sum, a, std::mem::transmute::<__m512, __m512bh>(*wk));
                }
            }
        }
        for (r, row) in acc.iter().enumerate() {
            for (k, sum) in row.iter().enumerate() {
                let lanes = t.width.saturating_sub(k * LANES).min(LANES);
                if lanes == 0 {
                    break;
                }
                // SAFETY: row r, features k*LANES..+lanes, inside the tile.
                unsafe {
                    let dst = t.y.add(r * t.y_stride + k * LANES);
                    if lanes == LANES {
                        _mm512_storeu_ps(dst, *sum);
                    } else {
                        _mm512_mask_storeu_ps(dst, ((1u32 << lanes) - 1) as u16, *sum);
                    }
                }
            }
        }
    }

    /// One row rounded to bfloat16 pairs, 32 values at a time.
    ///
    /// # Safety
    /// AVX-512 F and BF16 are present; `s.len()` is a multiple of 32 and
    /// `d` holds `s.len() / 2` words.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub unsafe fn round_row(s: &[f32], d: &mut [u32]) {
        for (src, dst) in s.chunks_exact(2 * LANES).zip(d.chunks_exact_mut(LANES)) {
            // SAFETY: 32 values in, 16 words out.
            unsafe {
                let lo = _mm512_loadu_ps(src.as_ptr());
                let hi = _mm512_loadu_ps(src.as_ptr().add(LANES));
                // the second operand fills the low half
                let b = _mm512_cvtne2ps_pbh(hi, lo);
                _mm512_storeu_si512(
                    dst.as_mut_ptr() as *mut _,
                    std::mem::transmute::<__m512bh, __m512i>(b),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition in f64 over the rounded operands.
    fn reference(x: &[f32], rows: usize, w: &[f32], out: usize, inp: usize) -> Vec<f32> {
        let mut y = vec![0f32; rows * out];
        for t in 0..rows {
            for o in 0..out {
                let s: f64 = (0..inp)
                    .map(|i| {
                        widen(round(x[t * inp + i])) as f64 * widen(round(w[o * inp + i])) as f64
                    })
                    .sum();
                y[t * out + o] = s as f32;
            }
        }
        y
    }

    #[test]
    fn rounding_is_to_nearest_even() {
        assert_eq!(widen(round(1.0)), 1.0);
        assert_eq!(widen(round(-2.5)), -2.5);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to even (1)
        assert_eq!(widen(round(1.0 + 1.0 / 256.0)), 1.0);
        assert_eq!(widen(round(1.0 + 3.0 / 256.0)), 1.0 + 4.0 / 256.0);
        assert!(widen(round(f32::NAN)).is_nan());
    }

    #[test]
    fn products_match_the_definition_for_ragged_shapes() {
        if !supported() {
            eprintln!("no AVX-512 BF16 here: the kernel is not run");
            return;
        }
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        // even and odd inputs, a multiple of 32 (the vector rounding),
        // outputs not a multiple of 48, rows across tasks and tiles
        for (rows, inp, out) in [(1, 3, 5), (9, 64, 50), (130, 33, 17), (70, 96, 144)] {
            let x: Vec<f32> = (0..rows * inp).map(|_| next()).collect();
            let w: Vec<f32> = (0..out * inp).map(|_| next()).collect();
            let mut y = vec![f32::NAN; rows * out];
            Packed::new(&w, out, inp).apply(&x, rows, &mut y);
            let want = reference(&x, rows, &w, out, inp);
            for (i, (a, b)) in y.iter().zip(&want).enumerate() {
                assert!(
                    (a - b).abs() < 1e-4,
                    "{rows}x{inp}x{out} at {i}: {a} vs {b}"
                );
            }
        }
    }
}
