//! Whether a candidate memory is a fact, judged by its nearest labelled
//! sentences: a small set of hand-written examples of facts and of what
//! is not one (advice, encouragement, reactions, wishes, greetings,
//! pictures shown without content, talk about the conversation), embedded
//! once with the service's own model. The offline extractor's word rules
//! catch the plain cases; this catches those phrased in words no rule
//! lists ("Keep pushing, the right place will turn up").
//!
//! The crate does no IO: the engine embeds [`Judge::examples`] and hands
//! the vectors to [`Judge::new`].

/// The labelled sentences, one per line: `fact: ...` or `junk: ...`.
const PROTOTYPES: &str = include_str!("../data/prototypes.txt");
/// Sentences labelled the same way that are never examples: what `engram
/// bench judge` measures the judge on.
const HELD_OUT: &str = include_str!("../data/judge_heldout.txt");

/// How the judge votes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Nearest examples that vote.
    pub k: usize,
    /// A candidate is judged only when its nearest not-a-fact example is
    /// at least this similar (below, it stays).
    pub floor: f32,
    /// How much stronger the not-a-fact vote must be than the fact vote.
    pub margin: f32,
}

impl Default for Params {
    fn default() -> Self {
        // chosen with `engram bench judge`: nearly every fact kept (100%
        // leave-one-out, 97.5% held out) while half the chatter the word
        // rules let through is dropped
        Self {
            k: 5,
            floor: 0.45,
            margin: 2.0,
        }
    }
}

/// The labelled examples as `(text, is_fact)`.
pub fn examples() -> Vec<(&'static str, bool)> {
    parse(PROTOTYPES)
}

/// The held-out sentences as `(text, is_fact)`.
pub fn held_out() -> Vec<(&'static str, bool)> {
    parse(HELD_OUT)
}

fn parse(text: &'static str) -> Vec<(&'static str, bool)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            if let Some(t) = l.strip_prefix("fact:") {
                Some((t.trim(), true))
            } else {
                l.strip_prefix("junk:").map(|t| (t.trim(), false))
            }
        })
        .collect()
}

/// The judge: the examples' unit vectors and labels.
#[derive(Debug, Clone, Default)]
pub struct Judge {
    examples: Vec<(Vec<f32>, bool)>,
    params: Params,
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The embedding model the voting parameters were chosen with.
pub const CALIBRATED_MODEL: &str = "all-MiniLM-L6-v2";

impl Judge {
    /// Whether the judge's parameters hold for vectors of this model (a
    /// similarity of 0.45 means something else on another model).
    pub fn calibrated_for(model: &str) -> bool {
        model == CALIBRATED_MODEL
    }

    /// The texts to embed, in the order [`Judge::new`] expects them.
    pub fn texts() -> Vec<&'static str> {
        examples().into_iter().map(|(t, _)| t).collect()
    }

    /// A judge from the examples' vectors (in [`Judge::texts`] order).
    pub fn new(vectors: Vec<Vec<f32>>) -> Self {
        let labels = examples();
        Self::with(
            vectors
                .into_iter()
                .zip(labels)
                .map(|(v, (_, fact))| (v, fact))
                .collect(),
            Params::default(),
        )
    }

    /// A judge from any labelled vectors `(vector, is_fact)` and voting
    /// parameters (for measuring it).
    pub fn with(examples: Vec<(Vec<f32>, bool)>, params: Params) -> Self {
        Self { examples, params }
    }

    /// Whether the examples nearest to `v` (a unit vector) say it is not a
    /// fact: a similarity-weighted vote of the nearest `k`, with the
    /// not-a-fact side needing a clear margin.
    pub fn is_junk(&self, v: &[f32]) -> bool {
        if self.examples.is_empty() {
            return false;
        }
        let mut near: Vec<(f32, bool)> = self
            .examples
            .iter()
            .map(|(e, fact)| (dot(e, v), *fact))
            .collect();
        near.sort_by(|a, b| b.0.total_cmp(&a.0));
        let p = self.params;
        let nearest_junk = near.iter().find(|(_, f)| !f).map_or(-1.0, |n| n.0);
        if nearest_junk < p.floor {
            return false;
        }
        let (mut fact, mut junk) = (0.0, 0.0);
        for (sim, is_fact) in near.iter().take(p.k) {
            let w = sim.max(0.0);
            if *is_fact {
                fact += w;
            } else {
                junk += w;
            }
        }
        junk > p.margin * fact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_parse_and_are_balanced() {
        let ex = examples();
        let facts = ex.iter().filter(|(_, f)| *f).count();
        let junk = ex.len() - facts;
        assert!(facts >= 60 && junk >= 60, "{facts} facts, {junk} junk");
        assert!(ex.iter().all(|(t, _)| !t.is_empty()));
        let held = held_out();
        assert!(held.len() >= 60);
        assert!(
            held.iter().all(|h| !ex.contains(h)),
            "held-out sentences are never examples"
        );
    }

    #[test]
    fn the_vote_follows_the_nearest_examples() {
        // three axes: two fact examples near x, one junk example at y
        let j = Judge::with(
            vec![
                (vec![1.0, 0.0, 0.0], true),
                (vec![0.9, 0.436, 0.0], true),
                (vec![0.0, 1.0, 0.0], false),
                (vec![0.0, 0.95, 0.312], false),
            ],
            Params::default(),
        );
        assert!(!j.is_junk(&[1.0, 0.0, 0.0]));
        assert!(j.is_junk(&[0.0, 1.0, 0.0]));
        // far from every example: no opinion
        assert!(!j.is_junk(&[0.0, 0.0, -1.0]));
        assert!(!Judge::default().is_junk(&[1.0, 0.0, 0.0]));
    }
}
