//! A stand-in for Notion, Google (Drive, Gmail) and Microsoft Graph
//! (OneDrive): their OAuth token endpoint (code with PKCE, refresh) and
//! the API endpoints the providers use, with the response shapes of the
//! public API documentation. Every API call needs the current access
//! token; a test changes the content through [`Cloud`] and reads what
//! was asked for in its counters.

use super::*;
use axum::body::Bytes;
use axum::extract::{OriginalUri, Query};
use axum::routing::any;

#[derive(Default)]
pub struct Cloud {
    pub base: String,
    /// The PKCE challenge of the pending authorisation.
    pub challenge: Option<String>,
    pub access: String,
    pub refresh: String,
    pub expires_in: i64,
    pub refusing_refresh: bool,
    /// grant types asked for, and whether the body was JSON
    pub grants: Vec<(String, bool)>,
    /// requests by path prefix (without the query)
    pub hits: BTreeMap<String, usize>,
    /// answer the next request to a path starting with this with 429 (or 500)
    pub fail_once: Option<(String, u16)>,
    // Notion: id -> (title, last_edited_time, paragraphs, archived)
    pub pages: BTreeMap<String, (String, String, Vec<String>, bool)>,
    // Drive: id -> file json (with "content"), and the changes log
    pub files: BTreeMap<String, Value>,
    pub changes: Vec<Value>,
    // Graph: delta events (drive items); "expired" delta links answer 410
    pub events: Vec<Value>,
    pub contents: BTreeMap<String, String>,
    // Gmail: id -> message json (newest last), history records, oldest readable history id
    pub messages: BTreeMap<String, Value>,
    pub history: Vec<Value>,
    pub history_floor: u64,
}

pub type CloudState = Arc<Mutex<Cloud>>;

fn s256(v: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(v.as_bytes()))
}

async fn token(State(st): State<CloudState>, headers: HeaderMap, body: Bytes) -> Response {
    let json = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    let f: HashMap<String, String> = if json {
        serde_json::from_slice::<HashMap<String, Value>>(&body)
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
            .collect()
    } else {
        url::form_urlencoded::parse(&body).into_owned().collect()
    };
    // the client authenticates with HTTP Basic
    let basic = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if basic
        != format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("cid:csecret")
        )
    {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": "invalid_client"})),
        )
            .into_response();
    }
    let mut s = st.lock().unwrap();
    let grant = f.get("grant_type").cloned().unwrap_or_default();
    s.grants.push((grant.clone(), json));
    let ok = match grant.as_str() {
        "authorization_code" => {
            f.get("code").map(String::as_str) == Some("the-code")
                && s.challenge.as_deref() == f.get("code_verifier").map(|v| s256(v)).as_deref()
        }
        "refresh_token" => !s.refusing_refresh && f.get("refresh_token") == Some(&s.refresh),
        _ => false,
    };
    if !ok {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "invalid_grant"})),
        )
            .into_response();
    }
    let n = s.grants.len();
    s.access = format!("at-{n}");
    s.refresh = format!("rt-{n}");
    Json(json!({"access_token": s.access, "refresh_token": s.refresh,
                "expires_in": s.expires_in, "token_type": "Bearer"}))
    .into_response()
}

fn page_json(id: &str, p: &(String, String, Vec<String>, bool)) -> Value {
    json!({"object": "page", "id": id, "last_edited_time": p.1, "archived": p.3,
           "url": format!("https://www.notion.so/{id}"),
           "properties": {"Name": {"id": "title", "type": "title",
                                   "title": [{"type": "text", "plain_text": p.0}]}}})
}

fn para(text: &str, children: bool, id: &str) -> Value {
    json!({"object": "block", "id": id, "type": "paragraph", "has_children": children,
           "paragraph": {"rich_text": [{"type": "text", "plain_text": text}]}})
}

/// Two at a time: the page of `items` from `start`, and the next start.
fn paged(items: Vec<Value>, start: usize) -> (Vec<Value>, Option<usize>) {
    let end = (start + 2).min(items.len());
    let next = (end < items.len()).then_some(end);
    (items[start.min(end)..end].to_vec(), next)
}

