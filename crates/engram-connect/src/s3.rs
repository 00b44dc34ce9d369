//! S3 and S3-compatible stores (AWS, MinIO, R2, ...): the text, markdown,
//! HTML, PDF and CSV objects of a bucket (under chosen prefixes) as
//! documents. Changes are found by ETag: a sync lists the bucket, fetches
//! only objects whose ETag differs from the last sync's, and removes the
//! documents of objects that are gone. The listing and the requests go
//! through `object_store`'s S3 client over the caller's (SSRF-guarded)
//! HTTP client.

use crate::{ConnectError, Item, Sink};
use futures::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, RetryConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// Objects larger than this are not synced.
pub const MAX_OBJECT: u64 = 20 * 1024 * 1024;
/// Checkpoint the cursor after this many fetched objects.
const CHECKPOINT_EVERY: usize = 25;
/// Objects downloaded at once.
const CONCURRENT_GETS: usize = 8;

/// The MIME type of a key Engram syncs, by extension; None to skip it.
pub fn mime_of(key: &str) -> Option<&'static str> {
    let name = key.rsplit('/').next().unwrap_or(key);
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "txt" | "text" | "log" => "text/plain",
        "md" | "markdown" | "mdx" => "text/markdown",
        "html" | "htm" | "xhtml" => "text/html",
        "pdf" => "application/pdf",
        "csv" => "text/csv",
        _ => return None,
    })
}

/// Where and how to reach a bucket (from the connection's metadata and
/// sealed secrets).
#[derive(Clone, Default)]
pub struct Source {
    /// `https://s3.{region}.amazonaws.com` when None.
    pub endpoint: Option<String>,
    pub region: String,
    pub bucket: String,
    /// Credentials; anonymous (unsigned) requests when absent.
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub session_token: Option<String>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("bucket", &self.bucket)
            .finish_non_exhaustive()
    }
}

/// Whether `name` is a valid bucket name (3-63 of a-z, 0-9, `.`, `-`,
/// starting and ending with a letter or digit).
pub fn valid_bucket(name: &str) -> bool {
    (3..=63).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.as_bytes()[name.len() - 1].is_ascii_alphanumeric()
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct State {
    /// key -> ETag of what the documents hold
    #[serde(default)]
    objects: BTreeMap<String, String>,
}

#[derive(Debug)]
struct Http(reqwest::Client);

impl object_store::client::HttpConnector for Http {
    fn connect(
        &self,
        _: &object_store::ClientOptions,
    ) -> object_store::Result<object_store::client::HttpClient> {
        Ok(object_store::client::HttpClient::new(self.0.clone()))
    }
}

/// A bucket, ready to list and read.
pub struct S3 {
    store: AmazonS3,
    bucket: String,
}

/// An error's message with its causes (object_store's own message leaves
/// out why a request failed, such as the SSRF guard's refusal).
fn chain(e: &dyn std::error::Error) -> String {
    let mut msg = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        let m = s.to_string();
        if !msg.contains(&m) {
            msg = format!("{msg}: {m}");
        }
        src = s.source();
    }
    msg
}

fn error(e: object_store::Error) -> ConnectError {
    use object_store::Error as E;
    match e {
        E::Unauthenticated { .. } | E::PermissionDenied { .. } => {
            ConnectError::AuthExpired(format!("the S3 store refused the credentials: {e}"))
        }
        E::NotFound { .. } => ConnectError::Config(format!("not found in the S3 store: {e}")),
        other => {
            let msg = chain(&other);
            // (the status as object_store words it: a bare "429" may be
            // part of anything, such as a retry's elapsed time)
            if msg.contains("SlowDown") || msg.contains("status code: 429") {
                ConnectError::RateLimited {
                    retry_after: Some(Duration::from_secs(30)),
                }
            } else {
                ConnectError::Unavailable(format!("S3: {msg}"))
            }
        }
    }
}

impl S3 {
    /// A client for `source` over `http` (whose resolver decides which
    /// addresses may be reached).
    pub fn new(source: &Source, http: reqwest::Client) -> Result<Self, ConnectError> {
        let endpoint = source
            .endpoint
            .clone()
            .unwrap_or_else(|| format!("https://s3.{}.amazonaws.com", source.region));
        let mut b = AmazonS3Builder::new()
            .with_region(&source.region)
            .with_bucket_name(&source.bucket)
            .with_endpoint(endpoint.trim_end_matches('/'))
            .with_allow_http(endpoint.starts_with("http://"))
            .with_virtual_hosted_style_request(false)
            .with_http_connector(Http(http))
            .with_retry(RetryConfig {
                max_retries: 3,
                retry_timeout: Duration::from_secs(30),
                ..Default::default()
            });
        match (&source.access_key_id, &source.secret_access_key) {
            (Some(id), Some(secret)) => {
                b = b.with_access_key_id(id).with_secret_access_key(secret);
                if let Some(t) = &source.session_token {
                    b = b.with_token(t);
                }
            }
            _ => b = b.with_skip_signature(true),
        }
        let store = b
            .build()
            .map_err(|e| ConnectError::Config(format!("S3 settings: {e}")))?;
        Ok(Self {
            store,
            bucket: source.bucket.clone(),
        })
    }

