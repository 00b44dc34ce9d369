//! GitHub against a local stand-in speaking its OAuth and REST endpoints:
//! PKCE, the callback, token refresh, resources, configure, incremental
//! sync, 429 and a revoked grant.

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
            json_token: false,
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
