//! The query path: the scope as a chunk mask, keyword evidence with the
//! scope's statistics (own text and reading context), vector evidence
//! (exact scan or the HNSW graph), candidates with their reading
//! neighbours, and fusion into one score.

use super::{Hit, OrgIndex, Query, Scope, MAX_QUERY_TERMS, NONE};
use crate::{fusion, text, vector};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

impl OrgIndex {
    /// Exact top-`k` by cosine inside the scope (for measuring the graph's
    /// recall).
    pub fn exact_vector_top(&self, embedding: &[f32], scope: &Scope, k: usize) -> Vec<String> {
        self.vector_top(embedding, scope, k, false)
    }

    /// Top-`k` by cosine through the path queries use (the graph when the
    /// scope is large).
    pub fn vector_top(&self, embedding: &[f32], scope: &Scope, k: usize, ann: bool) -> Vec<String> {
        let (in_scope, scope_chunks) = self.scope_mask(scope);
        let found = ann
            .then(|| self.ann.search(embedding, k, scope_chunks.len(), &in_scope))
            .flatten()
            .unwrap_or_else(|| {
                let mut all: Vec<(u32, f32)> = scope_chunks
                    .iter()
                    .map(|&s| (s, vector::dot(embedding, self.vector(s))))
                    .collect();
                top_by(&mut all, k);
                all
            });
        found
            .into_iter()
            .map(|(s, _)| self.chunk(s).id.clone())
            .collect()
    }

    /// Chunks in the scope.
    pub fn scope_size(&self, scope: &Scope) -> usize {
        if scope == &Scope::default() {
            return self.live_chunks;
        }
        self.scope_docs(scope)
            .iter()
            .map(|&d| self.doc(d).chunks.len())
            .sum()
    }

    /// Document slots in the scope.
    fn scope_docs(&self, scope: &Scope) -> Vec<u32> {
        let mut docs: Vec<u32> = if let Some(id) = &scope.document_id {
            self.doc_by_id.get(id).copied().into_iter().collect()
        } else if !scope.container_tags.is_empty() {
            let mut set: HashSet<u32> = HashSet::new();
            for t in &scope.container_tags {
                if let Some(d) = self.tag_docs.get(t) {
                    set.extend(d);
                }
            }
            set.into_iter().collect()
        } else {
            self.doc_by_id.values().copied().collect()
        };
        // documents found through the tag lists carry a tag already; only
        // a document id lookup still needs the tag check
        let check_tags = scope.document_id.is_some() && !scope.container_tags.is_empty();
        docs.retain(|&d| {
            let doc = self.doc(d);
            (!check_tags || doc.tags.iter().any(|t| scope.container_tags.contains(t)))
                && scope
                    .filepath
                    .as_ref()
                    .is_none_or(|p| path_matches(&doc.filepath, p))
                && scope
                    .filter
                    .as_ref()
                    .is_none_or(|f| f.matches(&doc.metadata))
        });
        docs.sort_unstable();
        docs
    }

    /// A membership mask over chunk slots, and the slots, of a scope.
    fn scope_mask(&self, scope: &Scope) -> (Vec<bool>, Vec<u32>) {
        if scope == &Scope::default() {
            // the whole organisation: no per-document checks
            let slots = (0..self.live.len() as u32)
                .filter(|&s| self.live[s as usize])
                .collect();
            return (self.live.clone(), slots);
        }
        let mut in_scope = vec![false; self.chunks.len()];
        let mut slots = Vec::new();
        for d in self.scope_docs(scope) {
            for &c in &self.doc(d).chunks {
                in_scope[c as usize] = true;
                slots.push(c);
            }
        }
        (in_scope, slots)
    }

    /// The best chunks for a query, best first, each scored 0..1.
    pub fn search(&self, q: &Query) -> Vec<Hit> {
        SCRATCH.with_borrow_mut(|s| self.search_with(q, s))
    }

