//! Several Engram replicas on one database (the scale-out deployment), on
//! whichever backend the suite runs: what one ingests the other finds, and
//! when one dies mid-ingest the others finish its work, every document
//! reaching `done` once, with its chunks stored once.

use crate::support::*;
use engram_engine::EngineConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const DOCS: usize = 16;
const LEASE: Duration = Duration::from_millis(800);

/// A few paragraphs (several chunks at 40 tokens), with a word only this
/// document holds.
fn text(i: usize) -> String {
    let words = [
        "harbour", "lantern", "meadow", "quarry", "orchard", "glacier",
    ];
    (0..4)
        .map(|p| {
            format!(
                "Paragraph {p} of report {i} about the {} near the {}: marker{i}zq appears here.",
                words[(i + p) % words.len()],
                words[(i * 3 + p) % words.len()]
            ) + " Field notes follow with enough words to fill a chunk of forty tokens or so."
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn options() -> Options {
    Options {
        embedder: Arc::new(HashEmbedder {
            delay: Duration::from_millis(100),
            ..HashEmbedder::new()
        }),
        engine: EngineConfig {
            chunk_tokens: Some(40),
            batch_size: 2,
            lease: LEASE,
            poll_interval: Duration::from_millis(50),
            ..Default::default()
        },
        workers: 2,
    }
}

/// Each document's `(updatedAt, chunk ids)` as replica `app` serves them.
async fn snapshot(app: &TestApp, ids: &[String]) -> Vec<(Value, Vec<Value>)> {
    let mut out = Vec::new();
    for id in ids {
        let d = app.wait_done(id).await;
        let (_, c) = app.get(&format!("/v3/documents/{id}/chunks")).await;
        let chunk_ids = c["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].clone())
            .collect();
        out.push((d["updatedAt"].clone(), chunk_ids));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_share_the_work_and_survive_one_dying() {
    let mut a = spawn_app_with(options()).await;
    let b = replica_of(&a, options()).await;

    // ingest through A; both replicas' workers take jobs from the one queue
    let mut ids = Vec::new();
    for i in 0..DOCS {
        ids.push(
            a.add(
                json!({"content": text(i), "customId": format!("r{i}"), "containerTag": "shared"}),
            )
            .await,
        );
    }
    // kill A mid-ingest: its workers stop where they stand, holding leases
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, p) = b.get("/v3/documents/processing").await;
        let done = DOCS as u64 - p["totalCount"].as_u64().unwrap();
        let busy = p["documents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["status"] != "queued")
            .count();
        if done >= 2 && busy >= 2 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "ingest never got going"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    a.workers.take().unwrap().abort();
    a.server.abort();
    assert!(b.store.pending_jobs().await.unwrap() > 0);

    // B finishes everything, A's orphans once their leases lapse
    b.wait_idle().await;
    for (i, id) in ids.iter().enumerate() {
        b.assert_chunked_once(id, &text(i), 40).await;
    }

    // nothing is processed again later (no job comes back after a lease)
    let before = snapshot(&b, &ids).await;
    tokio::time::sleep(LEASE * 2).await;
    assert_eq!(b.store.pending_jobs().await.unwrap(), 0);
    assert_eq!(snapshot(&b, &ids).await, before);

    // what A ingested, B finds (its index follows the shared change log)
    for i in [0, 7, DOCS - 1] {
        let (s, r) = b
            .post(
                "/v3/search",
                json!({"q": format!("marker{i}zq"), "containerTag": "shared", "limit": 3}),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::OK, "{r}");
        assert_eq!(r["results"][0]["documentId"], ids[i].as_str(), "{r}");
    }
}

#[tokio::test]
async fn store_side_vector_candidates_need_a_store_with_a_vector_index() {
    let dir = tempfile::tempdir().unwrap();
    let store = SharedDb::new(&dir).await.open().await;
    let config = EngineConfig {
        vector_index: engram_engine::VectorIndex::Store,
        ..Default::default()
    };
    let made = engram_engine::Engine::new(store, Arc::new(HashEmbedder::new()), config).await;
    match made {
        // PostgreSQL builds its HNSW index for the model's dimension
        Ok(_) => assert!(on_postgres()),
        Err(e) => {
            assert!(!on_postgres(), "{e}");
            assert!(e.to_string().contains("PostgreSQL"), "{e}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_written_through_one_replica_wakes_the_others() {
    // SQLite replicas share a file, not notifications: they poll
    if !on_postgres() {
        return;
    }
    let a = spawn_app_with(Options {
        workers: 0,
        ..Options::default()
    })
    .await;
    let mut slow = Options::default();
    slow.engine.poll_interval = Duration::from_secs(120);
    let b = replica_of(&a, slow).await;
    // B's worker found nothing and now sleeps for two minutes, unless told
    tokio::time::sleep(Duration::from_millis(300)).await;
    let id = a.add(json!({"content": "a job for whoever is free"})).await;
    let done = tokio::time::timeout(Duration::from_secs(15), b.wait_done(&id)).await;
    assert!(done.is_ok(), "replica B was not woken by A's write");
}
