//! Gmail: the user's messages (not spam, not trash), newest first, as
//! documents: subject, sender, recipients and date, then the plain-text
//! body (the HTML body as text when there is no plain one). The first
//! sync notes the mailbox's history id and lists messages up to the
//! document limit; later syncs read the history since that id (messages
//! added, deleted, moved to or out of the trash), so an unchanged mailbox
//! costs one request. A history id too old to read (404) starts over with
//! a full listing.
//!
//! Endpoints (Gmail API v1): `GET /gmail/v1/users/me/profile`,
//! `GET /gmail/v1/users/me/messages`, `GET /gmail/v1/users/me/messages/{id}`,
//! `GET /gmail/v1/users/me/history`.

use crate::api::Api;
use crate::gdrive::enc;
use crate::{ConnectError, Item, Sink};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct State {
    #[serde(default)]
    history_id: Option<String>,
    /// The first listing's next page, when cut short.
    #[serde(default)]
    list_page: Option<String>,
    /// The history id taken before the first listing.
    #[serde(default)]
    start_history: Option<String>,
}

/// Gmail for one connection.
pub struct Gmail<'a> {
    pub api: Api<'a>,
}

fn b64url(data: &str) -> Vec<u8> {
    let d = data.trim_end_matches('=');
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(d)
        .unwrap_or_default()
}

