//! `/v3/settings*`: the organisation's settings (secrets write-only), and
//! the reset that wipes the organisation's content.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use engram_api::settings::{masked, validate_patch};
use engram_api::{slug, ErrorBody, OrgSettingsBody, ResetRequest, ResetResponse, SettingsUpdated};
use engram_core::Metadata;

#[utoipa::path(
    get,
    path = "/v3/settings",
    operation_id = "getSettings",
    tag = "settings",
    responses(
        (status = 200, description = "The settings (secrets masked)", body = OrgSettingsBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The organisation's settings; connector secrets are shown masked.
pub async fn get(
    State(s): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<Metadata>, ApiError> {
    Ok(Json(masked(&s.engine.settings(&who.org_id).await?)))
}

#[utoipa::path(
    patch,
    path = "/v3/settings",
    operation_id = "updateSettings",
    tag = "settings",
    request_body = OrgSettingsBody,
    responses(
        (status = 200, description = "What changed (secrets masked)", body = SettingsUpdated),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Change settings: fields left out keep their values, null removes one.
/// `chunkSize` applies to documents processed from now on, `profileBuckets`
/// to every profile, `workspacePrompt` to memory extraction.
pub async fn update(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(changes): ApiJson<Metadata>,
) -> Result<Json<SettingsUpdated>, ApiError> {
    validate_patch(&changes)?;
    s.engine.update_settings(&who.org_id, &changes).await?;
    let org = s.engine.org(&who.org_id).await?;
    Ok(Json(SettingsUpdated {
        org_slug: slug(&org.name),
        org_id: org.id,
        updated: masked(&changes),
    }))
}

#[utoipa::path(
    post,
    path = "/v3/settings/reset",
    operation_id = "resetOrganisation",
    tag = "settings",
    request_body = ResetRequest,
    responses(
        (status = 200, description = "Everything but the organisation and its keys is gone", body = ResetResponse),
        (status = 400, description = "Missing or wrong confirmation (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Reset the organisation: delete its documents, memories, spaces and
/// settings (the organisation and its keys stay). `confirmation` must be
/// the organisation's name.
pub async fn reset(
    State(s): State<AppState>,
    Caller(who): Caller,
    ApiJson(req): ApiJson<ResetRequest>,
) -> Result<Json<ResetResponse>, ApiError> {
    let org = s.engine.org(&who.org_id).await?;
    if req.confirmation != org.name {
        return Err(ApiError::validation(
            "confirmation",
            format!(
                "must be the organisation's name, `{}`, to confirm deleting all its content",
                org.name
            ),
        ));
    }
    let r = s.engine.reset_org(&who.org_id).await?;
    Ok(Json(ResetResponse {
        success: true,
        deleted_connections: 0,
        deleted_document_batches: u64::from(r.documents > 0),
        deleted_documents_approx: r.documents,
        deleted_memory_rows: r.memories,
        deleted_extra_spaces: r.spaces,
        cleared_default_space_context: r.spaces > 0,
        cleared_brain_memory_registry: false,
        settings_reset: r.settings,
    }))
}
