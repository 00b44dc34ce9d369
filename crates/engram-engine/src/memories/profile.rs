//! Profiles: what is known about a space at a glance. `static` lists its
//! durable facts (identity, home, work, relationships, lasting
//! preferences), most often stated first; `dynamic` its most recent other
//! memories, newest first. Both are de-duplicated and hold only the latest,
//! unforgotten, unexpired versions.
//!
//! A profile is computed once and served from memory until the space's
//! memories change: each request only checks the memory change log (one
//! indexed query), so a profile call does not grow with the space.

use crate::{Engine, EngineError};
use engram_store::{now, Memory, MemoryListQuery};
use std::collections::HashSet;
use std::sync::Arc;

/// Durable facts listed at most.
pub const MAX_STATIC: usize = 100;
/// Recent facts listed at most.
pub const MAX_DYNAMIC: usize = 30;

/// A space's profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    pub static_facts: Vec<String>,
    pub dynamic: Vec<String>,
    /// When the earliest listed memory expires (the profile is rebuilt then).
    valid_until: Option<engram_store::Timestamp>,
    /// Every live fact with its embedding (for buckets), de-duplicated.
    facts: Vec<(String, Vec<f32>)>,
}

/// Profile buckets offered when none are configured: `(key, description)`.
pub const DEFAULT_BUCKETS: &[(&str, &str)] = &[
    (
        "identity",
        "who they are: name, age, background and where they come from",
    ),
    ("work", "their job, career, employer, studies and education"),
    (
        "relationships",
        "their family, partner, children, friends and pets",
    ),
    (
        "preferences",
        "what they like and dislike, favourites, tastes and habits",
    ),
    (
        "places",
        "where they live, places they visited and travel plans",
    ),
    ("health", "their health, fitness, diet and wellbeing"),
    ("goals", "their plans, goals, projects and aspirations"),
];

/// Facts listed per bucket at most.
pub const MAX_PER_BUCKET: usize = 20;
/// Least cosine between a fact and a bucket's description for it to be
/// filed there.
pub const BUCKET_FLOOR: f32 = 0.15;

/// File facts into buckets: each fact into the bucket whose description it
/// is most similar to (when similar enough), most similar first.
pub fn file_into(
    facts: &[(String, Vec<f32>)],
    buckets: &[(String, Vec<f32>)],
) -> Vec<(String, Vec<String>)> {
    let mut filed: Vec<Vec<(f32, &str)>> = vec![Vec::new(); buckets.len()];
    for (text, v) in facts {
        let best = buckets
            .iter()
            .enumerate()
            .map(|(i, (_, b))| (i, engram_embed::dot(v, b)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, cos)) = best.filter(|(_, c)| *c >= BUCKET_FLOOR) {
            filed[i].push((cos, text));
        }
    }
    buckets
        .iter()
        .zip(filed)
        .map(|((name, _), mut v)| {
            v.sort_by(|a, b| b.0.total_cmp(&a.0));
            let texts = v
                .into_iter()
                .take(MAX_PER_BUCKET)
                .map(|(_, t)| t.to_string())
                .collect();
            (name.clone(), texts)
        })
        .collect()
}

