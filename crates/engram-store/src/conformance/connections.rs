//! Connections: settings and sealed secrets round-trip, lists filter by
//! provider and tag, the OAuth state finds its connection, sync leases are
//! exclusive and lapse, and deleting a connection takes its documents
//! (or leaves them unlinked).

use super::*;

fn conn(org: &str, provider: &str, tags: &[&str]) -> NewConnection {
    NewConnection {
        org_id: org.into(),
        provider: provider.into(),
        container_tags: tags.iter().map(|t| t.to_string()).collect(),
        document_limit: 10,
        metadata: json!({"startUrl": "https://example.com", "team": "a"})
            .as_object()
            .unwrap()
            .clone(),
        secrets: Some(vec![1, 2, 3, 0, 255]),
        status: ConnectionStatus::Active,
        expires_at: None,
        redirect_url: Some("https://app.example/done".into()),
        oauth_state: None,
        next_sync_at: Some(now()),
    }
}

pub async fn connections_leases_and_documents(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    let web = s
        .insert_connection(conn(&org, "web-crawler", &["ana", "docs"]))
        .await
        .unwrap();
    assert_eq!(web.secrets.as_deref(), Some(&[1, 2, 3, 0, 255][..]));
    assert_eq!(web.container_tags, ["ana", "docs"]);
    assert_eq!(web.metadata["team"], "a");
    assert_eq!(web.status, ConnectionStatus::Active);
    assert!(web.config.is_null() && web.cursor.is_null() && web.last_sync.is_null());
    let mut pending = conn(&org, "github", &["ben"]);
    pending.status = ConnectionStatus::Pending;
    pending.oauth_state = Some("st-123".into());
    let gh = s.insert_connection(pending).await.unwrap();
    let theirs = s
        .insert_connection(conn(&other, "web-crawler", &["ana"]))
        .await
        .unwrap();

    // reads are per organisation
    assert!(s.get_connection(&org, &theirs.id).await.unwrap().is_none());
    assert_eq!(s.get_connection(&org, &web.id).await.unwrap().unwrap(), web);
    let all = s
        .list_connections(&org, &ConnectionQuery::default())
        .await
        .unwrap();
    assert_eq!(all.len(), 2);
    let q = ConnectionQuery {
        provider: Some("web-crawler".into()),
        container_tags: vec!["docs".into()],
    };
    assert_eq!(
        s.list_connections(&org, &q).await.unwrap(),
        vec![web.clone()]
    );
    let q = ConnectionQuery {
        provider: None,
        container_tags: vec!["nobody".into()],
    };
    assert!(s.list_connections(&org, &q).await.unwrap().is_empty());
    assert_eq!(
        s.connection_by_state("st-123").await.unwrap().unwrap().id,
        gh.id
    );
    assert!(s.connection_by_state("st-999").await.unwrap().is_none());
    let by_id = s.connection_by_id(&gh.id).await.unwrap().unwrap();
    assert_eq!(
        (by_id.id.as_str(), by_id.org_id.as_str()),
        (gh.id.as_str(), org.as_str())
    );
    assert!(s.connection_by_id("nope").await.unwrap().is_none());

    // patches
    let c = s
        .update_connection(
            &org,
            &gh.id,
            ConnectionPatch {
                status: Some(ConnectionStatus::Active),
                oauth_state: Some(None),
                email: Some(Some("ben@example.com".into())),
                cursor: Some(json!({"repos": {"a/b": "sha1"}})),
                next_sync_at: Some(None),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(c.email.as_deref(), Some("ben@example.com"));
    assert!(c.oauth_state.is_none() && c.next_sync_at.is_none());
    assert_eq!(s.get_connection(&org, &gh.id).await.unwrap().unwrap(), c);
    assert!(s
        .update_connection(&other, &gh.id, ConnectionPatch::default())
        .await
        .unwrap()
        .is_none());

    // leases: due and active only, exclusive, lapsing
    let lease = Duration::from_millis(300);
    let claimed = s
        .claim_connection_syncs("w1", now(), lease, 10)
        .await
        .unwrap();
    let mut ids: Vec<&str> = claimed.iter().map(|c| c.id.as_str()).collect();
    ids.sort();
    let mut want = vec![web.id.as_str(), theirs.id.as_str()];
    want.sort();
    assert_eq!(ids, want, "github has no sync due");
    assert!(claimed
        .iter()
        .all(|c| c.lease_owner.as_deref() == Some("w1")));
    assert!(s
        .claim_connection_syncs("w2", now(), lease, 10)
        .await
        .unwrap()
        .is_empty());
    assert!(s
        .renew_connection_lease(&web.id, "w1", lease)
        .await
        .unwrap());
    assert!(!s
        .renew_connection_lease(&web.id, "w2", lease)
        .await
        .unwrap());
    tokio::time::sleep(Duration::from_millis(400)).await;
    let again = s
        .claim_connection_syncs("w2", now(), lease, 10)
        .await
        .unwrap();
    assert_eq!(again.len(), 2, "lapsed leases are claimed again");
    let done = s
        .update_connection(
            &org,
            &web.id,
            ConnectionPatch {
                release_lease: true,
                next_sync_at: Some(Some(now() + chrono::Duration::hours(1))),
                last_sync: Some(json!({"status": "completed"})),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert!(done.lease_owner.is_none() && done.lease_expires_at.is_none());
    // a run's next due time yields to one asked for since it claimed
    let asked = now();
    s.update_connection(
        &other,
        &theirs.id,
        ConnectionPatch {
            next_sync_at: Some(Some(asked)),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    // what a finishing run writes: its next due time, if the one it read
    // is still there
    let reschedule = |to, if_still| {
        s.update_connection(
            &other,
            &theirs.id,
            ConnectionPatch {
                next_sync_at: Some(Some(to)),
                next_sync_if_still: Some(if_still),
                ..Default::default()
            },
        )
    };
    let kept = reschedule(asked + chrono::Duration::hours(1), None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        kept.next_sync_at.map(|t| t.timestamp_millis()),
        Some(asked.timestamp_millis()),
        "a sync asked for meanwhile keeps its due time"
    );
    let moved = reschedule(asked - chrono::Duration::hours(1), kept.next_sync_at)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        moved.next_sync_at.map(|t| t.timestamp_millis()),
        Some((asked - chrono::Duration::hours(1)).timestamp_millis()),
        "unchanged since: the run's due time applies"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let later = s
        .claim_connection_syncs("w3", now(), lease, 10)
        .await
        .unwrap();
    assert_eq!(later.len(), 1, "not due yet");
    assert_eq!(later[0].id, theirs.id);

    // documents of a connection, and deletion with and without them
    let mut d = new_doc(&org, "page one");
    d.custom_id = Some("page-1".into());
    d.connection_id = Some(web.id.clone());
    let p1 = add(s, d).await;
    assert_eq!(p1.connection_id.as_deref(), Some(web.id.as_str()));
    let mut d = new_doc(&org, "repo readme");
    d.connection_id = Some(gh.id.clone());
    let r1 = add(s, d).await;
    add(s, new_doc(&org, "by hand")).await;
    let docs = s.connection_documents(&org, &web.id).await.unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].id, p1.id);
    assert!(s
        .connection_documents(&other, &web.id)
        .await
        .unwrap()
        .is_empty());
    assert!(!s.delete_connection(&other, &web.id, true).await.unwrap());
    assert!(s.delete_connection(&org, &web.id, true).await.unwrap());
    assert!(s.get_document(&org, &p1.id).await.unwrap().is_none());
    assert!(s.get_connection(&org, &web.id).await.unwrap().is_none());
    assert!(s.delete_connection(&org, &gh.id, false).await.unwrap());
    let kept = s.get_document(&org, &r1.id).await.unwrap().unwrap();
    assert!(kept.connection_id.is_none(), "kept, unlinked");
    assert!(!s.delete_connection(&org, &gh.id, false).await.unwrap());
}
