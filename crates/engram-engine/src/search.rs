//! Hybrid document search (`/v3/search`): the organisation's in-memory
//! index (see `engram_index`, which owns retrieval and the score fusion)
//! ranks chunks inside the scope; this module groups them by document,
//! applies the threshold and limit, and assembles results from the store.

use crate::{Engine, EngineError, VectorIndex};
use engram_core::DocumentSearch;
use engram_index::{fusion, Hit, Query, Scope, ANN_MIN_CHUNKS};
use engram_store::{Chunk, Document, SearchScope};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// Chunks listed per document at most.
const MAX_CHUNKS_PER_DOCUMENT: usize = 5;
/// A chunk is listed as matching when it scores at least this share of its
/// document's best chunk.
const RELEVANT_SHARE: f32 = 0.75;

/// A document id, its best chunk score, and its scored chunk hits.
type RankedDocument = (String, f32, Vec<(Hit, f32)>);

/// What ranking a document search gives, before anything is read from
/// the store.
struct Ranking {
    /// The documents matching, best first (at most `limit`), each with its
    /// matching chunk hits (those near its best).
    documents: Vec<RankedDocument>,
    /// How many documents matched (before `limit`).
    total: usize,
    /// The query's embedding.
    query_vec: Vec<f32>,
    /// When the embedding and the index search ended, from the start.
    t_first: std::time::Duration,
    t_vector: std::time::Duration,
}

impl Ranking {
    /// The matching chunks of every ranked document, to read in one query.
    fn chunk_ids(&self) -> Vec<String> {
        self.documents
            .iter()
            .flat_map(|(_, _, hits)| hits.iter().map(|(h, _)| h.chunk_id.clone()))
            .collect()
    }
}

/// A scored chunk of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultChunk {
    pub content: String,
    pub position: i64,
    pub score: f32,
    /// False for neighbouring chunks added as context.
    pub is_relevant: bool,
}

/// One document of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultDocument {
    pub document: Document,
    pub score: f32,
    pub chunks: Vec<ResultChunk>,
}

/// A search's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    pub results: Vec<ResultDocument>,
    /// Documents that matched (before `limit`).
    pub total: usize,
    pub elapsed_ms: f64,
}

impl Engine {
    /// Run a document search.
    pub async fn search_documents(
        &self,
        org_id: &str,
        s: &DocumentSearch,
    ) -> Result<SearchOutcome, EngineError> {
        self.search_documents_with(org_id, s, None).await
    }

    /// [`Engine::search_documents`] with the query's embedding when the
    /// caller already has it (`/v4/search` in hybrid mode embeds once).
    pub(crate) async fn search_documents_with(
        &self,
        org_id: &str,
        s: &DocumentSearch,
        embedded: Option<Vec<f32>>,
    ) -> Result<SearchOutcome, EngineError> {
        let start = Instant::now();
        let ranking = self.rank_documents(org_id, s, embedded, start).await?;
        let doc_ids: Vec<String> = ranking
            .documents
            .iter()
            .map(|(d, _, _)| d.clone())
            .collect();
        let chunk_ids = ranking.chunk_ids();
        let Ranking {
            documents: ranked,
            total,
            query_vec,
            t_first,
            t_vector,
        } = ranking;
        let t_fetch = Instant::now();
        let (documents, found) = tokio::join!(
            self.store.documents_by_ids(org_id, &doc_ids),
            self.store.chunks_by_ids(org_id, &chunk_ids),
        );
        let fetch_ms = t_fetch.elapsed().as_secs_f64() * 1000.0;
        let mut documents: HashMap<String, Document> =
            documents?.into_iter().map(|d| (d.id.clone(), d)).collect();
        let found: HashMap<String, Chunk> = found?.into_iter().map(|c| (c.id.clone(), c)).collect();
        let mut results = Vec::with_capacity(ranked.len());
        for (doc_id, score, hits) in ranked {
            let Some(document) = documents.remove(&doc_id) else {
                continue; // deleted meanwhile
            };
            let mut chunks: Vec<ResultChunk> = hits
                .iter()
                .filter_map(|(h, sc)| {
                    found.get(&h.chunk_id).map(|c| ResultChunk {
                        content: c.content.clone(),
                        position: c.position,
                        score: *sc,
                        is_relevant: true,
                    })
                })
                .collect();
            if !s.only_matching_chunks {
                let have: Vec<i64> = chunks.iter().map(|c| c.position).collect();
                let mut want: Vec<i64> = have
                    .iter()
                    .flat_map(|p| [p - 1, p + 1])
                    .filter(|p| *p >= 0 && !have.contains(p))
                    .collect();
                want.sort_unstable();
                want.dedup();
                for c in self.store.chunks_at(org_id, &doc_id, &want).await? {
                    let cos = engram_embed::dot(&c.embedding, &query_vec);
                    chunks.push(ResultChunk {
                        content: c.content,
                        position: c.position,
                        score: fusion::base(0.0, 0.0, cos),
                        is_relevant: false,
                    });
                }
                chunks.sort_by_key(|c| c.position);
            }
            results.push(ResultDocument {
                document,
                score,
                chunks,
            });
        }
        let elapsed = start.elapsed();
        tracing::debug!(
            refresh_and_embedding_ms = t_first.as_secs_f64() * 1000.0,
            index_ms = (t_vector - t_first).as_secs_f64() * 1000.0,
            assembly_ms = (elapsed - t_vector).as_secs_f64() * 1000.0,
            fetch_ms,
            "search stages"
        );
        Ok(SearchOutcome {
            results,
            total,
            elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        })
    }