/// The first body part of `mime` in a message payload, depth first.
fn part(payload: &Value, mime: &str) -> Option<String> {
    if payload["mimeType"].as_str() == Some(mime) {
        if let Some(d) = payload["body"]["data"].as_str() {
            return Some(String::from_utf8_lossy(&b64url(d)).into_owned());
        }
    }
    payload["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|p| part(p, mime))
}

fn header<'v>(payload: &'v Value, name: &str) -> Option<&'v str> {
    payload["headers"].as_array()?.iter().find(|h| {
        h["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    })?["value"]
        .as_str()
}

/// A message as a document's content: its headers, then its body.
pub fn message_text(m: &Value) -> (String, Option<String>, bool) {
    let p = &m["payload"];
    let subject = header(p, "Subject").map(str::to_string);
    let mut text = String::new();
    for h in ["Subject", "From", "To", "Cc", "Date"] {
        if let Some(v) = header(p, h) {
            text.push_str(&format!("{h}: {v}\n"));
        }
    }
    text.push('\n');
    let (body, html) = match part(p, "text/plain") {
        Some(b) => (b, false),
        None => match part(p, "text/html") {
            Some(h) => (h, true),
            None => (m["snippet"].as_str().unwrap_or_default().to_string(), false),
        },
    };
    text.push_str(&body);
    (text, subject, html)
}

fn skipped(labels: &Value) -> bool {
    labels
        .as_array()
        .into_iter()
        .flatten()
        .any(|l| l == "SPAM" || l == "TRASH" || l == "DRAFT")
}

impl<'a> Gmail<'a> {
    pub fn new(http: &'a reqwest::Client, base: &'a str, token: &'a str) -> Self {
        Self {
            api: Api {
                http,
                base,
                token,
                name: "Gmail",
                headers: &[],
            },
        }
    }

    /// The mailbox's address.
    pub async fn email(&self) -> Result<Option<String>, ConnectError> {
        let p = self.api.get("/gmail/v1/users/me/profile").await?;
        Ok(p["emailAddress"].as_str().map(str::to_string))
    }

    async fn put_message(&self, id: &str, sink: &mut dyn Sink) -> Result<(), ConnectError> {
        let m = match self
            .api
            .get_or(
                &format!("/gmail/v1/users/me/messages/{}?format=full", enc(id)),
                404,
            )
            .await?
        {
            Some(m) => m,
            None => return Ok(()),
        };
        if skipped(&m["labelIds"]) {
            return sink.remove(vec![id.to_string()]).await;
        }
        let (text, subject, html) = message_text(&m);
        let mut metadata = serde_json::Map::new();
        metadata.insert("messageId".into(), id.into());
        if let Some(t) = m["threadId"].as_str() {
            metadata.insert("threadId".into(), t.into());
        }
        if let Some(f) = header(&m["payload"], "From") {
            metadata.insert("from".into(), f.into());
        }
        sink.put(vec![Item {
            id: id.to_string(),
            title: subject,
            url: Some(format!("https://mail.google.com/mail/u/0/#all/{id}")),
            bytes: text.into_bytes(),
            // headers above an HTML body: read as text either way
            mime_type: Some(if html { "text/html" } else { "text/plain" }.into()),
            filename: None,
            metadata,
        }])
        .await
    }

    async fn full_listing(
        &self,
        state: &mut State,
        sink: &mut dyn Sink,
    ) -> Result<(), ConnectError> {
        if state.start_history.is_none() {
            let p = self.api.get("/gmail/v1/users/me/profile").await?;
            state.start_history = p["historyId"]
                .as_str()
                .map(str::to_string)
                .or_else(|| p["historyId"].as_u64().map(|n| n.to_string()));
            sink.checkpoint(&serde_json::to_value(&*state).unwrap_or_default())
                .await?;
        }
        loop {
            let mut path = "/gmail/v1/users/me/messages?maxResults=100".to_string();
            if let Some(p) = &state.list_page {
                path.push_str(&format!("&pageToken={}", enc(p)));
            }
            let page = self.api.get(&path).await?;
            for m in page["messages"].as_array().into_iter().flatten() {
                if sink.room() == 0 {
                    break;
                }
                if let Some(id) = m["id"].as_str() {
                    self.put_message(id, sink).await?;
                }
            }
            state.list_page = page["nextPageToken"].as_str().map(str::to_string);
            sink.checkpoint(&serde_json::to_value(&*state).unwrap_or_default())
                .await?;
            if state.list_page.is_none() || sink.room() == 0 {
                break;
            }
        }
        state.list_page = None;
        state.history_id = state.start_history.take();
        Ok(())
    }

    /// Sync the mailbox into `sink`.
    pub async fn sync(&self, cursor: Value, sink: &mut dyn Sink) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        match state.history_id.clone() {
            None => self.full_listing(&mut state, sink).await?,
            Some(start) => {
                let mut page_token: Option<String> = None;
                let mut latest = start.clone();
                loop {
                    let mut path = format!(
                        "/gmail/v1/users/me/history?startHistoryId={}&maxResults=500",
                        enc(&start)
                    );
                    if let Some(p) = &page_token {
                        path.push_str(&format!("&pageToken={}", enc(p)));
                    }
                    let Some(page) = self.api.get_or(&path, 404).await? else {
                        // too old to read: list again
                        state = State::default();
                        self.full_listing(&mut state, sink).await?;
                        break;
                    };
                    let mut put = Vec::new();
                    let mut gone = Vec::new();
                    for h in page["history"].as_array().into_iter().flatten() {
                        for a in h["messagesAdded"].as_array().into_iter().flatten() {
                            if let Some(id) = a["message"]["id"].as_str() {
                                put.push(id.to_string());
                            }
                        }
                        for d in h["messagesDeleted"].as_array().into_iter().flatten() {
                            if let Some(id) = d["message"]["id"].as_str() {
                                gone.push(id.to_string());
                            }
                        }
                        // moved to or out of the trash or spam
                        for l in h["labelsAdded"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .chain(h["labelsRemoved"].as_array().into_iter().flatten())
                        {
                            if let Some(id) = l["message"]["id"].as_str() {
                                put.push(id.to_string());
                            }
                        }
                    }
                    put.retain(|id| !gone.contains(id));
                    put.dedup();
                    if !gone.is_empty() {
                        sink.remove(gone).await?;
                    }
                    for id in put {
                        self.put_message(&id, sink).await?;
                    }
                    if let Some(h) = page["historyId"]
                        .as_str()
                        .map(str::to_string)
                        .or_else(|| page["historyId"].as_u64().map(|n| n.to_string()))
                    {
                        latest = h;
                    }
                    match page["nextPageToken"].as_str() {
                        Some(t) => page_token = Some(t.to_string()),
                        None => {
                            state.history_id = Some(latest);
                            break;
                        }
                    }
                }
            }
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok(cursor)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_message_reads_as_headers_and_plain_body() {
        let body = base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            "The ferry leaves at nine.",
        );
        let m = json!({"id": "m1", "snippet": "s", "payload": {
            "mimeType": "multipart/alternative",
            "headers": [{"name": "Subject", "value": "Ferry"}, {"name": "From", "value": "Ana <ana@x>"}],
            "parts": [{"mimeType": "text/html", "body": {"data": "PGI-eDwvYj4"}},
                      {"mimeType": "text/plain", "body": {"data": body}}]}});
        let (text, subject, html) = super::message_text(&m);
        assert_eq!(subject.as_deref(), Some("Ferry"));
        assert!(!html);
        assert!(
            text.starts_with("Subject: Ferry\nFrom: Ana <ana@x>\n\n"),
            "{text}"
        );
        assert!(text.ends_with("The ferry leaves at nine."), "{text}");
    }
}