    /// The folders (common prefixes) directly under `prefix`, as
    /// resources to choose from.
    pub async fn prefixes(&self, prefix: Option<&str>) -> Result<Vec<Value>, ConnectError> {
        let p = prefix.filter(|p| !p.is_empty()).map(Path::from);
        let listed = self
            .store
            .list_with_delimiter(p.as_ref())
            .await
            .map_err(error)?;
        Ok(listed
            .common_prefixes
            .into_iter()
            .map(|p| {
                let name = format!("{p}/");
                serde_json::json!({ "id": name, "name": name, "type": "prefix", "bucket": self.bucket })
            })
            .collect())
    }

    /// Sync the objects under `prefixes` (the whole bucket when empty).
    pub async fn sync(
        &self,
        prefixes: &[String],
        cursor: Value,
        sink: &mut dyn Sink,
    ) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        // the listing first: what is there now, with ETags
        let mut now: BTreeMap<String, (String, u64)> = BTreeMap::new();
        let roots: Vec<Option<Path>> = if prefixes.is_empty() {
            vec![None]
        } else {
            prefixes
                .iter()
                .map(|p| Some(Path::from(p.trim_matches('/'))))
                .collect()
        };
        for root in &roots {
            let objects: Vec<_> = self
                .store
                .list(root.as_ref())
                .try_collect()
                .await
                .map_err(error)?;
            for o in objects {
                let key = o.location.to_string();
                if mime_of(&key).is_some() && o.size <= MAX_OBJECT {
                    let tag = o
                        .e_tag
                        .clone()
                        .unwrap_or_else(|| format!("{}-{}", o.size, o.last_modified.timestamp()));
                    now.insert(key, (tag, o.size));
                }
            }
        }
        // gone at the source (or no longer chosen)
        let gone: Vec<String> = state
            .objects
            .keys()
            .filter(|k| !now.contains_key(*k))
            .cloned()
            .collect();
        if !gone.is_empty() {
            sink.remove(gone.iter().map(|k| self.item_id(k)).collect())
                .await?;
            for k in &gone {
                state.objects.remove(k);
            }
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
        }
        // what to fetch: changed objects, and new ones while there is room
        let mut room = sink.room();
        let mut todo: Vec<(String, String)> = Vec::new();
        for (key, (tag, _)) in &now {
            if state.objects.get(key) == Some(tag) {
                continue;
            }
            if !state.objects.contains_key(key) {
                if room == 0 {
                    continue;
                }
                room -= 1;
            }
            todo.push((key.clone(), tag.clone()));
        }
        // a checkpoint's worth at a time, downloaded concurrently
        for batch in todo.chunks(CHECKPOINT_EVERY) {
            let store = &self.store;
            let got: Vec<Option<(String, String, bytes::Bytes)>> =
                futures::stream::iter(batch.iter().cloned().map(|(key, tag)| async move {
                    match store.get(&Path::from(key.as_str())).await {
                        Ok(r) => Ok(Some((key, tag, r.bytes().await.map_err(error)?))),
                        // deleted between the listing and now
                        Err(object_store::Error::NotFound { .. }) => Ok(None),
                        Err(e) => Err(error(e)),
                    }
                }))
                .buffered(CONCURRENT_GETS)
                .try_collect()
                .await?;
            let mut items = Vec::with_capacity(got.len());
            for (key, tag, bytes) in got.into_iter().flatten() {
                let mut metadata = serde_json::Map::new();
                metadata.insert("bucket".into(), self.bucket.clone().into());
                metadata.insert("key".into(), key.clone().into());
                metadata.insert("etag".into(), tag.clone().into());
                items.push(Item {
                    id: self.item_id(&key),
                    title: Some(key.rsplit('/').next().unwrap_or(&key).to_string()),
                    url: Some(format!("s3://{}/{key}", self.bucket)),
                    bytes: bytes.to_vec(),
                    mime_type: mime_of(&key).map(str::to_string),
                    filename: key.rsplit('/').next().map(str::to_string),
                    metadata,
                });
                state.objects.insert(key, tag);
            }
            sink.put(items).await?;
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }

    /// The provider id of an object: `bucket/key`.
    fn item_id(&self, key: &str) -> String {
        format!("{}/{key}", self.bucket)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn kinds_and_buckets() {
        assert_eq!(super::mime_of("a/b/notes.MD"), Some("text/markdown"));
        assert_eq!(super::mime_of("x.pdf"), Some("application/pdf"));
        assert_eq!(super::mime_of("data.csv"), Some("text/csv"));
        assert_eq!(super::mime_of("img.png"), None);
        assert_eq!(super::mime_of("README"), None);
        assert!(super::valid_bucket("my-bucket.1"));
        for b in ["ab", "-abc", "Abc", "abc-", "a_b_c"] {
            assert!(!super::valid_bucket(b), "{b}");
        }
    }

    #[test]
    fn only_a_429_status_is_a_rate_limit() {
        let generic = |m: &str| object_store::Error::Generic {
            store: "S3",
            source: m.into(),
        };
        let limited = |m: &str| {
            matches!(
                super::error(generic(m)),
                crate::ConnectError::RateLimited { .. }
            )
        };
        assert!(limited(
            "Server returned non-2xx status code: 429 Too Many Requests: "
        ));
        assert!(limited("SlowDown: Please reduce your request rate."));
        // a "429" elsewhere (an elapsed time, an address, an id) is not
        assert!(!limited(
            "error sending request after 0.429s: connection refused (private address 127.0.0.1 refused)"
        ));
    }
}