    fn search_with(&self, q: &Query, scratch: &mut Scratch) -> Vec<Hit> {
        let slots = self.chunks.len();
        scratch.prepare(slots);
        let Scratch {
            in_scope: mask,
            own,
            ctx,
            ctx_tf,
            cosine,
            busy,
        } = scratch;
        let unscoped = q.scope == &Scope::default();
        // the scope's chunk slots (the whole organisation reads the live mask)
        let scope_chunks: Vec<u32> = if unscoped {
            Vec::new()
        } else {
            let mut v = Vec::new();
            for d in self.scope_docs(q.scope) {
                for &c in &self.doc(d).chunks {
                    mask[c as usize] = true;
                    v.push(c);
                }
            }
            v
        };
        let in_scope: &[bool] = if unscoped { &self.live } else { mask };
        let n = if unscoped {
            self.live_chunks
        } else {
            scope_chunks.len()
        };
        let mut keyword_hits: Vec<u32> = Vec::new();
        let mut cos_set: Vec<u32> = Vec::new();
        let hits = if n == 0 || q.limit == 0 {
            Vec::new()
        } else {
            self.score(
                q,
                Buffers {
                    in_scope,
                    own,
                    ctx,
                    ctx_tf,
                    cosine,
                },
                &scope_chunks,
                n,
                &mut keyword_hits,
                &mut cos_set,
            )
        };
        // leave the buffers as they were found
        for &s in &keyword_hits {
            own[s as usize] = 0.0;
            ctx[s as usize] = 0.0;
        }
        for &s in &cos_set {
            cosine[s as usize] = f32::NAN;
        }
        for &s in &scope_chunks {
            mask[s as usize] = false;
        }
        *busy = false;
        hits
    }

