//! An index written to bytes and read back, so that a restart does not
//! rebuild what is expensive (tokenising every chunk, the HNSW graph) from
//! the store.
//!
//! The encoding is this crate's own, little-endian, field by field in the
//! order of [`OrgIndex`]'s members; the maps that only invert another
//! member (ids to slots) are rebuilt on reading. The HNSW graph is saved by
//! usearch into a file of its own. This module knows nothing of files'
//! names, checksums or which change-log position an index reflects: the
//! caller (the engine's snapshots) frames the bytes. Reading never trusts a
//! length beyond the bytes the caller says remain, so a truncated or
//! corrupt input is an error, never a huge allocation.

use super::{Chunk, Doc, OrgIndex};
use crate::vector;
use std::collections::{BTreeSet, HashSet};
use std::io::{self, Read, Write};
use std::path::Path;

/// Bumped whenever the encoding changes; older encodings are not read.
const ENCODING: u32 = 1;

fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("index encoding: {what}"),
    )
}

struct Enc<'a, W: Write>(&'a mut W);

impl<W: Write> Enc<'_, W> {
    fn u8(&mut self, v: u8) -> io::Result<()> {
        self.0.write_all(&[v])
    }
    fn u32(&mut self, v: u32) -> io::Result<()> {
        self.0.write_all(&v.to_le_bytes())
    }
    fn u64(&mut self, v: u64) -> io::Result<()> {
        self.0.write_all(&v.to_le_bytes())
    }
    fn i64(&mut self, v: i64) -> io::Result<()> {
        self.0.write_all(&v.to_le_bytes())
    }
    fn len(&mut self, n: usize) -> io::Result<()> {
        self.u64(n as u64)
    }
    fn str(&mut self, s: &str) -> io::Result<()> {
        self.len(s.len())?;
        self.0.write_all(s.as_bytes())
    }
    fn u32s(&mut self, v: &[u32]) -> io::Result<()> {
        self.len(v.len())?;
        let mut buf = Vec::with_capacity(v.len() * 4);
        v.iter()
            .for_each(|x| buf.extend_from_slice(&x.to_le_bytes()));
        self.0.write_all(&buf)
    }
    fn pairs(&mut self, v: &[(u32, u32)]) -> io::Result<()> {
        self.len(v.len())?;
        let mut buf = Vec::with_capacity(v.len() * 8);
        for (a, b) in v {
            buf.extend_from_slice(&a.to_le_bytes());
            buf.extend_from_slice(&b.to_le_bytes());
        }
        self.0.write_all(&buf)
    }
}

struct Dec<'a, R: Read> {
    r: &'a mut R,
    /// Bytes the input may still hold; every length is checked against it.
    left: u64,
}

