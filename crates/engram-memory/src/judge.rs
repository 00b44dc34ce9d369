//! Whether a candidate memory is a fact, judged with the local embedding
//! model: a logistic regression over sentence embeddings, trained (at
//! first use, in milliseconds) on a small set of hand-written labelled
//! sentences: facts, and what is not one (advice, encouragement,
//! reactions, wishes, greetings, pictures shown without content, talk
//! about the conversation). The offline extractor's word rules catch the
//! plain cases; this catches those phrased in words no rule lists
//! ("Together, John's impact will surely last").
//!
//! Names are masked before embedding ([`masked`]): a sentence embedding
//! is dominated by its names and topic, and whether something is a fact
//! must not depend on whether the user happens to share a name with an
//! example. A linear model rather than nearest neighbours for the same
//! reason: it learns which directions separate facts from chatter across
//! topics, instead of voting by topic.
//!
//! The crate does no IO: the engine embeds [`Judge::texts`] and hands the
//! vectors to [`Judge::new`].

/// The labelled sentences, one per line: `fact: ...` or `junk: ...`.
const PROTOTYPES: &str = include_str!("../data/prototypes.txt");
/// Sentences labelled the same way that are never examples: what `engram
/// bench judge` measures the judge on.
const HELD_OUT: &str = include_str!("../data/judge_heldout.txt");

/// The embedding model the judge's threshold was chosen with.
pub const CALIBRATED_MODEL: &str = "all-MiniLM-L6-v2";

/// How sure the model must be that a sentence is not a fact before it is
/// dropped. Chosen with `engram bench judge`: a dropped fact costs a
/// memory, a kept remark costs little, so the bar is high.
pub const DEFAULT_THRESHOLD: f32 = 0.7;

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

/// Words that open sentences capitalised without being names.
pub(crate) fn common(word: &str) -> bool {
    let w = word.to_lowercase();
    crate::offline::lexicon::verb(&w).is_some()
        || crate::offline::lexicon::AUXILIARIES.contains(&w.as_str())
        || !crate::offline::is_name_word(word)
}

/// The text with every name replaced by one neutral name ("Gina's store"
/// -> "Alex's store"), so that the judge sees what is said, not who; and
/// without "now" after its first word, which says when, not what.
pub fn masked(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut last_was_name = false;
    for (i, w) in text.split_whitespace().enumerate() {
        let (lead, core, tail) = crate::offline::coref::parts(w);
        // "now" says when, not whether it is a fact ("Nadia reports to
        // Gareth now"); the chatter it opens often is ("now I'm sad")
        if i > 0 && core.eq_ignore_ascii_case("now") {
            if let Some(prev) = out.last_mut() {
                prev.push_str(tail);
            }
            continue;
        }
        let (name, poss) = match core.strip_suffix("'s").or(core.strip_suffix("\u{2019}s")) {
            Some(n) => (n, "'s"),
            None => (core, ""),
        };
        let capital = name.chars().next().is_some_and(char::is_uppercase);
        let is_name = capital && !(i == 0 && common(name)) && crate::offline::is_name_word(name);
        if is_name {
            if last_was_name && poss.is_empty() && !lead.contains(['(', '"']) {
                // "Anne Marie" is one name
                if let Some(prev) = out.last_mut() {
                    *prev = format!("Alex{tail}");
                }
            } else {
                out.push(format!("{lead}Alex{poss}{tail}"));
            }
            last_was_name = tail.is_empty() && poss.is_empty();
        } else {
            out.push(w.to_string());
            last_was_name = false;
        }
    }
    roles(&out.join(" "))
}

/// Roles whose words read as praise ("the best man", "the maid of
/// honour": "best" and "honour" are no compliment here), said as a role
/// that does not.
fn roles(text: &str) -> String {
    let mut out = text.to_string();
    for (said, role) in [
        ("best man", "groomsman"),
        ("Best man", "Groomsman"),
        ("maid of honour", "bridesmaid"),
        ("maid of honor", "bridesmaid"),
        ("matron of honour", "bridesmaid"),
        ("matron of honor", "bridesmaid"),
    ] {
        out = out.replace(said, role);
    }
    out
}

/// The judge: a linear model over unit sentence vectors.
#[derive(Debug, Clone)]
pub struct Judge {
    weights: Vec<f32>,
    bias: f32,
    threshold: f32,
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Training rounds and step of the logistic regression (full batch).
const ROUNDS: usize = 400;
const STEP: f32 = 2.0;
/// L2 penalty: the examples are few, the dimensions many.
const L2: f32 = 1e-3;

impl Judge {
    /// Whether the judge's threshold holds for vectors of this model.
    pub fn calibrated_for(model: &str) -> bool {
        // "sentence-transformers/all-MiniLM-L6-v2" is the same model
        model.rsplit('/').next() == Some(CALIBRATED_MODEL)
    }

