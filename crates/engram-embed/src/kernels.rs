//! Numeric kernels for the CPU encoder: a dense layer written as dot
//! products against the weight rows (the layout model files already use,
//! so nothing is repacked per call), layer norm, GELU and softmax.
//!
//! The dense layer has AVX-512 and AVX2+FMA micro-kernels, chosen at run
//! time, and a portable fallback that gives the same results up to float
//! rounding.

/// `y[t][o] = b[o] + sum_i x[t][i] * w[o][i]` for `t < rows`.
///
/// `x` holds `rows` rows of `inp` values, `w` holds `b.len()` rows of
/// `inp`, `y` receives `rows` rows of `b.len()`.
pub fn dense(x: &[f32], rows: usize, inp: usize, w: &[f32], b: &[f32], y: &mut [f32]) {
    let out = b.len();
    debug_assert_eq!(x.len(), rows * inp);
    debug_assert_eq!(w.len(), out * inp);
    debug_assert_eq!(y.len(), rows * out);
    #[cfg(target_arch = "x86_64")]
    {
        if inp.is_multiple_of(16) && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports AVX-512F and `inp` is a multiple of
            // 16 as the kernel requires; slice lengths are checked above.
            unsafe { avx512::dense(x, rows, inp, w, b, y) };
            return;
        }
        if inp.is_multiple_of(8)
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU supports AVX2 and FMA, and `inp` is a multiple
            // of 8 as the kernel requires; slice lengths are checked above.
            unsafe { avx2::dense(x, rows, inp, w, b, y) };
            return;
        }
    }
    dense_portable(x, rows, inp, w, b, y);
}

