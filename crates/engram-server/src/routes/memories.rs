//! `/v4/memories` (create, new version, forget), `forget-matching` and
//! `list`: memory records to and from the wire.

use super::documents::iso;
use crate::auth::{AuthContext, Caller};
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use engram_api::{
    parse_instant, CreateMemoriesRequest, CreateMemoriesResponse, CreatedMemory, ErrorBody,
    ForgetMatchingRequest, ForgetMatchingResponse, ForgetMemoryRequest, ForgetMemoryResponse,
    ListMemoriesRequest, ListMemoriesResponse, MatchedMemory, MemoryEntry, MemoryTarget,
    MemoryVersion, Pagination, PatchMemoryRequest, PatchMemoryResponse,
};
use engram_engine::memories::{DirectMemory, MemoryPatch, Target};
use engram_store::{Memory, MemoryListQuery};
use serde_json::{Map, Value};

/// The space a target names (a scoped key may reach only memories of
/// its tag).
async fn check_target(
    s: &AppState,
    who: &AuthContext,
    t: &MemoryTarget,
) -> Result<String, ApiError> {
    let tag = who.write_space(t.validate()?)?;
    if let Some(id) = &t.id {
        s.engine.check_memory_scope(who, id).await?;
    }
    Ok(tag)
}

fn target(t: &MemoryTarget) -> Target {
    match (&t.id, &t.content) {
        (Some(id), _) => Target::Id(id.clone()),
        (None, Some(c)) => Target::Content(c.clone()),
        (None, None) => Target::Content(String::new()),
    }
}

/// A memory's `temporalContext`.
pub fn temporal(m: &Memory) -> Option<Map<String, Value>> {
    if m.document_date.is_none() && m.event_dates.is_empty() {
        return None;
    }
    let mut t = Map::new();
    t.insert("documentDate".into(), m.document_date.clone().into());
    t.insert("eventDate".into(), m.event_dates.clone().into());
    Some(t)
}

/// A memory as a list entry; `history` holds its older versions.
pub fn entry(m: Memory, history: Vec<MemoryVersion>) -> MemoryEntry {
    let relations: Map<String, Value> = m
        .relations
        .iter()
        .map(|(id, k)| (id.clone(), Value::from(k.as_str())))
        .collect();
    MemoryEntry {
        temporal_context: temporal(&m),
        memory_relations: (!relations.is_empty()).then_some(relations),
        id: m.id,
        memory: m.content,
        version: m.version,
        is_latest: m.is_latest,
        is_forgotten: m.is_forgotten,
        is_static: m.is_static,
        is_inference: Some(m.is_inference),
        created_at: iso(m.created_at),
        updated_at: iso(m.updated_at),
        space_id: m.container_tag,
        org_id: m.org_id,
        source_count: m.source_count,
        parent_memory_id: m.parent_id,
        root_memory_id: m.root_id,
        forget_after: m.forget_after.map(iso),
        forget_reason: m.forget_reason,
        metadata: Some(m.metadata),
        history,
        document_ids: m.document_ids,
    }
}

fn version(m: &Memory) -> MemoryVersion {
    MemoryVersion {
        id: m.id.clone(),
        memory: m.content.clone(),
        version: m.version,
        created_at: iso(m.created_at),
        updated_at: iso(m.updated_at),
        parent_memory_id: m.parent_id.clone(),
        root_memory_id: m.root_id.clone(),
        is_latest: m.is_latest,
        is_forgotten: m.is_forgotten,
    }
}

