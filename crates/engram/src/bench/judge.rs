//! `engram bench judge`: how well the fact/not-a-fact judge of offline
//! memory formation separates facts from chatter, with the local model.
//! Two measurements for a range of thresholds: ten-fold cross-validation
//! over the judge's own examples, and the held-out sentences (written for
//! this, never examples). A fact dropped costs a memory, so the column
//! that matters most is facts kept.

use clap::Args;
use engram_embed::Embedder;
use engram_memory::judge::{examples, held_out, masked, Judge, DEFAULT_THRESHOLD};
use std::path::PathBuf;

#[derive(Args)]
pub struct JudgeArgs {
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
    /// Judge these sentences instead.
    #[arg(long)]
    text: Vec<String>,
}

/// Facts kept and not-facts dropped, as shares.
fn score(results: &[(bool, bool)]) -> (f64, f64) {
    let share = |want_fact: bool| {
        let of: Vec<_> = results.iter().filter(|(f, _)| *f == want_fact).collect();
        // kept means not judged junk
        let right = of
            .iter()
            .filter(|(f, junk)| if *f { !junk } else { *junk })
            .count();
        right as f64 / of.len().max(1) as f64
    };
    (share(true), share(false))
}

pub async fn run(args: JudgeArgs) -> anyhow::Result<()> {
    let found = crate::serve::locate_model(args.model_dir).await?;
    let dir = found.dir().to_path_buf();
    let embedder = engram_embed::local::LocalEmbedder::start(&dir, "all-MiniLM-L6-v2")?;
    let ex = examples();
    let held = held_out();
    let ex_vecs = embedder.embed(Judge::texts()).await?;
    let held_vecs = embedder
        .embed(held.iter().map(|(t, _)| masked(t)).collect())
        .await?;
    let labelled: Vec<(Vec<f32>, bool)> = ex_vecs
        .into_iter()
        .zip(ex.iter().map(|(_, f)| *f))
        .collect();
    if !args.text.is_empty() {
        let judge = Judge::train(&labelled, DEFAULT_THRESHOLD);
        let texts: Vec<String> = args.text.iter().map(|t| masked(t)).collect();
        for (t, v) in args.text.iter().zip(embedder.embed(texts).await?) {
            let p = judge.junk_probability(&v);
            let verdict = if judge.is_junk(&v) {
                "not a fact"
            } else {
                "fact"
            };
            println!("{verdict} (p(not a fact) = {p:.2}): {t}");
        }
        return Ok(());
    }
    println!(
        "judge: {} examples ({} facts), {} held-out sentences",
        labelled.len(),
        labelled.iter().filter(|(_, f)| *f).count(),
        held.len()
    );
    println!(
        "{:>9}   {:>26}   {:>22}",
        "threshold", "10-fold CV kept/dropped", "held-out kept/dropped"
    );
    // the folds' models, trained once
    let folds = 10;
    let fold_models: Vec<(Vec<usize>, Vec<f32>)> = (0..folds)
        .map(|f| {
            let test: Vec<usize> = (0..labelled.len()).filter(|i| i % folds == f).collect();
            let train: Vec<(Vec<f32>, bool)> = labelled
                .iter()
                .enumerate()
                .filter(|(i, _)| i % folds != f)
                .map(|(_, x)| x.clone())
                .collect();
            let j = Judge::train(&train, 0.5);
            let probs = test
                .iter()
                .map(|i| j.junk_probability(&labelled[*i].0))
                .collect();
            (test, probs)
        })
        .collect();
    let full = Judge::train(&labelled, 0.5);
    for t in [0.5f32, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95] {
        let cv: Vec<(bool, bool)> = fold_models
            .iter()
            .flat_map(|(test, probs)| {
                test.iter()
                    .zip(probs)
                    .map(|(i, p)| (labelled[*i].1, *p >= t))
                    .collect::<Vec<_>>()
            })
            .collect();
        let ho: Vec<(bool, bool)> = held
            .iter()
            .zip(&held_vecs)
            .map(|((_, fact), v)| (*fact, full.junk_probability(v) >= t))
            .collect();
        let (ck, cd) = score(&cv);
        let (hk, hd) = score(&ho);
        let mark = if (t - DEFAULT_THRESHOLD).abs() < 1e-6 {
            "  <- default"
        } else {
            ""
        };
        println!(
            "{t:>9.2}   {:>12.1}% / {:>9.1}%   {:>10.1}% / {:>7.1}%{mark}",
            100.0 * ck,
            100.0 * cd,
            100.0 * hk,
            100.0 * hd
        );
    }
    Ok(())
}
