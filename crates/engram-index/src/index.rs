//! The index structure: documents and chunks in reusable slots, keyword
//! postings, metadata postings, the reading order, and the query path.
//!
//! Reading order. Chunks of a document follow each other by position, and
//! documents that share their first container tag follow each other in the
//! order the store created them (a conversation sent one message per
//! document is read in the order it was said). A chunk's reading context
//! is the two chunks before it, itself and the one after it; the context
//! keyword score reads that window plus the document's metadata values.

use crate::text;
use crate::vector;
use engram_core::filter::Filter;
use engram_core::Metadata;
use std::collections::{BTreeSet, HashMap, HashSet};

mod persist;
mod query;

const NONE: u32 = u32::MAX;
/// Most distinct query terms used.
pub const MAX_QUERY_TERMS: usize = 32;

/// A document as the index receives it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexDocument {
    pub id: String,
    /// Creation order within the organisation (orders the reading stream).
    pub seq: i64,
    pub container_tags: Vec<String>,
    pub metadata: Metadata,
    pub filepath: Option<String>,
    pub chunks: Vec<IndexChunk>,
    /// More words every chunk's keyword context reads, like its metadata
    /// values (a memory's source turns); usually empty.
    pub context: String,
}

/// A chunk as the index receives it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexChunk {
    pub id: String,
    pub position: i64,
    pub text: String,
    pub embedding: Vec<f32>,
}

/// Where a query looks; every condition must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scope {
    /// Documents carrying any of these tags; all when empty.
    pub container_tags: Vec<String>,
    pub document_id: Option<String>,
    /// Exact path, or a prefix when it ends with `/`.
    pub filepath: Option<String>,
    pub filter: Option<Filter>,
}

/// A query against one organisation's index.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    pub text: &'a str,
    /// Unit-length query embedding.
    pub embedding: &'a [f32],
    pub scope: &'a Scope,
    /// How many chunks to return at most (best first).
    pub limit: usize,
    /// The scope's nearest chunks by cosine as `(chunk id, cosine)`, from a
    /// vector index outside this one (a store's); used instead of the
    /// in-process graph for scopes of at least [`vector::ANN_MIN_CHUNKS`].
    /// Ids this index does not hold (yet, or any more) are skipped.
    pub nearest: Option<&'a [(String, f32)]>,
    /// Someone the query names ("does Omar have a pet?"), with the
    /// embedding of the name alone: see [`Subject`].
    pub subject: Option<Subject<'a>>,
}

/// Someone a query names. In a space of facts about one person every
/// fact names them, and the name weighs more in a short fact's embedding
/// than in a long one's: "Omar is 41 years old." is nearer to any
/// question about Omar than "Omar's cat Pixel died in October 2026." is
/// to "does Omar have a pet?". Among the chunks that name the subject,
/// each cosine is re-scored as if every one of them leaned on the name
/// equally (the average lean): the rest of the fact decides their order,
/// and on average their scores stay where they were. Chunks that do not
/// name the subject keep their cosine.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// The name as the query writes it.
    pub name: &'a str,
    /// Unit-length embedding of the name alone (embedded as a document).
    pub embedding: &'a [f32],
}

/// A scored chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub chunk_id: String,
    pub document_id: String,
    pub position: i64,
    /// The fused score, calibrated to 0..1 ([`crate::fusion::calibrated`]).
    pub score: f32,
    /// Cosine similarity to the query.
    pub cosine: f32,
}

struct Doc {
    id: String,
    seq: i64,
    stream: u32,
    tags: Vec<String>,
    metadata: Metadata,
    filepath: Option<String>,
    /// Chunk slots in position order.
    chunks: Vec<u32>,
    meta_terms: Vec<(u32, u32)>,
    meta_len: u32,
}

struct Chunk {
    id: String,
    doc: u32,
    position: i64,
    terms: Vec<(u32, u32)>,
}

