//! Engram's own documentation, compiled into the binary, and its offline
//! search: the `docs/` folder split into sections and indexed with the same
//! retrieval engine that serves users' documents (`engram-index`: BM25 over
//! each section and its neighbours, fused with embedding similarity when an
//! embedder is at hand, keyword evidence alone when it is not).
//!
//! Its only I/O is asking the embedder for vectors and, when given a
//! directory, caching them there (one file per docs-and-model fingerprint),
//! so a CLI search embeds one query, not every section. The CLI (`engram
//! docs`) and the MCP server's documentation tool both read it.

use engram_embed::Embedder;
use engram_index::{IndexChunk, IndexDocument, OrgIndex, Query, Scope};
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;

/// The pages, in reading order: `(name, markdown)`.
pub const PAGES: &[(&str, &str)] = &[
    ("quickstart", include_str!("../../../docs/quickstart.md")),
    ("concepts", include_str!("../../../docs/concepts.md")),
    ("api", include_str!("../../../docs/api.md")),
    ("cli", include_str!("../../../docs/cli.md")),
    (
        "configuration",
        include_str!("../../../docs/configuration.md"),
    ),
    ("providers", include_str!("../../../docs/providers.md")),
    ("deployment", include_str!("../../../docs/deployment.md")),
    ("sdk", include_str!("../../../docs/sdk.md")),
    ("mcp", include_str!("../../../docs/mcp.md")),
    ("connections", include_str!("../../../docs/connections.md")),
    ("console", include_str!("../../../docs/console.md")),
    (
        "memory-quality",
        include_str!("../../../docs/memory-quality.md"),
    ),
    ("hardening", include_str!("../../../docs/hardening.md")),
];

/// Why a documentation search failed.
#[derive(Debug, thiserror::Error)]
pub enum DocsError {
    #[error("embedding failed: {0}")]
    Embed(#[from] engram_embed::EmbedError),
}

/// One page of the documentation.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    pub name: &'static str,
    /// Its first heading.
    pub title: String,
    pub markdown: &'static str,
}

/// The page called `name` (`quickstart`, `api`, ...), if there is one.
pub fn page(name: &str) -> Option<Page> {
    let name = name.trim().trim_end_matches(".md");
    PAGES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(n, md)| Page {
            name: n,
            title: title_of(md),
            markdown: md,
        })
}

/// Every page, in reading order.
pub fn pages() -> Vec<Page> {
    PAGES.iter().filter_map(|(n, _)| page(n)).collect()
}

fn title_of(md: &str) -> String {
    md.lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("")
        .trim()
        .to_string()
}

/// A heading and the text under it, up to the next heading of any level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    pub page: &'static str,
    /// The heading path, e.g. `API reference › Documents › Add a document`.
    pub heading: String,
    /// The heading's anchor, as markdown renderers make it.
    pub anchor: String,
    /// The section's text, heading included.
    pub text: String,
}

/// The sections of one page's markdown (fenced code never starts one).
pub fn sections_of(page: &'static str, md: &str) -> Vec<Section> {
    let mut out = Vec::new();
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut text = String::new();
    let mut fenced = false;
    let flush = |path: &[(usize, String)], text: &mut String, out: &mut Vec<Section>| {
        if !text.trim().is_empty() {
            let heading = path
                .iter()
                .map(|(_, h)| h.as_str())
                .collect::<Vec<_>>()
                .join(" › ");
            let anchor = path.last().map(|(_, h)| anchor(h)).unwrap_or_default();
            out.push(Section {
                page,
                heading,
                anchor,
                text: text.trim().to_string(),
            });
        }
        text.clear();
    };
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if !fenced && (1..=4).contains(&level) && line[level..].starts_with(' ') {
            flush(&path, &mut text, &mut out);
            let h = line[level..].trim().to_string();
            path.retain(|(l, _)| *l < level);
            path.push((level, h));
        }
        text.push_str(line);
        text.push('\n');
    }
    flush(&path, &mut text, &mut out);
    out
}

/// A GitHub-style anchor: lower case, spaces to dashes, punctuation gone.
pub fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A section found by a search.
#[derive(Debug, Clone, Serialize)]
pub struct DocHit {
    pub page: &'static str,
    pub heading: String,
    pub anchor: String,
    /// Fused relevance, 0..1.
    pub score: f32,
    pub text: String,
}

/// The documentation, indexed.
pub struct DocsIndex {
    index: OrgIndex,
    sections: Vec<Section>,
    embedder: Option<Arc<dyn Embedder>>,
    vectors: Vec<Vec<f32>>,
}

/// Every section of every page, in reading order.
pub fn sections() -> Vec<Section> {
    PAGES
        .iter()
        .flat_map(|(n, md)| sections_of(n, md))
        .collect()
}

/// A fingerprint of the docs and a model: cached vectors are valid for
/// exactly this value (FNV-1a over the model name and every page).
pub fn fingerprint(model: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(model.as_bytes());
    for (name, md) in PAGES {
        eat(name.as_bytes());
        eat(md.as_bytes());
    }
    format!("{h:016x}")
}

