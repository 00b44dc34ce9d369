//! The real embedding model end to end through the API.

use crate::support::*;
use engram_embed::dot;
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn real_model_ingest_to_unit_vectors() {
    let embedder = real_embedder().await;
    let app = spawn_app_with(Options {
        embedder: embedder.clone(),
        ..Default::default()
    })
    .await;
    let texts = [
        "My dog loves long walks in the park every morning.",
        "Our puppy enjoys running around the park on daily walks.",
        "The central bank raised interest rates to fight inflation.",
    ];
    let mut ids = Vec::new();
    for t in texts {
        ids.push(app.add(json!({"content": t, "containerTag": "real"})).await);
    }
    let mut vecs = Vec::new();
    for id in &ids {
        app.wait_done(id).await;
        let chunks = app.store.list_chunks(&app.org_id, id).await.unwrap();
        assert_eq!(chunks.len(), 1);
        let v = chunks[0].embedding.clone();
        assert_eq!(v.len(), 384);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
        vecs.push(v);
    }
    let similar = dot(&vecs[0], &vecs[1]);
    let unrelated = dot(&vecs[0], &vecs[2]);
    assert!(
        similar > unrelated + 0.2,
        "similar {similar} vs unrelated {unrelated}"
    );
    // a query embedding lands nearest its topic
    let q = embedder
        .embed(vec!["walking my dog".into()])
        .await
        .unwrap()
        .remove(0);
    assert!(dot(&q, &vecs[0]) > dot(&q, &vecs[2]));
    // the store remembers the model; another model is refused on this data
    let other = Arc::new(HashEmbedder::new());
    let err = engram_engine::Engine::new(app.store.clone(), other, Default::default())
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("all-MiniLM-L6-v2"), "{err}");
}