impl<R: Read> Dec<'_, R> {
    fn take(&mut self, n: u64) -> io::Result<()> {
        self.left = self
            .left
            .checked_sub(n)
            .ok_or_else(|| invalid("truncated"))?;
        Ok(())
    }
    fn bytes<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        self.take(N as u64)?;
        let mut b = [0u8; N];
        self.r.read_exact(&mut b)?;
        Ok(b)
    }
    fn u8(&mut self) -> io::Result<u8> {
        Ok(self.bytes::<1>()?[0])
    }
    fn u32(&mut self) -> io::Result<u32> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }
    fn i64(&mut self) -> io::Result<i64> {
        Ok(i64::from_le_bytes(self.bytes()?))
    }
    fn bool(&mut self) -> io::Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(invalid("flag")),
        }
    }
    /// A count of items at least `each` bytes long.
    fn len(&mut self, each: u64) -> io::Result<usize> {
        let n = u64::from_le_bytes(self.bytes()?);
        if n.saturating_mul(each.max(1)) > self.left {
            return Err(invalid("length past the end"));
        }
        Ok(n as usize)
    }
    fn raw(&mut self, n: usize) -> io::Result<Vec<u8>> {
        self.take(n as u64)?;
        let mut v = vec![0u8; n];
        self.r.read_exact(&mut v)?;
        Ok(v)
    }
    fn str(&mut self) -> io::Result<String> {
        let n = self.len(1)?;
        String::from_utf8(self.raw(n)?).map_err(|_| invalid("text"))
    }
    fn u32s(&mut self) -> io::Result<Vec<u32>> {
        let n = self.len(4)?;
        Ok(self
            .raw(n * 4)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
    fn pairs(&mut self) -> io::Result<Vec<(u32, u32)>> {
        let n = self.len(8)?;
        Ok(self
            .raw(n * 8)?
            .chunks_exact(8)
            .map(|b| {
                (
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
                )
            })
            .collect())
    }
}

impl OrgIndex {
    /// Write the index to `w`; its HNSW graph, when it has one, goes to the
    /// file `graph` (which is then part of the encoding: keep both).
    pub fn encode(&self, w: &mut impl Write, graph: &Path) -> io::Result<()> {
        let mut e = Enc(w);
        e.u32(ENCODING)?;
        e.u32(self.dim as u32)?;
        e.u8(self.standalone as u8)?;
        e.u8(self.own_graph as u8)?;

        e.len(self.docs.len())?;
        for d in &self.docs {
            let Some(d) = d else {
                e.u8(0)?;
                continue;
            };
            e.u8(1)?;
            e.str(&d.id)?;
            e.i64(d.seq)?;
            e.u32(d.stream)?;
            e.len(d.tags.len())?;
            for t in &d.tags {
                e.str(t)?;
            }
            e.str(&serde_json::to_string(&d.metadata).map_err(io::Error::other)?)?;
            match &d.filepath {
                Some(p) => {
                    e.u8(1)?;
                    e.str(p)?;
                }
                None => e.u8(0)?,
            }
            e.u32s(&d.chunks)?;
            e.pairs(&d.meta_terms)?;
            e.u32(d.meta_len)?;
        }
        e.u32s(&self.free_docs)?;

        e.len(self.chunks.len())?;
        for c in &self.chunks {
            let Some(c) = c else {
                e.u8(0)?;
                continue;
            };
            e.u8(1)?;
            e.str(&c.id)?;
            e.u32(c.doc)?;
            e.i64(c.position)?;
            e.pairs(&c.terms)?;
        }
        e.u32s(&self.free_chunks)?;
        e.len(self.live_chunks)?;
        e.len(self.vectors.len())?;
        let mut buf = Vec::with_capacity(self.dim * 4 * 1024);
        for part in self.vectors.chunks(self.dim.max(1) * 1024) {
            buf.clear();
            part.iter()
                .for_each(|x| buf.extend_from_slice(&x.to_le_bytes()));
            e.0.write_all(&buf)?;
        }

        let mut terms = vec![""; self.term_ids.len()];
        for (t, &id) in &self.term_ids {
            terms[id as usize] = t;
        }
        e.len(terms.len())?;
        for t in terms {
            e.str(t)?;
        }
        for postings in [&self.postings, &self.meta_postings] {
            e.len(postings.len())?;
            for p in postings {
                e.pairs(p)?;
            }
        }
        e.len(self.stream_ids.len())?;
        for (k, &v) in &self.stream_ids {
            e.str(k)?;
            e.u32(v)?;
        }
        e.len(self.streams.len())?;
        for s in &self.streams {
            e.len(s.len())?;
            for &(seq, slot) in s {
                e.i64(seq)?;
                e.u32(slot)?;
            }
        }
        e.len(self.tag_docs.len())?;
        for (tag, slots) in &self.tag_docs {
            e.str(tag)?;
            e.u32s(&slots.iter().copied().collect::<Vec<_>>())?;
        }
        e.u32s(&self.ann_pending)?;
        e.pairs(&self.links)?;
        e.u32s(&self.ctx_lens)?;
        e.u32s(&self.own_lens)?;
        e.len(self.live.len())?;
        e.0.write_all(&self.live.iter().map(|&l| l as u8).collect::<Vec<_>>())?;
        let has_graph = self.ann.save(graph)?;
        e.u8(has_graph as u8)
    }

    /// Read an index [`OrgIndex::encode`] wrote; `len` is how many bytes
    /// `r` holds at most, and `graph` the file its graph went to.
    pub fn decode(r: &mut impl Read, len: u64, graph: &Path) -> io::Result<Self> {
        let mut d = Dec { r, left: len };
        if d.u32()? != ENCODING {
            return Err(invalid("another version"));
        }
        let dim = d.u32()? as usize;
        if dim == 0 || dim > 1 << 16 {
            return Err(invalid("dimension"));
        }
        let standalone = d.bool()?;
        let own_graph = d.bool()?;
        let mut index = Self {
            standalone,
            ..Self::with_graph(dim, own_graph)
        };

        let n = d.len(1)?;
        index.docs.reserve(n);
        for slot in 0..n {
            if !d.bool()? {
                index.docs.push(None);
                continue;
            }
            let id = d.str()?;
            let seq = d.i64()?;
            let stream = d.u32()?;
            let tags = (0..d.len(8)?)
                .map(|_| d.str())
                .collect::<io::Result<Vec<_>>>()?;
            let metadata = serde_json::from_str(&d.str()?).map_err(|_| invalid("metadata"))?;
            let filepath = if d.bool()? { Some(d.str()?) } else { None };
            let chunks = d.u32s()?;
            let meta_terms = d.pairs()?;
            let meta_len = d.u32()?;
            index.doc_by_id.insert(id.clone(), slot as u32);
            index.docs.push(Some(Doc {
                id,
                seq,
                stream,
                tags,
                metadata,
                filepath,
                chunks,
                meta_terms,
                meta_len,
            }));
        }
        index.free_docs = d.u32s()?;

        let n = d.len(1)?;
        index.chunks.reserve(n);
        for slot in 0..n {
            if !d.bool()? {
                index.chunks.push(None);
                continue;
            }
            let id = d.str()?;
            let doc = d.u32()?;
            let position = d.i64()?;
            let terms = d.pairs()?;
            index.chunk_by_id.insert(id.clone(), slot as u32);
            index.chunks.push(Some(Chunk {
                id,
                doc,
                position,
                terms,
            }));
        }
        index.free_chunks = d.u32s()?;
        index.live_chunks = d.len(0)?;
        let n = d.len(4)?;
        if n != index.chunks.len() * dim {
            return Err(invalid("vector count"));
        }
        index.vectors = d
            .raw(n * 4)?
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();

        let n = d.len(8)?;
        index.term_ids.reserve(n);
        for id in 0..n {
            index.term_ids.insert(d.str()?, id as u32);
        }
        for postings in [&mut index.postings, &mut index.meta_postings] {
            let n = d.len(8)?;
            postings.reserve(n);
            for _ in 0..n {
                postings.push(d.pairs()?);
            }
        }
        if index.postings.len() != index.term_ids.len()
            || index.meta_postings.len() != index.term_ids.len()
        {
            return Err(invalid("postings count"));
        }
        for _ in 0..d.len(12)? {
            let k = d.str()?;
            index.stream_ids.insert(k, d.u32()?);
        }
        for _ in 0..d.len(8)? {
            let mut s = BTreeSet::new();
            for _ in 0..d.len(12)? {
                let seq = d.i64()?;
                s.insert((seq, d.u32()?));
            }
            index.streams.push(s);
        }
        for _ in 0..d.len(16)? {
            let tag = d.str()?;
            let slots: HashSet<u32> = d.u32s()?.into_iter().collect();
            index.tag_docs.insert(tag, slots);
        }
        index.ann_pending = d.u32s()?;
        index.links = d.pairs()?;
        index.ctx_lens = d.u32s()?;
        index.own_lens = d.u32s()?;
        let n = d.len(1)?;
        index.live = d.raw(n)?.into_iter().map(|b| b != 0).collect();
        let slots = index.chunks.len();
        if [
            index.links.len(),
            index.ctx_lens.len(),
            index.own_lens.len(),
            index.live.len(),
        ]
        .iter()
        .any(|&l| l != slots)
        {
            return Err(invalid("per-chunk arrays"));
        }
        index.check_slots()?;
        if d.bool()? {
            index.ann = vector::Ann::load(dim, graph)?;
        }
        Ok(index)
    }

    /// Every slot a member names exists, so that a decoded index can never
    /// index out of bounds.
    fn check_slots(&self) -> io::Result<()> {
        let (nd, nc) = (self.docs.len() as u32, self.chunks.len() as u32);
        let chunk_ok = |s: u32| s < nc && self.chunks[s as usize].is_some();
        let doc_ok = |s: u32| s < nd && self.docs[s as usize].is_some();
        let link_ok = |s: u32| s == super::NONE || s < nc;
        let terms = self.term_ids.len() as u32;
        let fine = self.docs.iter().flatten().all(|d| {
            d.chunks.iter().all(|&c| chunk_ok(c))
                && d.meta_terms.iter().all(|&(t, _)| t < terms)
                && (d.stream as usize) < self.streams.len()
        }) && self
            .chunks
            .iter()
            .flatten()
            .all(|c| doc_ok(c.doc) && c.terms.iter().all(|&(t, _)| t < terms))
            && self.postings.iter().flatten().all(|&(s, _)| chunk_ok(s))
            && self.meta_postings.iter().flatten().all(|&(s, _)| doc_ok(s))
            && self.streams.iter().flatten().all(|&(_, s)| doc_ok(s))
            && self.tag_docs.values().flatten().all(|&s| doc_ok(s))
            && self.links.iter().all(|&(a, b)| link_ok(a) && link_ok(b))
            && self.free_docs.iter().all(|&s| s < nd)
            && self.free_chunks.iter().all(|&s| s < nc)
            && self.ann_pending.iter().all(|&s| s < nc)
            && self
                .stream_ids
                .values()
                .all(|&s| (s as usize) < self.streams.len())
            && self.doc_by_id.len() == self.docs.iter().flatten().count()
            && self.live_chunks == self.chunks.iter().flatten().count();
        if fine {
            Ok(())
        } else {
            Err(invalid("a slot out of range"))
        }
    }
}
