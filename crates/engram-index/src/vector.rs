//! Vector side: the dot product the exact scan runs on, and the HNSW
//! graph (usearch) that replaces the scan once an organisation is large.
//!
//! The graph holds an organisation's chunks once it has at least
//! [`ANN_MIN_CHUNKS`]; below that, and for any scope smaller than that,
//! the exact scan is both fast and exact. Scope restrictions apply inside
//! the graph walk (a filter predicate), never by post-filtering a top-k.

use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

/// Chunks at which an organisation gets the HNSW graph, and the scope size
/// from which queries use it.
pub const ANN_MIN_CHUNKS: usize = 20_000;
/// HNSW links per node.
const CONNECTIVITY: usize = 16;
/// Candidate list while inserting.
const EXPANSION_ADD: usize = 128;
/// Lowest candidate list while searching (raised to the requested count).
const EXPANSION_SEARCH: usize = 128;

/// Dot product of two equally long slices.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { dot_avx2(a, b) };
        }
    }
    dot_portable(a, b)
}

// inlined so that the AVX2 wrapper compiles this loop with its features
#[inline(always)]
fn dot_portable(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn dot_avx2(a: &[f32], b: &[f32]) -> f32 {
    dot_portable(a, b)
}

/// `g` measuring distances with [`dot`] (`1 - a·b`, what usearch's own
/// inner-product metric returns). usearch is built without its optional
/// SIMD library (numkong: all of its kernels for every number type, some
/// eight minutes of C compilation in a cold build, the longest step of
/// CI); its own kernels would run at the baseline instruction set, so the
/// graph calls back into the AVX2 dot product the exact scan uses. A
/// callback is not saved with the graph: set it after every load.
fn with_dot_metric(mut g: Index, dim: usize) -> Index {
    g.change_metric::<f32>(Box::new(move |a: *const f32, b: *const f32| {
        // SAFETY: usearch passes two vectors of this graph, `dim` values each
        let (a, b) = unsafe {
            (
                std::slice::from_raw_parts(a, dim),
                std::slice::from_raw_parts(b, dim),
            )
        };
        1.0 - dot(a, b)
    }));
    g
}

fn graph_err(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, format!("graph: {e}"))
}

/// The optional HNSW graph over an organisation's chunk vectors, keyed by
/// chunk slot.
pub struct Ann {
    dim: usize,
    graph: Option<Index>,
}

impl Ann {
    pub fn new(dim: usize) -> Self {
        Self { dim, graph: None }
    }

    /// Whether the graph exists.
    pub fn is_built(&self) -> bool {
        self.graph.is_some()
    }

    pub fn memory_bytes(&self) -> usize {
        self.graph.as_ref().map_or(0, |g| g.memory_usage())
    }

    fn options(dim: usize) -> IndexOptions {
        IndexOptions {
            dimensions: dim,
            metric: MetricKind::IP,
            quantization: ScalarKind::F32,
            connectivity: CONNECTIVITY,
            expansion_add: EXPANSION_ADD,
            expansion_search: EXPANSION_SEARCH,
            multi: false,
        }
    }

    /// Save the graph to `path`; false (and no file) when there is none.
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<bool> {
        let Some(g) = &self.graph else {
            return Ok(false);
        };
        let path = path
            .to_str()
            .ok_or_else(|| std::io::Error::other("graph path"))?;
        g.save(path)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(true)
    }

    /// A graph [`Ann::save`] wrote, with room to grow.
    pub fn load(dim: usize, path: &std::path::Path) -> std::io::Result<Self> {
        let path = path
            .to_str()
            .ok_or_else(|| std::io::Error::other("graph path"))?;
        let g = Index::new(&Self::options(dim)).map_err(graph_err)?;
        g.load(path).map_err(graph_err)?;
        if g.dimensions() != dim {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "graph: another dimension",
            ));
        }
        g.reserve(g.size().max(1024) * 2).map_err(graph_err)?;
        let g = with_dot_metric(g, dim);
        Ok(Self {
            dim,
            graph: Some(g),
        })
    }

    /// Build the graph over `(slot, vector)` pairs, using `threads` threads.
    pub fn build(&mut self, items: &[(u32, &[f32])], threads: usize) {
        let Ok(g) = Index::new(&Self::options(self.dim)) else {
            return;
        };
        if g.reserve(items.len().max(1024) * 2).is_err() {
            return;
        }
        self.graph = Some(with_dot_metric(g, self.dim));
        self.add_many(items, threads);
    }

    /// Add vectors to the graph (when it exists), using `threads` threads.
    pub fn add_many(&mut self, items: &[(u32, &[f32])], threads: usize) {
        let Some(g) = &self.graph else {
            return;
        };
        let need = g.size() + items.len();
        if need >= g.capacity() && g.reserve(need * 2).is_err() {
            return;
        }
        let per = items.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for part in items.chunks(per) {
                s.spawn(move || {
                    for (slot, v) in part {
                        let _ = g.add(*slot as u64, v);
                    }
                });
            }
        });
    }

    pub fn remove(&mut self, slot: u32) {
        if let Some(g) = &self.graph {
            let _ = g.remove(slot as u64);
        }
    }

    /// The `k` nearest chunks inside the scope as `(slot, cosine)`, or None
    /// when the exact scan should answer (no graph, or a small scope).
    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        scope_size: usize,
        in_scope: &[bool],
    ) -> Option<Vec<(u32, f32)>> {
        let g = self.graph.as_ref()?;
        if scope_size < ANN_MIN_CHUNKS || query.len() != self.dim {
            return None;
        }
        g.change_expansion_search(EXPANSION_SEARCH.max(k * 2));
        let found = if scope_size == g.size() {
            g.search(query, k).ok()?
        } else {
            g.filtered_search(query, k, |key| {
                in_scope.get(key as usize).copied().unwrap_or(false)
            })
            .ok()?
        };
        Some(
            found
                .keys
                .iter()
                .zip(&found.distances)
                .map(|(&k, &d)| (k as u32, 1.0 - d))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_the_plain_sum() {
        let a: Vec<f32> = (0..389).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..389).map(|i| (i as f32 * 0.11).cos()).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-3);
        assert!((dot_portable(&a, &b) - plain).abs() < 1e-3);
    }
}
