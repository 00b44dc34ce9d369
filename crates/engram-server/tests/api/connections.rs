//! Connections, end to end: the web crawler against a local site (links,
//! robots.txt, a sitemap, a redirect, an off-site link, a non-HTML file,
//! conditional re-crawls, removed pages, the document limit, the SSRF
//! guard), and GitHub against a local stand-in speaking its OAuth and REST
//! endpoints (PKCE, the callback, token refresh, resources, configure,
//! incremental sync, 429, a revoked grant). Tenancy and scoped keys too.

use crate::support::*;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

async fn serve(app: Router) -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    format!("http://{addr}")
}

fn opts() -> Options {
    let mut o = Options::default();
    o.engine.connect.crawl_delay = Duration::from_millis(1);
    o.engine.connect.poll_interval = Duration::from_millis(50);
    o
}

/// Wait until the connection's last sync finished after `after` (its
/// `completedAt`), returning the connection.
async fn wait_sync(app: &TestApp, id: &str, after: Option<&str>) -> Value {
    for _ in 0..300 {
        let (s, c) = app.get(&format!("/v3/connections/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{c}");
        let run = &c["lastSyncRun"];
        if run["status"] != "running"
            && run["completedAt"].is_string()
            && run["completedAt"].as_str() != after
        {
            return c;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the sync of {id} did not finish");
}

/// Ask for a sync of the provider's connections with `tag`, and wait
/// until the one `c` was (as last read) finishes it.
async fn import_and_wait(app: &TestApp, provider: &str, tag: &str, c: &Value) -> Value {
    let before = c["lastSyncRun"]["completedAt"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = app
        .post(
            &format!("/v3/connections/{provider}/import"),
            json!({"containerTags": [tag]}),
        )
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    wait_sync(app, c["id"].as_str().unwrap(), Some(&before)).await
}

async fn docs_of(app: &TestApp, provider: &str, tag: &str) -> Vec<Value> {
    let (s, v) = app
        .post(
            &format!("/v3/connections/{provider}/documents"),
            json!({"containerTags": [tag]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v.as_array().unwrap().clone()
}

#[derive(Default)]
struct Site {
    hits: HashMap<String, usize>,
    not_modified: usize,
    b_version: usize,
    a2_gone: bool,
    base: String,
}

type SiteState = Arc<Mutex<Site>>;

async fn site_page(
    State(st): State<SiteState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let html = |body: String| {
        (
            [("content-type", "text/html; charset=utf-8")],
            format!(
                "<!doctype html><html><head><title>{path}</title></head><body>{body}</body></html>"
            ),
        )
            .into_response()
    };
    let mut s = st.lock().unwrap();
    *s.hits.entry(path.clone()).or_default() += 1;
    match path.as_str() {
        "robots.txt" => "User-agent: *\nDisallow: /private\n".into_response(),
        "sitemap.xml" => format!("<urlset><url><loc>{}/orphan</loc></url></urlset>", s.base).into_response(),
        "index" => html(
            r#"<h1>Home</h1><p>Welcome to the river site.</p>
               <a href="/a">otters</a> <a href="b">beavers</a> <a href="/private/secret">secret</a>
               <a href="/file.pdf">pdf</a> <a href="/old">old</a>
               <a href="http://other.invalid/x">elsewhere</a> <a href="http://169.254.169.254/latest">meta</a>"#
                .into(),
        ),
        "a" => {
            if headers.get("if-none-match").and_then(|v| v.to_str().ok()) == Some("\"a1\"") {
                s.not_modified += 1;
                return StatusCode::NOT_MODIFIED.into_response();
            }
            let mut r = html("<p>Otters hold hands while they sleep so they do not drift apart.</p>".into());
            r.headers_mut().insert("etag", "\"a1\"".parse().unwrap());
            r
        }
        "b" => html(format!(
            "<p>Beavers build dams out of branches. Revision {}.</p>",
            s.b_version
        )),
        "old" if !s.a2_gone => (StatusCode::MOVED_PERMANENTLY, [("location", "/a2")]).into_response(),
        "a2" if !s.a2_gone => html("<p>Kingfishers dive for small fish in the shallows.</p>".into()),
        "orphan" => html("<p>Herons stand still for a long time before they strike.</p>".into()),
        "file.pdf" => ([("content-type", "application/pdf")], "%PDF-1.4 not really").into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn start_site() -> (String, SiteState) {
    let st: SiteState = Default::default();
    let app = Router::new()
        .route(
            "/",
            get(|s: State<SiteState>, h: HeaderMap| site_page(s, Path("index".into()), h)),
        )
        .route("/{*path}", get(site_page))
        .with_state(st.clone());
    let base = serve(app).await;
    st.lock().unwrap().base = base.clone();
    (base, st)
}

#[tokio::test]
async fn the_crawler_syncs_a_site_and_keeps_it_in_sync() {
    let app = spawn_app_with(opts()).await;
    let (site, st) = start_site().await;
    let (s, v) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"containerTag": "river", "documentLimit": 20,
                   "metadata": {"startUrl": format!("{site}/"), "team": "wildlife"}}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert!(v["authLink"].is_string() && v["expiresIn"].is_string());
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    assert_eq!(c["provider"], "web-crawler");
    assert_eq!(c["containerTags"], json!(["river"]));
    assert_eq!(c["metadata"]["startUrl"], format!("{site}/"));

    let docs = docs_of(&app, "web-crawler", "river").await;
    assert_eq!(
        docs.len(),
        5,
        "/, /a, /b, /a2 (via the redirect) and /orphan (from the sitemap): {docs:#?}"
    );
    {
        let s = st.lock().unwrap();
        assert_eq!(
            s.hits.get("private/secret"),
            None,
            "robots.txt disallows it"
        );
        assert_eq!(s.hits.get("robots.txt"), Some(&1));
    }
    // every document carries the connection, its tags and metadata
    for d in &docs {
        let id = d["id"].as_str().unwrap();
        let got = app.wait_done(id).await;
        assert_eq!(got["connectionId"], c["id"]);
        assert_eq!(got["containerTags"], json!(["river"]));
        assert_eq!(got["metadata"]["team"], "wildlife");
        assert_eq!(got["source"], "web-crawler");
        assert!(got["url"].as_str().unwrap().starts_with(&site));
    }
    let (s, r) = app
        .post(
            "/v3/search",
            json!({"q": "otters sleep holding hands", "containerTags": ["river"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        r["results"][0]["chunks"][0]["content"]
            .as_str()
            .unwrap()
            .contains("Otters"),
        "{r}"
    );

    // the site changes: /b is edited, /a2 goes; a re-crawl on request
    {
        let mut s = st.lock().unwrap();
        s.b_version = 2;
        s.a2_gone = true;
    }
    let before = c["lastSyncRun"]["completedAt"]
        .as_str()
        .unwrap()
        .to_string();
    let resp = app
        .client
        .post(format!("{}/v3/connections/web-crawler/import", app.base))
        .bearer_auth(&app.key)
        .json(&json!({"containerTags": ["river"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::ACCEPTED);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let c = wait_sync(&app, &id, Some(&before)).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    assert!(
        st.lock().unwrap().not_modified >= 1,
        "the ETag was sent back"
    );
    let docs = docs_of(&app, "web-crawler", "river").await;
    assert_eq!(docs.len(), 4, "/a2 is gone: {docs:#?}");
    for d in &docs {
        app.wait_done(d["id"].as_str().unwrap()).await;
    }
    let (_, r) = app
        .post(
            "/v3/search",
            json!({"q": "beavers dams revision", "containerTags": ["river"]}),
        )
        .await;
    assert!(
        r["results"][0]["chunks"][0]["content"]
            .as_str()
            .unwrap()
            .contains("Revision 2"),
        "{r}"
    );

    // another organisation sees nothing of it
    let other = app.other_org_key("rival").await;
    let (s, _) = app
        .send("GET", &format!("/v3/connections/{id}"), Some(&other), None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = app
        .send(
            "POST",
            "/v3/connections/list",
            Some(&other),
            Some(json!({})),
        )
        .await;
    assert_eq!((s, v), (StatusCode::OK, json!([])));
    let (s, _) = app
        .send(
            "DELETE",
            &format!("/v3/connections/{id}"),
            Some(&other),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // a scoped key may not touch connections
    let (_, scoped) = app
        .post(
            "/v3/auth/scoped-key",
            json!({"containerTag": "river", "name": "s"}),
        )
        .await;
    let skey = scoped["key"].as_str().unwrap();
    let (s, _) = app
        .send("POST", "/v3/connections/list", Some(skey), Some(json!({})))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // deleting without documents keeps them, unlinked
    let (s, v) = app
        .delete(&format!("/v3/connections/{id}?deleteDocuments=false"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, json!([{"id": id, "provider": "web-crawler"}]));
    let kept = app
        .get(&format!(
            "/v3/documents/{}",
            docs[0]["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(kept.0, StatusCode::OK);
    assert!(kept.1["connectionId"].is_null());
    let (s, _) = app.get(&format!("/v3/connections/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_crawler_honours_the_limit_deletes_by_provider_and_refuses_private_targets() {
    let app = spawn_app_with(opts()).await;
    let (site, _st) = start_site().await;
    let (_, v) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"containerTags": ["small"], "documentLimit": 2, "metadata": {"startUrl": site}}),
        )
        .await;
    let id = v["id"].as_str().unwrap().to_string();
    wait_sync(&app, &id, None).await;
    assert_eq!(docs_of(&app, "web-crawler", "small").await.len(), 2);
    // by provider and tag, with the documents
    let (s, v) = app
        .delete(
            "/v3/connections/web-crawler",
            Some(json!({"containerTags": ["small"]})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v[0]["id"], id.as_str());
    let (_, list) = app
        .post("/v3/documents/list", json!({"containerTags": ["small"]}))
        .await;
    assert_eq!(list["pagination"]["totalItems"], 0, "{list}");
    // bad input
    let (s, v) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"metadata": {"startUrl": "ftp://x"}}),
        )
        .await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "startUrl",
    );
    let (s, v) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"documentLimit": 0, "metadata": {"startUrl": site}}),
        )
        .await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "documentLimit",
    );
    let (s, _) = app.post("/v3/connections/myspace", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.get("/v3/connections/nope").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // without allow_private, a loopback site is refused, and said so
    let mut strict = opts();
    strict.engine.fetch.allow_private = false;
    let guarded = spawn_app_with(strict).await;
    let (_, v) = guarded
        .post(
            "/v3/connections/web-crawler",
            json!({"metadata": {"startUrl": site}}),
        )
        .await;
    let c = wait_sync(&guarded, v["id"].as_str().unwrap(), None).await;
    assert_eq!(c["lastSyncRun"]["status"], "failed", "{c}");
    assert!(
        c["lastSyncRun"]["error"]
            .as_str()
            .unwrap()
            .contains("loopback"),
        "{c}"
    );
}

// ---- GitHub --------------------------------------------------------------------

#[derive(Default)]
struct Hub {
    challenge: Option<String>,
    refreshes: usize,
    token: String,
    revoked: bool,
    rate_limit_once: bool,
    commit: usize,
    files: BTreeMap<String, String>,
    blob_fetches: usize,
}

type HubState = Arc<Mutex<Hub>>;

fn blob_sha(content: &str) -> String {
    hex_of(&Sha256::digest(content.as_bytes()))[..40].to_string()
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

async fn hub_token(State(st): State<HubState>, Form(f): Form<HashMap<String, String>>) -> Response {
    let mut h = st.lock().unwrap();
    assert_eq!(f.get("client_id").map(String::as_str), Some("cid"));
    match f.get("grant_type").map(String::as_str) {
        Some("authorization_code") => {
            let verifier = f.get("code_verifier").cloned().unwrap_or_default();
            let want = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(Sha256::digest(verifier.as_bytes()));
            if h.challenge.as_deref() != Some(&want)
                || f.get("code").map(String::as_str) != Some("the-code")
            {
                return Json(json!({"error": "bad_verification_code"})).into_response();
            }
            h.token = "gho_1".into();
            Json(json!({"access_token": "gho_1", "refresh_token": "ghr_1", "expires_in": 60, "token_type": "bearer"}))
                .into_response()
        }
        Some("refresh_token") => {
            if h.revoked {
                return (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"error": "invalid_grant"})),
                )
                    .into_response();
            }
            h.refreshes += 1;
            h.token = format!("gho_r{}", h.refreshes);
            Json(json!({"access_token": h.token, "expires_in": 60})).into_response()
        }
        _ => (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "unsupported_grant_type"})),
        )
            .into_response(),
    }
}

async fn hub_api(
    State(st): State<HubState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let mut h = st.lock().unwrap();
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if h.revoked || auth != format!("Bearer {}", h.token) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"message": "Bad credentials"})),
        )
            .into_response();
    }
    if h.rate_limit_once && path.starts_with("repos/") {
        h.rate_limit_once = false;
        return (
            StatusCode::FORBIDDEN,
            [("x-ratelimit-remaining", "0"), ("retry-after", "1")],
            Json(json!({"message": "API rate limit exceeded"})),
        )
            .into_response();
    }
    let commit = format!("c{:039}", h.commit);
    let v = match path.as_str() {
        "user" => json!({"login": "octo", "email": "octo@example.com"}),
        "user/repos" => {
            json!([{"id": 1, "name": "notes", "full_name": "octo/notes", "private": false,
                                "default_branch": "main", "html_url": "https://github.com/octo/notes"}])
        }
        "repos/octo/notes" => {
            json!({"default_branch": "main", "html_url": "https://github.com/octo/notes"})
        }
        "repos/octo/notes/commits/main" => json!({"sha": commit}),
        p if p == format!("repos/octo/notes/git/trees/{commit}") => {
            let mut tree: Vec<Value> = h
                .files
                .iter()
                .map(|(p, c)| json!({"path": p, "type": "blob", "sha": blob_sha(c), "size": c.len()}))
                .collect();
            tree.push(json!({"path": "docs", "type": "tree", "sha": "t1"}));
            json!({"sha": commit, "tree": tree, "truncated": false})
        }
        p if p.starts_with("repos/octo/notes/git/blobs/") => {
            let sha = p.rsplit('/').next().unwrap();
            let Some(c) = h.files.values().find(|c| blob_sha(c) == sha).cloned() else {
                return StatusCode::NOT_FOUND.into_response();
            };
            h.blob_fetches += 1;
            json!({"sha": sha, "encoding": "base64",
                   "content": base64::engine::general_purpose::STANDARD.encode(c)})
        }
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    Json(v).into_response()
}

#[tokio::test]
async fn github_connects_with_pkce_refreshes_and_syncs_incrementally() {
    let st: HubState = Default::default();
    {
        let mut h = st.lock().unwrap();
        h.files.insert(
            "README.md".into(),
            "# Notes\nThe lighthouse keeper logs every ship.".into(),
        );
        h.files.insert(
            "docs/guide.md".into(),
            "# Guide\nTide tables are printed weekly.".into(),
        );
        h.files.insert("src/main.rs".into(), "fn main() {}".into());
    }
    let hub = serve(
        Router::new()
            .route("/login/oauth/access_token", post(hub_token))
            .route("/api/{*path}", get(hub_api))
            .with_state(st.clone()),
    )
    .await;
    let mut o = opts();
    o.engine.connect.endpoints.insert(
        "github".into(),
        engram_connect::oauth::Endpoints {
            authorize: format!("{hub}/login/oauth/authorize"),
            token: format!("{hub}/login/oauth/access_token"),
            api: format!("{hub}/api"),
            scopes: "repo",
        },
    );
    let app = spawn_app_with(o).await;

    // no client configured: a clear 400
    let (s, v) = app
        .post("/v3/connections/github", json!({"containerTag": "gh"}))
        .await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "githubClientId",
    );
    let (s, _) = app
        .patch(
            "/v3/settings",
            json!({"githubClientId": "cid", "githubClientSecret": "csecret"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app
        .post(
            "/v3/connections/github",
            json!({"containerTag": "gh", "redirectUrl": "https://app.example/done"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["redirectsTo"], "https://app.example/done");
    let link = url::Url::parse(v["authLink"].as_str().unwrap()).unwrap();
    assert!(link
        .as_str()
        .starts_with(&format!("{hub}/login/oauth/authorize")));
    let q: HashMap<String, String> = link.query_pairs().into_owned().collect();
    assert_eq!(q["client_id"], "cid");
    assert_eq!(q["code_challenge_method"], "S256");
    assert!(!link.as_str().contains("csecret"));
    assert_eq!(
        q["redirect_uri"],
        format!("{}/v3/connections/callback", app.base)
    );
    st.lock().unwrap().challenge = Some(q["code_challenge"].clone());
    let (_, pending) = app.get(&format!("/v3/connections/{id}")).await;
    assert!(pending["expiresAt"].is_string());

    // the provider sends the browser back: no key, the state is the credential
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let bad = no_redirects
        .get(format!(
            "{}/v3/connections/callback?state=forged&code=x",
            app.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let back = no_redirects
        .get(format!(
            "{}/v3/connections/callback?state={}&code=the-code",
            app.base, q["state"]
        ))
        .send()
        .await
        .unwrap();
    assert!(back.status().is_redirection(), "{}", back.status());
    let to = back.headers()["location"].to_str().unwrap();
    assert!(
        to.starts_with("https://app.example/done?")
            && to.contains("status=success")
            && to.contains(&id),
        "{to}"
    );
    // the state is single use
    let again = no_redirects
        .get(format!(
            "{}/v3/connections/callback?state={}&code=the-code",
            app.base, q["state"]
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);

    let (_, c) = app.get(&format!("/v3/connections/{id}")).await;
    assert_eq!(c["email"], "octo@example.com", "{c}");
    // tokens are sealed: not in the row
    let row = app
        .store
        .get_connection(&app.org_id, &id)
        .await
        .unwrap()
        .unwrap();
    let sealed = row.secrets.unwrap();
    assert!(!sealed.windows(5).any(|w| w == b"gho_1" || w == b"ghr_1"));

    // resources, then choose a repository; a sync starts
    let (s, r) = app.get(&format!("/v3/connections/{id}/resources")).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["resources"][0]["full_name"], "octo/notes");
    let before = c["lastSyncRun"]["completedAt"].as_str().map(str::to_string);
    let (s, v) = app
        .post(
            &format!("/v3/connections/{id}/configure"),
            json!({"resources": [{"full_name": "octo/notes"}]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["success"], true);
    let c = wait_sync(&app, &id, before.as_deref()).await;
    let c = if c["lastSyncRun"]["status"] == "completed"
        && docs_of(&app, "github", "gh").await.is_empty()
    {
        wait_sync(&app, &id, c["lastSyncRun"]["completedAt"].as_str()).await
    } else {
        c
    };
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = docs_of(&app, "github", "gh").await;
    assert_eq!(docs.len(), 2, "markdown only: {docs:#?}");
    assert!(
        st.lock().unwrap().refreshes >= 1,
        "a token about to expire is refreshed"
    );
    let fetched = st.lock().unwrap().blob_fetches;
    assert_eq!(fetched, 2);

    // a new commit: one file changed, one removed
    {
        let mut h = st.lock().unwrap();
        h.commit = 1;
        h.files.remove("README.md");
        h.files.insert(
            "docs/guide.md".into(),
            "# Guide\nTide tables are printed daily now.".into(),
        );
    }
    let c = import_and_wait(&app, "github", "gh", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = docs_of(&app, "github", "gh").await;
    assert_eq!(docs.len(), 1, "{docs:#?}");
    assert_eq!(
        st.lock().unwrap().blob_fetches,
        3,
        "only the changed file is fetched"
    );
    let d = app.wait_done(docs[0]["id"].as_str().unwrap()).await;
    assert_eq!(d["metadata"]["path"], "docs/guide.md");
    assert_eq!(d["metadata"]["repository"], "octo/notes");

    // rate limited: said so, and retried later
    st.lock().unwrap().rate_limit_once = true;
    st.lock().unwrap().commit = 2;
    let c = import_and_wait(&app, "github", "gh", &c).await;
    assert_eq!(c["lastSyncRun"]["errorCode"], "rate_limited", "{c}");

    // revoked: the connection says so and stops
    st.lock().unwrap().revoked = true;
    let c = import_and_wait(&app, "github", "gh", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "failed", "{c}");
    assert_eq!(c["lastSyncRun"]["errorCode"], "auth_expired", "{c}");
    let (s, v) = app.get(&format!("/v3/connections/{id}/resources")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");

    // providers without resources say 501
    let (_, w) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"metadata": {"startUrl": "http://127.0.0.1:9/"}}),
        )
        .await;
    let (s, _) = app
        .get(&format!(
            "/v3/connections/{}/resources",
            w["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s, StatusCode::NOT_IMPLEMENTED);
}
