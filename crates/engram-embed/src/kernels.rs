//! Numeric kernels for the CPU encoder: dense layers as matrix products
//! (the `gemm-f32` crate, with its AVX2/AVX-512 micro-kernels and
//! two-thread splitting), and the element-wise steps around them: layer
//! norm, GELU and softmax.
//!
//! The element-wise steps are plain loops written so the compiler can
//! vectorise them (fixed-width partial sums, a branch-free erf and exp),
//! compiled once per instruction set and chosen at run time. They run over
//! every token of a batch at once, so they are split over the rayon pool.

pub use gemm_common::Parallelism;
use rayon::prelude::*;

/// Rows per parallel task of the element-wise steps.
const ROWS_PER_TASK: usize = 64;

/// `y[t][o] = sum_i x[t][i] * wt[i][o]` for `t < rows` (the layer's bias
/// is added by the element-wise step that follows, which reads `y`
/// anyway).
///
/// `x` holds `rows` rows of `inp` values; `wt` is the layer's weight
/// matrix transposed (`inp` rows of `out`, see [`transpose`]); `y`
/// receives `rows` rows of `out`.
///
/// It is computed as `y^T = W x^T`: the weights are then the left operand,
/// laid out as the micro-kernels read it (each column contiguous), so
/// nothing of size `inp x out` is repacked per call and only the
/// activations are. For a few tokens (a query) reading the weights is the
/// whole cost, and [`crate::dense::Dense`] streams them from panels
/// instead of calling this.
pub fn matmul(x: &[f32], rows: usize, inp: usize, wt: &[f32], out: usize, y: &mut [f32]) {
    assert_eq!(x.len(), rows * inp, "matmul input shape");
    assert_eq!(wt.len(), out * inp, "matmul weight shape");
    assert_eq!(y.len(), rows * out, "matmul output shape");
    if rows == 0 || out == 0 {
        return;
    }
    let (y_at, w_at, x_at) = (
        Shared(y.as_mut_ptr()),
        wt.as_ptr() as usize,
        x.as_ptr() as usize,
    );
    // out features [lo, hi) of every row
    let part = |lo: usize, hi: usize, par: Parallelism| {
        // SAFETY: the shapes were checked above. dst = rows [lo, hi) of
        // y^T (unit row stride, column stride out), lhs = the same rows of
        // W (unit row stride, column stride out, as `wt` holds it), rhs =
        // x^T (inp x rows: unit row stride, column stride inp). Concurrent
        // parts write disjoint feature ranges; nothing overlaps the input.
        unsafe {
            sgemm(
                hi - lo,
                rows,
                inp,
                y_at.at(lo),
                out as isize,
                1,
                false,
                (w_at as *const f32).add(lo),
                out as isize,
                1,
                x_at as *const f32,
                inp as isize,
                1,
                0.0,
                1.0,
                par,
            );
        }
    };
    part(0, out, Parallelism::Rayon(0));
}

/// `dst = alpha * dst + beta * lhs * rhs` in f32 (`dst` is read only when
/// `read_dst`), each matrix given by its start and its column and row
/// strides, as the `gemm` crate's `gemm` takes them.
///
/// `gemm-f32` is called directly rather than through the `gemm` crate,
/// whose one generic entry point builds the f64, c32 and c64 kernels too
/// (three crates, minutes of a cold build) only to dispatch to this one.
/// Like that entry point, a row-major destination is computed as its
/// transpose, the layout the micro-kernels write best.
///
/// # Safety
/// The strides are non-negative and every element the shapes and strides
/// name lies inside its buffer; `dst` overlaps neither operand.
#[allow(clippy::too_many_arguments)]
pub unsafe fn sgemm(
    m: usize,
    n: usize,
    k: usize,
    dst: *mut f32,
    dst_cs: isize,
    dst_rs: isize,
    read_dst: bool,
    lhs: *const f32,
    lhs_cs: isize,
    lhs_rs: isize,
    rhs: *const f32,
    rhs_cs: isize,
    rhs_rs: isize,
    alpha: f32,
    beta: f32,
    par: Parallelism,
) {
    debug_assert!([dst_cs, dst_rs, lhs_cs, lhs_rs, rhs_cs, rhs_rs]
        .iter()
        .all(|s| *s >= 0));
    let gemm = gemm_f32::gemm::f32::get_gemm_fn();
    // SAFETY: as the caller vouches; (A B)^T = B^T A^T swaps the operands
    // and the strides of all three.
    unsafe {
        if dst_cs.abs() < dst_rs.abs() {
            gemm(
                n, m, k, dst, dst_rs, dst_cs, read_dst, rhs, rhs_rs, rhs_cs, lhs, lhs_rs, lhs_cs,
                alpha, beta, false, false, false, par,
            )
        } else {
            gemm(
                m, n, k, dst, dst_cs, dst_rs, read_dst, lhs, lhs_cs, lhs_rs, rhs, rhs_cs, rhs_rs,
                alpha, beta, false, false, false, par,
            )
        }
    }
}

