//! A typed client of Engram's HTTP API, over the wire types of
//! `engram-api`: what the `engram` CLI (and any Rust program) talks to a
//! server with. It sends bearer-authenticated JSON and turns every failure
//! into one [`ClientError`]: the server's error body when it answered, or
//! why it could not be reached.
//!
//! It knows no server internals and holds no state beyond the base URL
//! and key.

use engram_api::{
    AddDocumentRequest, AddDocumentResponse, ApiKeyItem, BatchAddRequest, BatchAddResponse,
    ChunksResponse, ConnectionResponse, ConnectionTagsRequest, ContainerTagListItem,
    ContainerTagSettings, CreateConnectionRequest, CreateConnectionResponse, CreateMemoriesRequest,
    CreateMemoriesResponse, CreatedKeyResponse, DeleteContainerTagResponse, DeletedConnection,
    DocumentResponse, ErrorBody, ForgetMemoryRequest, ForgetMemoryResponse, KeyNameRequest,
    ListDocumentsRequest, ListDocumentsResponse, ListKeysResponse, LogsResponse,
    MergeContainerTagsRequest, MergeQueuedResponse, MergeStatusResponse, PatchContainerTagRequest,
    PatchMemoryRequest, PatchMemoryResponse, ProcessingResponse, ProfileRequest, ProfileResponse,
    ScopedKeyRequest, ScopedKeyResponse, SessionResponse, V4SearchRequest, V4SearchResponse,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::Arc;

pub use reqwest::Method;

mod transport;
pub use transport::{BoxFuture, HttpTransport, Incoming, Outgoing, Transport};

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered with an error body.
    #[error("{kind} ({status}): {message}")]
    Api {
        status: u16,
        /// `ValidationError`, `AuthenticationError`, ...
        kind: String,
        message: String,
    },
    /// The server could not be reached, or did not answer in time.
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The server answered something that is not what the API says.
    #[error("unexpected answer from the server: {0}")]
    Decode(String),
}

impl ClientError {
    /// The HTTP status of an API error.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Api { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// A client of one Engram server with one key.
#[derive(Debug, Clone)]
pub struct Client {
    transport: Arc<dyn Transport>,
    key: String,
}

impl Client {
    /// A client of the server at `base` (e.g. `http://127.0.0.1:6767`).
    pub fn new(base: &str, key: &str) -> Result<Self, ClientError> {
        Ok(Self::with_transport(
            Arc::new(HttpTransport::new(base)?),
            key,
        ))
    }

    /// A client that sends through `transport`.
    pub fn with_transport(transport: Arc<dyn Transport>, key: &str) -> Self {
        Self {
            transport,
            key: key.to_string(),
        }
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        self.transport.base()
    }

    /// The bearer key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Send `body` (if any) to `path` and read the answer as `T`.
    pub async fn request<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&(impl Serialize + ?Sized)>,
    ) -> Result<T, ClientError> {
        let body = match body {
            Some(b) => Some((
                "application/json".to_string(),
                serde_json::to_vec(b).map_err(|e| ClientError::Decode(e.to_string()))?,
            )),
            None => None,
        };
        self.send(method, path, body).await
    }

