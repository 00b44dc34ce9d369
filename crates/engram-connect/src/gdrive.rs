//! Google Drive: the user's documents (Google Docs, Sheets and Slides
//! exported as text or CSV; text, markdown, HTML, CSV and PDF files as
//! they are) as documents. The first sync takes a start page token from
//! the changes API, then lists every file; later syncs read only the
//! changes since the saved page token (`changes.list`), so a sync with
//! nothing changed costs one request. A removed or trashed file deletes
//! its document.
//!
//! Endpoints (Drive API v3): `GET /drive/v3/changes/startPageToken`,
//! `GET /drive/v3/files`, `GET /drive/v3/changes`,
//! `GET /drive/v3/files/{id}?alt=media`, `GET /drive/v3/files/{id}/export`,
//! and `GET /oauth2/v2/userinfo` for the account.

use crate::api::{is_document, Api};
use crate::{ConnectError, Item, Sink};
use serde::{Deserialize, Serialize};
use serde_json::Value;

const FILE_FIELDS: &str = "id,name,mimeType,modifiedTime,webViewLink,size,trashed";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct State {
    /// Where the changes feed continues; None until the first full listing
    /// is done.
    #[serde(default)]
    page_token: Option<String>,
    /// The start token taken before the first listing (kept so a listing
    /// cut short resumes without missing changes made meanwhile).
    #[serde(default)]
    start_token: Option<String>,
    /// The first listing's next page, when cut short.
    #[serde(default)]
    list_page: Option<String>,
}

/// How to read a Drive file as text: an export MIME type for Google's own
/// formats, the file itself for the rest, None to skip it.
fn read_as(mime: &str, name: &str) -> Option<Option<&'static str>> {
    match mime {
        "application/vnd.google-apps.document" => Some(Some("text/plain")),
        "application/vnd.google-apps.spreadsheet" => Some(Some("text/csv")),
        "application/vnd.google-apps.presentation" => Some(Some("text/plain")),
        m if m.starts_with("application/vnd.google-apps.") => None,
        m if is_document(Some(m), name) => Some(None),
        _ => None,
    }
}

/// Drive for one connection.
pub struct Drive<'a> {
    pub api: Api<'a>,
}

impl<'a> Drive<'a> {
    pub fn new(http: &'a reqwest::Client, base: &'a str, token: &'a str) -> Self {
        Self {
            api: Api {
                http,
                base,
                token,
                name: "Google Drive",
                headers: &[],
            },
        }
    }

    /// The account's email address.
    pub async fn email(&self) -> Result<Option<String>, ConnectError> {
        let u = self.api.get("/oauth2/v2/userinfo").await?;
        Ok(u["email"].as_str().map(str::to_string))
    }

    async fn put_file(&self, f: &Value, sink: &mut dyn Sink) -> Result<(), ConnectError> {
        let (Some(id), Some(mime)) = (f["id"].as_str(), f["mimeType"].as_str()) else {
            return Ok(());
        };
        let name = f["name"].as_str().unwrap_or(id);
        let Some(export) = read_as(mime, name) else {
            return Ok(());
        };
        let path = match export {
            Some(to) => format!(
                "/drive/v3/files/{id}/export?mimeType={}",
                url::form_urlencoded::byte_serialize(to.as_bytes()).collect::<String>()
            ),
            None => format!("/drive/v3/files/{id}?alt=media"),
        };
        let body = match self.api.download(&path).await {
            Ok(b) => b,
            // gone since it was listed
            Err(ConnectError::Internal(m)) if m.ends_with("answered 404") => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut metadata = serde_json::Map::new();
        metadata.insert("driveFileId".into(), id.into());
        metadata.insert("mimeType".into(), mime.into());
        if let Some(t) = f["modifiedTime"].as_str() {
            metadata.insert("modifiedTime".into(), t.into());
        }
        let mime_type = export
            .map(str::to_string)
            .or(body.content_type)
            .or_else(|| Some(mime.to_string()));
        let filename = match export {
            Some("text/csv") => format!("{name}.csv"),
            Some(_) => format!("{name}.txt"),
            None => name.to_string(),
        };
        sink.put(vec![Item {
            id: id.to_string(),
            title: Some(name.to_string()),
            url: f["webViewLink"].as_str().map(str::to_string),
            bytes: body.bytes,
            mime_type,
            filename: Some(filename),
            metadata,
        }])
        .await
    }

    /// Sync the drive into `sink`.
    pub async fn sync(&self, cursor: Value, sink: &mut dyn Sink) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        if state.page_token.is_none() {
            // first sync: remember where the changes feed stands, then list
            if state.start_token.is_none() {
                let t = self.api.get("/drive/v3/changes/startPageToken").await?;
                state.start_token = t["startPageToken"].as_str().map(str::to_string);
                sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                    .await?;
            }
            loop {
                let mut path = format!(
                    "/drive/v3/files?pageSize=100&q=trashed%3Dfalse&fields=nextPageToken,files({FILE_FIELDS})"
                );
                if let Some(p) = &state.list_page {
                    path.push_str(&format!("&pageToken={}", enc(p)));
                }
                let page = self.api.get(&path).await?;
                for f in page["files"].as_array().into_iter().flatten() {
                    if sink.room() == 0 {
                        break;
                    }
                    self.put_file(f, sink).await?;
                }
                state.list_page = page["nextPageToken"].as_str().map(str::to_string);
                sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                    .await?;
                if state.list_page.is_none() || sink.room() == 0 {
                    break;
                }
            }
            state.list_page = None;
            state.page_token = state.start_token.take();
        } else {
            loop {
                let token = state.page_token.clone().unwrap_or_default();
                let page = self
                    .api
                    .get(&format!(
                        "/drive/v3/changes?pageSize=100&pageToken={}&fields=nextPageToken,newStartPageToken,changes(fileId,removed,file({FILE_FIELDS}))",
                        enc(&token)
                    ))
                    .await?;
                let mut gone = Vec::new();
                for ch in page["changes"].as_array().into_iter().flatten() {
                    let Some(id) = ch["fileId"].as_str() else {
                        continue;
                    };
                    if ch["removed"] == true || ch["file"]["trashed"] == true {
                        gone.push(id.to_string());
                    } else {
                        self.put_file(&ch["file"], sink).await?;
                    }
                }
                if !gone.is_empty() {
                    sink.remove(gone).await?;
                }
                if let Some(next) = page["nextPageToken"].as_str() {
                    state.page_token = Some(next.to_string());
                } else {
                    state.page_token = page["newStartPageToken"]
                        .as_str()
                        .map(str::to_string)
                        .or(state.page_token);
                    break;
                }
                sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                    .await?;
            }
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }
}

pub(crate) fn enc(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_is_read_and_how() {
        use super::read_as;
        assert_eq!(
            read_as("application/vnd.google-apps.document", "Doc"),
            Some(Some("text/plain"))
        );
        assert_eq!(
            read_as("application/vnd.google-apps.spreadsheet", "S"),
            Some(Some("text/csv"))
        );
        assert_eq!(read_as("application/vnd.google-apps.folder", "F"), None);
        assert_eq!(read_as("application/pdf", "a.pdf"), Some(None));
        assert_eq!(read_as("image/png", "a.png"), None);
    }
}
