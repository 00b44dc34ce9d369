//! A provider's JSON API with a bearer token: the requests the OAuth
//! providers (Notion, Google Drive, Gmail, OneDrive) share, with their
//! failures read the same way (401 is a lost grant, 429 and 503 with
//! `Retry-After` a rate limit, other 5xx an outage). The token only ever
//! goes to the API's own origin: a link the provider hands back (a next
//! page, a delta link) must start with the API base.

use crate::ConnectError;
use serde_json::Value;

/// Responses larger than this are refused (a single file's content).
pub const MAX_BODY: usize = 25 * 1024 * 1024;

/// One provider API, as one connection's token sees it.
pub struct Api<'a> {
    pub http: &'a reqwest::Client,
    /// The API's base URL (`https://graph.microsoft.com/v1.0`, ...).
    pub base: &'a str,
    pub token: &'a str,
    /// The provider's name, for messages.
    pub name: &'static str,
    /// Headers sent with every request (`Notion-Version`, ...).
    pub headers: &'a [(&'static str, &'static str)],
}

/// An answer that is not JSON (a file's content).
pub struct Body {
    pub bytes: Vec<u8>,
    pub content_type: Option<String>,
}

impl Api<'_> {
    /// The absolute URL of `path` (a path under the base, or a link the
    /// provider gave that lies under it).
    pub fn url(&self, path: &str) -> Result<String, ConnectError> {
        let base = self.base.trim_end_matches('/');
        if path.starts_with("http://") || path.starts_with("https://") {
            if path.starts_with(&format!("{base}/")) || path == base {
                return Ok(path.to_string());
            }
            return Err(ConnectError::Internal(format!(
                "{} handed back a link outside its API: {path}",
                self.name
            )));
        }
        Ok(format!("{base}{path}"))
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Result<reqwest::Response, ConnectError> {
        let mut req = req.bearer_auth(self.token).header("User-Agent", "Engram");
        for (k, v) in self.headers {
            req = req.header(*k, *v);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| ConnectError::Unavailable(format!("{}: {e}", self.name)))?;
        let status = resp.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(resp);
        }
        let retry = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let what = format!("{} {}", self.name, resp.url().path());
        // Google reports a rate limit as 403 with a reason
        let body = resp.text().await.unwrap_or_default();
        if status == 403 && (body.contains("rateLimitExceeded") || body.contains("RateLimit")) {
            return Err(ConnectError::RateLimited {
                retry_after: retry.as_deref().and_then(crate::parse_retry_after),
            });
        }
        if status == 503 && retry.is_some() {
            return Err(ConnectError::RateLimited {
                retry_after: retry.as_deref().and_then(crate::parse_retry_after),
            });
        }
        Err(ConnectError::from_status(status, retry.as_deref(), &what))
    }

    async fn json(resp: reqwest::Response, what: &str) -> Result<Value, ConnectError> {
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| ConnectError::Unavailable(format!("{what}: {e}")))?;
        serde_json::from_slice(&bytes).map_err(|e| ConnectError::Internal(format!("{what}: {e}")))
    }

    /// GET a JSON answer.
    pub async fn get(&self, path: &str) -> Result<Value, ConnectError> {
        let url = self.url(path)?;
        let resp = self.send(self.http.get(&url)).await?;
        Self::json(resp, &format!("{} {path}", self.name)).await
    }

    /// GET a JSON answer, or None where the API answers `status` (Gmail's
    /// 404 for a history id too old, Graph's 410 for a stale delta link).
    pub async fn get_or(&self, path: &str, status: u16) -> Result<Option<Value>, ConnectError> {
        match self.get(path).await {
            Err(ConnectError::Internal(m)) if m.ends_with(&format!("answered {status}")) => {
                Ok(None)
            }
            other => other.map(Some),
        }
    }

    /// POST a JSON body, answered with JSON.
    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, ConnectError> {
        let url = self.url(path)?;
        let resp = self.send(self.http.post(&url).json(body)).await?;
        Self::json(resp, &format!("{} {path}", self.name)).await
    }

    /// GET raw content (a file), at most [`MAX_BODY`] bytes.
    pub async fn download(&self, path: &str) -> Result<Body, ConnectError> {
        let url = self.url(path)?;
        let mut resp = self.send(self.http.get(&url)).await?;
        let content_type = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let mut bytes = Vec::new();
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| ConnectError::Unavailable(format!("{}: {e}", self.name)))?
        {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_BODY {
                return Err(ConnectError::Internal(format!(
                    "{}: {path} is larger than {MAX_BODY} bytes",
                    self.name
                )));
            }
        }
        Ok(Body {
            bytes,
            content_type,
        })
    }
}

/// A provider's file kinds Engram syncs, by MIME type or file name.
pub fn is_document(mime: Option<&str>, name: &str) -> bool {
    let m = mime.unwrap_or_default();
    m.starts_with("text/")
        || m == "application/pdf"
        || m == "application/xhtml+xml"
        || crate::s3::mime_of(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_stay_under_the_base() {
        let http = reqwest::Client::new();
        let api = Api {
            http: &http,
            base: "https://graph.example/v1.0",
            token: "t",
            name: "X",
            headers: &[],
        };
        assert_eq!(api.url("/me").unwrap(), "https://graph.example/v1.0/me");
        assert!(api.url("https://graph.example/v1.0/me/drive?x=1").is_ok());
        assert!(api.url("https://evil.example/v1.0/me").is_err());
        assert!(api.url("https://graph.example/v1.0evil/me").is_err());
        assert!(is_document(Some("text/plain"), "a"));
        assert!(is_document(None, "notes.md"));
        assert!(!is_document(Some("image/png"), "x.png"));
    }
}