    /// The documents matching `s`, ranked (see [`Ranking`]).
    async fn rank_documents(
        &self,
        org_id: &str,
        s: &DocumentSearch,
        embedded: Option<Vec<f32>>,
        start: Instant,
    ) -> Result<Ranking, EngineError> {
        let document_id = match &s.doc_id {
            Some(id) => Some(self.get_document(org_id, id).await?.id),
            None => None,
        };
        let scope = Scope {
            container_tags: s.container_tags.clone(),
            document_id,
            filepath: s.filepath.clone(),
            filter: s.filter.clone(),
        };
        let k = (s.limit * 5).max(50);
        // the query embeds on the model thread while the index catches up
        let embed = async {
            match embedded {
                Some(v) => Ok::<Vec<f32>, EngineError>(v),
                None => self.embed_query(&s.q).await,
            }
        };
        let (slot, query_vec) = tokio::join!(self.fresh_index(org_id), embed);
        let slot = slot?;
        let t_first = start.elapsed();
        let query_vec: Vec<f32> = query_vec?;
        // a large scope with store-side vector candidates: the store's
        // graph gives them (a smaller scope is scanned exactly in memory)
        let large = self.config.vector_index == VectorIndex::Store && {
            let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
            index.chunks() >= ANN_MIN_CHUNKS && index.scope_size(&scope) >= ANN_MIN_CHUNKS
        };
        let nearest = if large {
            let store_scope = SearchScope {
                container_tags: scope.container_tags.clone(),
                document_id: scope.document_id.clone(),
                filepath: scope.filepath.clone(),
                filter: scope.filter.clone(),
            };
            Some(
                self.store
                    .nearest_chunks(org_id, &store_scope, &query_vec, k)
                    .await?,
            )
        } else {
            None
        };
        let text = s.q.clone();
        let qv = query_vec.clone();
        let hits = tokio::task::spawn_blocking(move || {
            let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
            index.search(&Query {
                text: &text,
                embedding: &qv,
                scope: &scope,
                limit: k,
                nearest: nearest.as_deref(),
                subject: None,
            })
        })
        .await
        .map_err(|e| {
            EngineError::Store(engram_store::StoreError::Backend(format!(
                "search failed: {e}"
            )))
        })?;
        let t_vector = start.elapsed();

        let mut per_doc: BTreeMap<String, Vec<(Hit, f32)>> = BTreeMap::new();
        for hit in hits {
            let score = hit.score;
            if score < s.chunk_threshold || score <= 0.0 {
                continue;
            }
            per_doc
                .entry(hit.document_id.clone())
                .or_default()
                .push((hit, score));
        }
        let mut ranked: Vec<RankedDocument> = per_doc
            .into_iter()
            .map(|(doc, mut hits)| {
                hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.position.cmp(&b.0.position)));
                let best = hits[0].1;
                (doc, best, hits)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let total = ranked.len();
        ranked.truncate(s.limit);

        // a document lists its matching chunks: at most a few, and only
        // those close to its best (context-only evidence is not a match);
        // fetch all the documents and chunks of the page in two queries
        let ranked: Vec<RankedDocument> = ranked
            .into_iter()
            .map(|(d, best, hits)| {
                let hits = hits
                    .into_iter()
                    .filter(|(_, sc)| *sc >= best * RELEVANT_SHARE)
                    .take(MAX_CHUNKS_PER_DOCUMENT)
                    .collect();
                (d, best, hits)
            })
            .collect();
        Ok(Ranking {
            documents: ranked,
            total,
            query_vec,
            t_first,
            t_vector,
        })
    }

    /// The passages matching `s` as `(document id, text, score)`, best
    /// documents first: what ranks memories by their context, read without
    /// the documents themselves (one query for the chunks).
    pub(crate) async fn matching_passages(
        &self,
        org_id: &str,
        s: &DocumentSearch,
        embedded: Vec<f32>,
    ) -> Result<Vec<(String, String, f32)>, EngineError> {
        let ranking = self
            .rank_documents(org_id, s, Some(embedded), Instant::now())
            .await?;
        let mut found: HashMap<String, Chunk> = self
            .store
            .chunks_by_ids(org_id, &ranking.chunk_ids())
            .await?
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
        Ok(ranking
            .documents
            .into_iter()
            .flat_map(|(doc, _, hits)| {
                hits.into_iter()
                    .map(move |(h, sc)| (doc.clone(), h.chunk_id, sc))
            })
            .filter_map(|(doc, id, sc)| found.remove(&id).map(|c| (doc, c.content, sc)))
            .collect())
    }
}