fn key(s: &str) -> String {
    s.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A profile from a space's live memories.
pub fn build(mut memories: Vec<Memory>) -> Profile {
    let at = now();
    memories.retain(|m| m.is_latest && !m.is_gone(at));
    let valid_until = memories.iter().filter_map(|m| m.forget_after).min();
    let mut seen_facts = HashSet::new();
    let facts: Vec<(String, Vec<f32>)> = memories
        .iter()
        .filter(|m| seen_facts.insert(key(&m.content)))
        .map(|m| (m.content.clone(), m.embedding.clone()))
        .collect();
    let (mut stat, mut dynamic): (Vec<Memory>, Vec<Memory>) =
        memories.into_iter().partition(|m| m.is_static);
    stat.sort_by(|a, b| {
        b.source_count
            .cmp(&a.source_count)
            .then(b.updated_at.cmp(&a.updated_at))
            .then(a.id.cmp(&b.id))
    });
    let when = |m: &Memory| {
        m.document_date
            .clone()
            .unwrap_or_else(|| m.created_at.date_naive().to_string())
    };
    dynamic.sort_by(|a, b| {
        when(b)
            .cmp(&when(a))
            .then(b.created_at.cmp(&a.created_at))
            .then(a.id.cmp(&b.id))
    });
    let mut seen = HashSet::new();
    let mut pick = |v: Vec<Memory>, max: usize| -> Vec<String> {
        v.into_iter()
            .filter(|m| seen.insert(key(&m.content)))
            .take(max)
            .map(|m| m.content)
            .collect()
    };
    Profile {
        static_facts: pick(stat, MAX_STATIC),
        dynamic: pick(dynamic, MAX_DYNAMIC),
        valid_until,
        facts,
    }
}

impl Engine {
    /// The profile of space `tag`, from the cache unless its memories
    /// changed (or one of them expired) since it was built.
    pub async fn profile(&self, org_id: &str, tag: &str) -> Result<Arc<Profile>, EngineError> {
        let slot = self.fresh_memory_index(org_id).await?;
        let seq = slot.seen().await;
        let cache_key = (org_id.to_string(), tag.to_string());
        {
            let cache = self.profiles.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((s, p)) = cache.get(&cache_key) {
                if *s == seq && p.valid_until.is_none_or(|t| t > now()) {
                    return Ok(p.clone());
                }
            }
        }
        let q = MemoryListQuery {
            container_tags: vec![tag.to_string()],
            limit: 100_000,
            ..Default::default()
        };
        let (memories, _) = self.store.list_memories(org_id, &q).await?;
        let profile = Arc::new(build(memories));
        self.profiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(cache_key, (seq, profile.clone()));
        Ok(profile)
    }
}

impl Engine {
    /// The space's facts filed into buckets: the named ones (an offered
    /// bucket's description, or the name itself describes it), or every
    /// bucket the space offers (the defaults and its own).
    pub async fn profile_buckets(
        &self,
        org_id: &str,
        tag: &str,
        names: Option<&[String]>,
    ) -> Result<Vec<(String, Vec<String>)>, EngineError> {
        let profile = self.profile(org_id, tag).await?;
        let offered = self.buckets_of(org_id, tag).await?;
        let wanted: Vec<(String, String)> = match names {
            Some(n) if !n.is_empty() => n
                .iter()
                .map(|name| {
                    let desc = offered
                        .iter()
                        .find(|(k, _)| k == name)
                        .map_or(name.as_str(), |(_, d)| d);
                    (name.clone(), desc.to_string())
                })
                .collect(),
            _ => offered,
        };
        let descriptions: Vec<String> = wanted.iter().map(|(_, d)| d.clone()).collect();
        let vectors = self.cached_vectors(&descriptions).await?;
        let buckets: Vec<(String, Vec<f32>)> =
            wanted.into_iter().map(|(k, _)| k).zip(vectors).collect();
        Ok(file_into(&profile.facts, &buckets))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_go_to_their_most_similar_bucket() {
        let f = |t: &str, v: [f32; 2]| (t.to_string(), v.to_vec());
        let facts = [
            f("works at Stripe", [1.0, 0.0]),
            f("has a dog", [0.0, 1.0]),
            f("unrelated", [-1.0, 0.0]),
        ];
        let buckets = [f("work", [1.0, 0.0]), f("pets", [0.6, 0.8])];
        let filed = file_into(&facts, &buckets);
        assert_eq!(
            filed[0],
            ("work".to_string(), vec!["works at Stripe".to_string()])
        );
        assert_eq!(
            filed[1],
            ("pets".to_string(), vec!["has a dog".to_string()])
        );
    }
}
