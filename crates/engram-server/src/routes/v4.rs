//! `/v4/search`, `/v4/profile` and `/v4/conversations`.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use engram_api::{
    AddDocumentRequest, AddDocumentResponse, BucketsRequest, BucketsResponse, ContextMemory,
    ConversationRequest, ErrorBody, ProfileBody, ProfileBucket, ProfileRequest, ProfileResponse,
    ResultChunk, ResultContext, ResultDocumentRef, V4Result, V4SearchRequest, V4SearchResponse,
    ValidV4Search,
};
use engram_engine::memories::{MemorySearch, SearchHit, SearchMode, V4Outcome};
use engram_store::{Memory, RelationKind};

fn context(v: &[(RelationKind, Memory)]) -> Vec<ContextMemory> {
    v.iter()
        .map(|(k, m)| ContextMemory {
            relation: k.as_str().to_string(),
            version: Some(m.version),
            memory: m.content.clone(),
            metadata: Some(m.metadata.clone()),
            updated_at: iso(m.updated_at),
        })
        .collect()
}

fn engine_search(v: &ValidV4Search) -> MemorySearch {
    MemorySearch {
        q: v.q.clone(),
        container_tags: v.container_tags.clone(),
        filter: v.filter.clone(),
        threshold: v.threshold,
        limit: v.limit,
        mode: match v.mode.as_str() {
            "hybrid" => SearchMode::Hybrid,
            "documents" => SearchMode::Documents,
            _ => SearchMode::Memories,
        },
        include_forgotten: v.include.forgotten_memories.unwrap_or(false),
        include_related: v.include.related_memories.unwrap_or(false),
        include_documents: v.include.documents.unwrap_or(false),
        rerank: v.rerank,
        rewrite_query: v.rewrite_query,
        aggregate: v.aggregate,
    }
}

fn response(out: V4Outcome, v: &ValidV4Search) -> V4SearchResponse {
    let summaries = v.include.summaries.unwrap_or(false);
    let results = out
        .hits
        .into_iter()
        .map(|h| match h {
            SearchHit::Memory {
                memory: m,
                score,
                related,
                documents,
                passages,
            } => V4Result {
                chunks: (!passages.is_empty()).then(|| {
                    passages
                        .into_iter()
                        .map(|p| ResultChunk {
                            content: p.content,
                            score: p.score,
                            position: p.position,
                            document_id: p.document_id,
                        })
                        .collect()
                }),
                id: m.id,
                memory: Some(m.content),
                chunk: None,
                metadata: Some(m.metadata),
                updated_at: iso(m.updated_at),
                similarity: score,
                version: Some(m.version),
                context: related.map(|r| ResultContext {
                    parents: context(&r.parents),
                    children: context(&r.children),
                    related: context(&r.related),
                }),
                documents: v.include.documents.unwrap_or(false).then(|| {
                    documents
                        .into_iter()
                        .map(|d| ResultDocumentRef {
                            id: d.id,
                            doc_type: d.doc_type.to_string(),
                            metadata: Some(d.metadata),
                            summary: if summaries { d.summary } else { None },
                            created_at: iso(d.created_at),
                            updated_at: iso(d.updated_at),
                        })
                        .collect()
                }),
                is_aggregated: Some(false),
            },
            SearchHit::Chunk {
                document: d,
                content,
                score,
                ..
            } => V4Result {
                documents: v.include.documents.unwrap_or(false).then(|| {
                    vec![ResultDocumentRef {
                        id: d.id.clone(),
                        doc_type: d.doc_type.to_string(),
                        metadata: Some(d.metadata.clone()),
                        summary: if summaries { d.summary.clone() } else { None },
                        created_at: iso(d.created_at),
                        updated_at: iso(d.updated_at),
                    }]
                }),
                id: d.id,
                memory: None,
                chunk: Some(content),
                metadata: Some(d.metadata),
                updated_at: iso(d.updated_at),
                similarity: score,
                version: None,
                context: None,
                chunks: None,
                is_aggregated: None,
            },
            SearchHit::Aggregate { content, score, .. } => V4Result {
                id: format!("agg_{}", engram_core::ids::new_id()),
                memory: Some(content),
                chunk: None,
                metadata: None,
                updated_at: iso(engram_store::now()),
                similarity: score,
                version: None,
                context: None,
                documents: None,
                chunks: None,
                is_aggregated: Some(true),
            },
        })
        .collect();
    V4SearchResponse {
        results,
        timing: (out.elapsed_ms * 100.0).round() / 100.0,
        total: out.total as u64,
    }
}

