//! The console's server side over HTTP: `/` leads to it, its page is sent
//! with a strict policy, a key is exchanged for an HttpOnly SameSite
//! cookie, the cookie stands in for the key (changes need the CSRF
//! header), a revoked key ends its sessions, a forged cookie is nothing,
//! and signing out clears it.

use crate::support::*;
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Sign in with `key`: the status, the body and the cookie pair
/// (`engram_session=...`).
async fn sign_in(app: &TestApp, key: &str) -> (StatusCode, Value, Option<String>) {
    let r = no_redirects()
        .post(format!("{}/console-session", app.base))
        .json(&json!({"apiKey": key}))
        .send()
        .await
        .unwrap();
    let s = r.status();
    let cookie = r
        .headers()
        .get(SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_string());
    (s, r.json().await.unwrap_or(Value::Null), cookie)
}

async fn with_cookie(
    app: &TestApp,
    method: &str,
    path: &str,
    cookie: &str,
    csrf: bool,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = no_redirects()
        .request(method.parse().unwrap(), format!("{}{path}", app.base))
        .header(COOKIE, cookie);
    if csrf {
        req = req.header("X-Engram-Console", "1");
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let r = req.send().await.unwrap();
    let s = r.status();
    (s, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_console_signs_in_with_a_key_and_a_strict_cookie() {
    let app = spawn_app().await;
    let web = no_redirects();

    // `/` leads to the console; its page and assets are in the binary
    let r = web.get(format!("{}/", app.base)).send().await.unwrap();
    assert!(r.status().is_redirection());
    assert_eq!(r.headers()["location"], "/console");
    let r = web
        .get(format!("{}/console", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let csp = r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert!(!csp.contains("unsafe-inline"));
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    let html = r.text().await.unwrap();
    assert!(
        html.contains("/console-assets/app.js") && !html.contains("<script>"),
        "no inline code"
    );
    for (path, kind) in [
        ("/console-assets/app.js", "text/javascript"),
        ("/console-assets/app.css", "text/css"),
    ] {
        let r = web.get(format!("{}{path}", app.base)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(r.headers()["content-type"], kind);
    }

    // a bad key is refused, and sets nothing
    let (s, v, cookie) = sign_in(&app, "sm_not_a_key").await;
    assert_error(
        &(s, v),
        StatusCode::UNAUTHORIZED,
        "AuthenticationError",
        "invalid",
    );
    assert!(cookie.is_none());
    let (s, _) = with_cookie(
        &app,
        "GET",
        "/console-session",
        "engram_session=00",
        false,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    // a good key: an HttpOnly, SameSite=Strict cookie with an expiry
    let (_, made) = app
        .post("/v3/auth/keys", json!({"name": "console user"}))
        .await;
    let key = made["key"].as_str().unwrap().to_string();
    let (s, who, set) = sign_in(&app, &key).await;
    assert_eq!(s, StatusCode::OK, "{who}");
    assert_eq!(who["keyName"], "console user");
    assert!(who["expiresAt"].is_string());
    let set = set.expect("a cookie");
    for part in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"] {
        assert!(set.contains(part), "{part} in {set}");
    }
    assert!(!set.contains("Secure"), "plain http on localhost");
    assert!(
        !set.contains(&key),
        "the key is sealed, not readable: {set}"
    );
    let cookie = set.split(';').next().unwrap().to_string();

    // the cookie stands in for the key: reads, and changes with the header
    let (s, me) = with_cookie(&app, "GET", "/console-session", &cookie, false, None).await;
    assert_eq!(
        (s, me["keyName"].clone()),
        (StatusCode::OK, json!("console user"))
    );
    let (s, list) = with_cookie(&app, "GET", "/v3/auth/keys", &cookie, false, None).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let doc = json!({"content": "The lighthouse lamp is lit at dusk.", "containerTag": "coast"});
    let (s, v) = with_cookie(
        &app,
        "POST",
        "/v3/documents",
        &cookie,
        false,
        Some(doc.clone()),
    )
    .await;
    assert_error(
        &(s, v),
        StatusCode::FORBIDDEN,
        "PermissionError",
        "X-Engram-Console",
    );
    let (s, v) = with_cookie(&app, "POST", "/v3/documents", &cookie, true, Some(doc)).await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // a forged or altered cookie is nothing
    let mut forged = cookie.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    let (s, _) = with_cookie(&app, "GET", "/v3/auth/keys", &forged, false, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    // the bearer header still rules when both are sent
    let r = web
        .get(format!("{}/v3/auth/keys", app.base))
        .header(COOKIE, &cookie)
        .bearer_auth("sm_wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    // sign out clears the cookie
    let r = web
        .delete(format!("{}/console-session", app.base))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    assert!(r.headers()[SET_COOKIE]
        .to_str()
        .unwrap()
        .contains("Max-Age=0"));

    // revoking the key ends its sessions at once
    let id = made["id"].as_str().unwrap();
    let (s, _) = app.delete(&format!("/v3/auth/keys/{id}"), None).await;
    assert!(s.is_success());
    let (s, _) = with_cookie(&app, "GET", "/v3/auth/keys", &cookie, false, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = with_cookie(&app, "GET", "/console-session", &cookie, false, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// A scoped key's session reaches only what the key may.
#[tokio::test]
async fn a_scoped_keys_session_is_scoped() {
    let app = spawn_app().await;
    let (s, scoped) = app
        .post(
            "/v3/auth/scoped-key",
            json!({"containerTag": "coast", "name": "coast only"}),
        )
        .await;
    assert!(s.is_success(), "{scoped}");
    let (s, who, set) = sign_in(&app, scoped["key"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{who}");
    assert_eq!(
        (who["scoped"].clone(), who["containerTag"].clone()),
        (json!(true), json!("coast"))
    );
    let cookie = set.unwrap().split(';').next().unwrap().to_string();
    let (s, _) = with_cookie(&app, "GET", "/v3/auth/keys", &cookie, false, None).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "a scoped key cannot manage keys");
    let (s, _) = with_cookie(&app, "GET", "/v3/settings", &cookie, false, None).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "nor read the settings");
}

/// Every script the console's page loads, found by following its module
/// imports from `app.js` the way a browser does, is served as JavaScript
/// from the binary, gzipped when asked; the whole page stays far under
/// the 300 KB budget; an unknown asset is a JSON 404.
#[tokio::test]
async fn the_console_serves_every_module_it_imports_gzipped_within_budget() {
    let app = spawn_app().await;
    let web = no_redirects();
    let get = |path: String, gzip: bool| {
        let mut r = web.get(format!("{}{path}", app.base));
        if gzip {
            r = r.header("accept-encoding", "gzip");
        }
        r.send()
    };
    let page = get("/console".into(), true).await.unwrap();
    assert_eq!(page.headers()["content-encoding"], "gzip");
    let mut compressed = page.bytes().await.unwrap().len();
    let mut todo = vec!["app.js".to_string(), "app.css".to_string()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let path = format!("/console-assets/{name}");
        let plain = get(path.clone(), false).await.unwrap();
        assert_eq!(plain.status(), StatusCode::OK, "{path}");
        let kind = if name.ends_with(".css") {
            "text/css"
        } else {
            "text/javascript"
        };
        assert_eq!(plain.headers()["content-type"], kind, "{path}");
        let text = plain.text().await.unwrap();
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("import ") {
                let from = rest.split("\"./").nth(1).expect(line);
                todo.push(from.split('"').next().unwrap().to_string());
            }
        }
        let zipped = get(path.clone(), true).await.unwrap();
        assert_eq!(zipped.headers()["content-encoding"], "gzip", "{path}");
        let bytes = zipped.bytes().await.unwrap().len();
        assert!(
            bytes < text.len(),
            "{path}: {bytes} gzipped of {}",
            text.len()
        );
        compressed += bytes;
    }
    // the shell and every page's module
    for module in [
        "graph.js",
        "overview.js",
        "spaces.js",
        "connections.js",
        "logs.js",
    ] {
        assert!(seen.contains(module), "{module} is loaded: {seen:?}");
    }
    assert!(compressed < 300 * 1024, "{compressed} bytes gzipped");
    eprintln!(
        "console: {} assets, {compressed} bytes gzipped",
        seen.len() + 1
    );

    let r = get("/console-assets/../secret".into(), false)
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = get("/console-assets/nope.js".into(), false).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["type"], "NotFoundError");
}