/// One organisation's search index.
pub struct OrgIndex {
    dim: usize,
    docs: Vec<Option<Doc>>,
    free_docs: Vec<u32>,
    doc_by_id: HashMap<String, u32>,
    chunks: Vec<Option<Chunk>>,
    free_chunks: Vec<u32>,
    live_chunks: usize,
    vectors: Vec<f32>,
    term_ids: HashMap<String, u32>,
    /// Per term: (chunk slot, term frequency).
    postings: Vec<Vec<(u32, u32)>>,
    /// Per term: (document slot, frequency in the metadata values).
    meta_postings: Vec<Vec<(u32, u32)>>,
    stream_ids: HashMap<String, u32>,
    /// Per stream: (seq, document slot) of documents that have chunks.
    streams: Vec<BTreeSet<(i64, u32)>>,
    tag_docs: HashMap<String, HashSet<u32>>,
    ann: vector::Ann,
    /// Whether this index builds its own HNSW graph (false when the store
    /// keeps one and queries bring its answer in [`Query::nearest`]).
    own_graph: bool,
    /// Each document is its own reading stream (see [`OrgIndex::standalone`]).
    standalone: bool,
    chunk_by_id: HashMap<String, u32>,
    /// Chunk slots added since the graph was last brought up to date.
    ann_pending: Vec<u32>,
    /// Per chunk slot: (previous, next) in reading order; compact, because
    /// the context score walks it for every posting.
    links: Vec<(u32, u32)>,
    /// Per chunk slot: the reading context's length in terms.
    ctx_lens: Vec<u32>,
    /// Per chunk slot: its own length in terms.
    own_lens: Vec<u32>,
    /// Per chunk slot: whether it holds a chunk (the unscoped query's mask).
    live: Vec<bool>,
}

/// Every term of the metadata's string, number and boolean values (and of
/// strings inside arrays).
fn metadata_text(m: &Metadata) -> String {
    fn push(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::String(s) => out.push_str(s),
            serde_json::Value::Number(n) => out.push_str(&n.to_string()),
            serde_json::Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            serde_json::Value::Array(a) => a.iter().for_each(|x| push(x, out)),
            _ => {}
        }
        out.push(' ');
    }
    let mut out = String::new();
    m.values().for_each(|v| push(v, &mut out));
    out
}

impl OrgIndex {
    /// An empty index for vectors of `dim` dimensions, which builds its
    /// own HNSW graph once the organisation is large.
    pub fn new(dim: usize) -> Self {
        Self::with_graph(dim, true)
    }

    /// An empty index that never builds a graph: large scopes take their
    /// vector candidates from [`Query::nearest`] (the store's vector index).
    pub fn without_graph(dim: usize) -> Self {
        Self::with_graph(dim, false)
    }

    /// An index of standalone records (memories): no reading order, so a
    /// record's context is itself and its metadata, never its neighbours.
    pub fn standalone(dim: usize) -> Self {
        Self {
            standalone: true,
            ..Self::with_graph(dim, true)
        }
    }

    fn with_graph(dim: usize, own_graph: bool) -> Self {
        Self {
            standalone: false,
            own_graph,
            chunk_by_id: HashMap::new(),
            dim,
            docs: Vec::new(),
            free_docs: Vec::new(),
            doc_by_id: HashMap::new(),
            chunks: Vec::new(),
            free_chunks: Vec::new(),
            live_chunks: 0,
            vectors: Vec::new(),
            term_ids: HashMap::new(),
            postings: Vec::new(),
            meta_postings: Vec::new(),
            stream_ids: HashMap::new(),
            streams: Vec::new(),
            tag_docs: HashMap::new(),
            ann: vector::Ann::new(dim),
            ann_pending: Vec::new(),
            links: Vec::new(),
            ctx_lens: Vec::new(),
            own_lens: Vec::new(),
            live: Vec::new(),
        }
    }

    /// Documents held.
    pub fn documents(&self) -> usize {
        self.doc_by_id.len()
    }

    /// Chunks held.
    pub fn chunks(&self) -> usize {
        self.live_chunks
    }

    /// Approximate heap bytes held (vectors, postings, slots).
    pub fn memory_bytes(&self) -> usize {
        let vectors = self.vectors.capacity() * 4;
        let postings: usize = self
            .postings
            .iter()
            .chain(&self.meta_postings)
            .map(|p| p.capacity() * 8 + 24)
            .sum();
        let chunks: usize = self
            .chunks
            .iter()
            .flatten()
            .map(|c| std::mem::size_of::<Chunk>() + c.id.capacity() + c.terms.capacity() * 8)
            .sum();
        let docs: usize = self
            .docs
            .iter()
            .flatten()
            .map(|d| {
                std::mem::size_of::<Doc>()
                    + d.id.capacity()
                    + d.chunks.capacity() * 4
                    + d.meta_terms.capacity() * 8
                    + serde_json::to_string(&d.metadata).map_or(0, |s| s.len())
            })
            .sum();
        let terms: usize = self.term_ids.keys().map(|k| k.capacity() + 32).sum();
        let chunk_ids: usize = self.chunk_by_id.keys().map(|k| k.capacity() + 32).sum();
        vectors + postings + chunks + docs + terms + chunk_ids + self.ann.memory_bytes()
    }