    /// `POST /v3/documents/file`: upload a file (`name` is its file name)
    /// with form fields such as `containerTags` (a JSON array),
    /// `metadata` (a JSON object) and `customId`.
    pub async fn upload(
        &self,
        name: &str,
        bytes: Vec<u8>,
        fields: &[(&str, String)],
    ) -> Result<AddDocumentResponse, ClientError> {
        let boundary = format!("engram-{:016x}", {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(bytes.len());
            h.finish()
        });
        let mut body = Vec::with_capacity(bytes.len() + 512);
        for (k, v) in fields {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                )
                .as_bytes(),
            );
        }
        let file_name: String = name
            .chars()
            .filter(|c| *c != '"' && *c != '\r' && *c != '\n')
            .collect();
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let content_type = format!("multipart/form-data; boundary={boundary}");
        self.send(
            Method::POST,
            "/v3/documents/file",
            Some((content_type, body)),
        )
        .await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<(String, Vec<u8>)>,
    ) -> Result<T, ClientError> {
        let bytes = self.send_bytes(method, path, body).await?;
        let bytes = if bytes.is_empty() {
            &b"null"[..]
        } else {
            &bytes[..]
        };
        serde_json::from_slice(bytes).map_err(|e| ClientError::Decode(e.to_string()))
    }

    /// Send a request; the body of a 2xx answer as it came.
    async fn send_bytes(
        &self,
        method: Method,
        path: &str,
        body: Option<(String, Vec<u8>)>,
    ) -> Result<Vec<u8>, ClientError> {
        let Incoming {
            status,
            body: bytes,
        } = self
            .transport
            .send(Outgoing {
                method,
                path: path.to_string(),
                key: self.key.clone(),
                body,
            })
            .await?;
        if !(200..300).contains(&status) {
            return Err(match serde_json::from_slice::<ErrorBody>(&bytes) {
                Ok(e) => ClientError::Api {
                    status,
                    message: match e.details {
                        Some(d) if !d.is_empty() => format!("{}: {d}", e.error),
                        _ => e.error,
                    },
                    kind: e.kind,
                },
                Err(_) => ClientError::Api {
                    status,
                    kind: "HttpError".into(),
                    message: String::from_utf8_lossy(&bytes).chars().take(300).collect(),
                },
            });
        }
        Ok(bytes.to_vec())
    }

    /// `GET /v3/session`: who the key is.
    pub async fn session(&self) -> Result<SessionResponse, ClientError> {
        self.request(Method::GET, "/v3/session", None::<&()>).await
    }

    /// `POST /v3/documents`.
    pub async fn add(&self, req: &AddDocumentRequest) -> Result<AddDocumentResponse, ClientError> {
        self.request(Method::POST, "/v3/documents", Some(req)).await
    }

    /// `POST /v3/documents/batch`: up to 600 documents.
    pub async fn add_batch(&self, req: &BatchAddRequest) -> Result<BatchAddResponse, ClientError> {
        self.request(Method::POST, "/v3/documents/batch", Some(req))
            .await
    }

    /// `GET /v3/documents/processing`: documents not yet done.
    pub async fn processing(&self) -> Result<ProcessingResponse, ClientError> {
        self.request(Method::GET, "/v3/documents/processing", None::<&()>)
            .await
    }

    /// `GET /v3/documents/{id}`.
    pub async fn document(&self, id: &str) -> Result<DocumentResponse, ClientError> {
        let path = format!("/v3/documents/{}", encode(id));
        self.request(Method::GET, &path, None::<&()>).await
    }

    /// `POST /v3/documents/list`.
    pub async fn list_documents(
        &self,
        req: &ListDocumentsRequest,
    ) -> Result<ListDocumentsResponse, ClientError> {
        self.request(Method::POST, "/v3/documents/list", Some(req))
            .await
    }

    /// `GET /v3/documents/{id}/chunks`.
    pub async fn chunks(&self, id: &str) -> Result<ChunksResponse, ClientError> {
        let path = format!("/v3/documents/{}/chunks", encode(id));
        self.request(Method::GET, &path, None::<&()>).await
    }

    /// `DELETE /v3/documents/{id}`.
    pub async fn delete_document(&self, id: &str) -> Result<(), ClientError> {
        let path = format!("/v3/documents/{}", encode(id));
        self.request::<serde_json::Value>(Method::DELETE, &path, None::<&()>)
            .await
            .map(|_| ())
    }

    /// `POST /v4/search`.
    pub async fn search(&self, req: &V4SearchRequest) -> Result<V4SearchResponse, ClientError> {
        self.request(Method::POST, "/v4/search", Some(req)).await
    }

    /// `POST /v4/profile`.
    pub async fn profile(&self, req: &ProfileRequest) -> Result<ProfileResponse, ClientError> {
        self.request(Method::POST, "/v4/profile", Some(req)).await
    }
}

impl Client {
    /// `GET /v3/auth/keys`: the organisation's keys (no secrets).
    pub async fn keys(&self) -> Result<ListKeysResponse, ClientError> {
        self.request(Method::GET, "/v3/auth/keys", None::<&()>)
            .await
    }

    /// `POST /v3/auth/keys`: a new full key, shown this once.
    pub async fn create_key(&self, name: &str) -> Result<CreatedKeyResponse, ClientError> {
        let req = KeyNameRequest { name: name.into() };
        self.request(Method::POST, "/v3/auth/keys", Some(&req))
            .await
    }

