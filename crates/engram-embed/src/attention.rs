//! Self-attention of one head over one sequence: `softmax(Q K^T / sqrt(d)) V`.
//!
//! A sentence has ~100 tokens and a head 32 dimensions, so each product is
//! tiny (100 x 100 x 32) and a general matrix library spends more time
//! setting up and repacking than computing: 44 µs per head of 107 tokens
//! with `gemm` against 24 µs here (single thread), and attention was 15% of
//! a forward pass. Most of the difference is the softmax, which here runs
//! on whole 16-lane rows with a vector `exp`. The AVX-512 kernel keeps four query rows
//! in registers against each loaded row of keys (or values); any other CPU
//! takes the portable path through `gemm`.

use crate::kernels::softmax;
pub use crate::kernels::Shared;
use crate::kernels::{sgemm, Parallelism};

/// One head's view of the fused Q|K|V rows of a sequence.
pub struct Head<'a> {
    /// The sequence's rows of Q|K|V, `t` rows of `row` values.
    pub qkv: &'a [f32],
    /// Values per row of `qkv` (three times the hidden size).
    pub row: usize,
    /// Tokens in the sequence.
    pub t: usize,
    /// Offsets of this head's query, key and value columns in a row.
    pub q: usize,
    pub k: usize,
    pub v: usize,
    /// The head's dimension.
    pub dim: usize,
}

/// Scratch space kept by a worker across heads.
#[derive(Default)]
pub struct Scratch {
    scores: Vec<f32>,
    keys_t: Vec<f32>,
    values: Vec<f32>,
}

/// Write the head's context rows to `out` (row `i` at `out + i * stride`,
/// `dim` values each).
///
/// # Safety
/// `out` must be valid for writes of `t` rows of `dim` values spaced by
/// `stride`, and no other thread may access them meanwhile.
pub unsafe fn attend(h: &Head, out: Shared, stride: usize, scratch: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    {
        if h.dim.is_multiple_of(16) && h.dim <= 64 && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F and `dim` suits the kernel; the
            // caller vouches for `out`.
            unsafe { avx512::attend(h, out, stride, scratch) };
            return;
        }
    }
    // SAFETY: as the caller vouches.
    unsafe { portable(h, out, stride, scratch) }
}