    /// The texts to embed (masked), in the order [`Judge::new`] expects.
    pub fn texts() -> Vec<String> {
        examples().into_iter().map(|(t, _)| masked(t)).collect()
    }

    /// A judge trained on the examples' vectors (in [`Judge::texts`] order).
    pub fn new(vectors: Vec<Vec<f32>>) -> Self {
        let labelled = vectors
            .into_iter()
            .zip(examples())
            .map(|(v, (_, fact))| (v, fact))
            .collect::<Vec<_>>();
        Self::train(&labelled, DEFAULT_THRESHOLD)
    }

    /// A judge trained on any labelled vectors `(vector, is_fact)`.
    pub fn train(examples: &[(Vec<f32>, bool)], threshold: f32) -> Self {
        let dim = examples.first().map_or(0, |(v, _)| v.len());
        let mut weights = vec![0f32; dim];
        let mut bias = 0f32;
        let n = examples.len().max(1) as f32;
        // classes weighted equally, however many of each there are
        let junk = examples.iter().filter(|(_, f)| !f).count().max(1) as f32;
        let facts = examples.iter().filter(|(_, f)| *f).count().max(1) as f32;
        for _ in 0..ROUNDS {
            let mut gw = vec![0f32; dim];
            let mut gb = 0f32;
            for (v, fact) in examples {
                let y = if *fact { 0.0 } else { 1.0 };
                let weight = if *fact {
                    n / (2.0 * facts)
                } else {
                    n / (2.0 * junk)
                };
                let err = (sigmoid(dot(&weights, v) + bias) - y) * weight;
                for (g, x) in gw.iter_mut().zip(v) {
                    *g += err * x;
                }
                gb += err;
            }
            for (w, g) in weights.iter_mut().zip(&gw) {
                *w -= STEP * (g / n + L2 * *w);
            }
            bias -= STEP * gb / n;
        }
        Self {
            weights,
            bias,
            threshold,
        }
    }

    /// How likely `v` (a unit vector of a [`masked`] text) is not a fact.
    pub fn junk_probability(&self, v: &[f32]) -> f32 {
        if self.weights.is_empty() {
            return 0.0;
        }
        sigmoid(dot(&self.weights, v) + self.bias)
    }

    /// Whether the model is sure enough that `v` is not a fact.
    pub fn is_junk(&self, v: &[f32]) -> bool {
        self.junk_probability(v) >= self.threshold
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
    fn the_served_model_name_is_recognised() {
        assert!(Judge::calibrated_for("all-MiniLM-L6-v2"));
        assert!(Judge::calibrated_for(
            "sentence-transformers/all-MiniLM-L6-v2"
        ));
        assert!(Judge::calibrated_for(engram_embed_default_name()));
        assert!(!Judge::calibrated_for("text-embedding-3-small"));
        assert!(!Judge::calibrated_for("test-hash"));
    }

    /// The name the server gives its default model.
    fn engram_embed_default_name() -> &'static str {
        "sentence-transformers/all-MiniLM-L6-v2"
    }

    #[test]
    fn names_are_masked() {
        assert_eq!(
            masked("Gina's store opened in Paris."),
            "Alex's store opened in Alex."
        );
        assert_eq!(
            masked("Keep going, Andrew will find it."),
            "Keep going, Alex will find it."
        );
        assert_eq!(masked("Anne Marie moved."), "Alex moved.");
        assert_eq!(masked("I love it."), "I love it.");
        assert_eq!(
            masked("Nadia reports to Gareth now."),
            "Alex reports to Alex."
        );
        assert_eq!(masked("Now Sam is happy."), "Now Alex is happy.");
        assert_eq!(
            masked("Mateo is going to be the best man."),
            "Alex is going to be the groomsman."
        );
    }

    #[test]
    fn the_model_separates_what_it_was_shown() {
        // two clusters on two axes
        let ex = vec![
            (vec![1.0, 0.0, 0.0], true),
            (vec![0.9, 0.1, 0.0], true),
            (vec![0.0, 1.0, 0.0], false),
            (vec![0.1, 0.9, 0.0], false),
        ];
        let j = Judge::train(&ex, 0.5);
        assert!(!j.is_junk(&[1.0, 0.0, 0.0]));
        assert!(j.is_junk(&[0.0, 1.0, 0.0]));
        // a high bar keeps what it is unsure of
        let strict = Judge::train(&ex, 0.99);
        assert!(!strict.is_junk(&[0.5, 0.5, 0.0]));
    }
}
