//! S3 connections: where the bucket is (the connection's public metadata)
//! and how to sign (its sealed secrets), checked when the connection is
//! created so a typo is a 400 then rather than a failed sync later.

use super::{invalid, Secrets};
use crate::{Engine, EngineError};
use engram_connect::s3::{valid_bucket, Source, S3};
use engram_connect::ConnectError;
use engram_core::Metadata;
use engram_store::Connection;

fn text<'a>(m: &'a Metadata, k: &str) -> Option<&'a str> {
    m.get(k).and_then(|v| v.as_str()).filter(|s| !s.is_empty())
}

fn source(metadata: &Metadata, secrets: &Secrets) -> Source {
    let secret = |k: &str| text(&secrets.values, k).map(str::to_string);
    Source {
        endpoint: text(metadata, "endpoint").map(str::to_string),
        region: text(metadata, "region").unwrap_or("us-east-1").to_string(),
        bucket: text(metadata, "bucket").unwrap_or_default().to_string(),
        access_key_id: secret("accessKeyId"),
        secret_access_key: secret("secretAccessKey"),
        session_token: secret("sessionToken"),
    }
}

impl Engine {
    /// Check an S3 connection's settings before it is created.
    pub(super) fn check_s3(
        &self,
        metadata: &Metadata,
        secrets: &Secrets,
    ) -> Result<(), EngineError> {
        let s = source(metadata, secrets);
        if !valid_bucket(&s.bucket) {
            return Err(invalid(
                "metadata.bucket",
                "an S3 connection needs metadata.bucket, a bucket name (3-63 of a-z, 0-9, `.`, `-`)",
            ));
        }
        if let Some(e) = &s.endpoint {
            let url = url::Url::parse(e)
                .ok()
                .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
                .ok_or_else(|| invalid("metadata.endpoint", "must be an http or https URL"))?;
            engram_connect::fetch::check_url(&url, self.fetcher.allows_private())
                .map_err(|e| invalid("metadata.endpoint", e.to_string()))?;
        }
        if s.access_key_id.is_some() != s.secret_access_key.is_some() {
            return Err(invalid(
                "metadata.secretAccessKey",
                "accessKeyId and secretAccessKey go together (or neither, for a public bucket)",
            ));
        }
        for k in ["region", "prefix"] {
            if metadata.get(k).is_some_and(|v| !v.is_string()) {
                return Err(invalid(&format!("metadata.{k}"), "must be a string"));
            }
        }
        Ok(())
    }

    /// The bucket of an S3 connection, reached through the guarded client.
    pub(crate) fn s3_of(&self, c: &Connection) -> Result<S3, ConnectError> {
        let secrets = self
            .open_secrets(c)
            .map_err(|e| ConnectError::Internal(e.to_string()))?;
        S3::new(&source(&c.metadata, &secrets), self.fetcher.client())
    }
}
