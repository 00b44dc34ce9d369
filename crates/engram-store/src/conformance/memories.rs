//! Memories: first versions, version chains, forgetting and expiry,
//! listing, the change log, and deletion with their source documents.

use super::*;

pub(super) fn fact(org: &str, tag: &str, content: &str, sources: &[&str]) -> NewMemory {
    NewMemory {
        org_id: org.into(),
        container_tag: tag.into(),
        content: content.into(),
        embedding: vec![0.6, 0.8, 0.0],
        is_static: false,
        is_inference: false,
        forget_after: None,
        forget_reason: None,
        document_ids: sources.iter().map(|s| s.to_string()).collect(),
        metadata: Default::default(),
        document_date: None,
        event_dates: vec![],
        entities: vec![],
        source: None,
    }
}

fn ids(ms: &[Memory]) -> Vec<&str> {
    ms.iter().map(|m| m.id.as_str()).collect()
}

pub async fn memories_versions_forgetting_and_sources(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    let d1 = add(s, new_doc(&org, "one")).await.id;
    let d2 = add(s, new_doc(&org, "two")).await.id;

    let mut paris = fact(&org, "u", "Ana lives in Paris", &[&d1]);
    paris.is_static = true;
    paris.metadata = json!({"k": "v"}).as_object().unwrap().clone();
    paris.event_dates = vec!["2024".into()];
    paris.document_date = Some("2024-03-10".into());
    paris.entities = vec![MemoryEntity {
        name: "Paris".into(),
        kind: "place".into(),
    }];
    paris.source = Some(MemorySource {
        text: "Ana: I live in Paris now.".into(),
    });
    let made = s
        .insert_memories(vec![
            paris,
            fact(&org, "u", "Ana likes tea", &[&d1, &d2]),
            fact(&org, "v", "A fact of another space", &[&d2]),
            // a source of another organisation is not recorded
            fact(&other, "u", "Their fact", &[&d1]),
        ])
        .await
        .unwrap();
    let (m1, m2, m3, mo) = (&made[0], &made[1], &made[2], &made[3]);
    assert_eq!(
        (m1.version, m1.is_latest, m1.is_forgotten),
        (1, true, false)
    );
    assert_eq!(
        (m1.parent_id.as_deref(), m1.root_id.as_deref()),
        (None, None)
    );
    assert!(m1.is_static && !m2.is_static);
    assert_eq!(m1.metadata.get("k"), Some(&json!("v")));
    assert_eq!(m1.event_dates, ["2024"]);
    assert_eq!(m1.document_date.as_deref(), Some("2024-03-10"));
    assert_eq!(m1.entities[0].name, "Paris");
    assert_eq!(m1.embedding, vec![0.6, 0.8, 0.0]);
    assert_eq!(
        m1.source.as_ref().map(|x| x.text.as_str()),
        Some("Ana: I live in Paris now.")
    );
    assert_eq!(m2.source, None);
    let mut both = vec![d1.clone(), d2.clone()];
    both.sort();
    assert_eq!(m2.document_ids, both);
    assert_eq!(m2.source_count, 1);
    assert!(mo.document_ids.is_empty());

    // formed from a document deleted meanwhile: not inserted, so it
    // cannot outlive it (nor bring back a deleted space)
    let q = s.ensure_org("q").await.unwrap().id;
    let gone = add(s, new_doc(&q, "gone")).await.id;
    let kept = add(s, new_doc(&q, "kept")).await.id;
    assert!(s.delete_document(&q, &gone).await.unwrap());
    let late = s
        .insert_memories(vec![
            fact(&q, "w", "A fact of a deleted document", &[&gone]),
            fact(&q, "w", "A fact of a kept one too", &[&gone, &kept]),
        ])
        .await
        .unwrap();
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].content, "A fact of a kept one too");
    assert_eq!(late[0].document_ids, vec![kept.clone()]);
    assert!(s
        .find_memory(&q, "w", "A fact of a deleted document")
        .await
        .unwrap()
        .is_none());

    // reads are per organisation
    assert_eq!(s.get_memory(&org, &m1.id).await.unwrap().as_ref(), Some(m1));
    assert!(s.get_memory(&other, &m1.id).await.unwrap().is_none());
    let found = s.find_memory(&org, "u", "Ana likes tea").await.unwrap();
    assert_eq!(found.map(|m| m.id), Some(m2.id.clone()));
    assert!(s
        .find_memory(&org, "v", "Ana likes tea")
        .await
        .unwrap()
        .is_none());
    assert!(s
        .find_memory(&other, "u", "Ana likes tea")
        .await
        .unwrap()
        .is_none());

    // versions: a chain from the first, each `updates` its parent
    let update = |content: &str| MemoryUpdate {
        content: content.into(),
        embedding: vec![0.0, 1.0, 0.0],
        metadata: None,
        forget_after: None,
        forget_reason: None,
        is_static: None,
        ..Default::default()
    };
    let v2 = s
        .update_memory(&org, &m1.id, update("Ana moved to Berlin"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((v2.version, v2.is_latest), (2, true));
    assert_eq!(v2.parent_id.as_deref(), Some(m1.id.as_str()));
    assert_eq!(v2.root_id.as_deref(), Some(m1.id.as_str()));
    assert_eq!(v2.relations, vec![(m1.id.clone(), RelationKind::Updates)]);
    assert_eq!(v2.document_ids, vec![d1.clone()]);
    assert!(v2.is_static, "inherited");
    assert_eq!(v2.metadata.get("k"), Some(&json!("v")));
    assert_eq!(v2.source, m1.source, "inherited");
    let old = s.get_memory(&org, &m1.id).await.unwrap().unwrap();
    assert!(!old.is_latest);
    assert!(matches!(
        s.update_memory(&org, &m1.id, update("stale")).await,
        Err(StoreError::Conflict(_))
    ));
    let v3 = s
        .update_memory(
            &org,
            &v2.id,
            MemoryUpdate {
                source: Some(Some(MemorySource {
                    text: "Ana: Rome it is!".into(),
                })),
                ..update("Ana moved to Rome")
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v3.version, 3);
    assert_eq!(
        v3.source.map(|x| x.text).as_deref(),
        Some("Ana: Rome it is!")
    );
    assert_eq!(v3.root_id.as_deref(), Some(m1.id.as_str()));
    assert!(s
        .update_memory(&org, "nope", update("x"))
        .await
        .unwrap()
        .is_none());
    assert!(s
        .update_memory(&other, &v3.id, update("x"))
        .await
        .unwrap()
        .is_none());

    // listing: latest versions newest first, or the whole history
    let page = |tags: &[&str], history: bool, forgotten: bool| MemoryListQuery {
        container_tags: tags.iter().map(|t| t.to_string()).collect(),
        include_history: history,
        include_forgotten: forgotten,
        limit: 100,
        offset: 0,
        ..Default::default()
    };
    let (latest, total) = s
        .list_memories(&org, &page(&["u"], false, false))
        .await
        .unwrap();
    assert_eq!(
        (ids(&latest), total),
        (vec![v3.id.as_str(), m2.id.as_str()], 2)
    );
    let (all, total) = s
        .list_memories(&org, &page(&["u"], true, false))
        .await
        .unwrap();
    assert_eq!(total, 4);
    assert_eq!(all.len(), 4);
    let (everything, _) = s
        .list_memories(&org, &page(&[], false, false))
        .await
        .unwrap();
    assert_eq!(everything.len(), 3);
    let mut one = page(&["u"], true, false);
    one.limit = 1;
    one.offset = 1;
    let (second, total) = s.list_memories(&org, &one).await.unwrap();
    assert_eq!((second.len(), total), (1, 4));

    // order, and the memories of one document
    let mut oldest = page(&["u"], false, false);
    oldest.ascending = true;
    let (asc, _) = s.list_memories(&org, &oldest).await.unwrap();
    assert_eq!(ids(&asc), vec![m2.id.as_str(), v3.id.as_str()]);
    let mut of_d2 = page(&[], true, false);
    of_d2.document_id = Some(d2.clone());
    let (from_d2, n) = s.list_memories(&org, &of_d2).await.unwrap();
    let mut got = ids(&from_d2);
    got.sort();
    let mut want = vec![m2.id.as_str(), m3.id.as_str()];
    want.sort();
    assert_eq!((got, n), (want, 2));

    let mut exact = page(&["u"], true, false);
    exact.content = Some("Ana likes tea".into());
    let (same_text, n) = s.list_memories(&org, &exact).await.unwrap();
    assert_eq!((ids(&same_text), n), (vec![m2.id.as_str()], 1));

    // stated again: one more source, once per document
    let again = s
        .add_memory_source(&org, &m1.id, Some(&d2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.source_count, 2);
    assert_eq!(again.document_ids.len(), 2);
    let same = s
        .add_memory_source(&org, &m1.id, Some(&d2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(same.source_count, 2, "reprocessing a document adds nothing");
    let direct = s
        .add_memory_source(&org, &m1.id, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(direct.source_count, 3);
    assert!(s
        .add_memory_source(&other, &m1.id, None)
        .await
        .unwrap()
        .is_none());

    // relations between existing memories, within one organisation
    assert!(s
        .relate_memories(&org, &m3.id, &m2.id, RelationKind::Extends)
        .await
        .unwrap());
    assert!(!s
        .relate_memories(&org, &m3.id, &mo.id, RelationKind::Extends)
        .await
        .unwrap());
    let m3r = s.get_memory(&org, &m3.id).await.unwrap().unwrap();
    assert_eq!(m3r.relations, vec![(m2.id.clone(), RelationKind::Extends)]);
    let pointing = |v: Vec<Memory>| v.into_iter().map(|m| m.id).collect::<Vec<_>>();
    assert_eq!(
        pointing(s.memories_relating_to(&org, &m2.id).await.unwrap()),
        vec![m3.id.clone()]
    );
    assert_eq!(
        pointing(s.memories_relating_to(&org, &m1.id).await.unwrap()),
        vec![v2.id.clone()],
        "the next version updates it"
    );
    assert!(s
        .memories_relating_to(&other, &m2.id)
        .await
        .unwrap()
        .is_empty());

    // forgetting keeps the memory for history; expiry hides it too
    let head = memory_head(s, &org).await;
    match s
        .forget_memory(&org, &m2.id, Some("outdated"))
        .await
        .unwrap()
    {
        ForgetOutcome::Forgotten(m) => {
            assert!(m.is_forgotten);
            assert_eq!(m.forget_reason.as_deref(), Some("outdated"));
        }
        other => panic!("{other:?}"),
    }
    let logged: Vec<String> = s
        .memory_changes(&org, head, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.document_id)
        .collect();
    assert_eq!(logged, vec![m2.id.clone()]);
    assert_eq!(
        s.forget_memory(&org, &m2.id, None).await.unwrap(),
        ForgetOutcome::AlreadyForgotten
    );
    assert_eq!(
        s.forget_memory(&other, &m2.id, None).await.unwrap(),
        ForgetOutcome::NotFound
    );
    let mut expired = fact(&org, "u", "A passing fact", &[&d1]);
    expired.forget_after = Some(now() - chrono::Duration::seconds(5));
    let expired = s.insert_memories(vec![expired]).await.unwrap().remove(0);
    assert!(expired.is_gone(now()));
    let (shown, _) = s
        .list_memories(&org, &page(&["u"], false, false))
        .await
        .unwrap();
    assert_eq!(ids(&shown), vec![v3.id.as_str()]);
    let (shown, _) = s
        .list_memories(&org, &page(&["u"], false, true))
        .await
        .unwrap();
    assert_eq!(shown.len(), 3);
    // the sweep forgets what expired, with a reason, and logs it
    let head = memory_head(s, &org).await;
    assert!(s.expire_memories(now()).await.unwrap() >= 1);
    let swept = s.get_memory(&org, &expired.id).await.unwrap().unwrap();
    assert!(swept.is_forgotten);
    assert_eq!(swept.forget_reason.as_deref(), Some("expired"));
    assert!(s
        .memory_changes(&org, head, 10)
        .await
        .unwrap()
        .iter()
        .any(|c| c.document_id == expired.id));
    assert_eq!(s.expire_memories(now()).await.unwrap(), 0);

    // a memory goes with the last document it came from
    assert!(s.delete_document(&org, &d2).await.unwrap());
    assert!(s.get_memory(&org, &m3.id).await.unwrap().is_none());
    let kept = s.get_memory(&org, &m2.id).await.unwrap().unwrap();
    assert_eq!(kept.document_ids, vec![d1.clone()]);
    let head = memory_head(s, &org).await;
    assert!(s.delete_document(&org, &d1).await.unwrap());
    for id in [&m1.id, &v2.id, &v3.id, &m2.id, &expired.id] {
        assert!(s.get_memory(&org, id).await.unwrap().is_none(), "{id}");
    }
    let gone = s.memory_changes(&org, head, 100).await.unwrap();
    assert_eq!(gone.len(), 5, "deletions reach the change log");
    assert!(s.get_memory(&other, &mo.id).await.unwrap().is_some());
    assert_eq!(
        s.memories_by_ids(&other, &[mo.id.clone(), m1.id.clone()])
            .await
            .unwrap()
            .len(),
        1
    );
}

async fn memory_head(s: &dyn Store, org: &str) -> i64 {
    s.memory_changes(org, 0, 100_000)
        .await
        .unwrap()
        .last()
        .map_or(0, |c| c.seq)
}
