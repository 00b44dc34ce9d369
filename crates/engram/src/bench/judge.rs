//! `engram bench judge`: how well the fact/not-a-fact judge of offline
//! memory formation separates facts from chatter, with the local model.
//! Two measurements over a grid of voting parameters: leave-one-out over
//! the judge's own examples, and the held-out sentences (written for this,
//! never examples). A fact dropped costs a memory, so the column that
//! matters most is facts kept.

use clap::Args;
use engram_embed::Embedder;
use engram_memory::judge::{examples, held_out, Judge, Params};
use std::path::PathBuf;

#[derive(Args)]
pub struct JudgeArgs {
    /// A model folder (default: the usual lookup).
    #[arg(long, env = "ENGRAM_MODEL_DIR")]
    model_dir: Option<PathBuf>,
    /// Judge these sentences instead, showing the nearest examples.
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
    let ex_vecs = embedder
        .embed(ex.iter().map(|(t, _)| t.to_string()).collect())
        .await?;
    let held_vecs = embedder
        .embed(held.iter().map(|(t, _)| t.to_string()).collect())
        .await?;
    let labelled: Vec<(Vec<f32>, bool)> = ex_vecs
        .into_iter()
        .zip(ex.iter().map(|(_, f)| *f))
        .collect();
    if !args.text.is_empty() {
        let judge = Judge::with(labelled.clone(), Params::default());
        for (t, v) in args
            .text
            .iter()
            .zip(embedder.embed(args.text.clone()).await?)
        {
            let verdict = if judge.is_junk(&v) {
                "not a fact"
            } else {
                "fact"
            };
            println!("{verdict}: {t}");
            let mut near: Vec<(f32, usize)> = labelled
                .iter()
                .enumerate()
                .map(|(i, (e, _))| (engram_embed::dot(e, &v), i))
                .collect();
            near.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (sim, i) in near.into_iter().take(5) {
                let label = if ex[i].1 { "fact" } else { "junk" };
                println!("    {sim:.3} {label}: {}", ex[i].0);
            }
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
        "{:>3} {:>6} {:>7}   {:>22}   {:>22}",
        "k", "floor", "margin", "leave-one-out kept/dropped", "held-out kept/dropped"
    );
    let default = Params::default();
    for k in [3, 5, 7, 9] {
        for floor in [0.35f32, 0.45, 0.55] {
            for margin in [1.0f32, 1.25, 1.5, 2.0] {
                let p = Params { k, floor, margin };
                let loo: Vec<(bool, bool)> = (0..labelled.len())
                    .map(|i| {
                        let mut others = labelled.clone();
                        let (v, fact) = others.remove(i);
                        (fact, Judge::with(others, p).is_junk(&v))
                    })
                    .collect();
                let judge = Judge::with(labelled.clone(), p);
                let ho: Vec<(bool, bool)> = held
                    .iter()
                    .zip(&held_vecs)
                    .map(|((_, fact), v)| (*fact, judge.is_junk(v)))
                    .collect();
                let (lk, ld) = score(&loo);
                let (hk, hd) = score(&ho);
                let mark = if p == default { "  <- default" } else { "" };
                println!(
                    "{k:>3} {floor:>6.2} {margin:>7.2}   {:>10.1}% / {:>7.1}%   {:>10.1}% / {:>7.1}%{mark}",
                    100.0 * lk,
                    100.0 * ld,
                    100.0 * hk,
                    100.0 * hd
                );
            }
        }
    }
    Ok(())
}
