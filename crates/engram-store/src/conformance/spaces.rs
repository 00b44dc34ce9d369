//! Spaces: tags appear with use or with settings, count what they hold,
//! take settings, and delete with everything in them.

use super::memories::fact;
use super::*;

pub async fn spaces_settings_counts_and_deletion(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    assert!(s.list_spaces(&org).await.unwrap().is_empty());
    assert!(s.get_space(&org, "ana").await.unwrap().is_none());
    // used by documents and memories
    let mut d = new_doc(&org, "one");
    d.container_tags = vec!["ana".into(), "shared".into()];
    let d1 = add(s, d).await;
    let mut d = new_doc(&org, "two");
    d.container_tags = vec!["ana".into()];
    let d2 = add(s, d).await;
    s.insert_memories(vec![
        fact(&org, "ana", "Ana lives in Porto", &[&d1.id]),
        fact(&org, "ana", "Ana likes figs", &[]),
        fact(&org, "ben", "Ben rows", &[]),
    ])
    .await
    .unwrap();
    let mut d = new_doc(&other, "theirs");
    d.container_tags = vec!["ana".into()];
    add(s, d).await;
    // set up without use
    let made = s
        .upsert_space(
            &org,
            "empty",
            SpacePatch {
                name: Some("Empty".into()),
                entity_context: Some(Some("nothing yet".into())),
                profile_buckets: Some(vec![BucketDef {
                    key: "pets".into(),
                    description: "animals".into(),
                }]),
                user_name: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(made.name.as_deref(), Some("Empty"));
    let list = s.list_spaces(&org).await.unwrap();
    let seen: Vec<(&str, u64, u64)> = list
        .iter()
        .map(|x| (x.space.tag.as_str(), x.document_count, x.memory_count))
        .collect();
    assert_eq!(
        seen,
        [
            ("ana", 2, 2),
            ("ben", 0, 1),
            ("empty", 0, 0),
            ("shared", 1, 0)
        ]
    );
    assert!(list[0].last_activity_at.is_some());
    assert!(list[2].last_activity_at.is_none());
    assert_eq!(list[2].space.profile_buckets[0].key, "pets");
    assert_eq!(
        s.list_spaces(&other).await.unwrap().len(),
        1,
        "per organisation"
    );

    // a patch changes only what it names; Some(None) clears
    let changed = s
        .upsert_space(
            &org,
            "empty",
            SpacePatch {
                entity_context: Some(None),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.name.as_deref(), Some("Empty"));
    assert_eq!(changed.entity_context, None);
    assert_eq!(changed.profile_buckets.len(), 1);
    assert_eq!(changed.created_at, made.created_at);
    let ana = s
        .upsert_space(
            &org,
            "ana",
            SpacePatch {
                name: Some("Ana".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(ana.name.as_deref(), Some("Ana"));
    assert_eq!(ana.user_name, None);
    // the person's name, once learned, stays through other patches
    let named = s
        .upsert_space(
            &org,
            "ana",
            SpacePatch {
                user_name: Some("Ana Lima".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (named.name.as_deref(), named.user_name.as_deref()),
        (Some("Ana"), Some("Ana Lima"))
    );
    s.upsert_space(
        &org,
        "ana",
        SpacePatch {
            entity_context: Some(Some("a baker".into())),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let got = s.get_space(&org, "ana").await.unwrap().unwrap();
    assert_eq!(got.space.user_name.as_deref(), Some("Ana Lima"));
    assert_eq!(
        (got.space.name.as_deref(), got.document_count),
        (Some("Ana"), 2)
    );

    // deletion takes its documents and memories, and nothing of others'
    let gone = s.delete_space(&org, "ana").await.unwrap();
    assert_eq!(
        gone,
        SpaceDeleted {
            documents: 2,
            memories: 2
        }
    );
    assert!(s.get_document(&org, &d2.id).await.unwrap().is_none());
    assert!(s.get_space(&org, "ana").await.unwrap().is_none());
    assert!(
        s.get_space(&org, "shared").await.unwrap().is_none(),
        "its only document went"
    );
    let left: Vec<String> = s
        .list_spaces(&org)
        .await
        .unwrap()
        .into_iter()
        .map(|x| x.space.tag)
        .collect();
    assert_eq!(left, ["ben", "empty"]);
    assert_eq!(s.list_spaces(&other).await.unwrap()[0].document_count, 1);
}

pub async fn tag_merges_move_documents_and_memories(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let tagged = |content: &str, tags: &[&str]| {
        let mut d = new_doc(&org, content);
        d.container_tags = tags.iter().map(|t| t.to_string()).collect();
        d
    };
    let d1 = add(s, tagged("one", &["a"])).await;
    let d2 = add(s, tagged("two", &["a", "b"])).await;
    add(s, tagged("three", &["c"])).await;
    s.insert_memories(vec![
        fact(&org, "a", "from a", &[]),
        fact(&org, "a", "also from a", &[]),
        fact(&org, "b", "from b", &[]),
    ])
    .await
    .unwrap();
    s.upsert_space(
        &org,
        "a",
        SpacePatch {
            name: Some("A".into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let m = s
        .enqueue_merge(&org, &["a".into(), "b".into()], "b")
        .await
        .unwrap();
    assert_eq!(m.status, MergeStatus::Queued);
    assert_eq!(s.queued_merges().await.unwrap(), vec![m.id.clone()]);
    assert!(s.get_merge("elsewhere", &m.id).await.unwrap().is_none());
    let done = s.run_merge(&m.id).await.unwrap().expect("ran");
    assert_eq!(done.status, MergeStatus::Done);
    assert_eq!((done.moved_documents, done.moved_memories), (2, 2));
    assert!(s.run_merge(&m.id).await.unwrap().is_none(), "runs once");
    assert!(s.queued_merges().await.unwrap().is_empty());
    assert_eq!(
        s.get_merge(&org, &m.id).await.unwrap().unwrap().status,
        MergeStatus::Done
    );
    for d in [&d1, &d2] {
        let got = s.get_document(&org, &d.id).await.unwrap().unwrap();
        assert_eq!(got.container_tags, ["b"]);
    }
    assert!(s.get_space(&org, "a").await.unwrap().is_none());
    let b = s.get_space(&org, "b").await.unwrap().unwrap();
    assert_eq!((b.document_count, b.memory_count), (2, 3));
    assert_eq!(
        s.get_space(&org, "c")
            .await
            .unwrap()
            .unwrap()
            .document_count,
        1
    );
}

pub async fn settings_and_reset(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    assert!(s.get_settings(&org).await.unwrap().is_empty());
    let mut set = engram_core::Metadata::new();
    set.insert("chunkSize".into(), json!(300));
    s.put_settings(&org, &set).await.unwrap();
    set.insert("workspacePrompt".into(), json!("be brief"));
    s.put_settings(&org, &set).await.unwrap();
    assert_eq!(s.get_settings(&org).await.unwrap(), set);
    assert!(s.get_settings(&other).await.unwrap().is_empty());
    let mut d = new_doc(&org, "mine");
    d.container_tags = vec!["t".into()];
    let mine = add(s, d).await;
    let theirs = add(s, new_doc(&other, "theirs")).await;
    s.insert_memories(vec![fact(&org, "t", "a fact", &[&mine.id])])
        .await
        .unwrap();
    s.upsert_space(&org, "t", SpacePatch::default())
        .await
        .unwrap();
    let r = s.reset_org(&org).await.unwrap();
    assert_eq!(
        r,
        OrgReset {
            documents: 1,
            memories: 1,
            spaces: 1,
            settings: true
        }
    );
    assert!(s.get_settings(&org).await.unwrap().is_empty());
    assert!(s.list_spaces(&org).await.unwrap().is_empty());
    assert_eq!(s.pending_jobs().await.unwrap(), 1, "only the other's job");
    assert!(s.get_document(&other, &theirs.id).await.unwrap().is_some());
    assert!(
        s.get_org(&org).await.unwrap().is_some(),
        "the organisation stays"
    );
}
