//! The threshold table of `engram bench locomo --memories`: what a
//! `threshold` (and `chunkThreshold`) means on the calibrated 0..1 scale.
//! For each threshold: evidence recall@10 of the results that pass it,
//! the share of questions that get any answer, and the share of unrelated
//! questions (each asked in another conversation's space) that get none.
//! A good default keeps most of the recall while unrelated questions come
//! back empty.

use serde_json::{json, Value};
use std::collections::HashSet;

/// Thresholds tabulated.
pub const THRESHOLDS: [f64; 9] = [0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8];
/// The API's default `threshold` of `/v4/search`.
pub const DEFAULT: f64 = 0.6;

/// A question's results, best first: `(score, turns it stands for)`.
pub type Ranked = Vec<(f64, Vec<String>)>;

/// One question's ranked results in its own space: `(score, turns)`, and
/// the best score it got in another conversation's space.
pub struct Asked {
    pub gold: HashSet<String>,
    pub own: Ranked,
    pub elsewhere: f64,
}

/// One row per threshold.
pub fn table(asked: &[Asked]) -> Vec<Value> {
    let n = asked.len().max(1) as f64;
    THRESHOLDS
        .iter()
        .map(|&t| {
            let mut recall = 0.0;
            let mut answered = 0;
            let mut unrelated_empty = 0;
            for a in asked {
                let kept: Vec<&(f64, Vec<String>)> =
                    a.own.iter().filter(|(s, _)| *s >= t).take(10).collect();
                if !kept.is_empty() {
                    answered += 1;
                }
                let seen: HashSet<&String> = kept.iter().flat_map(|(_, turns)| turns).collect();
                let hit = a.gold.iter().filter(|g| seen.contains(g)).count();
                recall += hit as f64 / a.gold.len().max(1) as f64;
                if a.elsewhere < t {
                    unrelated_empty += 1;
                }
            }
            json!({
                "threshold": t,
                "recallAt10": 100.0 * recall / n,
                "answered": 100.0 * answered as f64 / n,
                "unrelatedEmpty": 100.0 * unrelated_empty as f64 / n,
            })
        })
        .collect()
}

/// The table as text.
pub fn print(title: &str, rows: &[Value]) {
    println!("{title}");
    println!(
        "  {:>9} {:>10} {:>10} {:>16}",
        "threshold", "R@10", "answered", "unrelated empty"
    );
    for r in rows {
        let t = r["threshold"].as_f64().unwrap_or(0.0);
        let mark = if (t - DEFAULT).abs() < 1e-9 {
            "  <- default"
        } else {
            ""
        };
        println!(
            "  {:>9.2} {:>9.1}% {:>9.1}% {:>15.1}%{mark}",
            t,
            r["recallAt10"].as_f64().unwrap_or(0.0),
            r["answered"].as_f64().unwrap_or(0.0),
            r["unrelatedEmpty"].as_f64().unwrap_or(0.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_count_what_passes_each_threshold() {
        let asked = vec![
            Asked {
                gold: ["D1:1".to_string()].into(),
                own: vec![(0.7, vec!["D1:1".into()]), (0.4, vec!["D1:2".into()])],
                elsewhere: 0.35,
            },
            Asked {
                gold: ["D1:3".to_string()].into(),
                own: vec![(0.45, vec!["D1:3".into()])],
                elsewhere: 0.55,
            },
        ];
        let rows = table(&asked);
        let at = |t: f64| rows.iter().find(|r| r["threshold"] == t).unwrap().clone();
        assert_eq!(at(0.3)["recallAt10"], 100.0);
        assert_eq!(at(0.3)["unrelatedEmpty"], 0.0);
        assert_eq!(at(0.5)["recallAt10"], 50.0);
        assert_eq!(at(0.5)["answered"], 50.0);
        assert_eq!(at(0.5)["unrelatedEmpty"], 50.0);
        assert_eq!(at(0.8)["answered"], 0.0);
        assert_eq!(at(0.8)["unrelatedEmpty"], 100.0);
    }
}
