//! GitHub against a local stand-in speaking its OAuth and REST endpoints:
//! PKCE, the callback, token refresh, resources, configure, incremental
//! sync of files and issues, webhooks, 429 and a revoked grant.

use super::*;

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
    /// hook id -> its body as registered
    hooks: BTreeMap<i64, Value>,
    issues: Vec<Value>,
    comments: HashMap<u64, Vec<Value>>,
    /// the query of every issues listing
    issue_queries: Vec<String>,
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
    // sealed at rest, opened for the provider
    assert_eq!(f.get("client_secret").map(String::as_str), Some("csecret"));
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
    method: axum::http::Method,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
    headers: HeaderMap,
    body: axum::body::Bytes,
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
    let query = query.unwrap_or_default();
    if path == "repos/octo/notes/hooks" && method == axum::http::Method::POST {
        let id = 100 + h.hooks.len() as i64;
        let mut hook: Value = serde_json::from_slice(&body).unwrap();
        hook["id"] = id.into();
        h.hooks.insert(id, hook.clone());
        return (StatusCode::CREATED, Json(hook)).into_response();
    }
    if let Some(id) = path.strip_prefix("repos/octo/notes/hooks/") {
        let id: i64 = id.parse().unwrap();
        if method == axum::http::Method::DELETE {
            return match h.hooks.remove(&id) {
                Some(_) => StatusCode::NO_CONTENT.into_response(),
                None => StatusCode::NOT_FOUND.into_response(),
            };
        }
        let mut hook: Value = serde_json::from_slice(&body).unwrap();
        hook["id"] = id.into();
        h.hooks.insert(id, hook.clone());
        return Json(hook).into_response();
    }
    let v = match path.as_str() {
        "repos/octo/notes/hooks" => json!(h.hooks.values().collect::<Vec<_>>()),
        "repos/octo/notes/issues" => {
            h.issue_queries.push(query.clone());
            let since = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("since="))
                .unwrap_or("");
            json!(h
                .issues
                .iter()
                .filter(|i| i["updated_at"].as_str().unwrap() >= since)
                .collect::<Vec<_>>())
        }
        p if p.starts_with("repos/octo/notes/issues/") && p.ends_with("/comments") => {
            let n: u64 = p.split('/').nth(4).unwrap().parse().unwrap();
            json!(h.comments.get(&n).cloned().unwrap_or_default())
        }
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