/// The same through [`sgemm`], reading Q, K and V in place by strides.
unsafe fn portable(h: &Head, out: Shared, stride: usize, scratch: &mut Scratch) {
    let t = h.t;
    let scale = 1.0 / (h.dim as f32).sqrt();
    scratch.scores.resize(t * t, 0.0);
    let row = h.row as isize;
    let base = h.qkv.as_ptr();
    // SAFETY: reads stay inside `qkv` (t rows, columns of one head); the
    // write is what the caller vouches for.
    unsafe {
        sgemm(
            t,
            t,
            h.dim,
            scratch.scores.as_mut_ptr(),
            1,
            t as isize,
            false,
            base.add(h.q),
            1,
            row,
            base.add(h.k),
            row,
            1,
            0.0,
            scale,
            Parallelism::None,
        );
        for r in scratch.scores.chunks_exact_mut(t) {
            softmax(r);
        }
        sgemm(
            t,
            h.dim,
            t,
            out.at(0),
            1,
            stride as isize,
            false,
            scratch.scores.as_ptr(),
            1,
            t as isize,
            base.add(h.v),
            1,
            row,
            0.0,
            1.0,
            Parallelism::None,
        );
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::exp16;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Head, Scratch};
    use crate::kernels::Shared;
    use std::arch::x86_64::*;

    /// Query rows handled together.
    const R: usize = 4;

    /// `e^x` for x <= 0, 16 lanes: as [`crate::kernels`]' scalar one
    /// (Cephes' expf), with the power of two applied by `vscalefps`.
    #[target_feature(enable = "avx512f")]
    pub(crate) fn exp16(x: __m512) -> __m512 {
        let x = _mm512_max_ps(x, _mm512_set1_ps(-87.0));
        let n = _mm512_roundscale_ps::<0x09>(_mm512_fmadd_ps(
            x,
            _mm512_set1_ps(std::f32::consts::LOG2_E),
            _mm512_set1_ps(0.5),
        ));
        let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693_359_4), x);
        let r = _mm512_fmadd_ps(n, _mm512_set1_ps(2.121_944_4e-4), r);
        let mut p = _mm512_set1_ps(1.987_569_1e-4);
        for c in [
            1.398_199_9e-3,
            8.333_452e-3,
            4.166_579_6e-2,
            1.666_666_5e-1,
            0.5,
        ] {
            p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(c));
        }
        let y = _mm512_add_ps(
            _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, r),
            _mm512_set1_ps(1.0),
        );
        _mm512_scalef_ps(y, n)
    }

    /// Softmax of a row whose length is a multiple of 16, in place.
    #[target_feature(enable = "avx512f")]
    unsafe fn softmax16(row: &mut [f32]) {
        let p = row.as_mut_ptr();
        let n = row.len() / 16;
        let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
        for c in 0..n {
            // SAFETY: c * 16 + 16 <= len.
            m = _mm512_max_ps(m, unsafe { _mm512_loadu_ps(p.add(c * 16)) });
        }
        let m = _mm512_set1_ps(_mm512_reduce_max_ps(m));
        let mut sum = _mm512_setzero_ps();
        for c in 0..n {
            // SAFETY: as above.
            unsafe {
                let e = exp16(_mm512_sub_ps(_mm512_loadu_ps(p.add(c * 16)), m));
                sum = _mm512_add_ps(sum, e);
                _mm512_storeu_ps(p.add(c * 16), e);
            }
        }
        let inv = _mm512_set1_ps(1.0 / _mm512_reduce_add_ps(sum));
        for c in 0..n {
            // SAFETY: as above.
            unsafe {
                _mm512_storeu_ps(
                    p.add(c * 16),
                    _mm512_mul_ps(_mm512_loadu_ps(p.add(c * 16)), inv),
                )
            };
        }
    }

    /// Dispatch on the head's dimension (16, 32, 48 or 64), so that every
    /// accumulator loop has a fixed length and stays in registers.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn attend(h: &Head, out: Shared, stride: usize, s: &mut Scratch) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match h.dim / 16 {
                1 => kernel::<1>(h, out, stride, s),
                2 => kernel::<2>(h, out, stride, s),
                3 => kernel::<3>(h, out, stride, s),
                _ => kernel::<4>(h, out, stride, s),
            }
        }
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn kernel<const B: usize>(h: &Head, out: Shared, stride: usize, s: &mut Scratch) {
        let (t, dim) = (h.t, B * 16);
        let tp = t.next_multiple_of(16);
        let scale = 1.0 / (dim as f32).sqrt();
        // keys transposed (dim rows of tp, zero-padded), values contiguous
        s.keys_t.clear();
        s.keys_t.resize(dim * tp, 0.0);
        s.values.clear();
        s.values.resize(t * dim, 0.0);
        for j in 0..t {
            let r = &h.qkv[j * h.row..];
            for d in 0..dim {
                s.keys_t[d * tp + j] = r[h.k + d];
            }
            s.values[j * dim..(j + 1) * dim].copy_from_slice(&r[h.v..h.v + dim]);
        }
        s.scores.clear();
        s.scores.resize(R * tp, 0.0);
        let kt = s.keys_t.as_ptr();
        let vp = s.values.as_ptr();
        let mut i = 0;
        while i < t {
            let n = (t - i).min(R);
            // scaled query values of rows i..i+n (the last row repeated)
            let mut q = [[0f32; 64]; R];
            for (r, qr) in q.iter_mut().enumerate() {
                let src = &h.qkv[(i + r.min(n - 1)) * h.row + h.q..][..dim];
                for (a, b) in qr.iter_mut().zip(src) {
                    *a = b * scale;
                }
            }
            let sp = s.scores.as_mut_ptr();
            let mut jb = 0;
            while jb < tp {
                let mut acc = [_mm512_setzero_ps(); R];
                // d indexes both the keys (by row) and the queries
                #[allow(clippy::needless_range_loop)]
                for d in 0..B * 16 {
                    // SAFETY: d < dim and jb + 16 <= tp: inside keys_t.
                    let kv = unsafe { _mm512_loadu_ps(kt.add(d * tp + jb)) };
                    for (r, a) in acc.iter_mut().enumerate() {
                        *a = _mm512_fmadd_ps(_mm512_set1_ps(q[r][d]), kv, *a);
                    }
                }
                for (r, a) in acc.iter().enumerate() {
                    // SAFETY: row r < R of tp scores, jb + 16 <= tp.
                    unsafe { _mm512_storeu_ps(sp.add(r * tp + jb), *a) };
                }
                jb += 16;
            }
            // whole rows of tp, padded keys at -inf (they come out as
            // ~1e-38, nothing beside a sum of at least 1, and are never
            // read): no scalar remainder
            for r in 0..n {
                let row = &mut s.scores[r * tp..(r + 1) * tp];
                row[t..].fill(f32::NEG_INFINITY);
                // SAFETY: tp is a multiple of 16.
                unsafe { softmax16(row) };
            }
            // context rows: sum over keys of p * value row
            let mut acc = [[_mm512_setzero_ps(); B]; R];
            let sc = s.scores.as_ptr();
            for j in 0..t {
                let mut v = [_mm512_setzero_ps(); B];
                for (b, vb) in v.iter_mut().enumerate() {
                    // SAFETY: j < t and b * 16 + 16 <= dim: inside values.
                    *vb = unsafe { _mm512_loadu_ps(vp.add(j * dim + b * 16)) };
                }
                for (r, ar) in acc.iter_mut().enumerate() {
                    // SAFETY: r < R rows of tp scores, j < t <= tp.
                    let p = _mm512_set1_ps(unsafe { *sc.add(r * tp + j) });
                    for (a, vb) in ar.iter_mut().zip(&v) {
                        *a = _mm512_fmadd_ps(p, *vb, *a);
                    }
                }
            }
            for (r, ar) in acc.iter().enumerate().take(n) {
                for (b, a) in ar.iter().enumerate() {
                    // SAFETY: the caller vouches for t rows of dim values.
                    unsafe { _mm512_storeu_ps(out.at((i + r) * stride + b * 16), *a) };
                }
            }
            i += R;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_matches_the_portable_path() {
        for (t, dim) in [
            (1, 16),
            (5, 32),
            (17, 32),
            (107, 32),
            (40, 64),
            (3, 48),
            (64, 32),
        ] {
            let heads = 2;
            let row = 3 * heads * dim;
            let qkv: Vec<f32> = (0..t * row)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.02)
                .collect();
            for hh in 0..heads {
                let h = Head {
                    qkv: &qkv,
                    row,
                    t,
                    q: hh * dim,
                    k: heads * dim + hh * dim,
                    v: 2 * heads * dim + hh * dim,
                    dim,
                };
                let mut fast = vec![0f32; t * dim];
                let mut slow = vec![0f32; t * dim];
                let mut scratch = Scratch::default();
                // SAFETY: both buffers hold t rows of dim.
                unsafe {
                    attend(&h, Shared(fast.as_mut_ptr()), dim, &mut scratch);
                    portable(&h, Shared(slow.as_mut_ptr()), dim, &mut scratch);
                }
                for (a, b) in fast.iter().zip(&slow) {
                    assert!((a - b).abs() < 1e-5, "t={t} dim={dim}: {a} vs {b}");
                }
                // the bfloat16 kernel, where the CPU has it: values are at
                // most 1, each product rounded to about 2^-8
                if crate::attention_bf16::suits(dim) {
                    let mut half = vec![0f32; t * dim];
                    // SAFETY: t rows of dim; the dimension suits it.
                    unsafe {
                        crate::attention_bf16::attend(
                            &h,
                            Shared(half.as_mut_ptr()),
                            dim,
                            &mut Default::default(),
                        )
                    };
                    let mut err = 0f32;
                    for (a, b) in half.iter().zip(&slow) {
                        assert!((a - b).abs() < 2e-2, "bf16 t={t} dim={dim}: {a} vs {b}");
                        err += (a - b).abs();
                    }
                    let mean = err / (t * dim) as f32;
                    assert!(mean <= 4e-3, "bf16 t={t} dim={dim}: mean error {mean}");
                }
            }
        }
    }
}