/// A destination pointer shared by threads that write disjoint parts.
#[derive(Clone, Copy)]
pub struct Shared(pub *mut f32);
// SAFETY: users write disjoint ranges only (see each use).
unsafe impl Sync for Shared {}
unsafe impl Send for Shared {}
impl Shared {
    pub fn at(self, offset: usize) -> *mut f32 {
        // SAFETY: callers stay inside the buffer this was made from.
        unsafe { self.0.add(offset) }
    }
}

/// The transpose of a `rows x cols` row-major matrix.
pub fn transpose(w: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    assert_eq!(w.len(), rows * cols, "transpose shape");
    let mut t = vec![0f32; w.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = w[r * cols + c];
        }
    }
    t
}

/// Define `fn name(args)` whose body is compiled once per instruction set
/// (AVX-512, AVX2+FMA, baseline) and chosen at run time, so plain loops in
/// it are vectorised for the CPU at hand.
macro_rules! multiversion {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn body($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx512dq,fma")]
                unsafe fn v4($($arg: $ty),*) {
                    body($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn v3($($arg: $ty),*) {
                    body($($arg),*)
                }
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("fma")
                {
                    // SAFETY: the features this copy was compiled for are present.
                    return unsafe { v4($($arg),*) };
                }
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    // SAFETY: as above.
                    return unsafe { v3($($arg),*) };
                }
            }
            body($($arg),*)
        }
    };
}

/// Layer norm of each `dim`-wide row in place.
pub fn layer_norm(x: &mut [f32], dim: usize, gamma: &[f32], beta: &[f32], eps: f32) {
    let zeros = vec![0f32; dim];
    x.par_chunks_mut(dim * ROWS_PER_TASK)
        .for_each(|rows| norm_rows(rows, &zeros, &[], gamma, beta, eps));
}

/// `x = layer_norm(x + bias + residual)` row by row, in place (`bias` is
/// the preceding dense layer's).
pub fn add_layer_norm(
    x: &mut [f32],
    bias: &[f32],
    residual: &[f32],
    gamma: &[f32],
    beta: &[f32],
    eps: f32,
) {
    let dim = bias.len();
    assert_eq!(x.len(), residual.len(), "residual shape");
    x.par_chunks_mut(dim * ROWS_PER_TASK)
        .zip(residual.par_chunks(dim * ROWS_PER_TASK))
        .for_each(|(rows, res)| norm_rows(rows, bias, res, gamma, beta, eps));
}

/// Sum with 16 independent partial sums, so it vectorises.
#[inline(always)]
fn sum16(v: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut acc = [0f32; 16];
    let chunks = v.chunks_exact(16);
    let tail: f32 = chunks.remainder().iter().map(|&x| f(x)).sum();
    for c in chunks {
        for k in 0..16 {
            acc[k] += f(c[k]);
        }
    }
    acc.iter().sum::<f32>() + tail
}

