//! `rerank` and `rewriteQuery` of `/v4/search`. With an LLM configured the
//! model re-scores the top candidates and rewrites the query; without one,
//! local stand-ins do. The local re-scorer reads two things the first
//! ranking does not:
//! - term coverage: how many of the query's distinct terms a result holds
//!   (the fused keyword score sums term weights, so one rare term can
//!   outweigh several common ones the question also asked for);
//! - formation context: a memory is one sentence cut from what was said,
//!   and the answer to a question often sits in the sentence after the one
//!   that matches it ("Maria volunteers at a shelter" / "she started after
//!   seeing a family on the street"). A memory is lifted part of the way
//!   towards a better-scoring candidate formed next to it from the same
//!   document ([`lift`]), as a chunk is towards its reading neighbours.
//!
//! The local expansion adds the question's declarative form ("When did Ana
//! move?" -> "Ana move"), which sits closer to stated facts in embedding
//! space.

use crate::Engine;
use engram_index::text::query_terms;
use engram_llm::{complete_json, ChatRequest};
use serde::Deserialize;

/// Candidates re-scored at most (the local re-scorer's neighbours come
/// from among them too).
pub const RERANK_TOP: usize = 50;
/// Memories formed at most this many places apart (in a document they
/// share) are each other's context.
pub const NEIGHBOUR_SPAN: usize = 2;
/// How far a memory is lifted towards its best-scoring context neighbour.
pub const NEIGHBOUR_LIFT: f32 = 0.5;
/// What results of the local expansion weigh against the original query's.
pub const EXPANSION_WEIGHT: f32 = 0.9;
/// Weight of term coverage in the local re-score.
pub const COVERAGE_WEIGHT: f32 = 0.2;

const WH: &[&str] = &[
    "what", "when", "where", "who", "whom", "whose", "which", "why", "how",
];
const AUX: &[&str] = &[
    "is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "will", "would", "can",
    "could", "should", "might", "many", "much", "long", "often", "old", "kind", "type", "sort",
];

/// The share of the query's distinct terms that `text` holds.
pub fn coverage(query: &str, text: &str) -> f32 {
    let q = query_terms(query, 32);
    if q.is_empty() {
        return 0.0;
    }
    let t = engram_index::text::terms(text);
    q.iter().filter(|w| t.contains(w)).count() as f32 / q.len() as f32
}

/// The local re-score: the fused score lifted by term coverage, in 0..1.
pub fn local_score(score: f32, query: &str, text: &str) -> f32 {
    ((1.0 - COVERAGE_WEIGHT) * score + COVERAGE_WEIGHT * coverage(query, text)).clamp(0.0, 1.0)
}

/// Lift each score part of the way ([`NEIGHBOUR_LIFT`]) towards the best
/// score among its neighbours (`near(i, j)`), reading the scores as they
/// were before any lift; a score never drops.
pub fn lift(scores: &mut [f32], near: impl Fn(usize, usize) -> bool) {
    let before = scores.to_vec();
    for (i, s) in scores.iter_mut().enumerate() {
        let best = before
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i && near(i, *j))
            .map(|(_, b)| *b)
            .fold(before[i], f32::max);
        *s = before[i] + NEIGHBOUR_LIFT * (best - before[i]);
    }
}

/// A question's declarative form, when it is a question: the wh-word and
/// auxiliaries dropped, the question mark gone.
pub fn declarative(q: &str) -> Option<String> {
    let t = q.trim().trim_end_matches('?').trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    if !WH.contains(&first.as_str()) && !AUX.contains(&first.as_str()) {
        return None;
    }
    let rest: Vec<&str> = words
        .iter()
        .skip(1)
        .skip_while(|w| AUX.contains(&w.to_lowercase().as_str()))
        .copied()
        .collect();
    (rest.len() >= 2).then(|| rest.join(" "))
}

#[derive(Deserialize)]
struct Scores {
    scores: Vec<Scored>,
}

#[derive(Deserialize)]
struct Scored {
    index: usize,
    score: f32,
}

#[derive(Deserialize)]
struct Rewritten {
    query: String,
}