    /// `PATCH /v3/auth/keys/{id}`.
    pub async fn rename_key(&self, id: &str, name: &str) -> Result<ApiKeyItem, ClientError> {
        let req = KeyNameRequest { name: name.into() };
        let path = format!("/v3/auth/keys/{}", encode(id));
        self.request(Method::PATCH, &path, Some(&req)).await
    }

    /// `DELETE /v3/auth/keys/{id}`: revoke a key (full or scoped).
    pub async fn revoke_key(&self, id: &str) -> Result<ApiKeyItem, ClientError> {
        let path = format!("/v3/auth/keys/{}", encode(id));
        self.request(Method::DELETE, &path, None::<&()>).await
    }

    /// `POST /v3/auth/scoped-key`: a key for one container tag.
    pub async fn create_scoped_key(
        &self,
        req: &ScopedKeyRequest,
    ) -> Result<ScopedKeyResponse, ClientError> {
        self.request(Method::POST, "/v3/auth/scoped-key", Some(req))
            .await
    }

    /// `POST /v4/memories`.
    pub async fn remember(
        &self,
        req: &CreateMemoriesRequest,
    ) -> Result<CreateMemoriesResponse, ClientError> {
        self.request(Method::POST, "/v4/memories", Some(req)).await
    }

    /// `PATCH /v4/memories`: a new version of a memory.
    pub async fn update_memory(
        &self,
        req: &PatchMemoryRequest,
    ) -> Result<PatchMemoryResponse, ClientError> {
        self.request(Method::PATCH, "/v4/memories", Some(req)).await
    }

    /// `DELETE /v4/memories`: forget a memory.
    pub async fn forget(
        &self,
        req: &ForgetMemoryRequest,
    ) -> Result<ForgetMemoryResponse, ClientError> {
        self.request(Method::DELETE, "/v4/memories", Some(req))
            .await
    }

    /// `GET /v3/container-tags/list`.
    pub async fn tags(&self) -> Result<Vec<ContainerTagListItem>, ClientError> {
        self.request(Method::GET, "/v3/container-tags/list", None::<&()>)
            .await
    }

    /// `GET /v3/container-tags/{tag}`.
    pub async fn tag(&self, tag: &str) -> Result<ContainerTagSettings, ClientError> {
        let path = format!("/v3/container-tags/{}", encode(tag));
        self.request(Method::GET, &path, None::<&()>).await
    }

    /// `PATCH /v3/container-tags/{tag}` (creates it when new).
    pub async fn patch_tag(
        &self,
        tag: &str,
        req: &PatchContainerTagRequest,
    ) -> Result<ContainerTagSettings, ClientError> {
        let path = format!("/v3/container-tags/{}", encode(tag));
        self.request(Method::PATCH, &path, Some(req)).await
    }

    /// `DELETE /v3/container-tags/{tag}`.
    pub async fn delete_tag(&self, tag: &str) -> Result<DeleteContainerTagResponse, ClientError> {
        let path = format!("/v3/container-tags/{}", encode(tag));
        self.request(Method::DELETE, &path, None::<&()>).await
    }

    /// `POST /v3/container-tags/merge`.
    pub async fn merge_tags(
        &self,
        req: &MergeContainerTagsRequest,
    ) -> Result<MergeQueuedResponse, ClientError> {
        self.request(Method::POST, "/v3/container-tags/merge", Some(req))
            .await
    }

    /// `GET /v3/container-tags/merge/{id}`.
    pub async fn merge_status(&self, id: &str) -> Result<MergeStatusResponse, ClientError> {
        let path = format!("/v3/container-tags/merge/{}", encode(id));
        self.request(Method::GET, &path, None::<&()>).await
    }

    /// `GET /v3/analytics/logs` with query parameters `query` (`name`, value).
    pub async fn logs(&self, query: &[(&str, String)]) -> Result<LogsResponse, ClientError> {
        let qs: Vec<String> = query
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        let path = if qs.is_empty() {
            "/v3/analytics/logs".to_string()
        } else {
            format!("/v3/analytics/logs?{}", qs.join("&"))
        };
        self.request(Method::GET, &path, None::<&()>).await
    }
}

/// A path segment, percent-encoded.
impl Client {
    /// `POST /v3/connections/list`: the connections with these tags (all
    /// when empty).
    pub async fn connections(
        &self,
        tags: Vec<String>,
    ) -> Result<Vec<ConnectionResponse>, ClientError> {
        let req = ConnectionTagsRequest {
            container_tags: (!tags.is_empty()).then_some(tags),
            container_tag: None,
        };
        self.request(Method::POST, "/v3/connections/list", Some(&req))
            .await
    }