multiversion! {
    /// Rows of `bias.len()`: add the bias and the residual (when given),
    /// then normalise.
    fn norm_rows(x: &mut [f32], bias: &[f32], residual: &[f32], gamma: &[f32], beta: &[f32], eps: f32) {
        let dim = bias.len();
        for (t, row) in x.chunks_exact_mut(dim).enumerate() {
            for (v, b) in row.iter_mut().zip(bias) {
                *v += b;
            }
            if !residual.is_empty() {
                for (v, r) in row.iter_mut().zip(&residual[t * dim..(t + 1) * dim]) {
                    *v += r;
                }
            }
            let mean = sum16(row, |v| v) / dim as f32;
            let var = sum16(row, |v| (v - mean) * (v - mean)) / dim as f32;
            let inv = 1.0 / (var + eps).sqrt();
            for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
                *v = (*v - mean) * inv * g + b;
            }
        }
    }
}

multiversion! {
    /// Add `bias` to every row of `bias.len()` values.
    fn bias_rows(x: &mut [f32], bias: &[f32]) {
        for row in x.chunks_exact_mut(bias.len()) {
            for (v, b) in row.iter_mut().zip(bias) {
                *v += b;
            }
        }
    }
}

/// Add a dense layer's bias to each of its output rows, in place.
pub fn add_bias(x: &mut [f32], bias: &[f32]) {
    x.par_chunks_mut(bias.len() * ROWS_PER_TASK)
        .for_each(|rows| bias_rows(rows, bias));
}

/// The error function in single precision: a rational fit on [-4, 4]
/// (erf is ±1 to float precision beyond), absolute error below 1e-6
/// (checked against a double-precision reference in the tests). No branch
/// and no table, so a loop of it vectorises.
#[inline(always)]
pub fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_3e-10f32;
    p = p.mul_add(x2, 2.770_681_4e-8);
    p = p.mul_add(x2, -2.101_024e-6);
    p = p.mul_add(x2, -5.692_506_4e-5);
    p = p.mul_add(x2, -7.349_906_3e-4);
    p = p.mul_add(x2, -2.954_600_5e-3);
    p = p.mul_add(x2, -1.609_603_3e-2);
    let mut q = -1.456_607_2e-5f32;
    q = q.mul_add(x2, -2.133_740_6e-4);
    q = q.mul_add(x2, -1.682_827e-3);
    q = q.mul_add(x2, -7.373_329_2e-3);
    q = q.mul_add(x2, -1.426_474e-2);
    x * p / q
}

multiversion! {
    fn gelu_rows(x: &mut [f32], bias: &[f32]) {
        for row in x.chunks_exact_mut(bias.len()) {
            for (v, b) in row.iter_mut().zip(bias) {
                let u = *v + b;
                *v = 0.5 * u * (1.0 + erf(u * std::f32::consts::FRAC_1_SQRT_2));
            }
        }
    }
}

/// `x = GELU(x + bias)` row by row, in place: the exact, erf-based GELU
/// BERT uses, after the preceding dense layer's bias.
pub fn gelu_bias(x: &mut [f32], bias: &[f32]) {
    x.par_chunks_mut(bias.len() * ROWS_PER_TASK)
        .for_each(|rows| gelu_rows(rows, bias));
}

/// `e^x` in single precision (Cephes' expf: range reduction by ln 2 and a
/// degree-6 polynomial, within 2 ulp), for x <= 0 as softmax needs;
/// inputs below -87 give 0. Branch-free, so a loop of it vectorises.
#[inline(always)]
fn exp_neg(x: f32) -> f32 {
    let x = x.max(-87.0);
    let n = (x * std::f32::consts::LOG2_E + 0.5).floor();
    let r = n.mul_add(-0.693_359_4, x);
    let r = n.mul_add(2.121_944_4e-4, r);
    let mut p = 1.987_569_1e-4f32;
    p = p.mul_add(r, 1.398_199_9e-3);
    p = p.mul_add(r, 8.333_452e-3);
    p = p.mul_add(r, 4.166_579_6e-2);
    p = p.mul_add(r, 1.666_666_5e-1);
    p = p.mul_add(r, 0.5);
    let y = (p * r).mul_add(r, r) + 1.0;
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    y * scale
}

