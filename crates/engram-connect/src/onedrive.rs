//! OneDrive (Microsoft Graph): the files of the user's drive (text,
//! markdown, HTML, CSV, PDF) as documents, kept in sync with a delta
//! query. The first sync walks `root/delta` page by page to its
//! `@odata.deltaLink`; later syncs start from that link and see only what
//! changed, with deleted items marked `deleted`. A file whose content tag
//! (`cTag`) has not changed is not downloaded again. A delta link that
//! has expired (410 Gone) starts a full walk over.
//!
//! Endpoints: `GET /me`, `GET /me/drive/root/delta`,
//! `GET /me/drive/items/{id}/content` (a redirect to the download).

use crate::api::{is_document, Api};
use crate::{ConnectError, Item, Sink};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct State {
    /// Where the next sync starts: the last delta link, or (mid-walk) the
    /// next page.
    #[serde(default)]
    link: Option<String>,
    /// Whether `link` is a page of an unfinished walk.
    #[serde(default)]
    walking: bool,
    /// item id -> cTag of what the documents hold
    #[serde(default)]
    files: BTreeMap<String, String>,
}

/// OneDrive for one connection.
pub struct OneDrive<'a> {
    pub api: Api<'a>,
}

impl<'a> OneDrive<'a> {
    pub fn new(http: &'a reqwest::Client, base: &'a str, token: &'a str) -> Self {
        Self {
            api: Api {
                http,
                base,
                token,
                name: "Microsoft Graph",
                headers: &[],
            },
        }
    }

    /// The account's address.
    pub async fn email(&self) -> Result<Option<String>, ConnectError> {
        let u = self.api.get("/me").await?;
        Ok(u["mail"]
            .as_str()
            .or_else(|| u["userPrincipalName"].as_str())
            .map(str::to_string))
    }

    /// Sync the drive into `sink`.
    pub async fn sync(&self, cursor: Value, sink: &mut dyn Sink) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        let mut link = state
            .link
            .clone()
            .unwrap_or_else(|| "/me/drive/root/delta".to_string());
        loop {
            let Some(page) = self.api.get_or(&link, 410).await? else {
                // the delta link expired: walk everything again; files not
                // seen on the walk are removed at its end
                tracing::info!("OneDrive delta link expired; resyncing");
                state.link = None;
                state.walking = false;
                return self.full_resync(state, sink).await;
            };
            self.apply(&page, &mut state, sink, None).await?;
            if let Some(next) = page["@odata.nextLink"].as_str() {
                state.link = Some(next.to_string());
                state.walking = true;
                link = next.to_string();
                sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                    .await?;
                continue;
            }
            state.link = page["@odata.deltaLink"].as_str().map(str::to_string);
            state.walking = false;
            break;
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }

    /// A full walk after an expired delta link: what the walk does not see
    /// is gone.
    async fn full_resync(
        &self,
        mut state: State,
        sink: &mut dyn Sink,
    ) -> Result<Value, ConnectError> {
        let mut seen = std::collections::BTreeSet::new();
        let mut link = "/me/drive/root/delta".to_string();
        loop {
            let page = self.api.get(&link).await?;
            self.apply(&page, &mut state, sink, Some(&mut seen)).await?;
            match page["@odata.nextLink"].as_str() {
                Some(next) => link = next.to_string(),
                None => {
                    state.link = page["@odata.deltaLink"].as_str().map(str::to_string);
                    break;
                }
            }
        }
        let gone: Vec<String> = state
            .files
            .keys()
            .filter(|k| !seen.contains(*k))
            .cloned()
            .collect();
        if !gone.is_empty() {
            sink.remove(gone.clone()).await?;
            for g in gone {
                state.files.remove(&g);
            }
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }

    async fn apply(
        &self,
        page: &Value,
        state: &mut State,
        sink: &mut dyn Sink,
        mut seen: Option<&mut std::collections::BTreeSet<String>>,
    ) -> Result<(), ConnectError> {
        let mut gone = Vec::new();
        for it in page["value"].as_array().into_iter().flatten() {
            let Some(id) = it["id"].as_str() else {
                continue;
            };
            if !it["deleted"].is_null() {
                if state.files.remove(id).is_some() {
                    gone.push(id.to_string());
                }
                continue;
            }
            if it["file"].is_null() {
                continue; // a folder or the root
            }
            let name = it["name"].as_str().unwrap_or(id);
            let mime = it["file"]["mimeType"].as_str();
            if !is_document(mime, name)
                || it["size"].as_u64().unwrap_or(0) > crate::api::MAX_BODY as u64
            {
                continue;
            }
            if let Some(s) = seen.as_deref_mut() {
                s.insert(id.to_string());
            }
            let tag = it["cTag"]
                .as_str()
                .or_else(|| it["eTag"].as_str())
                .unwrap_or_default()
                .to_string();
            if !tag.is_empty() && state.files.get(id) == Some(&tag) {
                continue;
            }
            if !state.files.contains_key(id) && sink.room() == 0 {
                continue;
            }
            let body = match self
                .api
                .download(&format!("/me/drive/items/{id}/content"))
                .await
            {
                Ok(b) => b,
                Err(ConnectError::Internal(m)) if m.ends_with("answered 404") => continue,
                Err(e) => return Err(e),
            };
            let mut metadata = serde_json::Map::new();
            metadata.insert("driveItemId".into(), id.into());
            if let Some(p) = it["parentReference"]["path"].as_str() {
                metadata.insert("path".into(), format!("{p}/{name}").into());
            }
            if let Some(t) = it["lastModifiedDateTime"].as_str() {
                metadata.insert("modifiedTime".into(), t.into());
            }
            sink.put(vec![Item {
                id: id.to_string(),
                title: Some(name.to_string()),
                url: it["webUrl"].as_str().map(str::to_string),
                bytes: body.bytes,
                mime_type: mime.map(str::to_string).or(body.content_type),
                filename: Some(name.to_string()),
                metadata,
            }])
            .await?;
            state.files.insert(id.to_string(), tag);
        }
        if !gone.is_empty() {
            sink.remove(gone).await?;
        }
        Ok(())
    }
}