    fn term_id(&mut self, t: String) -> u32 {
        if let Some(&id) = self.term_ids.get(&t) {
            return id;
        }
        let id = self.postings.len() as u32;
        self.term_ids.insert(t, id);
        self.postings.push(Vec::new());
        self.meta_postings.push(Vec::new());
        id
    }

    fn counted(&mut self, text: &str) -> (Vec<(u32, u32)>, u32) {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        let mut len = 0;
        for t in text::terms(text) {
            *counts.entry(self.term_id(t)).or_default() += 1;
            len += 1;
        }
        let mut v: Vec<(u32, u32)> = counts.into_iter().collect();
        v.sort_unstable();
        (v, len)
    }

    fn chunk(&self, slot: u32) -> &Chunk {
        self.chunks[slot as usize]
            .as_ref()
            .expect("live chunk slot")
    }

    fn doc(&self, slot: u32) -> &Doc {
        self.docs[slot as usize]
            .as_ref()
            .expect("live document slot")
    }

    fn vector(&self, slot: u32) -> &[f32] {
        let s = slot as usize * self.dim;
        &self.vectors[s..s + self.dim]
    }

    fn upsert_one(&mut self, doc: IndexDocument) {
        self.remove(&doc.id);
        let stream_key = if self.standalone {
            doc.id.clone()
        } else {
            doc.container_tags.first().cloned().unwrap_or_default()
        };
        let next_stream = self.stream_ids.len() as u32;
        let stream = *self.stream_ids.entry(stream_key).or_insert(next_stream);
        if stream as usize == self.streams.len() {
            self.streams.push(BTreeSet::new());
        }
        let mut meta_text = metadata_text(&doc.metadata);
        meta_text.push_str(&doc.context);
        let (meta_terms, meta_len) = self.counted(&meta_text);
        let dslot = match self.free_docs.pop() {
            Some(s) => s,
            None => {
                self.docs.push(None);
                (self.docs.len() - 1) as u32
            }
        };
        for &(t, tf) in &meta_terms {
            self.meta_postings[t as usize].push((dslot, tf));
        }
        for tag in &doc.container_tags {
            self.tag_docs.entry(tag.clone()).or_default().insert(dslot);
        }
        let mut chunks = doc.chunks;
        chunks.sort_by_key(|c| c.position);
        let mut slots = Vec::with_capacity(chunks.len());
        for c in chunks {
            let (terms, len) = self.counted(&c.text);
            let slot = match self.free_chunks.pop() {
                Some(s) => s,
                None => {
                    self.chunks.push(None);
                    self.links.push((NONE, NONE));
                    self.ctx_lens.push(0);
                    self.own_lens.push(0);
                    self.live.push(false);
                    self.vectors.resize(self.chunks.len() * self.dim, 0.0);
                    (self.chunks.len() - 1) as u32
                }
            };
            for &(t, tf) in &terms {
                self.postings[t as usize].push((slot, tf));
            }
            self.chunk_by_id.insert(c.id.clone(), slot);
            let start = slot as usize * self.dim;
            let n = c.embedding.len().min(self.dim);
            self.vectors[start..start + n].copy_from_slice(&c.embedding[..n]);
            self.vectors[start + n..start + self.dim].fill(0.0);
            self.links[slot as usize] = (NONE, NONE);
            self.own_lens[slot as usize] = len;
            self.live[slot as usize] = true;
            self.chunks[slot as usize] = Some(Chunk {
                id: c.id,
                doc: dslot,
                position: c.position,
                terms,
            });
            self.live_chunks += 1;
            slots.push(slot);
        }
        for w in slots.windows(2) {
            self.link(w[0], w[1]);
        }
        self.docs[dslot as usize] = Some(Doc {
            id: doc.id.clone(),
            seq: doc.seq,
            stream,
            tags: doc.container_tags,
            metadata: doc.metadata,
            filepath: doc.filepath,
            chunks: slots.clone(),
            meta_terms,
            meta_len,
        });
        self.doc_by_id.insert(doc.id, dslot);
        if let (Some(&first), Some(&last)) = (slots.first(), slots.last()) {
            let order = &mut self.streams[stream as usize];
            order.insert((doc.seq, dslot));
            let before = order.range(..(doc.seq, dslot)).next_back().map(|x| x.1);
            let after = order.range((doc.seq, dslot + 1)..).next().map(|x| x.1);
            let p = before.map_or(NONE, |d| *self.doc(d).chunks.last().expect("has chunks"));
            let n = after.map_or(NONE, |d| self.doc(d).chunks[0]);
            self.link(p, first);
            self.link(last, n);
            let mut touched = vec![p];
            touched.extend(&slots);
            touched.push(n);
            touched.push(self.next_of(n));
            self.refresh_ctx(&touched);
            self.ann_pending.extend(&slots);
        }
    }

