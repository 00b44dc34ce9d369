//! Connections, end to end, one module per provider, each against a local
//! stand-in for the provider (or, for S3, a real S3-compatible server);
//! the helpers they share are here.

mod cloud;
mod crawler;
mod github;
mod providers;
pub(crate) mod s3;

pub(crate) use crate::support::*;
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