    /// Keyword and vector evidence over the scope, candidates, fusion.
    /// Records the slots it wrote in `own`/`ctx` and `cosine`.
    fn score(
        &self,
        q: &Query,
        b: Buffers,
        scope_chunks: &[u32],
        n: usize,
        keyword_hits: &mut Vec<u32>,
        cos_set: &mut Vec<u32>,
    ) -> Vec<Hit> {
        let Buffers {
            in_scope,
            own,
            ctx,
            ctx_tf,
            cosine,
        } = b;
        let (mut own_total, mut ctx_total) = (0u64, 0u64);
        if scope_chunks.is_empty() {
            for (s, _) in in_scope.iter().enumerate().filter(|x| *x.1) {
                own_total += self.own_lens[s] as u64;
                ctx_total += self.ctx_lens[s] as u64;
            }
        } else {
            for &c in scope_chunks {
                own_total += self.own_lens[c as usize] as u64;
                ctx_total += self.ctx_lens[c as usize] as u64;
            }
        }
        let avg_own = own_total as f32 / n as f32;
        let avg_ctx = ctx_total as f32 / n as f32;
        let unscoped = scope_chunks.is_empty();

        // keyword evidence, with statistics of the scope
        let mut touched: Vec<u32> = Vec::new();
        let (mut idf_own, mut idf_ctx) = (0f32, 0f32);
        for term in text::query_terms(q.text, MAX_QUERY_TERMS) {
            let Some(&t) = self.term_ids.get(&term) else {
                continue;
            };
            let postings = &self.postings[t as usize];
            // postings hold live chunks only
            let df = if unscoped {
                postings.len()
            } else {
                postings.iter().filter(|p| in_scope[p.0 as usize]).count()
            };
            if df > 0 {
                let idf = fusion::idf(n, df);
                idf_own += idf;
                for &(s, tf) in postings {
                    if !in_scope[s as usize] {
                        continue;
                    }
                    let len = self.own_lens[s as usize] as f32;
                    if own[s as usize] == 0.0 && ctx[s as usize] == 0.0 {
                        keyword_hits.push(s);
                    }
                    own[s as usize] += fusion::bm25_term(idf, tf as f32, len, avg_own);
                }
            }
            // context: a chunk's occurrences count for every window holding
            // it. A term in more than half the scope's chunks lies in nearly
            // every window, so its context IDF is ~0: skip the walk.
            touched.clear();
            if df * 2 > n {
                continue;
            }
            for &(j, tf) in postings {
                let p = self.prev_of(j);
                let nx = self.next_of(j);
                for i in [j, p, nx, self.next_of(nx)] {
                    if i != NONE && in_scope[i as usize] {
                        if ctx_tf[i as usize] == 0 {
                            touched.push(i);
                        }
                        ctx_tf[i as usize] += tf;
                    }
                }
            }
            for &(d, tf) in &self.meta_postings[t as usize] {
                for &i in &self.doc(d).chunks {
                    if in_scope[i as usize] {
                        if ctx_tf[i as usize] == 0 {
                            touched.push(i);
                        }
                        ctx_tf[i as usize] += tf;
                    }
                }
            }
            if !touched.is_empty() {
                let idf = fusion::idf(n, touched.len());
                idf_ctx += idf;
                for &i in &touched {
                    let tf = std::mem::take(&mut ctx_tf[i as usize]);
                    if own[i as usize] == 0.0 && ctx[i as usize] == 0.0 {
                        keyword_hits.push(i);
                    }
                    let len = self.ctx_lens[i as usize] as f32;
                    ctx[i as usize] += fusion::bm25_term(idf, tf as f32, len, avg_ctx);
                }
            }
        }

        // vector evidence
        let pool = q.limit.max(50);
        let outside = q
            .nearest
            .filter(|_| n >= vector::ANN_MIN_CHUNKS)
            .map(|found| {
                found
                    .iter()
                    .filter_map(|(id, c)| Some((*self.chunk_by_id.get(id)?, *c)))
                    .filter(|&(s, _)| in_scope[s as usize])
                    .collect::<Vec<_>>()
            });
        let vector_hits: Vec<u32> =
            match outside.or_else(|| self.ann.search(q.embedding, pool, n, in_scope)) {
                Some(found) => {
                    for &(s, c) in &found {
                        cosine[s as usize] = c;
                        cos_set.push(s);
                    }
                    found.into_iter().map(|(s, _)| s).collect()
                }
                None => {
                    let scan = |s: u32| (s, vector::dot(q.embedding, self.vector(s)));
                    let mut all: Vec<(u32, f32)> = if unscoped {
                        (0..in_scope.len() as u32)
                            .filter(|&s| in_scope[s as usize])
                            .map(scan)
                            .collect()
                    } else {
                        scope_chunks.iter().map(|&s| scan(s)).collect()
                    };
                    for &(s, c) in &all {
                        cosine[s as usize] = c;
                        cos_set.push(s);
                    }
                    top_by(&mut all, pool);
                    all.into_iter().map(|(s, _)| s).collect()
                }
            };
        let cosine: &[f32] = cosine;
        let raw_cos = |s: u32| -> f32 {
            let c = cosine[s as usize];
            if c.is_nan() {
                vector::dot(q.embedding, self.vector(s))
            } else {
                c
            }
        };
        let subject = q
            .subject
            .and_then(|sub| self.subject_lean(sub, q.embedding, in_scope, &vector_hits));
        let cos_of = |s: u32| -> f32 {
            let raw = raw_cos(s);
            match &subject {
                Some(lean) if lean.names.contains(&s) => lean.rescored(raw, self.vector(s)),
                _ => raw,
            }
        };
        let base_of = |s: u32| -> f32 {
            fusion::base(
                fusion::normalised(own[s as usize], idf_own),
                fusion::normalised(ctx[s as usize], idf_ctx),
                cos_of(s),
            )
        };

        // candidates: the best of each side, and their reading neighbours
        let mut kw: Vec<(u32, f32)> = keyword_hits
            .iter()
            .map(|&s| {
                let k = fusion::W_OWN * fusion::normalised(own[s as usize], idf_own)
                    + fusion::W_CONTEXT * fusion::normalised(ctx[s as usize], idf_ctx);
                (s, k)
            })
            .collect();
        top_by(&mut kw, pool);
        let mut candidates: Vec<u32> = vector_hits;
        candidates.extend(kw.iter().map(|x| x.0));
        let first: Vec<u32> = candidates.clone();
        for s in first {
            let (p, n) = self.links[s as usize];
            for x in [p, n] {
                if x != NONE && in_scope[x as usize] {
                    candidates.push(x);
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut base: HashMap<u32, f32> = HashMap::with_capacity(candidates.len() * 2);
        let mut base_cached = |s: u32| *base.entry(s).or_insert_with(|| base_of(s));
        let mut scored: Vec<(u32, f32)> = candidates
            .iter()
            .map(|&s| {
                let (p, n) = self.links[s as usize];
                let b = base_cached(s);
                let neighbour = [p, n]
                    .into_iter()
                    .filter(|&x| x != NONE && in_scope[x as usize])
                    .map(&mut base_cached)
                    .fold(0f32, f32::max);
                (s, fusion::lifted(b, neighbour))
            })
            .collect();
        top_by(&mut scored, q.limit);
        scored
            .into_iter()
            .map(|(s, score)| {
                let c = self.chunk(s);
                Hit {
                    chunk_id: c.id.clone(),
                    document_id: self.doc(c.doc).id.clone(),
                    position: c.position,
                    score: fusion::calibrated(score),
                    cosine: cos_of(s),
                }
            })
            .collect()
    }
}

/// Most chunks a subject's name may be in for the re-scoring to run.
const SUBJECT_POSTINGS: usize = 50_000;

/// How chunks naming a query's subject lean on the name (see
/// [`crate::Subject`]).
struct Lean<'a> {
    /// The chunk slots in scope whose own text names the subject.
    names: HashSet<u32>,
    name: &'a [f32],
    /// The query's cosine with the name.
    query: f32,
    /// The average cosine with the name of the chunks that name it and
    /// are nearest the query.
    average: f32,
}

impl Lean<'_> {
    /// `raw` (the query's cosine with `v`) as if `v` leaned on the name as
    /// much as the average: the part of the cosine the name explains is
    /// the average's, the rest is scaled to the same room.
    fn rescored(&self, raw: f32, v: &[f32]) -> f32 {
        let own = vector::dot(self.name, v);
        let room = |x: f32| (1.0 - x * x).max(1e-4).sqrt();
        let rest = (raw - self.query * own) / room(own);
        (self.query * self.average + rest * room(self.average)).clamp(-1.0, 1.0)
    }
}

impl OrgIndex {
    /// How the scope's chunks that name `sub` lean on the name; `None`
    /// when none of the query's nearest chunks names it.
    fn subject_lean<'a>(
        &self,
        sub: crate::Subject<'a>,
        query: &[f32],
        in_scope: &[bool],
        nearest: &[u32],
    ) -> Option<Lean<'a>> {
        let terms = text::query_terms(sub.name, MAX_QUERY_TERMS);
        if terms.is_empty() || sub.embedding.len() != query.len() {
            return None;
        }
        // every word of the name in the chunk's own text (a name in more
        // chunks than this is no one's in particular, and would cost the
        // query a walk of all of them)
        let mut names: Option<HashSet<u32>> = None;
        for term in &terms {
            let t = *self.term_ids.get(term)?;
            if self.postings[t as usize].len() > SUBJECT_POSTINGS {
                return None;
            }
            let with: HashSet<u32> = self.postings[t as usize]
                .iter()
                .map(|p| p.0)
                .filter(|&s| in_scope[s as usize])
                .collect();
            names = Some(match names {
                None => with,
                Some(had) => had.intersection(&with).copied().collect(),
            });
        }
        let names = names?;
        let leans: Vec<f32> = nearest
            .iter()
            .filter(|s| names.contains(s))
            .map(|&s| vector::dot(sub.embedding, self.vector(s)))
            .collect();
        if leans.is_empty() {
            return None;
        }
        Some(Lean {
            names,
            name: sub.embedding,
            query: vector::dot(sub.embedding, query),
            average: leans.iter().sum::<f32>() / leans.len() as f32,
        })
    }
}

