//! `GET /v3/session`, `/v3/auth/keys*` and `/v3/auth/scoped-key*`: who is
//! calling, the organisation's keys (list, create, rename, revoke), and
//! keys scoped to one container tag (create, delete).

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use engram_api::{
    slug, ApiKeyItem, CreatedKeyResponse, ErrorBody, KeyNameRequest, ListKeysResponse,
    ScopedKeyRequest, ScopedKeyResponse, SessionOrg, SessionResponse, SessionScope, SessionUser,
};
use engram_engine::auth::KeyScope;
use engram_store::ApiKeyRecord;

fn item(k: ApiKeyRecord) -> ApiKeyItem {
    ApiKeyItem {
        id: k.id,
        name: k.name,
        created_at: iso(k.created_at),
        revoked_at: k.revoked_at.map(iso),
        container_tag: k.container_tag,
        expires_at: k.expires_at.map(iso),
        rate_limit: k.rate_limit,
    }
}

#[utoipa::path(
    get,
    path = "/v3/session",
    operation_id = "getSession",
    tag = "keys",
    responses(
        (status = 200, description = "The caller's key, organisation and scope", body = SessionResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Who is calling: the key, its organisation, and what it may reach.
pub async fn session(
    State(s): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<SessionResponse>, ApiError> {
    let org = s.engine.org(&who.org_id).await?;
    Ok(Json(SessionResponse {
        user: SessionUser {
            id: who.key_id,
            name: who.key_name,
        },
        org: SessionOrg {
            slug: slug(&org.name),
            id: org.id,
            name: org.name,
        },
        plan: "self-hosted".into(),
        scope: match who.scope {
            None => SessionScope {
                kind: "full".into(),
                container_tag: None,
                expires_at: None,
                rate_limit: None,
            },
            Some(scope) => SessionScope {
                kind: "scoped".into(),
                container_tag: Some(scope.container_tag),
                expires_at: scope.expires_at.map(iso),
                rate_limit: scope.rate_limit,
            },
        },
    }))
}

#[utoipa::path(
    get,
    path = "/v3/auth/keys",
    operation_id = "listKeys",
    tag = "keys",
    responses(
        (status = 200, description = "The organisation's keys, oldest first (no secrets)", body = ListKeysResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The organisation's API keys, revoked ones included; never a secret.
pub async fn list(
    State(s): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<ListKeysResponse>, ApiError> {
    let keys = s.engine.list_keys(&who.org_id).await?;
    Ok(Json(ListKeysResponse {
        keys: keys.into_iter().map(item).collect(),
    }))
}

#[utoipa::path(
    post,
    path = "/v3/auth/keys",
    operation_id = "createKey",
    tag = "keys",
    request_body = KeyNameRequest,
    responses(
        (status = 201, description = "The new key, shown this once", body = CreatedKeyResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Create a full key of the organisation.
pub async fn create(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<KeyNameRequest>,
) -> Result<(StatusCode, Json<CreatedKeyResponse>), ApiError> {
    let name = req.validate()?;
    let (rec, key) = s.engine.create_org_key(&who.org_id, name, None).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedKeyResponse {
            id: rec.id,
            name: rec.name,
            key,
            created_at: iso(rec.created_at),
        }),
    ))
}

#[utoipa::path(
    patch,
    path = "/v3/auth/keys/{id}",
    operation_id = "renameKey",
    tag = "keys",
    params(("id" = String, Path, description = "The key's id")),
    request_body = KeyNameRequest,
    responses(
        (status = 200, description = "Renamed", body = ApiKeyItem),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such key in this organisation (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "The key is revoked (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Rename one of the organisation's keys.
pub async fn rename(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<KeyNameRequest>,
) -> Result<Json<ApiKeyItem>, ApiError> {
    let name = req.validate()?;
    let k = s.engine.rename_key(&who.org_id, &id, name).await?;
    Ok(Json(item(k)))
}

#[utoipa::path(
    delete,
    path = "/v3/auth/keys/{id}",
    operation_id = "revokeKey",
    tag = "keys",
    params(("id" = String, Path, description = "The key's id")),
    responses(
        (status = 200, description = "Revoked: requests with it get 401 from now on", body = ApiKeyItem),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such key in this organisation (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "Revoked already (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Revoke one of the organisation's keys.
pub async fn revoke(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<ApiKeyItem>, ApiError> {
    let k = s.engine.revoke_key(&who.org_id, &id).await?;
    Ok(Json(item(k)))
}

#[utoipa::path(
    post,
    path = "/v3/auth/scoped-key",
    operation_id = "createScopedKey",
    tag = "keys",
    request_body = ScopedKeyRequest,
    responses(
        (status = 201, description = "The new scoped key, shown this once", body = ScopedKeyResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown, revoked or expired key (`AuthenticationError`)", body = ErrorBody),
        (status = 403, description = "Only a full key creates keys (`PermissionError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Create a key that reaches one container tag, and only the document,
/// memory, search and profile routes; optionally expiring, optionally with
/// its own rate limit (requests per minute).
pub async fn create_scoped(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ScopedKeyRequest>,
) -> Result<(StatusCode, Json<ScopedKeyResponse>), ApiError> {
    let v = req.validate(chrono::Utc::now())?;
    let scope = KeyScope {
        container_tag: v.container_tag,
        expires_at: v.expires_at,
        rate_limit: v.rate_limit,
    };
    let (rec, key) = s
        .engine
        .create_org_key(&who.org_id, &v.name, Some(scope))
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(ScopedKeyResponse {
            id: rec.id,
            name: rec.name,
            key,
            container_tag: rec.container_tag.unwrap_or_default(),
            expires_at: rec.expires_at.map(iso),
            rate_limit: rec.rate_limit,
            created_at: iso(rec.created_at),
        }),
    ))
}

#[utoipa::path(
    delete,
    path = "/v3/auth/scoped-key/{id}",
    operation_id = "deleteScopedKey",
    tag = "keys",
    params(("id" = String, Path, description = "The scoped key's id")),
    responses(
        (status = 200, description = "Revoked: requests with it get 401 from now on", body = ApiKeyItem),
        (status = 401, description = "Missing, unknown, revoked or expired key (`AuthenticationError`)", body = ErrorBody),
        (status = 403, description = "Only a full key manages keys (`PermissionError`)", body = ErrorBody),
        (status = 404, description = "No such scoped key in this organisation (`NotFoundError`)", body = ErrorBody),
        (status = 409, description = "Revoked already (`ConflictError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Delete (revoke) a scoped key.
pub async fn revoke_scoped(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<ApiKeyItem>, ApiError> {
    let k = s.engine.revoke_scoped_key(&who.org_id, &id).await?;
    Ok(Json(item(k)))
}
