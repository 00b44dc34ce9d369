//! How requests reach a server: the [`Transport`] trait, and
//! [`HttpTransport`] over reqwest. The server implements its own transport
//! (into its router in process) for its MCP endpoint.

use crate::ClientError;
use reqwest::Method;
use std::time::Duration;

/// One request as a transport sends it.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub method: Method,
    /// Path and query, from the server's root (`/v4/search`).
    pub path: String,
    /// The bearer key.
    pub key: String,
    /// A body, and its content type.
    pub body: Option<(String, Vec<u8>)>,
}

/// What came back: the status and the body.
#[derive(Debug, Clone)]
pub struct Incoming {
    pub status: u16,
    pub body: Vec<u8>,
}

/// How requests reach a server: over HTTP ([`HttpTransport`]), or straight
/// into an application in the same process (the server's own MCP endpoint
/// does that, so its tools pass through authentication, scoping and
/// analytics exactly like any other request).
pub trait Transport: Send + Sync + std::fmt::Debug + 'static {
    /// Where requests go, for messages.
    fn base(&self) -> &str;
    /// Send one request.
    fn send(&self, req: Outgoing) -> BoxFuture<Result<Incoming, ClientError>>;
}

/// A boxed future of a transport.
pub type BoxFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>;

/// Requests over HTTP to a base URL.
#[derive(Debug, Clone)]
pub struct HttpTransport {
    http: reqwest::Client,
    base: String,
}

impl HttpTransport {
    /// A transport to the server at `base` (e.g. `http://127.0.0.1:6767`).
    pub fn new(base: &str) -> Result<Self, ClientError> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(300))
            .build()
            .map_err(|e| ClientError::Unreachable {
                url: base.to_string(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_string(),
        })
    }
}

impl Transport for HttpTransport {
    fn base(&self) -> &str {
        &self.base
    }

    fn send(&self, req: Outgoing) -> BoxFuture<Result<Incoming, ClientError>> {
        let http = self.http.clone();
        let base = self.base.clone();
        Box::pin(async move {
            let unreachable = |e: reqwest::Error| ClientError::Unreachable {
                url: base.clone(),
                reason: e.to_string(),
            };
            let mut r = http
                .request(req.method, format!("{base}{}", req.path))
                .bearer_auth(&req.key);
            if let Some((content_type, b)) = req.body {
                r = r
                    .header(reqwest::header::CONTENT_TYPE, content_type)
                    .body(b);
            }
            let resp = r.send().await.map_err(unreachable)?;
            let status = resp.status().as_u16();
            let body = resp.bytes().await.map_err(unreachable)?.to_vec();
            Ok(Incoming { status, body })
        })
    }
}
