//! `/v3/container-tags*` handlers: spaces, their settings and deletion.

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use engram_api::{
    ContainerTagListItem, ContainerTagSettings, DeleteContainerTagResponse, ErrorBody,
    MergeContainerTagsRequest, MergeQueuedResponse, MergeStatusResponse, PatchContainerTagRequest,
    ProfileBucketDef,
};
use engram_store::{BucketDef, Space, SpacePatch, TagMerge};

fn settings(s: Space) -> ContainerTagSettings {
    ContainerTagSettings {
        container_tag: s.tag,
        name: s.name,
        entity_context: s.entity_context,
        memory_filesystem_paths: None,
        profile_buckets: s
            .profile_buckets
            .into_iter()
            .map(|b| ProfileBucketDef {
                key: b.key,
                description: b.description,
            })
            .collect(),
        created_at: iso(s.created_at),
        updated_at: iso(s.updated_at),
    }
}

fn tag_param(tag: &str) -> Result<&str, ApiError> {
    engram_core::validate::container_tag("containerTag", tag)?;
    Ok(tag)
}

#[utoipa::path(
    get,
    path = "/v3/container-tags/list",
    operation_id = "listContainerTags",
    tag = "spaces",
    responses(
        (status = 200, description = "Every container tag, with counts", body = Vec<ContainerTagListItem>),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Every container tag of the organisation (set up, or used by documents
/// or memories), with document and memory counts and last activity.
pub async fn list(
    State(s): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<Vec<ContainerTagListItem>>, ApiError> {
    let spaces = s.engine.list_spaces(&who.org_id).await?;
    Ok(Json(
        spaces
            .into_iter()
            .map(|x| ContainerTagListItem {
                id: x.space.tag.clone(),
                name: x.space.name.unwrap_or_else(|| x.space.tag.clone()),
                is_nova: x.space.tag.starts_with("sm_project_"),
                container_tag: x.space.tag,
                description: None,
                created_at: iso(x.space.created_at),
                updated_at: iso(x.space.updated_at),
                is_experimental: false,
                document_count: x.document_count,
                memory_count: x.memory_count,
                last_activity_at: x.last_activity_at.map(iso),
            })
            .collect(),
    ))
}

#[utoipa::path(
    get,
    path = "/v3/container-tags/{containerTag}",
    operation_id = "getContainerTag",
    tag = "spaces",
    params(("containerTag" = String, Path, description = "The container tag")),
    responses(
        (status = 200, description = "The tag's settings", body = ContainerTagSettings),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Neither set up nor used (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// A container tag's settings.
pub async fn get(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(tag): Path<String>,
) -> Result<Json<ContainerTagSettings>, ApiError> {
    let x = s.engine.space(&who.org_id, tag_param(&tag)?).await?;
    Ok(Json(settings(x.space)))
}

#[utoipa::path(
    patch,
    path = "/v3/container-tags/{containerTag}",
    operation_id = "updateContainerTag",
    tag = "spaces",
    params(("containerTag" = String, Path, description = "The container tag")),
    request_body = PatchContainerTagRequest,
    responses(
        (status = 200, description = "The settings as they are now", body = ContainerTagSettings),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Create a container tag or change its settings (name, entity context,
/// profile buckets); fields left out keep their values.
pub async fn update(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(tag): Path<String>,
    ApiJson(req): ApiJson<PatchContainerTagRequest>,
) -> Result<Json<ContainerTagSettings>, ApiError> {
    let tag = tag_param(&tag)?;
    req.validate()?;
    let patch = SpacePatch {
        name: req.name,
        entity_context: req.entity_context,
        profile_buckets: req.profile_buckets.map(|b| {
            b.into_iter()
                .map(|b| BucketDef {
                    key: b.key,
                    description: b.description,
                })
                .collect()
        }),
        user_name: None,
    };
    let space = s.engine.set_space(&who.org_id, tag, patch).await?;
    Ok(Json(settings(space)))
}

#[utoipa::path(
    delete,
    path = "/v3/container-tags/{containerTag}",
    operation_id = "deleteContainerTag",
    tag = "spaces",
    params(("containerTag" = String, Path, description = "The container tag")),
    responses(
        (status = 200, description = "Deleted, with counts", body = DeleteContainerTagResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Neither set up nor used (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Delete a container tag with its documents (chunks, vectors) and
/// memories, reporting the counts.
pub async fn delete(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(tag): Path<String>,
) -> Result<Json<DeleteContainerTagResponse>, ApiError> {
    let tag = tag_param(&tag)?;
    let gone = s.engine.delete_space(&who.org_id, tag).await?;
    Ok(Json(DeleteContainerTagResponse {
        success: true,
        container_tag: tag.to_string(),
        deleted_documents_count: gone.documents,
        deleted_memories_count: gone.memories,
    }))
}

#[utoipa::path(
    post,
    path = "/v3/container-tags/merge",
    operation_id = "mergeContainerTags",
    tag = "spaces",
    request_body = MergeContainerTagsRequest,
    responses(
        (status = 202, description = "Queued; runs in the background", body = MergeQueuedResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "A source tag is unknown (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Merge container tags into a target: their documents carry the target
/// tag instead, their memories move into the target space, and the
/// sources' settings go. Runs as a background job.
pub async fn merge(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<MergeContainerTagsRequest>,
) -> Result<(StatusCode, Json<MergeQueuedResponse>), ApiError> {
    let sources = req.sources()?;
    let m = s
        .engine
        .merge_spaces(&who.org_id, &sources, &req.target_container_tag)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(MergeQueuedResponse {
            success: true,
            status: "queued".into(),
            merge_id: m.id,
            target_tag: m.target,
            source_tags: m.sources,
        }),
    ))
}

fn merge_status(m: TagMerge) -> MergeStatusResponse {
    MergeStatusResponse {
        id: m.id,
        status: m.status.as_str().into(),
        target_tag: m.target,
        source_tags: m.sources,
        moved_documents: m.moved_documents,
        moved_memories: m.moved_memories,
        created_at: iso(m.created_at),
        updated_at: iso(m.updated_at),
    }
}

#[utoipa::path(
    get,
    path = "/v3/container-tags/merge/{mergeId}",
    operation_id = "getContainerTagMerge",
    tag = "spaces",
    params(("mergeId" = String, Path, description = "The merge's id")),
    responses(
        (status = 200, description = "Where the merge stands", body = MergeStatusResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such merge (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Where a merge stands.
pub async fn merge_get(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<MergeStatusResponse>, ApiError> {
    let m = s.engine.merge_status(&who.org_id, &id).await?;
    Ok(Json(merge_status(m)))
}