/// The stand-in, and an app whose GitHub endpoints are the stand-in's.
async fn github_app(st: &HubState, public_url: Option<&str>) -> (String, TestApp) {
    let hub = serve(
        Router::new()
            .route("/login/oauth/access_token", post(hub_token))
            .route("/api/{*path}", axum::routing::any(hub_api))
            .with_state(st.clone()),
    )
    .await;
    let mut o = opts();
    o.engine.connect.public_url = public_url.map(str::to_string);
    o.engine.connect.endpoints.insert(
        "github".into(),
        engram_connect::oauth::Endpoints {
            authorize: format!("{hub}/login/oauth/authorize"),
            token: format!("{hub}/login/oauth/access_token"),
            api: format!("{hub}/api"),
            scopes: "repo",
            json_token: false,
        },
    );
    (hub.clone(), spawn_app_with(o).await)
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
    let (hub, app) = github_app(&st, None).await;

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
    // the client secret is sealed in the settings row, and never shown
    let stored = app.store.get_settings(&app.org_id).await.unwrap();
    assert!(!serde_json::to_string(&stored).unwrap().contains("csecret"));
    assert_eq!(stored["githubClientId"], "cid");
    let (_, shown) = app.get("/v3/settings").await;
    assert!(!shown.to_string().contains("csecret"), "{shown}");
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
    // the run that finishes first may be the one the connection started
    // with, before a repository was chosen: wait for the chosen one's files
    // (or give up after 15 s and let the assertions say what is there)
    let mut c = wait_sync(&app, &id, before.as_deref()).await;
    for _ in 0..300 {
        if c["lastSyncRun"]["status"] == "completed"
            && docs_of(&app, "github", "gh").await.len() >= 2
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        c = app.get(&format!("/v3/connections/{id}")).await.1;
    }
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = docs_of(&app, "github", "gh").await;
    // (the connection's state in the message: a run the configure asked for
    // that never came shows as a completed run with no documents)
    assert_eq!(docs.len(), 2, "markdown only: {docs:#?}; connection: {c}");
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

/// A GitHub connection through the stand-in's OAuth dance; its id.
async fn connect(app: &TestApp, st: &HubState) -> String {
    let (s, _) = app
        .patch(
            "/v3/settings",
            json!({"githubClientId": "cid", "githubClientSecret": "csecret"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app
        .post("/v3/connections/github", json!({"containerTag": "gh"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let link = url::Url::parse(v["authLink"].as_str().unwrap()).unwrap();
    let q: HashMap<String, String> = link.query_pairs().into_owned().collect();
    st.lock().unwrap().challenge = Some(q["code_challenge"].clone());
    let back = reqwest::get(format!(
        "{}/v3/connections/callback?state={}&code=the-code",
        app.base, q["state"]
    ))
    .await
    .unwrap();
    assert_eq!(back.status(), StatusCode::OK);
    v["id"].as_str().unwrap().to_string()
}

fn issue(n: u64, title: &str, body: &str, updated: &str, comments: u64) -> Value {
    json!({"number": n, "title": title, "body": body, "state": "open", "comments": comments,
           "user": {"login": "ana"}, "labels": [{"name": "ops"}], "updated_at": updated,
           "html_url": format!("https://github.com/octo/notes/issues/{n}")})
}

/// The content of the synced document whose title starts with `title`
/// (titles are set as a document is processed: wait for them all).
async fn content_of(app: &TestApp, docs: &[Value], title: &str) -> String {
    let mut done = Vec::new();
    for d in docs {
        done.push(app.wait_done(d["id"].as_str().unwrap()).await);
    }
    let d = done
        .iter()
        .find(|d| d["title"].as_str().is_some_and(|t| t.starts_with(title)))
        .unwrap_or_else(|| panic!("no {title} in {done:#?}"));
    d["content"].as_str().unwrap_or_default().to_string()
}

/// POST a webhook delivery signed with `secret`.
async fn deliver(
    app: &TestApp,
    id: &str,
    event: &str,
    body: &Value,
    secret: &str,
) -> (StatusCode, Value) {
    let raw = serde_json::to_vec(body).unwrap();
    let r = reqwest::Client::new()
        .post(format!("{}/v3/connections/{id}/webhook", app.base))
        .header("X-GitHub-Event", event)
        .header(
            "X-Hub-Signature-256",
            engram_connect::github::sign(secret, &raw),
        )
        .header("Content-Type", "application/json")
        .body(raw)
        .send()
        .await
        .unwrap();
    let s = r.status();
    (s, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn github_syncs_issues_and_takes_signed_webhooks() {
    let st: HubState = Default::default();
    {
        let mut h = st.lock().unwrap();
        h.files
            .insert("README.md".into(), "# Notes\nThe harbour log.".into());
        h.issues = vec![
            issue(
                1,
                "Fog horn too quiet",
                "The fog horn cannot be heard past the pier.",
                "2026-03-01T10:00:00Z",
                1,
            ),
            issue(
                3,
                "Paint the rail",
                "The rail on the east stairs is rusting.",
                "2026-03-02T10:00:00Z",
                0,
            ),
        ];
        // a pull request is not an issue
        let mut pr = issue(
            2,
            "Louder horn",
            "Doubles the volume.",
            "2026-03-01T12:00:00Z",
            0,
        );
        pr["pull_request"] = json!({"url": "https://api.github.com/repos/octo/notes/pulls/2"});
        h.issues.push(pr);
        h.comments.insert(
            1,
            vec![
                json!({"user": {"login": "bo"}, "created_at": "2026-03-01T11:00:00Z",
                        "body": "Ordered a new diaphragm for it."}),
            ],
        );
    }
    let (_, app) = github_app(&st, Some("https://engram.example/")).await;
    let id = connect(&app, &st).await;
    let c = wait_sync(&app, &id, None).await;

    // choosing the repository registers one hook, signed, for push and issues
    let (s, v) = app
        .post(
            &format!("/v3/connections/{id}/configure"),
            json!({"resources": [{"full_name": "octo/notes"}]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["webhooksRegistered"], 1, "{v}");
    let hook = st.lock().unwrap().hooks.values().next().cloned().unwrap();
    assert_eq!(
        hook["config"]["url"],
        format!("https://engram.example/v3/connections/{id}/webhook")
    );
    assert_eq!(hook["events"], json!(["push", "issues"]));
    let secret = hook["config"]["secret"].as_str().unwrap().to_string();
    assert!(secret.len() >= 32);

    let mut c = wait_sync(&app, &id, c["lastSyncRun"]["completedAt"].as_str()).await;
    if docs_of(&app, "github", "gh").await.len() < 3 {
        c = wait_sync(&app, &id, c["lastSyncRun"]["completedAt"].as_str()).await;
    }
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = docs_of(&app, "github", "gh").await;
    assert_eq!(
        docs.len(),
        3,
        "the readme and two issues, no pull request: {docs:#?}"
    );
    let one = content_of(&app, &docs, "octo/notes#1: ").await;
    assert!(one.contains("Fog horn too quiet"), "{one}");
    assert!(one.contains("cannot be heard past the pier"), "{one}");
    assert!(
        one.contains("Ordered a new diaphragm"),
        "the comment is in: {one}"
    );

    // deliveries: a forged signature is refused, an unknown connection is 404
    let push = json!({"ref": "refs/heads/main",
                      "repository": {"full_name": "octo/notes", "default_branch": "main"}});
    let (s, _) = deliver(&app, &id, "push", &push, "not-the-secret").await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = deliver(&app, "nope", "push", &push, &secret).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = deliver(
        &app,
        &id,
        "ping",
        &json!({"zen": "Keep it simple."}),
        &secret,
    )
    .await;
    assert_eq!((s, v["syncQueued"].clone()), (StatusCode::OK, json!(false)));
    let side = json!({"ref": "refs/heads/feature",
                      "repository": {"full_name": "octo/notes", "default_branch": "main"}});
    let (_, v) = deliver(&app, &id, "push", &side, &secret).await;
    assert_eq!(
        v["syncQueued"], false,
        "a push to another branch changes nothing synced"
    );

    // an issue edited: its event makes a sync due, which reads only what changed
    {
        let mut h = st.lock().unwrap();
        h.issues[0] = issue(
            1,
            "Fog horn too quiet",
            "Fixed: the horn now carries to the breakwater.",
            "2026-03-05T09:00:00Z",
            1,
        );
        h.issue_queries.clear();
    }
    let before = c["lastSyncRun"]["completedAt"].as_str().map(str::to_string);
    let (s, v) = deliver(
        &app,
        &id,
        "issues",
        &json!({"action": "edited", "repository": {"full_name": "octo/notes"}}),
        &secret,
    )
    .await;
    assert_eq!(
        (s, v["syncQueued"].clone()),
        (StatusCode::OK, json!(true)),
        "{v}"
    );
    let c = wait_sync(&app, &id, before.as_deref()).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let queries = st.lock().unwrap().issue_queries.clone();
    assert!(
        queries
            .iter()
            .all(|q| q.contains("since=2026-03-02T10:00:00Z")),
        "incremental by since: {queries:?}"
    );
    let docs = docs_of(&app, "github", "gh").await;
    assert_eq!(docs.len(), 3);
    let one = content_of(&app, &docs, "octo/notes#1: ").await;
    assert!(one.contains("carries to the breakwater"), "{one}");

    // leaving the issues out removes them; the hook is updated, not doubled
    let (_, v) = app
        .post(
            &format!("/v3/connections/{id}/configure"),
            json!({"resources": [{"full_name": "octo/notes", "issues": false}]}),
        )
        .await;
    assert_eq!(v["webhooksRegistered"], 1, "{v}");
    assert_eq!(st.lock().unwrap().hooks.len(), 1);
    let c = wait_sync(&app, &id, c["lastSyncRun"]["completedAt"].as_str()).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = docs_of(&app, "github", "gh").await;
    assert_eq!(docs.len(), 1, "{docs:#?}");
    let (_, v) = deliver(
        &app,
        &id,
        "issues",
        &json!({"action": "opened", "repository": {"full_name": "octo/notes"}}),
        &secret,
    )
    .await;
    assert_eq!(v["syncQueued"], false);

    // a bad resource is named
    let (s, v) = app
        .post(
            &format!("/v3/connections/{id}/configure"),
            json!({"resources": [{"full_name": "octo/notes", "issues": "yes"}]}),
        )
        .await;
    assert_error(
        &(s, v),
        StatusCode::BAD_REQUEST,
        "ValidationError",
        "resources[0].issues",
    );

    // deleting the connection removes its hook
    let (s, _) = app.delete(&format!("/v3/connections/{id}"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(st.lock().unwrap().hooks.is_empty());
    let (s, _) = deliver(&app, &id, "push", &push, &secret).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
