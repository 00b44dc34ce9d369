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
