//! Organisations, API keys and the recorded embedding model.

use super::*;

pub async fn orgs_and_keys(s: &dyn Store) {
    let a = s.ensure_org("acme").await.unwrap();
    assert_eq!(s.ensure_org("acme").await.unwrap().id, a.id);
    let b = s.ensure_org("other").await.unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(s.list_orgs().await.unwrap().len(), 2);
    let k = ApiKeyRecord {
        id: "k1".into(),
        org_id: a.id.clone(),
        name: "default".into(),
        secret_hash: "ab".repeat(32),
        created_at: now(),
        revoked_at: None,
        container_tag: None,
        expires_at: None,
        rate_limit: None,
    };
    s.insert_api_key(&k).await.unwrap();
    assert_eq!(s.get_api_key("k1").await.unwrap().unwrap(), k);
    let scoped = ApiKeyRecord {
        id: "k2".into(),
        name: "scoped".into(),
        container_tag: Some("user_1".into()),
        expires_at: Some(now() + chrono::Duration::hours(1)),
        rate_limit: Some(30),
        ..k.clone()
    };
    s.insert_api_key(&scoped).await.unwrap();
    assert_eq!(s.get_api_key("k2").await.unwrap().unwrap(), scoped);
    assert!(s.get_api_key("nope").await.unwrap().is_none());
    assert_eq!(s.list_api_keys(Some(&a.id)).await.unwrap().len(), 2);
    assert_eq!(s.list_api_keys(Some(&b.id)).await.unwrap().len(), 0);
    assert!(s.rename_api_key("k1", "laptop").await.unwrap());
    assert!(!s.rename_api_key("nope", "x").await.unwrap());
    assert_eq!(s.get_api_key("k1").await.unwrap().unwrap().name, "laptop");
    assert_eq!(s.get_org(&a.id).await.unwrap().unwrap().name, "acme");
    assert!(s.get_org("nope").await.unwrap().is_none());
    assert!(s.revoke_api_key("k1").await.unwrap());
    assert!(!s.revoke_api_key("k1").await.unwrap());
    assert!(s
        .get_api_key("k1")
        .await
        .unwrap()
        .unwrap()
        .revoked_at
        .is_some());
}

pub async fn model_is_recorded_once(s: &dyn Store) {
    assert!(s.embedding_model().await.unwrap().is_none());
    let m = ModelInfo {
        name: "m1".into(),
        dimension: 384,
    };
    assert_eq!(s.record_embedding_model(&m).await.unwrap(), m);
    let other = ModelInfo {
        name: "m2".into(),
        dimension: 768,
    };
    assert_eq!(s.record_embedding_model(&other).await.unwrap(), m);
    assert_eq!(s.embedding_model().await.unwrap(), Some(m));
}
