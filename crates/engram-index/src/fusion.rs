//! How keyword and vector evidence become one score in 0..1.
//!
//! Three signals per passage, each on an absolute 0..1 scale:
//! - `own`: BM25 of the passage's own text, divided by the summed IDF of
//!   the query's terms — about 1 when every query term occurs once in a
//!   passage of average length, capped at 1;
//! - `context`: the same over the passage's reading context (the passages
//!   just before and after it, and its document's metadata values), which
//!   catches answers whose words were said one turn earlier;
//! - `cosine`: the embedding similarity, negative values counted as 0.
//!
//! `base = 0.25 own + 0.25 context + 0.5 cosine`, then a passage whose
//! reading neighbour scores higher is lifted part of the way towards it:
//! `score = base + 0.25 max(0, neighbour - base)`. A weighted mean of
//! absolute signals stays in 0..1 and keeps `chunkThreshold` stable across
//! queries; only a near-identical passage that also holds every query term
//! reaches 1. BM25 uses k1 = 0.9, b = 0.4 (common defaults for short
//! passages). The weights are round, general values; the retrieval bench
//! (LoCoMo) measures them, it did not fit them.

/// BM25 term-frequency saturation.
pub const K1: f32 = 0.9;
/// BM25 length normalisation.
pub const B: f32 = 0.4;
/// Weight of the passage's own keyword score.
pub const W_OWN: f32 = 0.25;
/// Weight of the reading-context keyword score.
pub const W_CONTEXT: f32 = 0.25;
/// Weight of the cosine similarity.
pub const W_COSINE: f32 = 0.5;
/// Share of the gap to a better-scoring neighbour that a passage gains.
pub const NEIGHBOUR_LIFT: f32 = 0.25;

/// Inverse document frequency (the non-negative BM25 variant).
pub fn idf(n: usize, df: usize) -> f32 {
    let (n, df) = (n as f32, df as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// One term's BM25 contribution.
pub fn bm25_term(idf: f32, tf: f32, len: f32, avg_len: f32) -> f32 {
    let norm = 1.0 - B + B * len / avg_len.max(1.0);
    idf * tf * (K1 + 1.0) / (tf + K1 * norm)
}

/// A BM25 sum scaled by the query's summed IDF, capped at 1.
pub fn normalised(bm25: f32, idf_sum: f32) -> f32 {
    if idf_sum <= 0.0 {
        0.0
    } else {
        (bm25 / idf_sum).clamp(0.0, 1.0)
    }
}

/// The base score of a passage from its three signals.
pub fn base(own: f32, context: f32, cosine: f32) -> f32 {
    (W_OWN * own.clamp(0.0, 1.0)
        + W_CONTEXT * context.clamp(0.0, 1.0)
        + W_COSINE * cosine.clamp(0.0, 1.0))
    .clamp(0.0, 1.0)
}

/// The fused score at which a result is, as a rule, relevant: the API's
/// default `threshold` (0.6) is put here. Measured on labelled questions
/// (Engram's memory-quality cases, and LoCoMo questions asked in their own
/// and in another conversation's space): at this fused score about 97% of
/// relevant memories are kept while over 90% of unrelated questions of
/// the quality cases find nothing. See `engram bench locomo --memories`.
pub const RELEVANT: f32 = 0.45;
/// The calibrated score [`RELEVANT`] maps to.
pub const RELEVANT_CALIBRATED: f32 = 0.6;

/// The score a client sees: the fused score mapped monotonically (so the
/// ranking is the same) and piecewise linearly through (0, 0),
/// ([`RELEVANT`], [`RELEVANT_CALIBRATED`]) and (1, 1), so that thresholds
/// mean what the API says: 0.6 "relevant", 1 "near-identical and holding
/// every query term".
pub fn calibrated(fused: f32) -> f32 {
    let x = fused.clamp(0.0, 1.0);
    if x <= RELEVANT {
        x * RELEVANT_CALIBRATED / RELEVANT
    } else {
        RELEVANT_CALIBRATED + (x - RELEVANT) * (1.0 - RELEVANT_CALIBRATED) / (1.0 - RELEVANT)
    }
}

/// The final score: the base, lifted towards a better neighbour.
pub fn lifted(base: f32, best_neighbour: f32) -> f32 {
    (base + NEIGHBOUR_LIFT * (best_neighbour - base).max(0.0)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn anchors() {
        assert_eq!(base(0.0, 0.0, 0.0), 0.0);
        assert!((base(1.0, 1.0, 1.0) - 1.0).abs() < 1e-6);
        // a perfect embedding match alone is half-way
        assert!((base(0.0, 0.0, 1.0) - 0.5).abs() < 1e-6);
        // negative cosine counts as unrelated
        assert_eq!(base(0.0, 0.0, -0.7), 0.0);
        // a better neighbour lifts, a worse one never lowers
        assert!(lifted(0.2, 0.6) > 0.2);
        assert_eq!(lifted(0.6, 0.2), 0.6);
        assert_eq!(normalised(5.0, 0.0), 0.0);
        assert_eq!(normalised(50.0, 5.0), 1.0);
    }

    #[test]
    fn bm25_saturates_and_prefers_short_passages() {
        let i = idf(100, 3);
        assert!(bm25_term(i, 2.0, 10.0, 10.0) > bm25_term(i, 1.0, 10.0, 10.0));
        assert!(bm25_term(i, 50.0, 10.0, 10.0) < i * (K1 + 1.0));
        assert!(bm25_term(i, 1.0, 5.0, 10.0) > bm25_term(i, 1.0, 20.0, 10.0));
        assert!(idf(100, 1) > idf(100, 50));
        assert!(idf(100, 100) > 0.0);
    }

    #[test]
    fn calibration_keeps_the_ends_and_puts_relevance_at_the_default() {
        assert_eq!(calibrated(0.0), 0.0);
        assert!((calibrated(1.0) - 1.0).abs() < 1e-6);
        assert!((calibrated(RELEVANT) - RELEVANT_CALIBRATED).abs() < 1e-6);
        assert_eq!(calibrated(-0.2), 0.0);
        assert!((calibrated(1.5) - 1.0).abs() < 1e-6);
    }

    proptest! {
        #[test]
        fn calibration_is_monotone(a in 0f32..1.0, b in 0f32..1.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(calibrated(lo) <= calibrated(hi));
            prop_assert!((0.0..=1.0).contains(&calibrated(a)));
        }

        #[test]
        fn scores_stay_in_unit_range(o in -2f32..3.0, c in -2f32..3.0, v in -1f32..1.0, n in 0f32..1.0) {
            let b = base(o, c, v);
            prop_assert!((0.0..=1.0).contains(&b));
            let l = lifted(b, n);
            prop_assert!((0.0..=1.0).contains(&l));
            prop_assert!(l >= b);
        }

        #[test]
        fn more_evidence_never_scores_lower(o in 0f32..1.0, c in 0f32..1.0, v in 0f32..1.0, d in 0f32..0.5) {
            prop_assert!(base(o + d, c, v) >= base(o, c, v));
            prop_assert!(base(o, c + d, v) >= base(o, c, v));
            prop_assert!(base(o, c, v + d) >= base(o, c, v));
        }
    }
}