fn dense_portable(x: &[f32], rows: usize, inp: usize, w: &[f32], b: &[f32], y: &mut [f32]) {
    let out = b.len();
    for t in 0..rows {
        let xr = &x[t * inp..(t + 1) * inp];
        for o in 0..out {
            let wr = &w[o * inp..(o + 1) * inp];
            let mut acc = [0f32; 8];
            let (cx, cw) = (xr.chunks_exact(8), wr.chunks_exact(8));
            let tail: f32 = cx
                .remainder()
                .iter()
                .zip(cw.remainder())
                .map(|(a, b)| a * b)
                .sum();
            for (a, bb) in cx.zip(cw) {
                for k in 0..8 {
                    acc[k] += a[k] * bb[k];
                }
            }
            y[t * out + o] = b[o] + acc.iter().sum::<f32>() + tail;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2,fma")]
    unsafe fn hsum(v: __m256) -> f32 {
        let lo = _mm256_castps256_ps128(v);
        let hi = _mm256_extractf128_ps(v, 1);
        let s = _mm_add_ps(lo, hi);
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
        _mm_cvtss_f32(s)
    }

    /// See [`super::dense`]; `inp` must be a multiple of 8.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dense(x: &[f32], rows: usize, inp: usize, w: &[f32], b: &[f32], y: &mut [f32]) {
        let out = b.len();
        let xp = x.as_ptr();
        let wp = w.as_ptr();
        let mut o = 0;
        while o < out {
            let two = out - o >= 2;
            let w0 = wp.add(o * inp);
            let w1 = if two { wp.add((o + 1) * inp) } else { w0 };
            let mut t = 0;
            while t < rows {
                let n = (rows - t).min(4);
                let x0 = xp.add(t * inp);
                let x1 = xp.add((t + 1.min(n - 1)) * inp);
                let x2 = xp.add((t + 2.min(n - 1)) * inp);
                let x3 = xp.add((t + 3.min(n - 1)) * inp);
                let mut a = [_mm256_setzero_ps(); 8];
                let mut i = 0;
                while i < inp {
                    let wa = _mm256_loadu_ps(w0.add(i));
                    let wb = _mm256_loadu_ps(w1.add(i));
                    let v0 = _mm256_loadu_ps(x0.add(i));
                    let v1 = _mm256_loadu_ps(x1.add(i));
                    let v2 = _mm256_loadu_ps(x2.add(i));
                    let v3 = _mm256_loadu_ps(x3.add(i));
                    a[0] = _mm256_fmadd_ps(wa, v0, a[0]);
                    a[1] = _mm256_fmadd_ps(wa, v1, a[1]);
                    a[2] = _mm256_fmadd_ps(wa, v2, a[2]);
                    a[3] = _mm256_fmadd_ps(wa, v3, a[3]);
                    a[4] = _mm256_fmadd_ps(wb, v0, a[4]);
                    a[5] = _mm256_fmadd_ps(wb, v1, a[5]);
                    a[6] = _mm256_fmadd_ps(wb, v2, a[6]);
                    a[7] = _mm256_fmadd_ps(wb, v3, a[7]);
                    i += 8;
                }
                for k in 0..n {
                    y[(t + k) * out + o] = b[o] + hsum(a[k]);
                    if two {
                        y[(t + k) * out + o + 1] = b[o + 1] + hsum(a[4 + k]);
                    }
                }
                t += 4;
            }
            o += 2;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// See [`super::dense`]; `inp` must be a multiple of 16. Four weight
    /// rows by four tokens per step: 16 accumulators, 8 loads per 16 FMAs.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn dense(x: &[f32], rows: usize, inp: usize, w: &[f32], b: &[f32], y: &mut [f32]) {
        let out = b.len();
        let xp = x.as_ptr();
        let wp = w.as_ptr();
        let mut o = 0;
        while o < out {
            let m = (out - o).min(4);
            let wr = [0, 1, 2, 3].map(|k| wp.add((o + k.min(m - 1)) * inp));
            let mut t = 0;
            while t < rows {
                let n = (rows - t).min(4);
                let xr = [0, 1, 2, 3].map(|k| xp.add((t + k.min(n - 1)) * inp));
                let mut a = [_mm512_setzero_ps(); 16];
                let mut i = 0;
                while i < inp {
                    let v = [0, 1, 2, 3].map(|k| _mm512_loadu_ps(xr[k].add(i)));
                    for r in 0..4 {
                        let wv = _mm512_loadu_ps(wr[r].add(i));
                        for k in 0..4 {
                            a[r * 4 + k] = _mm512_fmadd_ps(wv, v[k], a[r * 4 + k]);
                        }
                    }
                    i += 16;
                }
                for r in 0..m {
                    for k in 0..n {
                        y[(t + k) * out + o + r] = b[o + r] + _mm512_reduce_add_ps(a[r * 4 + k]);
                    }
                }
                t += 4;
            }
            o += 4;
        }
    }
}

/// Layer norm of each `dim`-wide row in place.
pub fn layer_norm(x: &mut [f32], dim: usize, gamma: &[f32], beta: &[f32], eps: f32) {
    for row in x.chunks_exact_mut(dim) {
        let mean = row.iter().sum::<f32>() / dim as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / dim as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

/// The error function (Numerical Recipes' Chebyshev fit of erfc, relative
/// error below 1.2e-7).
pub fn erf(x: f32) -> f32 {
    let x = x as f64;
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    (if x >= 0.0 { 1.0 - r } else { r - 1.0 }) as f32
}

/// GELU (the exact, erf-based form BERT uses) in place.
pub fn gelu(x: &mut [f32]) {
    for v in x {
        *v = 0.5 * *v * (1.0 + erf(*v * std::f32::consts::FRAC_1_SQRT_2));
    }
}

/// Softmax of a slice in place.
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in x.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in x.iter_mut() {
        *v /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_kernels_agree() {
        for (rows, inp, out) in [
            (1, 8, 1),
            (3, 16, 5),
            (4, 384, 6),
            (7, 32, 3),
            (13, 64, 9),
            (5, 48, 7),
        ] {
            let x: Vec<f32> = (0..rows * inp)
                .map(|i| ((i * 7) % 13) as f32 * 0.1 - 0.5)
                .collect();
            let w: Vec<f32> = (0..out * inp)
                .map(|i| ((i * 5) % 11) as f32 * 0.07 - 0.3)
                .collect();
            let b: Vec<f32> = (0..out).map(|i| i as f32 * 0.01).collect();
            let mut fast = vec![0.0; rows * out];
            let mut slow = vec![0.0; rows * out];
            dense(&x, rows, inp, &w, &b, &mut fast);
            dense_portable(&x, rows, inp, &w, &b, &mut slow);
            for (a, c) in fast.iter().zip(&slow) {
                assert!((a - c).abs() < 1e-4, "{rows}x{inp}x{out}: {a} vs {c}");
            }
            // spot-check one value against the definition
            let want: f32 = b[out - 1]
                + (0..inp)
                    .map(|i| x[(rows - 1) * inp + i] * w[(out - 1) * inp + i])
                    .sum::<f32>();
            assert!((slow[rows * out - 1] - want).abs() < 1e-4);
        }
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [
            (0.0f32, 0.0f32),
            (0.5, 0.520_499_9),
            (1.0, 0.842_700_8),
            (-2.0, -0.995_322_3),
            (3.5, 0.999_999_3),
        ] {
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn softmax_and_layer_norm() {
        let mut s = vec![1.0, 2.0, 3.0];
        softmax(&mut s);
        assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-6 && s[2] > s[1]);
        let mut x = vec![1.0, 2.0, 3.0, 4.0];
        layer_norm(&mut x, 4, &[1.0; 4], &[0.0; 4], 1e-12);
        assert!(x.iter().sum::<f32>().abs() < 1e-5);
        assert!((x.iter().map(|v| v * v).sum::<f32>() / 4.0 - 1.0).abs() < 1e-4);
    }
}