#[utoipa::path(
    post,
    path = "/v4/memories",
    operation_id = "createMemories",
    tag = "memories",
    request_body = CreateMemoriesRequest,
    responses(
        (status = 201, description = "Remembered (immediately searchable)", body = CreateMemoriesResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Create memories directly.
pub async fn create(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<CreateMemoriesRequest>,
) -> Result<(StatusCode, Json<CreateMemoriesResponse>), ApiError> {
    let tag = who.write_space(req.validate()?)?;
    let items = req
        .memories
        .into_iter()
        .map(|m| {
            let t = m.temporal_context.unwrap_or_default();
            DirectMemory {
                forget_after: m
                    .forget_after
                    .as_deref()
                    .map(|x| parse_instant("forgetAfter", x))
                    .transpose()
                    .ok()
                    .flatten(),
                content: m.content,
                is_static: m.is_static.unwrap_or(false),
                metadata: m.metadata.unwrap_or_default(),
                forget_reason: m.forget_reason,
                document_date: t.document_date,
                event_dates: t.event_date.unwrap_or_default(),
            }
        })
        .collect();
    let made = s.engine.create_memories(&who.org_id, &tag, items).await?;
    let memories = made
        .into_iter()
        .map(|m| CreatedMemory {
            id: m.id,
            memory: m.content,
            is_static: m.is_static,
            created_at: iso(m.created_at),
            forget_after: m.forget_after.map(iso),
            forget_reason: m.forget_reason,
            metadata: Some(m.metadata),
        })
        .collect();
    Ok((
        StatusCode::CREATED,
        Json(CreateMemoriesResponse {
            document_id: None,
            memories,
        }),
    ))
}

#[utoipa::path(
    patch,
    path = "/v4/memories",
    operation_id = "updateMemory",
    tag = "memories",
    request_body = PatchMemoryRequest,
    responses(
        (status = 200, description = "The new version", body = PatchMemoryResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such memory (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "Already forgotten, or not the latest version (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Update a memory: a new version that updates the old one.
pub async fn patch(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<PatchMemoryRequest>,
) -> Result<Json<PatchMemoryResponse>, ApiError> {
    req.validate()?;
    let tag = check_target(&s, &who, &req.target).await?;
    let t = req.temporal_context.clone();
    let patch = MemoryPatch {
        new_content: req.new_content.clone(),
        metadata: req.metadata.clone(),
        forget_after: req.forget_after.as_ref().map(|o| {
            o.as_deref()
                .and_then(|x| parse_instant("forgetAfter", x).ok())
        }),
        forget_reason: req.forget_reason.clone(),
        document_date: t.as_ref().map(|t| t.document_date.clone()),
        event_dates: t.and_then(|t| t.event_date),
    };
    let m = s
        .engine
        .patch_memory(&who.org_id, &tag, &target(&req.target), patch)
        .await?;
    Ok(Json(PatchMemoryResponse {
        id: m.id,
        memory: m.content,
        version: m.version,
        parent_memory_id: m.parent_id,
        root_memory_id: m.root_id,
        created_at: iso(m.created_at),
        forget_after: m.forget_after.map(iso),
        forget_reason: m.forget_reason,
        metadata: Some(m.metadata),
    }))
}

#[utoipa::path(
    delete,
    path = "/v4/memories",
    operation_id = "forgetMemory",
    tag = "memories",
    request_body = ForgetMemoryRequest,
    responses(
        (status = 200, description = "Forgotten (history kept)", body = ForgetMemoryResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such memory (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "Already forgotten, or not the latest version (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Forget a memory by id or exact content.
pub async fn forget(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ForgetMemoryRequest>,
) -> Result<Json<ForgetMemoryResponse>, ApiError> {
    let tag = check_target(&s, &who, &req.target).await?;
    let m = s
        .engine
        .forget(
            &who.org_id,
            &tag,
            &target(&req.target),
            req.reason.as_deref(),
        )
        .await?;
    Ok(Json(ForgetMemoryResponse {
        id: m.id,
        forgotten: true,
    }))
}

/// The least score a memory must have to be forgotten by a query when the
/// request names none: above the search default, since forgetting cannot
/// be undone by the client.
const FORGET_MATCHING_THRESHOLD: f64 = 0.65;

#[utoipa::path(
    post,
    path = "/v4/memories/forget-matching",
    operation_id = "forgetMatchingMemories",
    tag = "memories",
    request_body = ForgetMatchingRequest,
    responses(
        (status = 200, description = "What was (or, with dryRun, would be) forgotten", body = ForgetMatchingResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Forget memories matching a query or ids.
pub async fn forget_matching(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ForgetMatchingRequest>,
) -> Result<Json<ForgetMatchingResponse>, ApiError> {
    let tag = who.write_space(req.validate()?)?;
    if let Some(ids) = &req.ids {
        for id in ids {
            s.engine.check_memory_scope(&who, id).await?;
        }
    }
    let dry_run = req.dry_run.unwrap_or(false);
    let out = s
        .engine
        .forget_matching(
            &who.org_id,
            &tag,
            req.query.as_deref(),
            req.ids.as_deref().unwrap_or_default(),
            req.threshold.unwrap_or(FORGET_MATCHING_THRESHOLD) as f32,
            req.max_forget.unwrap_or(100) as usize,
            dry_run,
            req.reason.as_deref(),
        )
        .await?;
    let matched = |v: Vec<(Memory, f32)>| -> Vec<MatchedMemory> {
        v.into_iter()
            .map(|(m, score)| MatchedMemory {
                id: m.id,
                memory: m.content,
                score,
            })
            .collect()
    };
    let count = if dry_run {
        out.candidates.len()
    } else {
        out.forgotten.len()
    } as u64;
    let summary = if dry_run {
        format!("{count} memories would be forgotten")
    } else {
        format!("{count} memories forgotten")
    };
    Ok(Json(ForgetMatchingResponse {
        dry_run,
        count,
        forget_batch_id: (!dry_run && count > 0).then(engram_core::ids::new_id),
        summary,
        candidates: matched(out.candidates),
        forgotten: matched(out.forgotten),
    }))
}

#[utoipa::path(
    post,
    path = "/v4/memories/list",
    operation_id = "listMemories",
    tag = "memories",
    request_body = ListMemoriesRequest,
    responses(
        (status = 200, description = "A page of memories", body = ListMemoriesResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// List memories, with history, relations and sources.
pub async fn list(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ListMemoriesRequest>,
) -> Result<Json<ListMemoriesResponse>, ApiError> {
    let mut v = req.validate()?;
    who.scope_tags(&mut v.container_tags)?;
    let mut q = MemoryListQuery {
        container_tags: v.container_tags.clone(),
        by_updated: v.by_updated,
        ascending: v.ascending,
        limit: v.limit,
        offset: (v.page - 1).saturating_mul(v.limit),
        ..Default::default()
    };
    let (page, total) = match &v.filter {
        None => s.engine.store.list_memories(&who.org_id, &q).await?,
        Some(f) => {
            // metadata filters apply to the whole space, then the page
            q.limit = u64::MAX / 2;
            q.offset = 0;
            let (all, _) = s.engine.store.list_memories(&who.org_id, &q).await?;
            let kept: Vec<Memory> = all.into_iter().filter(|m| f.matches(&m.metadata)).collect();
            let total = kept.len() as u64;
            let start = ((v.page - 1) * v.limit) as usize;
            (
                kept.into_iter()
                    .skip(start)
                    .take(v.limit as usize)
                    .collect(),
                total,
            )
        }
    };
    let mut entries = Vec::with_capacity(page.len());
    for m in page {
        let history = if m.version > 1 {
            s.engine
                .history(&who.org_id, &m)
                .await?
                .iter()
                .map(version)
                .collect()
        } else {
            Vec::new()
        };
        entries.push(entry(m, history));
    }
    Ok(Json(ListMemoriesResponse {
        memory_entries: entries,
        pagination: Pagination::new(v.page, v.limit, total),
    }))
}
