//! The served OpenAPI description: public, the same at `/v3/openapi` and
//! `/v4/openapi`, covering every route, and true to what the routes
//! answer (real responses are checked against its schemas).

use crate::support::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Check `v` against `schema` (the subset of JSON Schema utoipa emits:
/// `$ref`, `oneOf`/`anyOf`/`allOf`, `type` (one or a list), `enum`,
/// `properties`/`required`, `items`). An object whose schema lists
/// properties may not carry others: a field the description does not
/// know is drift.
fn conforms(doc: &Value, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/");
        let target = &doc["components"]["schemas"][name];
        if target.is_null() {
            return Err(format!("{at}: unknown schema {r}"));
        }
        return conforms(doc, target, v, at);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alts) = schema[key].as_array() {
            let errs: Vec<String> = alts
                .iter()
                .filter_map(|s| conforms(doc, s, v, at).err())
                .collect();
            if errs.len() == alts.len() {
                return Err(format!(
                    "{at}: matches no alternative: {}",
                    errs.join(" | ")
                ));
            }
            return Ok(());
        }
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            conforms(doc, s, v, at)?;
        }
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !types.is_empty() {
        let ok = types.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "string" => v.is_string(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            _ => true,
        });
        if !ok {
            return Err(format!("{at}: {v} is not {types:?}"));
        }
    }
    if let Some(values) = schema["enum"].as_array() {
        if !v.is_null() && !values.contains(v) {
            return Err(format!("{at}: {v} not in {values:?}"));
        }
    }
    if let (Some(props), Some(obj)) = (schema["properties"].as_object(), v.as_object()) {
        for req in schema["required"].as_array().into_iter().flatten() {
            let k = req.as_str().unwrap_or_default();
            if !obj.contains_key(k) {
                return Err(format!("{at}: `{k}` is required"));
            }
        }
        for (k, val) in obj {
            match props.get(k) {
                Some(s) => conforms(doc, s, val, &format!("{at}.{k}"))?,
                None => return Err(format!("{at}: `{k}` is not in the description")),
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            conforms(doc, items, x, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// Check a real response against what the description says `method path`
/// answers with `status`.
fn check(doc: &Value, method: &str, path: &str, status: StatusCode, body: &Value) {
    let op = &doc["paths"][path][method];
    assert!(op.is_object(), "{method} {path} is not described");
    let schema = &op["responses"][status.as_str()]["content"]["application/json"]["schema"];
    assert!(
        schema.is_object(),
        "{method} {path} describes no {status} body"
    );
    if let Err(e) = conforms(doc, schema, body, "body") {
        panic!("{method} {path} ({status}) drifts from its description: {e}\n{body:#}");
    }
}

#[tokio::test]
async fn the_description_is_public_complete_and_true() {
    let app = spawn_app().await;
    let anon = reqwest::Client::new();
    let fetch = |path: &'static str| {
        let req = anon.get(format!("{}{path}", app.base));
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let (v3, v4) = (fetch("/v3/openapi").await, fetch("/v4/openapi").await);
    assert_eq!(v3, v4);
    let doc = v3;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );

    // every route the server answers, and nothing else
    let mut described: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(p, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .filter(|m| ["get", "post", "patch", "put", "delete"].contains(&m.as_str()))
                .map(move |m| format!("{} {p}", m.to_uppercase()))
        })
        .collect();
    described.sort();
    let mut want = vec![
        "POST /v3/documents",
        "POST /v3/documents/batch",
        "POST /v3/documents/file",
        "POST /v3/documents/list",
        "GET /v3/documents/processing",
        "DELETE /v3/documents/bulk",
        "GET /v3/documents/{id}",
        "PATCH /v3/documents/{id}",
        "DELETE /v3/documents/{id}",
        "GET /v3/documents/{id}/chunks",
        "POST /v3/search",
        "POST /v4/memories",
        "PATCH /v4/memories",
        "DELETE /v4/memories",
        "POST /v4/memories/forget-matching",
        "POST /v4/memories/list",
        "POST /v4/search",
        "POST /v4/profile",
        "POST /v4/profile/buckets",
        "POST /v4/conversations",
        "GET /v3/graph",
        "GET /v3/container-tags/list",
        "GET /v3/container-tags/{containerTag}",
        "PATCH /v3/container-tags/{containerTag}",
        "DELETE /v3/container-tags/{containerTag}",
        "POST /v3/container-tags/merge",
        "GET /v3/container-tags/merge/{mergeId}",
        "GET /v3/settings",
        "PATCH /v3/settings",
        "POST /v3/settings/reset",
        "GET /v3/session",
        "GET /v3/auth/keys",
        "POST /v3/auth/keys",
        "PATCH /v3/auth/keys/{id}",
        "DELETE /v3/auth/keys/{id}",
        "POST /v3/auth/scoped-key",
        "DELETE /v3/auth/scoped-key/{id}",
        "POST /v3/connections/list",
        "POST /v3/connections/{id}",
        "GET /v3/connections/{id}",
        "DELETE /v3/connections/{id}",
        "POST /v3/connections/{id}/connection",
        "POST /v3/connections/{id}/documents",
        "POST /v3/connections/{id}/import",
        "GET /v3/connections/{id}/resources",
        "POST /v3/connections/{id}/configure",
        "GET /v3/analytics/usage",
        "GET /v3/analytics/errors",
        "GET /v3/analytics/logs",
    ];
    want.sort();
    assert_eq!(described, want);
    let ids: std::collections::HashSet<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op["operationId"].as_str())
        .collect();
    assert_eq!(ids.len(), want.len(), "operation ids are unique");

    // real answers conform
    let (st, added) = app
        .post(
            "/v3/documents",
            json!({"content": "user: I moved to Lisbon last year.", "containerTag": "ana",
                   "metadata": {"source": "chat"}}),
        )
        .await;
    check(&doc, "post", "/v3/documents", st, &added);
    let id = added["id"].as_str().unwrap();
    app.wait_done(id).await;
    let (st, d) = app.get(&format!("/v3/documents/{id}")).await;
    check(&doc, "get", "/v3/documents/{id}", st, &d);
    let (st, l) = app
        .post("/v3/documents/list", json!({"containerTags": ["ana"]}))
        .await;
    check(&doc, "post", "/v3/documents/list", st, &l);
    let (st, s) = app.post("/v3/search", json!({"q": "Lisbon"})).await;
    check(&doc, "post", "/v3/search", st, &s);
    let (st, m) = app
        .post(
            "/v4/memories",
            json!({"containerTag": "ana", "memories": [{"content": "Ana likes figs", "isStatic": true}]}),
        )
        .await;
    check(&doc, "post", "/v4/memories", st, &m);
    let (st, s) = app
        .post(
            "/v4/search",
            json!({"q": "figs", "containerTag": "ana", "threshold": 0, "searchMode": "hybrid",
                   "include": {"documents": true, "relatedMemories": true}}),
        )
        .await;
    check(&doc, "post", "/v4/search", st, &s);
    let (st, list) = app
        .post(
            "/v4/memories/list",
            json!({"containerTags": ["ana"], "includeHistory": true}),
        )
        .await;
    check(&doc, "post", "/v4/memories/list", st, &list);
    let (st, p) = app
        .post("/v4/profile", json!({"containerTag": "ana", "q": "figs"}))
        .await;
    check(&doc, "post", "/v4/profile", st, &p);
    let (st, b) = app
        .post("/v4/profile/buckets", json!({"containerTag": "ana"}))
        .await;
    check(&doc, "post", "/v4/profile/buckets", st, &b);
    let (st, g) = app.get("/v3/graph?containerTag=ana").await;
    assert!(g["nodes"].as_array().unwrap().len() >= 3, "{g}");
    check(&doc, "get", "/v3/graph", st, &g);
    let (st, t) = app
        .patch(
            "/v3/container-tags/ana",
            json!({"name": "Ana", "profileBuckets": [{"key": "pets"}]}),
        )
        .await;
    check(&doc, "patch", "/v3/container-tags/{containerTag}", st, &t);
    let (st, t) = app.get("/v3/container-tags/list").await;
    check(&doc, "get", "/v3/container-tags/list", st, &t);
    app.patch("/v3/container-tags/ben", json!({})).await;
    let (st, t) = app
        .post(
            "/v3/container-tags/merge",
            json!({"containerTags": ["ben"], "targetContainerTag": "ana"}),
        )
        .await;
    check(&doc, "post", "/v3/container-tags/merge", st, &t);
    let (st, t) = app
        .get(&format!(
            "/v3/container-tags/merge/{}",
            t["mergeId"].as_str().unwrap()
        ))
        .await;
    check(&doc, "get", "/v3/container-tags/merge/{mergeId}", st, &t);
    let (st, t) = app.delete("/v3/container-tags/ana", None).await;
    check(&doc, "delete", "/v3/container-tags/{containerTag}", st, &t);
    let (st, t) = app
        .patch(
            "/v3/settings",
            json!({"chunkSize": 300, "notionClientSecret": "x"}),
        )
        .await;
    check(&doc, "patch", "/v3/settings", st, &t);
    let (st, t) = app.get("/v3/settings").await;
    check(&doc, "get", "/v3/settings", st, &t);
    let (st, t) = app.get("/v3/session").await;
    check(&doc, "get", "/v3/session", st, &t);
    let (st, t) = app.post("/v3/auth/keys", json!({"name": "k2"})).await;
    check(&doc, "post", "/v3/auth/keys", st, &t);
    let (st, sk) = app
        .post(
            "/v3/auth/scoped-key",
            json!({"containerTag": "ana", "expiresIn": 3600, "rateLimit": 60}),
        )
        .await;
    check(&doc, "post", "/v3/auth/scoped-key", st, &sk);
    let (st, t) = app
        .send("GET", "/v3/session", sk["key"].as_str(), None)
        .await;
    assert_eq!(t["scope"]["type"], "scoped");
    check(&doc, "get", "/v3/session", st, &t);
    let (st, t) = app.get("/v3/auth/keys").await;
    check(&doc, "get", "/v3/auth/keys", st, &t);
    let (st, t) = app
        .delete(
            &format!("/v3/auth/scoped-key/{}", sk["id"].as_str().unwrap()),
            None,
        )
        .await;
    check(&doc, "delete", "/v3/auth/scoped-key/{id}", st, &t);
    // errors too
    let (st, e) = app.post("/v3/search", json!({"q": ""})).await;
    check(&doc, "post", "/v3/search", st, &e);
    let (st, e) = app.get("/v3/documents/nope").await;
    check(&doc, "get", "/v3/documents/{id}", st, &e);
    // analytics of all of the above
    for route in ["usage", "errors", "logs"] {
        let path = format!("/v3/analytics/{route}");
        let (st, a) = app.get(&format!("{path}?period=1h")).await;
        assert_eq!(st, StatusCode::OK, "{a}");
        check(&doc, "get", &path, st, &a);
        let (st, e) = app.get(&format!("{path}?limit=101")).await;
        check(&doc, "get", &path, st, &e);
    }
}