multiversion! {
    /// Softmax of a slice in place.
    pub fn softmax(x: &mut [f32]) {
        let mut max = [f32::NEG_INFINITY; 16];
        let chunks = x.chunks_exact(16);
        let mut m = chunks.remainder().iter().copied().fold(f32::NEG_INFINITY, f32::max);
        for c in chunks {
            for k in 0..16 {
                max[k] = max[k].max(c[k]);
            }
        }
        m = max.iter().copied().fold(m, f32::max);
        for v in x.iter_mut() {
            *v = exp_neg(*v - m);
        }
        let inv = 1.0 / sum16(x, |v| v);
        for v in x.iter_mut() {
            *v *= inv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// erf in double precision (Numerical Recipes' erfc fit, relative
    /// error below 1.2e-7), the reference for the fast one.
    fn erf64(x: f64) -> f64 {
        let z = x.abs();
        let t = 1.0 / (1.0 + 0.5 * z);
        // Horner's rule over the fit's coefficients, lowest power first
        // (a loop: written out nested, rustfmt takes 20 s on this file)
        const C: [f64; 10] = [
            -1.265_512_23,
            1.000_023_68,
            0.374_091_96,
            0.096_784_18,
            -0.186_288_06,
            0.278_868_07,
            -1.135_203_98,
            1.488_515_87,
            -0.822_152_23,
            0.170_872_77,
        ];
        let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
        let r = t * (-z * z + poly).exp();
        if x >= 0.0 {
            1.0 - r
        } else {
            r - 1.0
        }
    }

    #[test]
    fn erf_is_within_1e6_everywhere() {
        let mut worst = 0f64;
        for i in -60_000..=60_000 {
            let x = i as f32 * 1e-4;
            worst = worst.max((erf(x) as f64 - erf64(x as f64)).abs());
        }
        assert!(worst < 1e-6, "worst erf error {worst}");
        assert_eq!(erf(10.0), 1.0);
        assert_eq!(erf(-10.0), -1.0);
        // the vectorised copy gives the scalar results
        let mut v: Vec<f32> = (-300..300).map(|i| i as f32 * 0.02).collect();
        let want: Vec<f32> = v
            .iter()
            .map(|&x| 0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2)))
            .collect();
        gelu_bias(&mut v, &[0.0; 6]);
        assert_eq!(v, want);
    }

    #[test]
    fn exp_is_within_2_ulp() {
        for i in 0..=870_000 {
            let x = -(i as f32) * 1e-4;
            let (got, want) = (exp_neg(x), x.exp());
            let ulp = (want.to_bits() as i64 - got.to_bits() as i64).abs();
            assert!(ulp <= 2 || want < 1e-37, "exp({x}) = {got}, want {want}");
        }
        assert_eq!(exp_neg(-1000.0), 0.0f32.max(exp_neg(-1000.0)));
        assert!(exp_neg(-1000.0) < 1e-37);
    }

    #[test]
    fn softmax_and_layer_norm() {
        let mut s: Vec<f32> = (0..37).map(|i| (i % 5) as f32).collect();
        softmax(&mut s);
        let e: Vec<f64> = (0..37).map(|i| ((i % 5) as f64).exp()).collect();
        let z: f64 = e.iter().sum();
        for (got, want) in s.iter().zip(&e) {
            assert!((*got as f64 - want / z).abs() < 1e-7);
        }
        let mut x: Vec<f32> = (0..400).map(|i| (i % 9) as f32 * 0.3).collect();
        let res = vec![1.0f32; 400];
        add_layer_norm(&mut x, &[0.5; 100], &res, &[1.0; 100], &[0.0; 100], 1e-12);
        for row in x.chunks(100) {
            assert!(row.iter().sum::<f32>().abs() < 1e-4);
            assert!((row.iter().map(|v| v * v).sum::<f32>() / 100.0 - 1.0).abs() < 1e-4);
        }
    }
}
