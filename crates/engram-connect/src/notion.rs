//! Notion: the pages shared with the integration, as markdown documents
//! (headings, paragraphs, lists, to-dos, quotes, code, nested blocks).
//! Incremental by last-edited time: each sync lists the pages (newest
//! edit first, through `POST /v1/search`) and fetches the blocks only of
//! pages edited since the last sync saw them; pages no longer listed, or
//! archived or in the trash, delete their documents.
//!
//! Endpoints (API version 2022-06-28): `POST /v1/search`,
//! `GET /v1/blocks/{id}/children`, `GET /v1/users/me`.

use crate::api::Api;
use crate::gdrive::enc;
use crate::{ConnectError, Item, Sink};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// How deep nested blocks are followed.
const MAX_DEPTH: usize = 3;
/// The most blocks read from one page.
const MAX_BLOCKS: usize = 2000;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct State {
    /// page id -> last_edited_time of what the document holds
    #[serde(default)]
    pages: BTreeMap<String, String>,
}

/// Notion for one connection.
pub struct Notion<'a> {
    pub api: Api<'a>,
}

fn plain(rich: &Value) -> String {
    rich.as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["plain_text"].as_str())
        .collect()
}

/// A page's title (its `title` property).
pub fn title_of(page: &Value) -> String {
    page["properties"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.values())
        .find(|p| p["type"] == "title")
        .map(|p| plain(&p["title"]))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "Untitled".into())
}

/// One block as a markdown line ("" for blocks without text).
pub fn block_line(b: &Value, depth: usize) -> String {
    let kind = b["type"].as_str().unwrap_or_default();
    let inner = &b[kind];
    let text = plain(&inner["rich_text"]);
    let indent = "  ".repeat(depth);
    match kind {
        "heading_1" => format!("# {text}"),
        "heading_2" => format!("## {text}"),
        "heading_3" => format!("### {text}"),
        "bulleted_list_item" | "toggle" => format!("{indent}- {text}"),
        "numbered_list_item" => format!("{indent}1. {text}"),
        "to_do" => format!(
            "{indent}- [{}] {text}",
            if inner["checked"] == true { "x" } else { " " }
        ),
        "quote" | "callout" => format!("> {text}"),
        "code" => format!(
            "```{}\n{text}\n```",
            inner["language"].as_str().unwrap_or_default()
        ),
        "child_page" => format!("{indent}- {}", inner["title"].as_str().unwrap_or_default()),
        "divider" => "---".into(),
        _ => text,
    }
}

impl<'a> Notion<'a> {
    pub fn new(http: &'a reqwest::Client, base: &'a str, token: &'a str) -> Self {
        Self {
            api: Api {
                http,
                base,
                token,
                name: "Notion",
                headers: &[("Notion-Version", "2022-06-28")],
            },
        }
    }

    /// The authorising person's email (or the bot's name).
    pub async fn email(&self) -> Result<Option<String>, ConnectError> {
        let me = self.api.get("/v1/users/me").await?;
        Ok(me["bot"]["owner"]["user"]["person"]["email"]
            .as_str()
            .or_else(|| me["name"].as_str())
            .map(str::to_string))
    }