#[utoipa::path(
    post,
    path = "/v4/search",
    operation_id = "searchMemories",
    tag = "search",
    request_body = V4SearchRequest,
    responses(
        (status = 200, description = "Memories and/or chunks, one ranked list", body = V4SearchResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Search memories (default), documents, or both (hybrid).
pub async fn search(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<V4SearchRequest>,
) -> Result<Json<V4SearchResponse>, ApiError> {
    let mut v = req.validate()?;
    who.scope_tags(&mut v.container_tags)?;
    let out = s.engine.search_v4(&who.org_id, &engine_search(&v)).await?;
    Ok(Json(response(out, &v)))
}

#[utoipa::path(
    post,
    path = "/v4/profile",
    operation_id = "getProfile",
    tag = "profile",
    request_body = ProfileRequest,
    responses(
        (status = 200, description = "Static and dynamic facts (and search results with q)", body = ProfileResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The profile of a container tag.
pub async fn profile(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ProfileRequest>,
) -> Result<Json<ProfileResponse>, ApiError> {
    req.validate()?;
    who.require_tag(&req.container_tag)?;
    let p = s.engine.profile(&who.org_id, &req.container_tag).await?;
    let want = |part: &str| {
        req.include
            .as_ref()
            .is_none_or(|inc| inc.is_empty() || inc.iter().any(|i| i == part))
    };
    let profile = ProfileBody {
        static_facts: if want("static") {
            p.static_facts.clone()
        } else {
            Vec::new()
        },
        dynamic: if want("dynamic") {
            p.dynamic.clone()
        } else {
            Vec::new()
        },
        buckets: None,
    };
    let mut profile = profile;
    let asked = req
        .include
        .as_ref()
        .is_some_and(|inc| inc.iter().any(|i| i == "buckets"));
    if asked || req.buckets.as_ref().is_some_and(|b| !b.is_empty()) {
        let filed = s
            .engine
            .profile_buckets(&who.org_id, &req.container_tag, req.buckets.as_deref())
            .await?;
        profile.buckets = Some(
            filed
                .into_iter()
                .map(|(k, v)| (k, serde_json::Value::from(v)))
                .collect(),
        );
    }
    let search_results = match req.q.as_deref().filter(|q| !q.trim().is_empty()) {
        None => None,
        Some(q) => {
            let v = V4SearchRequest {
                q: q.to_string(),
                container_tag: Some(req.container_tag.clone()),
                threshold: req.threshold,
                filters: req.filters.clone(),
                ..Default::default()
            }
            .validate()?;
            let out = s.engine.search_v4(&who.org_id, &engine_search(&v)).await?;
            Some(response(out, &v))
        }
    };
    Ok(Json(ProfileResponse {
        profile,
        search_results,
    }))
}

/// Lines of a transcript: `speaker: text` per message.
fn lines(messages: &[(String, String)]) -> Vec<String> {
    messages
        .iter()
        .map(|(who, text)| format!("{who}: {}", text.trim().replace('\n', " ")))
        .collect()
}

/// The messages not yet in `existing`: a resent conversation overlaps the
/// stored one (its start, or its end), and only the rest is new.
fn new_lines(existing: &[&str], incoming: &[String]) -> usize {
    // the longest suffix of what is stored that the request starts with
    let max = existing.len().min(incoming.len());
    (1..=max)
        .rev()
        .find(|&k| {
            existing[existing.len() - k..]
                .iter()
                .zip(incoming)
                .all(|(a, b)| *a == b.as_str())
        })
        .unwrap_or(0)
}

#[utoipa::path(
    post,
    path = "/v4/conversations",
    operation_id = "addConversation",
    tag = "memories",
    request_body = ConversationRequest,
    responses(
        (status = 200, description = "The conversation's document, queued", body = AddDocumentResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Add or extend a conversation (conversationId is the document's customId).
pub async fn conversation(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ConversationRequest>,
) -> Result<Json<AddDocumentResponse>, ApiError> {
    let messages = req.validate()?;
    let incoming = lines(&messages);
    let existing = s
        .engine
        .store
        .get_document(&who.org_id, &req.conversation_id)
        .await?;
    if existing
        .as_ref()
        .is_some_and(|d| !who.sees(&d.container_tags))
    {
        return Err(ApiError::Permission(
            "the conversationId belongs to a document outside this key's container tag".into(),
        ));
    }
    let text = existing.as_ref().map_or("", |d| d.content.as_str());
    let stored: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let skip = new_lines(&stored, &incoming);
    let fresh = &incoming[skip..];
    if let Some(d) = existing
        .as_ref()
        .filter(|_| fresh.is_empty() && !stored.is_empty())
    {
        // nothing new: the conversation stays as it is
        return Ok(Json(AddDocumentResponse {
            id: d.id.clone(),
            status: d.status,
        }));
    }
    let mut content: Vec<&str> = stored.clone();
    content.extend(fresh.iter().map(String::as_str));
    let add = AddDocumentRequest {
        content: content.join("\n"),
        container_tag: req.container_tag.clone(),
        container_tags: req.container_tags.clone(),
        custom_id: Some(req.conversation_id.clone()),
        metadata: req.metadata.clone(),
        ..Default::default()
    };
    let mut valid = add.validate("")?;
    s.engine.scope_document_input(&who, &mut valid).await?;
    let out = s.engine.add_documents(&who.org_id, vec![valid]).await?;
    let d = &out[0].document;
    Ok(Json(AddDocumentResponse {
        id: d.id.clone(),
        status: d.status,
    }))
}

#[utoipa::path(
    post,
    path = "/v4/profile/buckets",
    operation_id = "getProfileBuckets",
    tag = "profile",
    request_body = BucketsRequest,
    responses(
        (status = 200, description = "The buckets", body = BucketsResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// `POST /v4/profile/buckets`: the buckets the space's profile files facts
/// into (the defaults, then the space's own).
pub async fn buckets(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<BucketsRequest>,
) -> Result<Json<BucketsResponse>, ApiError> {
    let tag = req
        .container_tag
        .ok_or_else(|| ApiError::validation("containerTag", "is required"))?;
    engram_core::validate::container_tag("containerTag", &tag)?;
    who.require_tag(&tag)?;
    let buckets = s
        .engine
        .buckets_of(&who.org_id, &tag)
        .await?
        .into_iter()
        .map(|(key, description)| ProfileBucket { key, description })
        .collect();
    Ok(Json(BucketsResponse { buckets }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resent_turns_are_not_appended_twice() {
        let have = ["user: a", "assistant: b"];
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(new_lines(&have, &s(&["user: c"])), 0);
        assert_eq!(new_lines(&have, &s(&["assistant: b", "user: c"])), 1);
        assert_eq!(
            new_lines(&have, &s(&["user: a", "assistant: b", "user: c"])),
            2
        );
        assert_eq!(new_lines(&[], &s(&["user: a"])), 0);
    }
}
