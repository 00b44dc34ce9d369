//! The fact/not-a-fact judge at memory formation: the offline
//! extractor's candidates, their names masked, embedded and judged by
//! `engram_memory::judge`; those it is sure are not facts are dropped
//! before they are remembered, but for those whose shape already says
//! they are facts (`engram_memory::plain_facts`). Only for the embedding model the judge was
//! calibrated on; an LLM's candidates are never judged.

use crate::{Engine, EngineError};
use std::sync::Arc;

impl Engine {
    /// Drop from `candidates` (and their `vectors`, in the same order) the
    /// ones the judge is sure are not facts.
    pub(super) async fn drop_judged(
        &self,
        candidates: &mut Vec<(usize, engram_memory::Candidate)>,
        vectors: &mut Vec<Vec<f32>>,
    ) -> Result<(), EngineError> {
        if candidates.is_empty() {
            return Ok(());
        }
        let Some(judge) = self.judge().await? else {
            return Ok(());
        };
        // judged with names masked: what is said, not who said it
        let masked: Vec<String> = candidates
            .iter()
            .map(|(_, c)| engram_memory::judge::masked(&c.content))
            .collect();
        // a candidate naming nobody is its own masked text: reuse its
        // vector rather than embed it twice
        let differ: Vec<String> = masked
            .iter()
            .zip(candidates.iter())
            .filter(|(m, (_, c))| **m != c.content)
            .map(|(m, _)| m.clone())
            .collect();
        let mut fresh = self.embed_texts(differ).await?.into_iter();
        let masked: Vec<Vec<f32>> = masked
            .iter()
            .zip(candidates.iter().zip(vectors.iter()))
            .map(|(m, ((_, c), v))| {
                if *m == c.content {
                    v.clone()
                } else {
                    fresh.next().unwrap_or_default()
                }
            })
            .collect();
        // a taste or an aim stated outright is a fact whatever its warmth
        // tells the judge
        let keep: Vec<bool> = masked
            .iter()
            .zip(candidates.iter())
            .map(|(v, (_, c))| {
                engram_memory::plain_facts::is_plain_fact(&c.content) || !judge.is_junk(v)
            })
            .collect();
        for (((_, c), v), _) in candidates
            .iter()
            .zip(&masked)
            .zip(&keep)
            .filter(|(_, k)| !**k)
        {
            let p = judge.junk_probability(v);
            tracing::debug!(memory = %c.content, probability = p, "judged not a fact");
        }
        let mut k = keep.iter();
        candidates.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        vectors.retain(|_| *k.next().unwrap_or(&true));
        Ok(())
    }

    /// The fact/not-a-fact judge, its examples embedded on first use; none
    /// for an embedding model it was not calibrated on (its similarities
    /// would mean something else).
    async fn judge(&self) -> Result<Option<Arc<engram_memory::judge::Judge>>, EngineError> {
        if !engram_memory::judge::Judge::calibrated_for(self.embedder.model_name()) {
            return Ok(None);
        }
        self.judge
            .get_or_try_init(|| async {
                let vectors = self
                    .embed_texts(engram_memory::judge::Judge::texts())
                    .await?;
                Ok(Arc::new(engram_memory::judge::Judge::new(vectors)))
            })
            .await
            .cloned()
            .map(Some)
    }
}
