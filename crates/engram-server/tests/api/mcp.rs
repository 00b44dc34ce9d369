//! `/mcp`: a real MCP client session over streamable HTTP — initialize,
//! list the tools, call each one — with the caller's bearer key deciding
//! what the tools may do.

use crate::support::*;
use reqwest::StatusCode;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::{json, Value};

async fn connect(app: &TestApp, key: &str) -> RunningService<RoleClient, ClientConfig> {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", app.base))
            .auth_header(key.to_string()),
    );
    ClientConfig::default().serve(transport).await.unwrap()
}

async fn call(
    mcp: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    mcp.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap()
}

fn text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ok(r: &CallToolResult) -> Value {
    assert_ne!(r.is_error, Some(true), "{}", text(r));
    serde_json::from_str(&text(r)).unwrap()
}

#[tokio::test]
async fn an_mcp_session_over_http_calls_every_tool() {
    let app = spawn_app().await;
    let mcp = connect(&app, &app.key).await;

    let info = mcp.peer_info().expect("initialized");
    assert!(info
        .instructions
        .as_deref()
        .unwrap_or("")
        .contains("containerTag"));
    let tools = mcp.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "add_document",
            "add_memory",
            "forget_memory",
            "get_profile",
            "list_connections",
            "list_container_tags",
            "search_docs",
            "search_memories"
        ]
    );
    for t in &tools {
        assert!(
            t.description.as_deref().unwrap_or("").len() > 40,
            "{}",
            t.name
        );
        assert_eq!(
            t.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
    }
    // clients may run read-only tools without asking, and ask before forgetting
    let hint = |name: &str| {
        let t = tools.iter().find(|t| t.name == name).unwrap();
        let a = t.annotations.as_ref().expect("annotated");
        (a.read_only_hint, a.destructive_hint)
    };
    for name in [
        "search_memories",
        "get_profile",
        "list_container_tags",
        "list_connections",
        "search_docs",
    ] {
        assert_eq!(hint(name).0, Some(true), "{name}");
    }
    assert_eq!(hint("forget_memory"), (Some(false), Some(true)));
    assert_eq!(hint("add_memory").0, Some(false));
    let search = tools.iter().find(|t| t.name == "search_memories").unwrap();
    let props = search.input_schema["properties"].as_object().unwrap();
    for p in [
        "q",
        "containerTag",
        "filters",
        "limit",
        "threshold",
        "searchMode",
    ] {
        assert!(props.contains_key(p), "search_memories lacks {p}");
    }
    assert_eq!(search.input_schema["required"], json!(["q"]));

    // remember, then find it, read it in the profile, list its tag
    let fact = "Ana keeps bees on the roof of her building in Lisbon.";
    let added = ok(&call(
        &mcp,
        "add_memory",
        json!({"content": fact, "containerTag": "ana"}),
    )
    .await);
    assert_eq!(added["memories"][0]["memory"], fact, "{added}");
    let found = ok(&call(
        &mcp,
        "search_memories",
        json!({"q": "Where does Ana keep bees?", "containerTag": "ana", "threshold": 0.0}),
    )
    .await);
    assert_eq!(found["results"][0]["memory"], fact, "{found}");
    let profile = ok(&call(&mcp, "get_profile", json!({"containerTag": "ana"})).await);
    assert!(profile.to_string().contains("bees"), "{profile}");
    let doc = ok(&call(
        &mcp,
        "add_document",
        json!({"content": "Ben plays the cello every Sunday.",
        "containerTag": "ben", "customId": "ben-notes", "metadata": {"source": "mcp"}}),
    )
    .await);
    assert!(doc["id"].as_str().is_some(), "{doc}");
    let tags = ok(&call(&mcp, "list_container_tags", json!({})).await);
    let listed: Vec<&str> = tags
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["containerTag"].as_str())
        .collect();
    assert!(listed.contains(&"ana") && listed.contains(&"ben"), "{tags}");
    // connections: none, then the one made through the API
    let none = ok(&call(&mcp, "list_connections", json!({})).await);
    assert_eq!(none, json!([]));
    let (s, made) = app
        .post(
            "/v3/connections/web-crawler",
            json!({"containerTag": "ben", "metadata": {"startUrl": "http://127.0.0.1:9/"}}),
        )
        .await;
    assert_eq!(s, axum::http::StatusCode::OK, "{made}");
    let listed = ok(&call(&mcp, "list_connections", json!({"containerTags": ["ben"]})).await);
    assert_eq!(listed[0]["id"], made["id"], "{listed}");
    assert_eq!(listed[0]["provider"], "web-crawler");
    let other = ok(&call(&mcp, "list_connections", json!({"containerTags": ["ana"]})).await);
    assert_eq!(other, json!([]));
    let doc_here = app
        .send("GET", "/v3/documents/ben-notes", Some(&app.key), None)
        .await;
    assert_eq!(doc_here.0, StatusCode::OK);
    assert_eq!(doc_here.1["metadata"]["source"], "mcp");

    // forget it: gone from search
    let gone = ok(&call(
        &mcp,
        "forget_memory",
        json!({"containerTag": "ana", "content": fact, "reason": "moved away"}),
    )
    .await);
    assert_eq!(gone["forgotten"], true, "{gone}");
    let found = ok(&call(
        &mcp,
        "search_memories",
        json!({"q": "Where does Ana keep bees?", "containerTag": "ana", "threshold": 0.0}),
    )
    .await);
    assert_eq!(found["results"], json!([]), "{found}");

    // the documentation, offline
    let docs = ok(&call(
        &mcp,
        "search_docs",
        json!({"q": "create a scoped key for one container tag"}),
    )
    .await);
    let first = &docs["results"][0];
    assert!(
        first["page"].as_str().is_some() && first["text"].as_str().unwrap().contains("scoped"),
        "{docs}"
    );
    let only = ok(&call(
        &mcp,
        "search_docs",
        json!({"q": "PostgreSQL replicas", "page": "deployment"}),
    )
    .await);
    assert!(
        only["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["page"] == "deployment"),
        "{only}"
    );

    // a bad call is a tool error the agent can read, not a broken session
    let bad = call(
        &mcp,
        "add_memory",
        json!({"content": "x", "containerTag": "no spaces!"}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("ValidationError"), "{}", text(&bad));

    // every call went through the API like any request: it is recorded
    app.engine.analytics().flush().await;
    let (_, logs) = app
        .send(
            "GET",
            "/v3/analytics/logs?type=search",
            Some(&app.key),
            None,
        )
        .await;
    assert!(logs["logs"].as_array().unwrap().len() >= 2, "{logs}");
    mcp.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_needs_a_key_and_keeps_to_its_scope() {
    let app = spawn_app().await;
    // no key: refused before any MCP message is read
    let resp = app
        .client
        .post(format!("{}/mcp", app.base))
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["type"], "AuthenticationError");

    // a key of one tag: its tools reach that tag only
    let (st, scoped) = app
        .post("/v3/auth/scoped-key", json!({"containerTag": "bob"}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{scoped}");
    let mcp = connect(&app, scoped["key"].as_str().unwrap()).await;
    let theirs = call(
        &mcp,
        "add_memory",
        json!({"content": "Ana likes figs.", "containerTag": "ana"}),
    )
    .await;
    assert_eq!(theirs.is_error, Some(true));
    assert!(
        text(&theirs).contains("PermissionError"),
        "{}",
        text(&theirs)
    );
    let own = ok(&call(
        &mcp,
        "add_memory",
        json!({"content": "Bob likes plums.", "containerTag": "bob"}),
    )
    .await);
    assert_eq!(own["memories"][0]["memory"], "Bob likes plums.");
    let tags = call(&mcp, "list_container_tags", json!({})).await;
    assert_eq!(tags.is_error, Some(true), "{}", text(&tags));

    // another organisation's key sees none of it
    let other = app.other_org_key("elsewhere").await;
    let mcp2 = connect(&app, &other).await;
    let found = ok(&call(
        &mcp2,
        "search_memories",
        json!({"q": "plums", "containerTag": "bob", "threshold": 0.0}),
    )
    .await);
    assert_eq!(found["results"], json!([]));
    mcp.cancel().await.unwrap();
    mcp2.cancel().await.unwrap();
}
