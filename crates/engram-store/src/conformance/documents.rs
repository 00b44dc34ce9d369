//! Document writes, reads, tenancy, listing and deletion.

use super::*;

pub async fn upsert_enqueues_and_custom_id_replaces(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "first");
    d.custom_id = Some("c1".into());
    d.container_tags = vec!["t1".into()];
    d.metadata = json!({"k": "v", "n": 2}).as_object().unwrap().clone();
    let out = s.upsert_documents(vec![d.clone()]).await.unwrap().remove(0);
    assert!(out.created);
    assert_eq!(out.document.status, DocumentStatus::Queued);
    assert_eq!(out.document.revision, 1);
    assert_eq!(out.document.container_tags, vec!["t1"]);
    assert_eq!(out.document.metadata.get("n"), Some(&json!(2)));
    assert_eq!(s.pending_jobs().await.unwrap(), 1);

    d.content = "second".into();
    let again = s.upsert_documents(vec![d]).await.unwrap().remove(0);
    assert!(!again.created);
    assert_eq!(again.document.id, out.document.id);
    assert_eq!(again.document.revision, 2);
    assert_eq!(again.document.content, "second");
    assert_eq!(s.pending_jobs().await.unwrap(), 1, "one job per document");
    let by_custom = s.get_document(&org, "c1").await.unwrap().unwrap();
    assert_eq!(by_custom.id, out.document.id);
    let jobs = s.claim_jobs("w", 10, LEASE).await.unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].revision, 2);

    // one group: a new custom id written twice, between new documents,
    // applies in order; the answers come back in input order
    let mut a = new_doc(&org, "a");
    a.custom_id = Some("c2".into());
    let mut b = a.clone();
    b.content = "b".into();
    let group = vec![new_doc(&org, "x"), a, new_doc(&org, "y"), b];
    let out = s.upsert_documents(group).await.unwrap();
    let got: Vec<(&str, bool, i64)> = out
        .iter()
        .map(|o| (o.document.content.as_str(), o.created, o.document.revision))
        .collect();
    assert_eq!(
        got,
        [
            ("x", true, 1),
            ("a", true, 1),
            ("y", true, 1),
            ("b", false, 2)
        ]
    );
    assert_eq!(out[1].document.id, out[3].document.id);
    let c2 = s.get_document(&org, "c2").await.unwrap().unwrap();
    assert_eq!((c2.content.as_str(), c2.revision), ("b", 2));
}

/// A document's tags come back in the order they were given: the first is
/// the space its memories form in.
pub async fn tags_keep_their_order(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "x");
    d.container_tags = vec!["zeta".into(), "alpha".into(), "mid".into()];
    let out = s.upsert_documents(vec![d]).await.unwrap().remove(0);
    assert_eq!(out.document.container_tags, ["zeta", "alpha", "mid"]);
    let got = s
        .get_document(&org, &out.document.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got.container_tags, ["zeta", "alpha", "mid"]);
}

/// What an insert answers is exactly what reading the document returns
/// (the backends build it without reading the row back).
pub async fn insert_answers_what_a_read_returns(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "https://example.com/a.pdf");
    d.custom_id = Some("file-1".into());
    d.container_tags = vec!["b".into(), "a".into(), "b".into()];
    d.metadata = json!({"k": "v", "n": 2.5, "flag": true, "list": [1, "x"]})
        .as_object()
        .unwrap()
        .clone();
    d.url = Some("https://example.com/a.pdf".into());
    d.source = Some("api".into());
    d.filepath = Some("/docs/a.pdf".into());
    d.entity_context = Some("Ada's notes".into());
    d.task_type = TaskType::Superrag;
    d.dreaming = Dreaming::Dynamic;
    d.file = Some(StoredFile {
        filename: Some("a.pdf".into()),
        mime_type: Some("application/pdf".into()),
        bytes: vec![0, 1, 2, 255],
    });
    let plain = new_doc(&org, "plain");
    // the same without a custom id: written with other new documents
    let mut fresh = d.clone();
    fresh.custom_id = None;
    let out = s.upsert_documents(vec![d, plain, fresh]).await.unwrap();
    assert_eq!(out.len(), 3);
    for o in out {
        assert!(o.created);
        let got = s.get_document(&org, &o.document.id).await.unwrap().unwrap();
        assert_eq!(o.document, got);
    }
}

/// A batch reads its short documents together; the large ones (content
/// and file together over the bound) are left for reading alone.
pub async fn small_documents_leave_large_ones_out(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let other = s.ensure_org("p").await.unwrap().id;
    let mut filed = new_doc(&org, "f");
    filed.file = Some(StoredFile {
        filename: Some("a.bin".into()),
        mime_type: None,
        bytes: vec![7; 70],
    });
    let docs = vec![
        new_doc(&org, "short"),
        new_doc(&org, &"é".repeat(40)), // 80 bytes, 40 characters
        filed,
        new_doc(&org, &"x".repeat(64)),
    ];
    let out = s.upsert_documents(docs).await.unwrap();
    let mut ids: Vec<String> = out.iter().map(|o| o.document.id.clone()).collect();
    ids.push("nope".into());
    let mut got = s.small_documents_by_ids(&org, &ids, 64).await.unwrap();
    got.sort_by_key(|d| d.content.len());
    let contents: Vec<&str> = got.iter().map(|d| d.content.as_str()).collect();
    assert_eq!(contents, ["short", "x".repeat(64).as_str()]);
    assert_eq!(got[0], out[0].document, "read whole, as a read by id");
    let all = s.small_documents_by_ids(&org, &ids, 100).await.unwrap();
    assert_eq!(all.len(), 4);
    let f = all.iter().find(|d| d.file.is_some()).unwrap();
    assert_eq!(f.file.as_ref().unwrap().bytes, vec![7; 70]);
    assert!(s
        .small_documents_by_ids(&other, &ids, 100)
        .await
        .unwrap()
        .is_empty());
}

