//! `/v3/connections*`: connections to outside sources and what they
//! synced. Shapes follow the public API (the SDKs parse them).

use serde::{Deserialize, Serialize};

/// `POST /v3/connections/{provider}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateConnectionRequest {
    /// The space synced documents go to (with `containerTags`: first).
    #[serde(default, alias = "container_tag")]
    pub container_tag: Option<String>,
    #[serde(default, alias = "container_tags")]
    pub container_tags: Option<Vec<String>>,
    /// At most this many documents (1 to 10 000; default 10 000).
    #[serde(default, alias = "document_limit")]
    pub document_limit: Option<i64>,
    /// Stamped on every synced document. Provider settings live here too:
    /// the web crawler's `startUrl`. Secret values (`accessKeyId`,
    /// `secretAccessKey`, `sessionToken`, `token`) are sealed and never
    /// shown again.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
    /// Where the browser goes after authorising.
    #[serde(default, alias = "redirect_url")]
    pub redirect_url: Option<String>,
}

/// The answer to creating a connection.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateConnectionResponse {
    pub id: String,
    /// Where to send the user to authorise (providers without OAuth: the
    /// `redirectUrl` given, or empty).
    pub auth_link: String,
    /// How long the link is valid.
    pub expires_in: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirects_to: Option<String>,
}

/// A body naming connections by container tags (list, documents, import,
/// get and delete by provider).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionTagsRequest {
    #[serde(default, alias = "container_tags")]
    pub container_tags: Option<Vec<String>>,
    #[serde(default, alias = "container_tag")]
    pub container_tag: Option<String>,
}

/// A connection's last sync.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncRun {
    /// `running`, `completed` or `failed`.
    pub status: String,
    /// `auth_expired`, `rate_limited`, `plan_required`,
    /// `provider_unavailable` or `internal`.
    pub error_code: Option<String>,
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
}

/// A connection as answers show it (never its secrets).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionResponse {
    pub id: String,
    pub provider: String,
    pub created_at: String,
    pub document_limit: i64,
    /// The account the provider authorised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// When the authorisation link (pending) or the grant expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[schema(value_type = Object)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    pub container_tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_sync_run: Option<SyncRun>,
}

/// What deleting a connection answers (in an array).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct DeletedConnection {
    pub id: String,
    pub provider: String,
}

/// `DELETE /v3/connections/{connectionId}` query.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DeleteConnectionQuery {
    /// Also delete the documents it synced (default true).
    #[serde(default)]
    pub delete_documents: Option<String>,
}

/// A document a connection synced.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionDocument {
    pub id: String,
    pub created_at: String,
    pub updated_at: String,
    pub status: String,
    pub summary: Option<String>,
    pub title: Option<String>,
    #[serde(rename = "type")]
    pub doc_type: String,
}

/// `GET /v3/connections/{connectionId}/resources` query.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
pub struct ResourcesQuery {
    /// Page, from 1.
    pub page: Option<u32>,
    /// Per page (1 to 100, default 30).
    pub per_page: Option<u32>,
    /// S3: list the folders under this prefix (`parentId` also read);
    /// unused by GitHub (repositories have no parent).
    #[serde(alias = "parentId")]
    pub parent_id: Option<String>,
}

/// What a connection can sync from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ResourcesResponse {
    #[schema(value_type = Vec<Object>)]
    pub resources: Vec<serde_json::Value>,
    pub total_count: u64,
}

/// `POST /v3/connections/{connectionId}/configure`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ConfigureRequest {
    /// GitHub: repositories, each with `full_name` (`owner/name`).
    #[schema(value_type = Vec<Object>)]
    pub resources: Vec<serde_json::Value>,
}

/// What configuring answers.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigureResponse {
    pub success: bool,
    pub message: String,
    pub webhooks_registered: u64,
}

/// The OAuth callback's query.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
pub struct CallbackQuery {
    pub state: Option<String>,
    pub code: Option<String>,
    pub error: Option<String>,
}
