//! `/v3/connections*` handlers, and the OAuth callback (a public route:
//! the `state` it carries is the credential).

use super::documents::iso;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::ApiJson;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Json;
use engram_api::{
    CallbackQuery, ConfigureRequest, ConfigureResponse, ConnectionDocument, ConnectionResponse,
    ConnectionTagsRequest, CreateConnectionRequest, CreateConnectionResponse,
    DeleteConnectionQuery, DeletedConnection, ErrorBody, ResourcesQuery, ResourcesResponse,
    SyncRun,
};
use engram_engine::connections::{Callback, CreateConnection};
use engram_store::{Connection, ConnectionQuery};

fn show(c: Connection) -> ConnectionResponse {
    let run = &c.last_sync;
    let text = |k: &str| run.get(k).and_then(|v| v.as_str()).map(str::to_string);
    ConnectionResponse {
        last_sync_run: run
            .get("status")
            .and_then(|s| s.as_str())
            .map(|status| SyncRun {
                status: status.to_string(),
                error_code: text("errorCode"),
                error: text("error"),
                started_at: text("startedAt"),
                completed_at: text("completedAt"),
            }),
        id: c.id,
        provider: c.provider,
        created_at: iso(c.created_at),
        document_limit: c.document_limit,
        email: c.email,
        expires_at: c.expires_at.map(iso),
        metadata: c.metadata,
        container_tags: c.container_tags,
    }
}