impl Engine {
    /// A chat call a request waits for, within [`crate::EngineConfig::llm_budget`].
    pub(crate) async fn ask_now<T: serde::de::DeserializeOwned>(
        &self,
        llm: &dyn engram_llm::Llm,
        req: ChatRequest,
    ) -> Result<T, String> {
        match tokio::time::timeout(self.config.llm_budget, complete_json::<T>(llm, req)).await {
            Ok(Ok((t, _usage))) => Ok(t),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "no answer within {} ms",
                self.config.llm_budget.as_millis()
            )),
        }
    }

    /// Relevance of each text to the query by the LLM (0..1), in order;
    /// None without a model or when it fails.
    pub(crate) async fn llm_scores(&self, query: &str, texts: &[&str]) -> Option<Vec<f32>> {
        let llm = self.llm.as_deref()?;
        let listing: String = texts
            .iter()
            .enumerate()
            .map(|(i, t)| format!("[{i}] {t}\n"))
            .collect();
        let req = ChatRequest::new(
            "You rate how well each passage answers a search query. Answer JSON only: \
             {\"scores\": [{\"index\": <n>, \"score\": <0..1>}, ...]} with one entry per passage.",
            format!("Query: {query}\n\nPassages:\n{listing}"),
        );
        match self.ask_now::<Scores>(llm, req).await {
            Ok(s) => {
                let mut out = vec![0.0; texts.len()];
                for x in s.scores {
                    if let Some(slot) = out.get_mut(x.index) {
                        *slot = x.score.clamp(0.0, 1.0);
                    }
                }
                Some(out)
            }
            Err(e) => {
                tracing::warn!(error = %e, "LLM rerank failed; local re-scoring instead");
                None
            }
        }
    }

    /// The query rewritten by the LLM into an explicit search query, or its
    /// local expansion, with the weight its results carry when merged with
    /// the original query's (1 for the model's rewrite, [`EXPANSION_WEIGHT`]
    /// for the expansion, which adds candidates more than it reorders).
    pub(crate) async fn rewrite_query(&self, q: &str) -> Option<(String, f32)> {
        if let Some(llm) = self.llm.as_deref() {
            let req = ChatRequest::new(
                "Rewrite the user's search query into one explicit, self-contained search query \
                 for a memory store of facts. Answer JSON only: {\"query\": \"...\"}.",
                q.to_string(),
            );
            match self.ask_now::<Rewritten>(llm, req).await {
                Ok(r) if !r.query.trim().is_empty() => return Some((r.query, 1.0)),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "LLM rewrite failed; local expansion instead"),
            }
        }
        declarative(q).map(|d| (d, EXPANSION_WEIGHT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_become_statements() {
        let d = |q: &str| declarative(q);
        assert_eq!(
            d("When did Ana move to Berlin?").as_deref(),
            Some("Ana move to Berlin")
        );
        assert_eq!(
            d("How many kids does Ben have?").as_deref(),
            Some("kids does Ben have")
        );
        assert_eq!(d("Ana's favourite colour"), None);
        assert_eq!(d("Why?"), None);
    }

    #[test]
    fn neighbours_lift_towards_the_best_of_them_and_never_drop() {
        let check = |scores: &[f32], pairs: &[(usize, usize)], want: &[f32]| {
            let mut s = scores.to_vec();
            lift(&mut s, |i, j| {
                pairs.contains(&(i, j)) || pairs.contains(&(j, i))
            });
            assert_eq!(s, want);
        };
        check(&[0.8, 0.2, 0.4], &[(0, 1)], &[0.8, 0.5, 0.4]);
        // the best neighbour counts, as it scored before any lift
        check(&[0.8, 0.2, 0.6], &[(0, 1), (1, 2)], &[0.8, 0.5, 0.6]);
        check(&[0.3, 0.2], &[], &[0.3, 0.2]);
    }

    #[test]
    fn coverage_counts_distinct_query_terms() {
        assert_eq!(
            coverage("Ana moved to Berlin", "Ana moved to Berlin in May"),
            1.0
        );
        assert!((coverage("Ana Berlin cats", "Ana lives in Berlin") - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!(coverage("", "x"), 0.0);
        assert!(local_score(0.5, "a b", "c") < 0.5);
    }
}