    /// `GET /v3/connections/{id}`.
    pub async fn connection(&self, id: &str) -> Result<ConnectionResponse, ClientError> {
        let path = format!("/v3/connections/{}", encode(id));
        self.request(Method::GET, &path, None::<&()>).await
    }

    /// `POST /v3/connections/{provider}`.
    pub async fn create_connection(
        &self,
        provider: &str,
        req: &CreateConnectionRequest,
    ) -> Result<CreateConnectionResponse, ClientError> {
        let path = format!("/v3/connections/{}", encode(provider));
        self.request(Method::POST, &path, Some(req)).await
    }

    /// `POST /v3/connections/{provider}/import`: sync now; the server's
    /// message.
    pub async fn import_connections(
        &self,
        provider: &str,
        tags: Vec<String>,
    ) -> Result<String, ClientError> {
        let req = ConnectionTagsRequest {
            container_tags: (!tags.is_empty()).then_some(tags),
            container_tag: None,
        };
        let body = serde_json::to_vec(&req).map_err(|e| ClientError::Decode(e.to_string()))?;
        let path = format!("/v3/connections/{}/import", encode(provider));
        let bytes = self
            .send_bytes(Method::POST, &path, Some(("application/json".into(), body)))
            .await?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// `DELETE /v3/connections/{id}?deleteDocuments=`.
    pub async fn delete_connection(
        &self,
        id: &str,
        delete_documents: bool,
    ) -> Result<Vec<DeletedConnection>, ClientError> {
        let path = format!(
            "/v3/connections/{}?deleteDocuments={delete_documents}",
            encode(id)
        );
        self.request(Method::DELETE, &path, None::<&()>).await
    }
}

pub fn encode(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use axum::routing::{get, post};
    use axum::{Json, Router};
    use serde_json::json;

    /// A stand-in server: a session, an error with details, a non-JSON
    /// failure.
    async fn stand_in() -> String {
        let app = Router::new()
            .route(
                "/v3/session",
                get(|headers: axum::http::HeaderMap| async move {
                    if headers.get("authorization").and_then(|v| v.to_str().ok())
                        != Some("Bearer em_test")
                    {
                        return (
                            StatusCode::UNAUTHORIZED,
                            Json(json!({"error": "Unauthorized", "details": "invalid key", "type": "AuthenticationError"})),
                        );
                    }
                    (
                        StatusCode::OK,
                        Json(json!({"user": {"id": "k", "name": "default"},
                                    "org": {"id": "o", "name": "Acme", "slug": "acme"},
                                    "plan": "self-hosted", "scope": {"type": "full"}})),
                    )
                }),
            )
            .route(
                "/v4/search",
                post(|| async { (StatusCode::BAD_GATEWAY, "upstream down") }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{addr}/")
    }

    #[tokio::test]
    async fn answers_and_errors() {
        let base = stand_in().await;
        let ok = Client::new(&base, "em_test").unwrap();
        assert_eq!(ok.base(), base.trim_end_matches('/'));
        let s = ok.session().await.unwrap();
        assert_eq!(s.org.slug, "acme");
        assert_eq!(s.scope.kind, "full");

        let bad = Client::new(&base, "em_wrong").unwrap();
        match bad.session().await.unwrap_err() {
            ClientError::Api {
                status,
                kind,
                message,
            } => {
                assert_eq!(status, 401);
                assert_eq!(kind, "AuthenticationError");
                assert_eq!(message, "Unauthorized: invalid key");
            }
            other => panic!("{other:?}"),
        }
        let e = ok
            .search(&V4SearchRequest {
                q: "x".into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(e.status(), Some(502));
        assert!(e.to_string().contains("upstream down"), "{e}");

        let gone = Client::new("http://127.0.0.1:9", "k").unwrap();
        assert!(matches!(
            gone.session().await.unwrap_err(),
            ClientError::Unreachable { .. }
        ));
    }

    #[test]
    fn segments_are_encoded() {
        assert_eq!(encode("doc 1/ä"), "doc%201%2F%C3%A4");
        assert_eq!(encode("abc-_.~"), "abc-_.~");
    }
}