async fn api(
    State(st): State<CloudState>,
    OriginalUri(uri): OriginalUri,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let mut s = st.lock().unwrap();
    *s.hits.entry(path.clone()).or_default() += 1;
    // a download link needs no token (Graph's pre-authenticated URLs)
    if let Some(id) = path.strip_prefix("/download/") {
        return s
            .contents
            .get(id)
            .cloned()
            .unwrap_or_default()
            .into_response();
    }
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if s.access.is_empty() || auth != format!("Bearer {}", s.access) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": "invalid token"})),
        )
            .into_response();
    }
    if let Some((prefix, status)) = s.fail_once.clone() {
        if path.starts_with(&prefix) {
            s.fail_once = None;
            return (
                StatusCode::from_u16(status).unwrap(),
                [("retry-after", "1")],
                Json(json!({"error": "try later"})),
            )
                .into_response();
        }
    }
    let base = s.base.clone();
    let start = |k: &str| q.get(k).and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    let v = match path.as_str() {
        // ---- Notion
        "/v1/users/me" => json!({"object": "user", "type": "bot", "name": "Engram",
            "bot": {"owner": {"type": "user", "user": {"person": {"email": "nia@example.com"}}}}}),
        "/v1/search" => {
            assert_eq!(headers.get("notion-version").unwrap(), "2022-06-28");
            let b: Value = serde_json::from_slice(&body).unwrap();
            let mut all: Vec<(String, Value)> = s
                .pages
                .iter()
                .map(|(id, p)| (p.1.clone(), page_json(id, p)))
                .collect();
            all.sort_by(|a, b| b.0.cmp(&a.0));
            let items = all.into_iter().map(|x| x.1).collect();
            let from = b["start_cursor"]
                .as_str()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let (results, next) = paged(items, from);
            json!({"object": "list", "results": results, "has_more": next.is_some(),
                   "next_cursor": next.map(|n| n.to_string())})
        }
        p if p.starts_with("/v1/blocks/") => {
            let id = p
                .trim_start_matches("/v1/blocks/")
                .trim_end_matches("/children");
            let results = if let Some(parent) = id.strip_suffix("-child") {
                vec![para(&format!("A nested note of {parent}."), false, "n")]
            } else {
                let Some(page) = s.pages.get(id) else {
                    return StatusCode::NOT_FOUND.into_response();
                };
                let mut r: Vec<Value> = page.2.iter().map(|t| para(t, false, "b")).collect();
                r.push(para("Details:", true, &format!("{id}-child")));
                r
            };
            json!({"object": "list", "results": results, "has_more": false, "next_cursor": null})
        }
        // ---- Google
        "/oauth2/v2/userinfo" => json!({"email": "gia@example.com"}),
        "/drive/v3/changes/startPageToken" => {
            json!({"startPageToken": s.changes.len().to_string()})
        }
        "/drive/v3/files" => {
            assert!(q["fields"].contains("nextPageToken"), "{q:?}");
            let items: Vec<Value> = s
                .files
                .values()
                .filter(|f| f["trashed"] != true)
                .cloned()
                .collect();
            let (files, next) = paged(items, start("pageToken"));
            json!({"files": files, "nextPageToken": next.map(|n| n.to_string())})
        }
        "/drive/v3/changes" => {
            let from = start("pageToken");
            let (changes, next) = paged(s.changes.clone(), from);
            match next {
                Some(n) => json!({"changes": changes, "nextPageToken": n.to_string()}),
                None => {
                    json!({"changes": changes, "newStartPageToken": s.changes.len().to_string()})
                }
            }
        }
        p if p.starts_with("/drive/v3/files/") => {
            let rest = p.trim_start_matches("/drive/v3/files/");
            let (id, export) = match rest.strip_suffix("/export") {
                Some(id) => (id, true),
                None => (rest, false),
            };
            let Some(f) = s.files.get(id) else {
                return StatusCode::NOT_FOUND.into_response();
            };
            let google = f["mimeType"]
                .as_str()
                .unwrap()
                .starts_with("application/vnd.google-apps");
            if export != google || (!export && q.get("alt").map(String::as_str) != Some("media")) {
                return (
                    StatusCode::BAD_REQUEST,
                    "export Google formats, download the rest",
                )
                    .into_response();
            }
            return f["content"]
                .as_str()
                .unwrap_or_default()
                .to_string()
                .into_response();
        }
        "/gmail/v1/users/me/profile" => json!({"emailAddress": "gia@example.com",
            "messagesTotal": s.messages.len(),
            "historyId": s.history.last().map(|h| h["id"].as_u64().unwrap()).unwrap_or(100).to_string()}),
        "/gmail/v1/users/me/messages" => {
            let items: Vec<Value> = s
                .messages
                .values()
                .rev()
                .filter(|m| {
                    !m["labelIds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|l| l == "SPAM" || l == "TRASH")
                })
                .map(|m| json!({"id": m["id"], "threadId": m["threadId"]}))
                .collect();
            let (messages, next) = paged(items, start("pageToken"));
            json!({"messages": messages, "nextPageToken": next.map(|n| n.to_string()),
                   "resultSizeEstimate": s.messages.len()})
        }
        p if p.starts_with("/gmail/v1/users/me/messages/") => {
            assert_eq!(q.get("format").map(String::as_str), Some("full"));
            match s.messages.get(p.rsplit('/').next().unwrap()) {
                Some(m) => m.clone(),
                None => return StatusCode::NOT_FOUND.into_response(),
            }
        }
        "/gmail/v1/users/me/history" => {
            let from: u64 = q["startHistoryId"].parse().unwrap();
            if from < s.history_floor {
                return (StatusCode::NOT_FOUND, Json(json!({"error": {"code": 404}})))
                    .into_response();
            }
            let records: Vec<Value> = s
                .history
                .iter()
                .filter(|h| h["id"].as_u64().unwrap() > from)
                .cloned()
                .collect();
            let last = s
                .history
                .last()
                .map(|h| h["id"].as_u64().unwrap())
                .unwrap_or(100);
            json!({"history": records, "historyId": last.to_string()})
        }
        // ---- Microsoft Graph
        "/me" => json!({"mail": null, "userPrincipalName": "mo@example.com"}),
        "/me/drive/root/delta" => {
            let from: usize = q.get("token").map(|t| t.parse().unwrap()).unwrap_or(0);
            // a link from before the log was compacted has expired
            if from > s.events.len() {
                return (
                    StatusCode::GONE,
                    Json(json!({"error": {"code": "resyncRequired"}})),
                )
                    .into_response();
            }
            let (value, next) = paged(s.events[from.min(s.events.len())..].to_vec(), start("skip"));
            let mut v = json!({"value": value});
            match next {
                Some(n) => {
                    v["@odata.nextLink"] =
                        format!("{base}/me/drive/root/delta?token={from}&skip={n}").into()
                }
                None => {
                    v["@odata.deltaLink"] =
                        format!("{base}/me/drive/root/delta?token={}", s.events.len()).into()
                }
            }
            v
        }
        p if p.starts_with("/me/drive/items/") && p.ends_with("/content") => {
            let id = p
                .trim_start_matches("/me/drive/items/")
                .trim_end_matches("/content");
            return (
                StatusCode::FOUND,
                [("location", format!("{base}/download/{id}"))],
            )
                .into_response();
        }
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    Json(v).into_response()
}

/// Start the stand-in.
pub async fn start_cloud() -> (String, CloudState) {
    let st: CloudState = Arc::new(Mutex::new(Cloud {
        expires_in: 3600,
        history_floor: 0,
        ..Default::default()
    }));
    let base = serve(
        Router::new()
            .route("/oauth/token", post(token))
            .route("/{*path}", any(api))
            .with_state(st.clone()),
    )
    .await;
    st.lock().unwrap().base = base.clone();
    (base, st)
}

/// An app whose `providers` talk to the stand-in.
pub async fn app_for(cloud: &str, providers: &[&str]) -> TestApp {
    let mut o = opts();
    for p in providers {
        o.engine.connect.endpoints.insert(
            p.to_string(),
            engram_connect::oauth::Endpoints {
                authorize: format!("{cloud}/oauth/authorize"),
                token: format!("{cloud}/oauth/token"),
                api: cloud.to_string(),
                scopes: "read",
                json_token: *p == "notion",
            },
        );
    }
    spawn_app_with(o).await
}

/// Connect `provider` as a user would: client settings, the link, the
/// provider's redirect back with a code. Answers the connection's id.
pub async fn connect(app: &TestApp, st: &CloudState, provider: &str, body: Value) -> String {
    let prefix = match provider {
        "google-drive" | "gmail" => "googleDrive",
        p => p,
    };
    let (s, v) = app
        .patch(
            "/v3/settings",
            json!({format!("{prefix}ClientId"): "cid", format!("{prefix}ClientSecret"): "csecret"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app.post(&format!("/v3/connections/{provider}"), body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let link = url::Url::parse(v["authLink"].as_str().unwrap()).unwrap();
    let q: HashMap<String, String> = link.query_pairs().into_owned().collect();
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["response_type"], "code");
    st.lock().unwrap().challenge = Some(q["code_challenge"].clone());
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!(
            "{}?state={}&code=the-code",
            q["redirect_uri"],
            url::form_urlencoded::byte_serialize(q["state"].as_bytes()).collect::<String>()
        ))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{:?}", r.text().await);
    id
}

/// The synced documents of `provider` in `tag`, as `GET /v3/documents/{id}`
/// shows them once processed.
pub async fn done_docs(app: &TestApp, provider: &str, tag: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for d in docs_of(app, provider, tag).await {
        out.push(app.wait_done(d["id"].as_str().unwrap()).await);
    }
    out.sort_by_key(|d| d["title"].as_str().unwrap_or_default().to_string());
    out
}

pub fn hits(st: &CloudState, prefix: &str) -> usize {
    st.lock()
        .unwrap()
        .hits
        .iter()
        .filter(|(k, _)| k.starts_with(prefix))
        .map(|(_, n)| n)
        .sum()
}
