//! Self-attention of one head in bfloat16 products, on CPUs with AVX-512
//! BF16: the same steps as [`crate::attention`]'s AVX-512 kernel, with
//! both products (`Q K^T`, then `P V`) as `vdpbf16ps` over pairs of
//! values, two multiply-adds a lane per instruction at twice the rate of
//! an f32 FMA on Zen 4. Scores, the softmax and the sums stay in f32; the
//! operands are rounded to bfloat16 (to nearest even) as they are packed.
//! The softmax's exponentials are packed as they are computed and its
//! division is applied to the context rows, so a row of scores is read
//! twice rather than four times (the softmax was then most of the time).
//!
//! Packing, per head: keys as words of two dimensions `(2p, 2p+1)` of one
//! key, 16 keys side by side per pair `p`; values as words of two keys
//! `(2j, 2j+1)` of one dimension, the dimensions side by side; each row of
//! probabilities as words of two keys, which is its own f32 layout
//! rounded 32 values at a time.
//!
//! Only [`crate::cpu_bert`] at the default precision calls it (where the
//! CPU has the instructions); `--embed-precision f32` keeps the f32
//! kernel.

use crate::attention::{Head, Shared};

/// Scratch space kept by a worker across heads.
#[derive(Default)]
pub struct Scratch {
    scores: Vec<f32>,
    keys: Vec<u32>,
    values: Vec<u32>,
    probs: Vec<u32>,
}

/// Whether [`attend`] takes a head of this dimension on this CPU.
pub fn suits(dim: usize) -> bool {
    dim.is_multiple_of(16) && dim <= 64 && crate::bf16::supported()
}