impl DocsIndex {
    /// Index every section; with an embedder, also their vectors (one
    /// batch), so searches are hybrid.
    pub async fn build(embedder: Option<Arc<dyn Embedder>>) -> Result<Self, DocsError> {
        Self::build_with(embedder, None).await
    }

    /// As [`DocsIndex::build`], reusing `vectors` (one per section, from
    /// [`DocsIndex::vectors`] of an index built with the same model and
    /// docs, e.g. cached on disk) when they fit.
    pub async fn build_with(
        embedder: Option<Arc<dyn Embedder>>,
        vectors: Option<Vec<Vec<f32>>>,
    ) -> Result<Self, DocsError> {
        let sections = sections();
        let (dim, vectors) = match &embedder {
            Some(e) => {
                let fits = vectors.as_ref().is_some_and(|v| {
                    v.len() == sections.len() && v.iter().all(|x| x.len() == e.dimension())
                });
                let vectors = match vectors {
                    Some(v) if fits => v,
                    _ => {
                        let texts = sections.iter().map(|s| s.text.clone()).collect();
                        e.embed(texts).await?
                    }
                };
                (e.dimension(), vectors)
            }
            None => (1, vec![vec![0.0]; sections.len()]),
        };
        let mut index = OrgIndex::without_graph(dim);
        let mut docs = Vec::with_capacity(sections.len());
        for (i, (s, v)) in sections.iter().zip(vectors.iter().cloned()).enumerate() {
            docs.push(IndexDocument {
                context: String::new(),
                id: i.to_string(),
                seq: i as i64,
                container_tags: vec![s.page.to_string()],
                metadata: Default::default(),
                filepath: Some(format!("docs/{}.md", s.page)),
                chunks: vec![IndexChunk {
                    id: i.to_string(),
                    position: 0,
                    text: s.text.clone(),
                    embedding: v,
                }],
            });
        }
        index.upsert_many(docs);
        Ok(Self {
            index,
            sections,
            embedder,
            vectors,
        })
    }

    /// As [`DocsIndex::build`], with the sections' vectors cached in
    /// `cache_dir` (read when a file for these docs and this model is
    /// there, written otherwise). A cache that cannot be read or written is
    /// only slower, never an error.
    pub async fn load_or_build(
        embedder: Option<Arc<dyn Embedder>>,
        cache_dir: Option<&Path>,
    ) -> Result<Self, DocsError> {
        let (Some(e), Some(dir)) = (&embedder, cache_dir) else {
            return Self::build(embedder).await;
        };
        let path = dir.join(format!("docs-{}.f32", fingerprint(e.model_name())));
        let dim = e.dimension().max(1);
        let cached = std::fs::read(&path).ok().map(|bytes| {
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect::<Vec<f32>>()
                .chunks(dim)
                .map(<[f32]>::to_vec)
                .collect::<Vec<_>>()
        });
        let n = sections().len();
        let fits = cached
            .as_ref()
            .is_some_and(|v| v.len() == n && v.iter().all(|x| x.len() == dim));
        let index = Self::build_with(embedder.clone(), cached).await?;
        if !fits {
            let bytes: Vec<u8> = index
                .vectors()
                .iter()
                .flatten()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            let tmp = path.with_extension("tmp");
            let written = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&tmp, bytes))
                .and_then(|()| std::fs::rename(&tmp, &path));
            if let Err(err) = written {
                tracing::debug!(%err, path = %path.display(), "docs vectors not cached");
            }
        }
        Ok(index)
    }

    /// The sections' vectors (empty without an embedder), to cache.
    pub fn vectors(&self) -> &[Vec<f32>] {
        if self.embedder.is_some() {
            &self.vectors
        } else {
            &[]
        }
    }

    /// Whether searches use embeddings as well as keywords.
    pub fn hybrid(&self) -> bool {
        self.embedder.is_some()
    }

    /// Sections indexed.
    pub fn len(&self) -> usize {
        self.sections.len()
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// The best sections for `q`, best first; `page` narrows to one page.
    pub async fn search(
        &self,
        q: &str,
        limit: usize,
        page: Option<&str>,
    ) -> Result<Vec<DocHit>, DocsError> {
        let embedding = match &self.embedder {
            Some(e) => e.embed_queries(vec![q.to_string()]).await?.remove(0),
            None => vec![0.0],
        };
        let scope = Scope {
            container_tags: page.map(|p| vec![p.to_string()]).unwrap_or_default(),
            ..Default::default()
        };
        let hits = self.index.search(&Query {
            text: q,
            embedding: &embedding,
            scope: &scope,
            limit,
            nearest: None,
            subject: None,
        });
        Ok(hits
            .into_iter()
            // keyword-only, a section with none of the words scores nothing
            .filter(|h| h.score > 0.01)
            .filter_map(|h| {
                let s = self.sections.get(h.document_id.parse::<usize>().ok()?)?;
                Some(DocHit {
                    page: s.page,
                    heading: s.heading.clone(),
                    anchor: s.anchor.clone(),
                    score: h.score,
                    text: s.text.clone(),
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests;
