//! Restarts with index snapshots, on whichever backend the suite runs: a
//! replica started on a saved snapshot answers like one that rebuilt its
//! index from the store, including every change made after the snapshot
//! (caught up from the change log), and a damaged snapshot is rebuilt,
//! never served.

use crate::support::*;
use engram_engine::snapshots::SnapshotConfig;
use serde_json::{json, Value};
use std::path::Path;

fn options(dir: &Path) -> Options {
    let mut o = Options::default();
    o.engine.snapshots = Some(SnapshotConfig {
        dir: dir.to_path_buf(),
        min_chunks: 1,
        min_changes: 1,
    });
    o
}

/// Document ids of a search, best first.
async fn found(app: &TestApp, q: &str) -> Vec<String> {
    let (s, v) = app
        .post(
            "/v3/search",
            json!({"q": q, "limit": 50, "chunkThreshold": 0}),
        )
        .await;
    assert!(s.is_success(), "{v}");
    crate::search::doc_ids(&v)
}

async fn add_all(app: &TestApp, texts: &[String]) -> Vec<String> {
    let mut ids = Vec::new();
    for t in texts {
        ids.push(
            app.add(json!({"content": t, "containerTag": "notes"}))
                .await,
        );
    }
    for id in &ids {
        app.wait_done(id).await;
    }
    ids
}

fn texts() -> Vec<String> {
    (0..12)
        .map(|i| format!("Field note {i}: the heron{i} nests by the quarry and the orchard."))
        .collect()
}

#[tokio::test]
async fn a_restart_loads_the_snapshot_and_catches_up_from_the_log() {
    let snaps = tempfile::tempdir().unwrap();
    let app = spawn_app_with(options(snaps.path())).await;
    let ids = add_all(&app, &texts()).await;
    assert_eq!(found(&app, "heron3 quarry").await[0], ids[3]);
    app.engine.save_indexes().await;
    let saved = app.engine.index_info(&app.org_id).unwrap();
    assert_eq!((saved.documents, saved.from_snapshot), (12, false));

    // changes after the snapshot: one added, one deleted, one rewritten
    let late = add_all(&app, &["A late note: the kingfisher dives.".to_string()]).await;
    let (s, _) = app.delete(&format!("/v3/documents/{}", ids[4]), None).await;
    assert!(s.is_success());
    let (s, v) = app
        .patch(
            &format!("/v3/documents/{}", ids[5]),
            json!({"content": "Rewritten: the osprey circles the reservoir."}),
        )
        .await;
    assert!(s.is_success(), "{v}");
    app.wait_done(&ids[5]).await;

    // "restart": a new engine on the same database and snapshot directory
    let restarted = replica_of(&app, options(snaps.path())).await;
    assert_eq!(found(&restarted, "heron3 quarry").await[0], ids[3]);
    let info = restarted.engine.index_info(&app.org_id).unwrap();
    assert!(info.from_snapshot, "{info:?}");
    assert!(info.seq > saved.seq, "caught up: {info:?} after {saved:?}");
    assert_eq!(info.documents, 12);
    assert_eq!(found(&restarted, "kingfisher dives").await[0], late[0]);
    assert!(!found(&restarted, "heron4").await.contains(&ids[4]));
    assert_eq!(found(&restarted, "osprey reservoir").await[0], ids[5]);
    assert!(!found(&restarted, "heron5").await.contains(&ids[5]));

    // and it answers exactly as an engine that built its index from the store
    let rebuilt = replica_of(&app, Options::default()).await;
    for q in ["heron7 orchard", "quarry", "kingfisher", "field note"] {
        let (a, b) = (
            restarted.post("/v3/search", json!({"q": q})).await.1,
            rebuilt.post("/v3/search", json!({"q": q})).await.1,
        );
        assert_eq!(strip_timing(a), strip_timing(b), "{q}");
    }
}

fn strip_timing(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("timing");
    v
}

#[tokio::test]
async fn a_damaged_snapshot_is_rebuilt_from_the_store() {
    let snaps = tempfile::tempdir().unwrap();
    let app = spawn_app_with(options(snaps.path())).await;
    let ids = add_all(&app, &texts()).await;
    found(&app, "heron").await;
    app.engine.save_indexes().await;
    let snap = std::fs::read_dir(snaps.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "snap"))
        .expect("a snapshot was saved");
    // one flipped byte in the middle, then a truncated file
    for damage in 0..2 {
        let mut bytes = std::fs::read(&snap).unwrap();
        if damage == 0 {
            let mid = bytes.len() / 2;
            bytes[mid] ^= 0x20;
        } else {
            bytes.truncate(bytes.len() * 2 / 3);
        }
        std::fs::write(&snap, bytes).unwrap();
        let restarted = replica_of(&app, options(snaps.path())).await;
        assert_eq!(found(&restarted, "heron9 quarry").await[0], ids[9]);
        let info = restarted.engine.index_info(&app.org_id).unwrap();
        assert!(!info.from_snapshot, "{info:?}");
        assert_eq!(info.documents, 12);
        // the rebuilt index is saved again, whole
        restarted.engine.save_indexes().await;
        assert!(snap.exists());
    }
}
