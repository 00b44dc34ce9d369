//! The web crawler against a local site: links, robots.txt, a sitemap, a
//! redirect, an off-site link, a non-HTML file, conditional re-crawls,
//! removed pages, the document limit and the SSRF guard; tenancy and
//! scoped keys.

use super::*;

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