/// Per-thread buffers as long as the largest organisation queried on the
/// thread. A query leaves them as it found them (false, 0 and NaN), so no
/// query allocates, zeroes or faults in arrays the size of the
/// organisation.
#[derive(Default)]
struct Scratch {
    in_scope: Vec<bool>,
    own: Vec<f32>,
    ctx: Vec<f32>,
    ctx_tf: Vec<u32>,
    cosine: Vec<f32>,
    /// Set while a query runs: still set at the start of the next one means
    /// a query panicked midway and left them dirty.
    busy: bool,
}

impl Scratch {
    fn prepare(&mut self, slots: usize) {
        if self.busy {
            self.in_scope.fill(false);
            self.own.fill(0.0);
            self.ctx.fill(0.0);
            self.ctx_tf.fill(0);
            self.cosine.fill(f32::NAN);
        }
        if self.own.len() < slots {
            self.in_scope.resize(slots, false);
            self.own.resize(slots, 0.0);
            self.ctx.resize(slots, 0.0);
            self.ctx_tf.resize(slots, 0);
            self.cosine.resize(slots, f32::NAN);
        }
        self.busy = true;
    }
}

/// The scratch buffers one query scores with.
struct Buffers<'a> {
    in_scope: &'a [bool],
    own: &'a mut [f32],
    ctx: &'a mut [f32],
    ctx_tf: &'a mut [u32],
    cosine: &'a mut [f32],
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

fn path_matches(filepath: &Option<String>, want: &str) -> bool {
    let Some(p) = filepath else { return false };
    if want.ends_with('/') {
        p.starts_with(want)
    } else {
        p == want
    }
}

/// Keep the `k` highest scores, sorted best first (ties by slot).
fn top_by(v: &mut Vec<(u32, f32)>, k: usize) {
    let cmp = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if v.len() > k && k > 0 {
        v.select_nth_unstable_by(k - 1, cmp);
        v.truncate(k);
    }
    v.sort_by(cmp);
}