fn provider_param(p: &str) -> Result<&str, ApiError> {
    if engram_connect::is_provider(p) {
        Ok(p)
    } else {
        Err(ApiError::NotFound(format!(
            "Provider `{p}` not found (known: {})",
            engram_connect::PROVIDERS
                .iter()
                .map(|(p, _)| *p)
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// The tags a body names (either spelling), validated.
fn tags(req: &ConnectionTagsRequest) -> Result<Vec<String>, ApiError> {
    Ok(engram_core::validate::container_tags(
        req.container_tag.as_deref(),
        req.container_tags.as_deref(),
    )?)
}

fn query(provider: Option<&str>, tags: Vec<String>) -> ConnectionQuery {
    ConnectionQuery {
        provider: provider.map(str::to_string),
        container_tags: tags,
    }
}

/// `scheme://host` this request was sent to (for the OAuth callback).
fn reached_at(headers: &HeaderMap) -> Option<String> {
    let host = headers
        .get("x-forwarded-host")
        .or_else(|| headers.get(axum::http::header::HOST))?
        .to_str()
        .ok()?;
    let proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("http");
    Some(format!("{proto}://{host}"))
}

#[utoipa::path(
    post,
    path = "/v3/connections/{id}",
    operation_id = "createConnection",
    tag = "connections",
    params(("id" = String, Path, description = "The provider: notion, google-drive, onedrive, gmail, github, web-crawler, s3 or granola")),
    request_body = CreateConnectionRequest,
    responses(
        (status = 200, description = "The connection, and where to authorise it", body = CreateConnectionResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Unknown provider (`NotFoundError`)", body = ErrorBody),
        (status = 501, description = "A provider this build cannot sync (`NotImplementedError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Create a connection. OAuth providers answer a link to send the user
/// to; the web crawler starts crawling `metadata.startUrl` at once.
pub async fn create(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(provider): Path<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CreateConnectionRequest>,
) -> Result<Json<CreateConnectionResponse>, ApiError> {
    let provider = provider_param(&provider)?;
    let tags = engram_core::validate::container_tags(
        req.container_tag.as_deref(),
        req.container_tags.as_deref(),
    )?;
    let created = s
        .engine
        .create_connection(
            &who.org_id,
            CreateConnection {
                provider: provider.to_string(),
                container_tags: tags,
                document_limit: req.document_limit,
                metadata: req.metadata.unwrap_or_default(),
                redirect_url: req.redirect_url.clone(),
                reached_at: reached_at(&headers),
            },
        )
        .await?;
    Ok(Json(CreateConnectionResponse {
        id: created.connection.id,
        auth_link: created.auth_link,
        expires_in: created.expires_in,
        redirects_to: req.redirect_url,
    }))
}

#[utoipa::path(
    post,
    path = "/v3/connections/list",
    operation_id = "listConnections",
    tag = "connections",
    request_body = ConnectionTagsRequest,
    responses(
        (status = 200, description = "Connections, oldest first", body = Vec<ConnectionResponse>),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The organisation's connections, optionally those with any of the
/// given container tags.
pub async fn list(
    State(s): State<AppState>,
    Caller(who): Caller,
    body: Option<ApiJson<ConnectionTagsRequest>>,
) -> Result<Json<Vec<ConnectionResponse>>, ApiError> {
    let req = body.map(|b| b.0).unwrap_or_default();
    let found = s
        .engine
        .list_connections(&who.org_id, &query(None, tags(&req)?))
        .await?;
    Ok(Json(found.into_iter().map(show).collect()))
}

#[utoipa::path(
    get,
    path = "/v3/connections/{id}",
    operation_id = "getConnection",
    tag = "connections",
    params(("id" = String, Path, description = "The connection's id")),
    responses(
        (status = 200, description = "The connection", body = ConnectionResponse),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Not found (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// One connection, with its last sync.
pub async fn get(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<ConnectionResponse>, ApiError> {
    Ok(Json(show(s.engine.get_connection(&who.org_id, &id).await?)))
}

#[utoipa::path(
    delete,
    path = "/v3/connections/{id}",
    operation_id = "deleteConnection",
    tag = "connections",
    params(("id" = String, Path, description = "The connection's id"), DeleteConnectionQuery),
    request_body(content = Option<ConnectionTagsRequest>, description = "With a provider as the id: the container tags whose connections to delete"),
    responses(
        (status = 200, description = "What was deleted", body = Vec<DeletedConnection>),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Not found (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Delete a connection by id (its documents too unless
/// `deleteDocuments=false`), or, with a provider in place of the id, the
/// provider's connections with any of the body's `containerTags` (with
/// their documents).
pub async fn delete(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    Query(q): Query<DeleteConnectionQuery>,
    body: Option<ApiJson<ConnectionTagsRequest>>,
) -> Result<Json<Vec<DeletedConnection>>, ApiError> {
    if engram_connect::is_provider(&id) {
        let req = body.map(|b| b.0).unwrap_or_default();
        return delete_by_provider(&s, &who.org_id, &id, req).await;
    }
    let delete_documents = match q.delete_documents.as_deref() {
        None | Some("true") | Some("1") => true,
        Some("false") | Some("0") => false,
        Some(_) => {
            return Err(ApiError::validation(
                "deleteDocuments",
                "must be true or false",
            ))
        }
    };
    let c = s
        .engine
        .delete_connection(&who.org_id, &id, delete_documents)
        .await?;
    Ok(Json(vec![DeletedConnection {
        id: c.id,
        provider: c.provider,
    }]))
}

/// Delete the provider's connections with any of the given container
/// tags, with their documents.
async fn delete_by_provider(
    s: &AppState,
    org_id: &str,
    provider: &str,
    req: ConnectionTagsRequest,
) -> Result<Json<Vec<DeletedConnection>>, ApiError> {
    let tags = tags(&req)?;
    if tags.is_empty() {
        return Err(ApiError::validation(
            "containerTags",
            "name the container tags whose connections to delete",
        ));
    }
    let found = s
        .engine
        .list_connections(org_id, &query(Some(provider), tags))
        .await?;
    if found.is_empty() {
        return Err(ApiError::NotFound(format!(
            "No {provider} connection with those container tags"
        )));
    }
    let mut out = Vec::new();
    for c in found {
        let c = s.engine.delete_connection(org_id, &c.id, true).await?;
        out.push(DeletedConnection {
            id: c.id,
            provider: c.provider,
        });
    }
    Ok(Json(out))
}

#[utoipa::path(
    post,
    path = "/v3/connections/{id}/connection",
    operation_id = "getConnectionByTags",
    tag = "connections",
    params(("id" = String, Path, description = "The provider")),
    request_body = ConnectionTagsRequest,
    responses(
        (status = 200, description = "The provider's connection with those tags", body = ConnectionResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "No such connection (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// The provider's (most recent) connection with any of the given tags.
pub async fn get_by_tags(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(provider): Path<String>,
    ApiJson(req): ApiJson<ConnectionTagsRequest>,
) -> Result<Json<ConnectionResponse>, ApiError> {
    let provider = provider_param(&provider)?;
    let tags = tags(&req)?;
    if tags.is_empty() {
        return Err(ApiError::validation(
            "containerTags",
            "name at least one container tag",
        ));
    }
    let found = s
        .engine
        .list_connections(&who.org_id, &query(Some(provider), tags))
        .await?;
    let c = found
        .into_iter()
        .next_back()
        .ok_or_else(|| ApiError::NotFound(format!("Connection not found for {provider}")))?;
    Ok(Json(show(c)))
}

#[utoipa::path(
    post,
    path = "/v3/connections/{id}/documents",
    operation_id = "listConnectionDocuments",
    tag = "connections",
    params(("id" = String, Path, description = "The provider")),
    request_body = ConnectionTagsRequest,
    responses(
        (status = 200, description = "The documents the provider's connections synced", body = Vec<ConnectionDocument>),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Unknown provider (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Documents synced by the provider's connections (optionally those
/// with any of the given tags).
pub async fn documents(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(provider): Path<String>,
    body: Option<ApiJson<ConnectionTagsRequest>>,
) -> Result<Json<Vec<ConnectionDocument>>, ApiError> {
    let provider = provider_param(&provider)?;
    let req = body.map(|b| b.0).unwrap_or_default();
    let docs = s
        .engine
        .connection_documents(&who.org_id, &query(Some(provider), tags(&req)?))
        .await?;
    Ok(Json(
        docs.into_iter()
            .map(|d| ConnectionDocument {
                id: d.id,
                created_at: iso(d.created_at),
                updated_at: iso(d.updated_at),
                status: d.status.as_str().to_string(),
                summary: d.summary,
                title: d.title,
                doc_type: d.doc_type.as_str().to_string(),
            })
            .collect(),
    ))
}

#[utoipa::path(
    post,
    path = "/v3/connections/{id}/import",
    operation_id = "importConnections",
    tag = "connections",
    params(("id" = String, Path, description = "The provider")),
    request_body = ConnectionTagsRequest,
    responses(
        (status = 202, description = "Syncs started", body = String, content_type = "text/plain"),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Unknown provider (`NotFoundError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Sync the provider's active connections (optionally those with any of
/// the given tags) now.
pub async fn import(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(provider): Path<String>,
    body: Option<ApiJson<ConnectionTagsRequest>>,
) -> Result<Response, ApiError> {
    let provider = provider_param(&provider)?;
    let req = body.map(|b| b.0).unwrap_or_default();
    let n = s
        .engine
        .import_connections(&who.org_id, &query(Some(provider), tags(&req)?))
        .await?;
    let text = format!("Importing connections... ({n} syncing)");
    Ok((
        StatusCode::ACCEPTED,
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

#[utoipa::path(
    get,
    path = "/v3/connections/{id}/resources",
    operation_id = "connectionResources",
    tag = "connections",
    params(("id" = String, Path, description = "The connection's id"), ResourcesQuery),
    responses(
        (status = 200, description = "What the connection can sync from", body = ResourcesResponse),
        (status = 400, description = "Not authorised any more (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Not found (`NotFoundError`)", body = ErrorBody),
        (status = 501, description = "The provider has nothing to choose (`NotImplementedError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// What a connection can sync from (GitHub: the user's repositories).
pub async fn resources(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    Query(q): Query<ResourcesQuery>,
) -> Result<Json<ResourcesResponse>, ApiError> {
    let (resources, n) = s
        .engine
        .connection_resources(
            &who.org_id,
            &id,
            q.page.unwrap_or(1),
            q.per_page.unwrap_or(30),
            q.parent_id.as_deref(),
        )
        .await?;
    Ok(Json(ResourcesResponse {
        resources,
        total_count: n as u64,
    }))
}

#[utoipa::path(
    post,
    path = "/v3/connections/{id}/configure",
    operation_id = "configureConnection",
    tag = "connections",
    params(("id" = String, Path, description = "The connection's id")),
    request_body = ConfigureRequest,
    responses(
        (status = 200, description = "Configured; a sync starts", body = ConfigureResponse),
        (status = 400, description = "Invalid input (`ValidationError`)", body = ErrorBody),
        (status = 401, description = "Missing, unknown or revoked key (`AuthenticationError`)", body = ErrorBody),
        (status = 404, description = "Not found (`NotFoundError`)", body = ErrorBody),
        (status = 501, description = "The provider has nothing to configure (`NotImplementedError`)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
/// Choose what a connection syncs (GitHub: repositories by `full_name`).
pub async fn configure(
    State(s): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ConfigureRequest>,
) -> Result<Json<ConfigureResponse>, ApiError> {
    let hooks = s
        .engine
        .configure_connection(&who.org_id, &id, &req.resources)
        .await?;
    Ok(Json(ConfigureResponse {
        success: true,
        message: format!("{} resources configured; syncing", req.resources.len()),
        webhooks_registered: hooks as u64,
    }))
}

/// `POST /v3/connections/{id}/webhook`: a GitHub webhook delivery. No key:
/// the body's HMAC signature (`X-Hub-Signature-256`) under the
/// connection's derived secret is the credential. A relevant event makes
/// the connection's sync due now.
pub async fn webhook(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let header = |n: &str| headers.get(n).and_then(|v| v.to_str().ok());
    let event = header("x-github-event").unwrap_or_default();
    let queued = s
        .engine
        .github_webhook(&id, event, header("x-hub-signature-256"), &body)
        .await?;
    Ok(Json(
        serde_json::json!({ "ok": true, "syncQueued": queued }),
    ))
}

/// `GET /v3/connections/callback`: where a provider sends the user's
/// browser after authorising. No key: the unguessable `state` names the
/// connection, once.
pub async fn callback(
    State(s): State<AppState>,
    Query(q): Query<CallbackQuery>,
) -> Result<Response, ApiError> {
    let state = q
        .state
        .as_deref()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::validation("state", "the callback carries no state"))?;
    let out = s
        .engine
        .connection_callback(state, q.code.as_deref(), q.error.as_deref())
        .await?;
    Ok(match out {
        Callback::Redirect(to) => Redirect::to(&to).into_response(),
        Callback::Done {
            provider,
            ok,
            message,
        } => {
            let esc = |t: &str| {
                t.replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
            };
            let title = if ok { "Connected" } else { "Not connected" };
            let status = if ok {
                StatusCode::OK
            } else {
                StatusCode::BAD_REQUEST
            };
            (
                status,
                Html(format!(
                    "<!doctype html><meta charset=utf-8><title>{title}</title>\
                     <h1>{title}: {}</h1><p>{}</p><p>You can close this window.</p>",
                    esc(&provider),
                    esc(&message)
                )),
            )
                .into_response()
        }
    })
}