/// Write the head's context rows to `out` (row `i` at `out + i * stride`,
/// `dim` values each).
///
/// # Safety
/// [`suits`] holds for the head's dimension; `out` must be valid for
/// writes of `t` rows of `dim` values spaced by `stride`, and no other
/// thread may access them meanwhile.
pub unsafe fn attend(h: &Head, out: Shared, stride: usize, scratch: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as the caller vouches.
    unsafe {
        match h.dim / 16 {
            1 => avx512::kernel::<1>(h, out, stride, scratch),
            2 => avx512::kernel::<2>(h, out, stride, scratch),
            3 => avx512::kernel::<3>(h, out, stride, scratch),
            _ => avx512::kernel::<4>(h, out, stride, scratch),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (h, out, stride, scratch);
        unreachable!("no AVX-512 BF16 off x86-64");
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Head, Scratch, Shared};
    use crate::attention::exp16;
    use std::arch::x86_64::*;

    /// Query rows handled together.
    const R: usize = 4;

    /// 32 f32 values (`lo` then `hi`) rounded to 16 words of two
    /// bfloat16 each, in order.
    #[target_feature(enable = "avx512f,avx512bf16")]
    fn pack32(lo: __m512, hi: __m512) -> __m512i {
        // the second operand fills the low half
        // SAFETY: a bit-for-bit reinterpretation of one register.
        unsafe { std::mem::transmute::<__m512bh, __m512i>(_mm512_cvtne2ps_pbh(hi, lo)) }
    }

    /// `B * 16` dimensions. See the module's notes.
    ///
    /// # Safety
    /// AVX-512 F, BW and BF16 are present; `out` as [`super::attend`] says.
    #[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
    pub unsafe fn kernel<const B: usize>(h: &Head, out: Shared, stride: usize, s: &mut Scratch) {
        let (t, dim) = (h.t, B * 16);
        let half = dim / 2;
        let tp = t.next_multiple_of(32);
        let pairs = t.div_ceil(2);
        let scale = 1.0 / (dim as f32).sqrt();
        // keys: word (p, j) at p * tp + j, zero past t
        s.keys.clear();
        s.keys.resize(half * tp, 0);
        // values: word (j2, d) at j2 * dim + d, the odd key zero past t
        s.values.clear();
        s.values.resize(pairs * dim, 0);
        let zero = [0f32; 64];
        // even lanes from the first operand's low half, odd from the second
        let interleave = _mm512_set_epi16(
            31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6, 21, 5, 20,
            4, 19, 3, 18, 2, 17, 1, 16, 0,
        );
        let mut words = [0u32; 32];
        for j in 0..t {
            let r = &h.qkv[j * h.row..];
            let key = &r[h.k..h.k + dim];
            for c in 0..B.div_ceil(2) {
                // SAFETY: 32 values from c * 32, padded with zeros past dim.
                unsafe {
                    let lo = _mm512_loadu_ps(key.as_ptr().add(c * 32));
                    let hi = if c * 32 + 16 < dim {
                        _mm512_loadu_ps(key.as_ptr().add(c * 32 + 16))
                    } else {
                        _mm512_setzero_ps()
                    };
                    _mm512_storeu_si512(words.as_mut_ptr() as *mut _, pack32(lo, hi));
                }
                for (w, p) in words.iter().zip(c * 16..(c * 16 + 16).min(half)) {
                    s.keys[p * tp + j] = *w;
                }
            }
        }
        for j2 in 0..pairs {
            let even = &h.qkv[2 * j2 * h.row + h.v..][..dim];
            let odd: &[f32] = if 2 * j2 + 1 < t {
                &h.qkv[(2 * j2 + 1) * h.row + h.v..][..dim]
            } else {
                &zero[..dim]
            };
            for b in 0..B {
                // SAFETY: 16 values of each row from b * 16 < dim; 16 words
                // out at j2 * dim + b * 16, inside `values`.
                unsafe {
                    let e = _mm512_loadu_ps(even.as_ptr().add(b * 16));
                    let o = _mm512_loadu_ps(odd.as_ptr().add(b * 16));
                    let w = _mm512_permutexvar_epi16(interleave, pack32(e, o));
                    _mm512_storeu_si512(s.values.as_mut_ptr().add(j2 * dim + b * 16) as *mut _, w);
                }
            }
        }
        s.scores.clear();
        s.scores.resize(R * tp, 0.0);
        s.probs.clear();
        s.probs.resize(R * tp / 2, 0);
        let kp = s.keys.as_ptr();
        let vp = s.values.as_ptr();
        let mut i = 0;
        while i < t {
            let n = (t - i).min(R);
            // scaled query words of rows i..i+n (the last row repeated)
            let mut q = [[0u32; 32]; R];
            for (r, qr) in q.iter_mut().enumerate() {
                let src = &h.qkv[(i + r.min(n - 1)) * h.row + h.q..][..dim];
                let mut scaled = [0f32; 64];
                for (a, b) in scaled.iter_mut().zip(src) {
                    *a = b * scale;
                }
                for c in 0..B.div_ceil(2) {
                    // SAFETY: 32 values inside `scaled`, 16 words inside `qr`.
                    unsafe {
                        let lo = _mm512_loadu_ps(scaled.as_ptr().add(c * 32));
                        let hi = _mm512_loadu_ps(scaled.as_ptr().add(c * 32 + 16));
                        _mm512_storeu_si512(qr.as_mut_ptr().add(c * 16) as *mut _, pack32(lo, hi));
                    }
                }
            }
            let sp = s.scores.as_mut_ptr();
            // two blocks of 16 keys a step (tp is a multiple of 32): each
            // query word broadcast serves both
            let mut jb = 0;
            while jb < tp {
                let mut acc = [[_mm512_setzero_ps(); 2]; R];
                // p indexes both the keys (by pair) and the queries
                #[allow(clippy::needless_range_loop)]
                for p in 0..half {
                    // SAFETY: p < dim / 2 and jb + 32 <= tp: inside keys.
                    let (k0, k1) = unsafe {
                        (
                            _mm512_loadu_si512(kp.add(p * tp + jb) as *const _),
                            _mm512_loadu_si512(kp.add(p * tp + jb + 16) as *const _),
                        )
                    };
                    let k0 = std::mem::transmute::<__m512i, __m512bh>(k0);
                    let k1 = std::mem::transmute::<__m512i, __m512bh>(k1);
                    for (r, a) in acc.iter_mut().enumerate() {
                        let qw = _mm512_set1_epi32(q[r][p] as i32);
                        let qw = std::mem::transmute::<__m512i, __m512bh>(qw);
                        a[0] = _mm512_dpbf16_ps(a[0], qw, k0);
                        a[1] = _mm512_dpbf16_ps(a[1], qw, k1);
                    }
                }
                for (r, a) in acc.iter().enumerate() {
                    // SAFETY: row r < R of tp scores, jb + 32 <= tp.
                    unsafe {
                        _mm512_storeu_ps(sp.add(r * tp + jb), a[0]);
                        _mm512_storeu_ps(sp.add(r * tp + jb + 16), a[1]);
                    }
                }
                jb += 32;
            }
            // whole rows of tp, padded keys at -inf (they come out as
            // ~1e-38 and meet zero values): e^(x - max) rounded to words as
            // it is computed; the division by the row's sum waits for the
            // context row (one multiply per value instead of per key)
            let mut inv = [0f32; R];
            for (r, inv) in inv.iter_mut().enumerate().take(n) {
                let row = &mut s.scores[r * tp..(r + 1) * tp];
                row[t..].fill(f32::NEG_INFINITY);
                let p = row.as_ptr();
                let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
                for c in 0..tp / 16 {
                    // SAFETY: c * 16 + 16 <= tp.
                    m = _mm512_max_ps(m, unsafe { _mm512_loadu_ps(p.add(c * 16)) });
                }
                let m = _mm512_set1_ps(_mm512_reduce_max_ps(m));
                let mut sum = _mm512_setzero_ps();
                for c in 0..tp / 32 {
                    // SAFETY: 32 scores from c * 32 < tp; 16 words out,
                    // inside row r's tp / 2.
                    unsafe {
                        let lo = exp16(_mm512_sub_ps(_mm512_loadu_ps(p.add(c * 32)), m));
                        let hi = exp16(_mm512_sub_ps(_mm512_loadu_ps(p.add(c * 32 + 16)), m));
                        sum = _mm512_add_ps(sum, _mm512_add_ps(lo, hi));
                        _mm512_storeu_si512(
                            s.probs.as_mut_ptr().add(r * tp / 2 + c * 16) as *mut _,
                            pack32(lo, hi),
                        );
                    }
                }
                *inv = 1.0 / _mm512_reduce_add_ps(sum);
            }
            // context rows: over pairs of keys, p * value rows
            let mut acc = [[_mm512_setzero_ps(); B]; R];
            let pw = s.probs.as_ptr();
            for j2 in 0..pairs {
                let mut v = [_mm512_setzero_si512(); B];
                for (b, vb) in v.iter_mut().enumerate() {
                    // SAFETY: j2 < pairs and b * 16 + 16 <= dim: inside values.
                    *vb = unsafe { _mm512_loadu_si512(vp.add(j2 * dim + b * 16) as *const _) };
                }
                for (r, ar) in acc.iter_mut().enumerate() {
                    // SAFETY: r < R rows of tp / 2 words, j2 < tp / 2.
                    let p = _mm512_set1_epi32(unsafe { *pw.add(r * tp / 2 + j2) } as i32);
                    let p = std::mem::transmute::<__m512i, __m512bh>(p);
                    for (a, vb) in ar.iter_mut().zip(&v) {
                        *a = _mm512_dpbf16_ps(*a, p, std::mem::transmute::<__m512i, __m512bh>(*vb));
                    }
                }
            }
            for (r, ar) in acc.iter().enumerate().take(n) {
                let scale = _mm512_set1_ps(inv[r]);
                for (b, a) in ar.iter().enumerate() {
                    // SAFETY: the caller vouches for t rows of dim values.
                    unsafe {
                        _mm512_storeu_ps(
                            out.at((i + r) * stride + b * 16),
                            _mm512_mul_ps(*a, scale),
                        )
                    };
                }
            }
            i += R;
        }
    }
}

// Tested against the f32 kernels in `crate::attention`'s tests.
