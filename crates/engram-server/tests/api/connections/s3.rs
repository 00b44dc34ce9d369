//! S3 against a real S3-compatible server (moto's, from PyPI, started by
//! the test; `scripts/test.sh` installs it): first sync, changes by ETag
//! (added, changed, deleted), prefixes as resources and configure,
//! credentials sealed and never echoed, and bad settings refused.

use super::*;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as Key;
use object_store::{ObjectStoreExt, PutPayload};

/// A moto S3 server on a free port, killed when dropped.
pub(crate) struct S3Server {
    child: std::process::Child,
    pub endpoint: String,
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) async fn start_s3() -> S3Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let python = std::env::var("ENGRAM_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let child = std::process::Command::new(&python)
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{python} -m moto.server: {e} (scripts/test.sh installs moto)"));
    let server = S3Server {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    for _ in 0..200 {
        if reqwest::get(format!("{}/moto-api/", server.endpoint))
            .await
            .is_ok()
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("moto's S3 server did not start (pip install 'moto[server]'; scripts/test.sh does)");
}

pub(crate) fn bucket(endpoint: &str, name: &str) -> AmazonS3 {
    AmazonS3Builder::new()
        .with_endpoint(endpoint)
        .with_region("us-east-1")
        .with_bucket_name(name)
        .with_access_key_id("AKIATEST")
        .with_secret_access_key("shh-secret")
        .with_allow_http(true)
        .build()
        .unwrap()
}

pub(crate) async fn put(b: &AmazonS3, key: &str, body: &str) {
    b.put(&Key::from(key), PutPayload::from(body.to_string()))
        .await
        .unwrap();
}

/// The connection's documents, each as `GET /v3/documents/{id}` shows it.
async fn full_docs(app: &TestApp, tag: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for d in docs_of(app, "s3", tag).await {
        let (s, v) = app
            .get(&format!("/v3/documents/{}", d["id"].as_str().unwrap()))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        out.push(v);
    }
    out
}

/// Create a bucket through the S3 API itself.
pub(crate) async fn create_bucket(endpoint: &str, name: &str) {
    let created = reqwest::Client::new()
        .put(format!("{endpoint}/{name}"))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "{created:?}");
}

#[tokio::test]
async fn s3_syncs_a_bucket_by_etag_with_sealed_credentials() {
    let s3 = start_s3().await;
    // the bucket, through the S3 API itself
    create_bucket(&s3.endpoint, "field-notes").await;
    let b = bucket(&s3.endpoint, "field-notes");
    put(
        &b,
        "docs/otters.md",
        "# Otters\nOtters hold hands while they sleep.",
    )
    .await;
    put(&b, "docs/beavers.txt", "Beavers build dams from branches.").await;
    put(
        &b,
        "docs/page.html",
        "<html><body><p>Herons wait in the reeds.</p></body></html>",
    )
    .await;
    put(
        &b,
        "docs/counts.csv",
        "animal,count\nheron,4\nkingfisher,2\n",
    )
    .await;
    put(&b, "docs/photo.png", "not text").await;
    put(&b, "docs/sub/deep.md", "Kingfishers dive for small fish.").await;
    put(&b, "elsewhere/x.txt", "Outside the prefix.").await;

    let app = spawn_app_with(opts()).await;
    // bad settings are refused before anything is stored
    for (metadata, field) in [
        (json!({"region": "us-east-1"}), "metadata.bucket"),
        (json!({"bucket": "Bad_Name"}), "metadata.bucket"),
        (
            json!({"bucket": "ok-bucket", "accessKeyId": "AKIA"}),
            "metadata.secretAccessKey",
        ),
        (
            json!({"bucket": "ok-bucket", "endpoint": "ftp://x"}),
            "metadata.endpoint",
        ),
    ] {
        let r = app
            .post(
                "/v3/connections/s3",
                json!({"containerTag": "x", "metadata": metadata}),
            )
            .await;
        assert_error(&r, StatusCode::BAD_REQUEST, "ValidationError", field);
    }

    let (s, v) = app
        .post(
            "/v3/connections/s3",
            json!({"containerTag": "bucket", "metadata": {
                "endpoint": s3.endpoint, "region": "us-east-1", "bucket": "field-notes",
                "prefix": "docs/", "accessKeyId": "AKIATEST", "secretAccessKey": "shh-secret",
                "team": "wildlife"}}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    // the credentials are sealed: never in an answer
    assert!(!c.to_string().contains("shh-secret"), "{c}");
    assert!(!c.to_string().contains("AKIATEST"), "{c}");
    assert_eq!(c["metadata"]["bucket"], "field-notes");
    let (_, listed) = app
        .post("/v3/connections/list", json!({"containerTags": ["bucket"]}))
        .await;
    assert!(!listed.to_string().contains("shh-secret"));

    let docs = full_docs(&app, "bucket").await;
    let mut keys: Vec<String> = Vec::new();
    for d in &docs {
        let got = app.wait_done(d["id"].as_str().unwrap()).await;
        assert_eq!(got["status"], "done", "{got}");
        assert_eq!(got["connectionId"], json!(id));
        assert_eq!(got["source"], "s3");
        assert_eq!(got["metadata"]["team"], "wildlife");
        assert_eq!(got["metadata"]["bucket"], "field-notes");
        let key = got["metadata"]["key"].as_str().unwrap().to_string();
        assert_eq!(got["url"], format!("s3://field-notes/{key}"));
        keys.push(key);
    }
    keys.sort();
    assert_eq!(
        keys,
        [
            "docs/beavers.txt",
            "docs/counts.csv",
            "docs/otters.md",
            "docs/page.html",
            "docs/sub/deep.md"
        ],
        "text, markdown, HTML and CSV under the prefix; not the PNG, not outside"
    );
    let (s, r) = app
        .post(
            "/v3/search",
            json!({"q": "do herons wait?", "containerTags": ["bucket"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(r.to_string().contains("Herons wait in the reeds"), "{r}");
    let doc_of = |docs: &[Value], key: &str| -> Value {
        docs.iter()
            .find(|d| d["metadata"]["key"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("no document for {key}: {docs:#?}"))
    };
    // read again now that every document is done (processing moves updatedAt)
    let otters_before = doc_of(&full_docs(&app, "bucket").await, "docs/otters.md");

    // changed, added, deleted at the source
    put(
        &b,
        "docs/beavers.txt",
        "Beavers also dig canals to float wood.",
    )
    .await;
    put(
        &b,
        "docs/new.md",
        "Dippers walk underwater along stream beds.",
    )
    .await;
    b.delete(&Key::from("docs/page.html")).await.unwrap();
    let c = import_and_wait(&app, "s3", "bucket", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = full_docs(&app, "bucket").await;
    assert_eq!(docs.len(), 5, "{docs:#?}");
    assert!(docs
        .iter()
        .all(|d| d["metadata"]["key"] != "docs/page.html"));
    let beavers = doc_of(&docs, "docs/beavers.txt");
    let beavers = app.wait_done(beavers["id"].as_str().unwrap()).await;
    assert!(
        beavers["content"].as_str().unwrap().contains("canals"),
        "{beavers}"
    );
    // an unchanged object (same ETag) was not written again
    let otters_after = doc_of(&docs, "docs/otters.md");
    assert_eq!(otters_after["id"], otters_before["id"]);
    assert_eq!(otters_after["updatedAt"], otters_before["updatedAt"]);
    let new = doc_of(&docs, "docs/new.md");
    app.wait_done(new["id"].as_str().unwrap()).await;

    // the folders under the prefix are the resources; choosing one narrows the sync
    let (s, r) = app.get(&format!("/v3/connections/{id}/resources")).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let names: Vec<&str> = r["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["id"].as_str())
        .collect();
    assert_eq!(names, ["docs/sub/"], "{r}");
    let (s, r) = app
        .get(&format!(
            "/v3/connections/{id}/resources?parent_id=elsewhere/"
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(
        r["resources"],
        json!([]),
        "no folders under elsewhere/: {r}"
    );
    let before = c["lastSyncRun"]["completedAt"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, r) = app
        .post(
            &format!("/v3/connections/{id}/configure"),
            json!({"resources": [{"id": "docs/sub/"}]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let c = wait_sync(&app, &id, Some(&before)).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = full_docs(&app, "bucket").await;
    assert_eq!(docs.len(), 1, "{docs:#?}");
    assert_eq!(docs[0]["metadata"]["key"], "docs/sub/deep.md");

    // deleting the connection with its documents leaves nothing
    let (s, v) = app
        .delete(&format!("/v3/connections/{id}?deleteDocuments=true"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, _) = app.get(&format!("/v3/connections/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, list) = app
        .post("/v3/documents/list", json!({"containerTags": ["bucket"]}))
        .await;
    assert_eq!(
        list["memories"].as_array().map(|a| a.len()),
        Some(0),
        "{list}"
    );
}

#[tokio::test]
async fn s3_refuses_a_private_endpoint_unless_allowed() {
    let mut o = opts();
    o.engine.fetch.allow_private = false;
    let app = spawn_app_with(o).await;
    for endpoint in [
        "http://169.254.169.254",
        "http://127.0.0.1:9000",
        "http://[::1]:9000",
    ] {
        let r = app
            .post(
                "/v3/connections/s3",
                json!({"containerTag": "x", "metadata": {"bucket": "data", "endpoint": endpoint}}),
            )
            .await;
        assert_error(
            &r,
            StatusCode::BAD_REQUEST,
            "ValidationError",
            "metadata.endpoint",
        );
    }
    // a name that resolves to a private address is refused when the sync connects
    let (s, v) = app
        .post(
            "/v3/connections/s3",
            json!({"containerTag": "x", "metadata": {"bucket": "data", "endpoint": "http://localhost:9"}}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let c = wait_sync(&app, v["id"].as_str().unwrap(), None).await;
    assert_eq!(c["lastSyncRun"]["status"], "failed", "{c}");
    assert!(
        c["lastSyncRun"]["error"]
            .as_str()
            .unwrap()
            .contains("private"),
        "{c}"
    );
}