pub async fn tenants_are_isolated(s: &dyn Store) {
    let a = s.ensure_org("a").await.unwrap().id;
    let b = s.ensure_org("b").await.unwrap().id;
    let mut d = new_doc(&a, "secret");
    d.custom_id = Some("shared".into());
    let doc = add(s, d).await;
    assert!(s.get_document(&b, &doc.id).await.unwrap().is_none());
    assert!(s.get_document(&b, "shared").await.unwrap().is_none());
    let patch = DocumentPatch {
        content: Some("x".into()),
        ..Default::default()
    };
    assert!(s
        .update_document(&b, &doc.id, patch)
        .await
        .unwrap()
        .is_none());
    assert!(!s.delete_document(&b, &doc.id).await.unwrap());
    let q = ListQuery {
        container_tags: vec![],
        filepath: None,
        filter: None,
        sort: SortField::CreatedAt,
        order: SortOrder::Desc,
        limit: 10,
        offset: 0,
    };
    assert_eq!(s.list_documents(&b, &q).await.unwrap().1, 0);
    assert!(s.list_processing(&b).await.unwrap().is_empty());
    // the same custom id in another org is another document
    let mut d2 = new_doc(&b, "mine");
    d2.custom_id = Some("shared".into());
    let other = add(s, d2).await;
    assert_ne!(other.id, doc.id);
    assert_eq!(
        s.get_document(&a, "shared").await.unwrap().unwrap().content,
        "secret"
    );
}

pub async fn delete_cascades(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "x");
    d.container_tags = vec!["t1".into()];
    d.filepath = Some("/docs/a.md".into());
    let a = add(s, d.clone()).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(2)).await.unwrap());
    assert!(s.delete_document(&org, &a.id).await.unwrap());
    assert!(s.get_document(&org, &a.id).await.unwrap().is_none());
    assert!(s.list_chunks(&org, &a.id).await.unwrap().is_empty());
    assert!(!s.delete_document(&org, &a.id).await.unwrap());
    // by tag and by path; pending jobs go with their documents
    add(s, d.clone()).await;
    d.container_tags = vec!["t2".into()];
    add(s, d.clone()).await;
    assert_eq!(
        s.delete_documents_by_tags(&org, &["t1".into()])
            .await
            .unwrap(),
        1
    );
    d.filepath = Some("/docs/sub/b.md".into());
    add(s, d.clone()).await;
    d.filepath = Some("/other/c.md".into());
    add(s, d).await;
    assert_eq!(
        s.delete_documents_by_filepath(&org, "/docs/")
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        s.delete_documents_by_filepath(&org, "/other/c.md")
            .await
            .unwrap(),
        1
    );
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn list_pages_sorts_and_scopes(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut ids = Vec::new();
    for i in 0..5 {
        let mut d = new_doc(&org, &format!("doc {i}"));
        d.container_tags = vec![if i % 2 == 0 { "even" } else { "odd" }.into()];
        d.filepath = Some(format!("/p/{i}.txt"));
        ids.push(add(s, d).await.id);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let mut q = ListQuery {
        container_tags: vec![],
        filepath: None,
        filter: None,
        sort: SortField::CreatedAt,
        order: SortOrder::Desc,
        limit: 2,
        offset: 0,
    };
    let (page, total) = s.list_documents(&org, &q).await.unwrap();
    assert_eq!(total, 5);
    assert_eq!(
        page.iter().map(|d| d.id.clone()).collect::<Vec<_>>(),
        vec![ids[4].clone(), ids[3].clone()]
    );
    q.offset = 4;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[0]);
    q.offset = 0;
    q.order = SortOrder::Asc;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[0]);
    q.container_tags = vec!["even".into()];
    q.limit = 10;
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 3);
    q.container_tags = vec![];
    q.filepath = Some("/p/3.txt".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().0[0].id, ids[3]);
    q.filepath = Some("/p/".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 5);
    q.filepath = Some("/p_".into());
    assert_eq!(s.list_documents(&org, &q).await.unwrap().1, 0);
}

pub async fn patch_in_place_and_reprocess(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(1)).await.unwrap());
    let meta = json!({"a": true}).as_object().unwrap().clone();
    let patch = DocumentPatch {
        metadata: Some(meta.clone()),
        container_tags: Some(vec!["n".into()]),
        ..Default::default()
    };
    let d = s
        .update_document(&org, &doc.id, patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.status, DocumentStatus::Done, "metadata changes in place");
    assert_eq!(d.metadata, meta);
    assert_eq!(d.container_tags, vec!["n"]);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
    let patch = DocumentPatch {
        content: Some("new".into()),
        ..Default::default()
    };
    let d = s
        .update_document(&org, &doc.id, patch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.status, DocumentStatus::Queued);
    assert_eq!(d.revision, 2);
    assert_eq!(s.pending_jobs().await.unwrap(), 1);
    // a custom id taken by another document is a conflict
    let mut other = new_doc(&org, "y");
    other.custom_id = Some("taken".into());
    add(s, other).await;
    let patch = DocumentPatch {
        custom_id: Some("taken".into()),
        ..Default::default()
    };
    assert!(matches!(
        s.update_document(&org, &doc.id, patch).await,
        Err(StoreError::Conflict(_))
    ));
}