    /// Add or replace many documents; the HNSW graph is brought up to date
    /// once, at the end, on several threads.
    pub fn upsert_many(&mut self, docs: impl IntoIterator<Item = IndexDocument>) {
        for d in docs {
            self.upsert_one(d);
        }
        self.flush_ann();
    }

    /// Add a document, replacing the one with the same id.
    pub fn upsert(&mut self, doc: IndexDocument) {
        self.upsert_one(doc);
        self.flush_ann();
    }

    /// Put pending chunks into the graph, or build it once the
    /// organisation is large enough.
    fn flush_ann(&mut self) {
        let dim = self.dim;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut pending = std::mem::take(&mut self.ann_pending);
        pending.sort_unstable();
        pending.dedup();
        if self.ann.is_built() {
            let items: Vec<(u32, &[f32])> = pending
                .into_iter()
                .filter(|&s| self.chunks[s as usize].is_some())
                .map(|s| (s, &self.vectors[s as usize * dim..(s as usize + 1) * dim]))
                .collect();
            self.ann.add_many(&items, threads);
        } else if self.own_graph && self.live_chunks >= vector::ANN_MIN_CHUNKS {
            let items: Vec<(u32, &[f32])> = self
                .chunks
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_some())
                .map(|(s, _)| (s as u32, &self.vectors[s * dim..(s + 1) * dim]))
                .collect();
            self.ann.build(&items, threads);
        }
    }

    /// Whether queries over large scopes use the HNSW graph.
    pub fn has_ann(&self) -> bool {
        self.ann.is_built()
    }

    fn link(&mut self, a: u32, b: u32) {
        if a != NONE {
            self.links[a as usize].1 = b;
        }
        if b != NONE {
            self.links[b as usize].0 = a;
        }
    }

    fn next_of(&self, s: u32) -> u32 {
        if s == NONE {
            NONE
        } else {
            self.links[s as usize].1
        }
    }

    fn prev_of(&self, s: u32) -> u32 {
        if s == NONE {
            NONE
        } else {
            self.links[s as usize].0
        }
    }

    /// The reading window of a chunk: two before, itself, one after.
    fn window(&self, s: u32) -> [u32; 4] {
        let p = self.prev_of(s);
        [self.prev_of(p), p, s, self.next_of(s)]
    }

    fn refresh_ctx(&mut self, slots: &[u32]) {
        for &s in slots {
            if s == NONE {
                continue;
            }
            let window: u32 = self
                .window(s)
                .iter()
                .filter(|&&w| w != NONE)
                .map(|&w| self.own_lens[w as usize])
                .sum();
            let meta = self.doc(self.chunk(s).doc).meta_len;
            self.ctx_lens[s as usize] = window + meta;
        }
    }

    /// Remove a document; false when it was not held.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(dslot) = self.doc_by_id.remove(id) else {
            return false;
        };
        let doc = self.docs[dslot as usize]
            .take()
            .expect("live document slot");
        for (t, _) in &doc.meta_terms {
            self.meta_postings[*t as usize].retain(|p| p.0 != dslot);
        }
        for tag in &doc.tags {
            if let Some(set) = self.tag_docs.get_mut(tag) {
                set.remove(&dslot);
                if set.is_empty() {
                    self.tag_docs.remove(tag);
                }
            }
        }
        if let (Some(&first), Some(&last)) = (doc.chunks.first(), doc.chunks.last()) {
            self.streams[doc.stream as usize].remove(&(doc.seq, dslot));
            let p = self.prev_of(first);
            let n = self.next_of(last);
            for &s in &doc.chunks {
                let c = self.chunks[s as usize].take().expect("live chunk slot");
                self.chunk_by_id.remove(&c.id);
                for (t, _) in &c.terms {
                    self.postings[*t as usize].retain(|p| p.0 != s);
                }
                self.ann.remove(s);
                self.free_chunks.push(s);
                self.live_chunks -= 1;
                self.live[s as usize] = false;
            }
            self.link(p, n);
            let nn = self.next_of(n);
            self.refresh_ctx(&[p, n, nn]);
        }
        self.free_docs.push(dslot);
        true
    }
}