    async fn markdown(&self, page_id: &str) -> Result<String, ConnectError> {
        let mut lines = Vec::new();
        // (block id, depth), depth first
        let mut stack = vec![(page_id.to_string(), 0usize)];
        let mut read = 0;
        while let Some((id, depth)) = stack.pop() {
            let mut cursor: Option<String> = None;
            let mut children = Vec::new();
            loop {
                let mut path = format!("/v1/blocks/{}/children?page_size=100", enc(&id));
                if let Some(c) = &cursor {
                    path.push_str(&format!("&start_cursor={}", enc(c)));
                }
                let page = self.api.get(&path).await?;
                children.extend(page["results"].as_array().cloned().unwrap_or_default());
                match page["next_cursor"]
                    .as_str()
                    .filter(|_| page["has_more"] == true)
                {
                    Some(c) => cursor = Some(c.to_string()),
                    None => break,
                }
            }
            // nested children come right after their parent
            let mut nested = Vec::new();
            let mut out = Vec::new();
            for b in children {
                read += 1;
                if read > MAX_BLOCKS {
                    break;
                }
                out.push(block_line(&b, depth));
                let child_page = b["type"] == "child_page";
                if b["has_children"] == true && depth + 1 < MAX_DEPTH && !child_page {
                    if let Some(cid) = b["id"].as_str() {
                        nested.push((cid.to_string(), depth + 1));
                    }
                }
            }
            lines.extend(out);
            stack.extend(nested.into_iter().rev());
        }
        Ok(lines.join("\n"))
    }

    /// Sync the shared pages into `sink`.
    pub async fn sync(&self, cursor: Value, sink: &mut dyn Sink) -> Result<Value, ConnectError> {
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        let mut listed: Vec<Value> = Vec::new();
        let mut next: Option<String> = None;
        loop {
            let mut body = json!({
                "filter": {"property": "object", "value": "page"},
                "sort": {"direction": "descending", "timestamp": "last_edited_time"},
                "page_size": 100,
            });
            if let Some(c) = &next {
                body["start_cursor"] = c.clone().into();
            }
            let page = self.api.post("/v1/search", &body).await?;
            listed.extend(page["results"].as_array().cloned().unwrap_or_default());
            match page["next_cursor"]
                .as_str()
                .filter(|_| page["has_more"] == true)
            {
                Some(c) => next = Some(c.to_string()),
                None => break,
            }
        }
        let live: Vec<&Value> = listed
            .iter()
            .filter(|p| p["archived"] != true && p["in_trash"] != true && p["id"].is_string())
            .collect();
        let ids: std::collections::BTreeSet<&str> =
            live.iter().filter_map(|p| p["id"].as_str()).collect();
        let gone: Vec<String> = state
            .pages
            .keys()
            .filter(|k| !ids.contains(k.as_str()))
            .cloned()
            .collect();
        if !gone.is_empty() {
            sink.remove(gone.clone()).await?;
            for g in gone {
                state.pages.remove(&g);
            }
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
        }
        for p in live {
            let id = p["id"].as_str().unwrap_or_default();
            let edited = p["last_edited_time"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if state.pages.get(id) == Some(&edited) {
                continue;
            }
            if !state.pages.contains_key(id) && sink.room() == 0 {
                continue;
            }
            let title = title_of(p);
            let body = self.markdown(id).await?;
            let mut metadata = serde_json::Map::new();
            metadata.insert("notionPageId".into(), id.into());
            metadata.insert("lastEditedTime".into(), edited.clone().into());
            sink.put(vec![Item {
                id: id.to_string(),
                title: Some(title.clone()),
                url: p["url"].as_str().map(str::to_string),
                bytes: format!("# {title}\n\n{body}").into_bytes(),
                mime_type: Some("text/markdown".into()),
                filename: Some(format!("{title}.md")),
                metadata,
            }])
            .await?;
            state.pages.insert(id.to_string(), edited);
            sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                .await?;
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
    fn blocks_become_markdown() {
        let rt = |t: &str| json!([{"plain_text": t}]);
        let b = |kind: &str, inner: serde_json::Value| json!({"type": kind, kind: inner});
        assert_eq!(
            super::block_line(&b("heading_2", json!({"rich_text": rt("Tides")})), 0),
            "## Tides"
        );
        assert_eq!(
            super::block_line(
                &b(
                    "to_do",
                    json!({"rich_text": rt("buy rope"), "checked": true})
                ),
                1
            ),
            "  - [x] buy rope"
        );
        let page = json!({"properties": {"Name": {"type": "title", "title": rt("Harbour log")}}});
        assert_eq!(super::title_of(&page), "Harbour log");
    }
}
