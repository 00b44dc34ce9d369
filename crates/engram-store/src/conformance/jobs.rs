//! The job queue: leases, fencing, completion, retries, release.

use super::*;

pub async fn leases_fence_workers(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    add(s, new_doc(&org, "x")).await;
    let j1 = s
        .claim_jobs("w1", 5, Duration::from_millis(1))
        .await
        .unwrap();
    assert_eq!(j1.len(), 1);
    tokio::time::sleep(Duration::from_millis(20)).await;
    // the lease expired: another worker reclaims the job
    let j2 = s.claim_jobs("w2", 5, LEASE).await.unwrap();
    assert_eq!(j2.len(), 1);
    assert!(s.claim_jobs("w3", 5, LEASE).await.unwrap().is_empty());
    // the first worker is fenced out
    assert!(!s
        .set_job_stage(&j1[0], DocumentStatus::Chunking)
        .await
        .unwrap());
    assert!(!s.complete_job(&j1[0], processed(2)).await.unwrap());
    assert!(s
        .renew_leases("w1", &[j1[0].id.clone()], LEASE)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        s.renew_leases("w2", &[j2[0].id.clone()], LEASE)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(s.complete_job(&j2[0], processed(2)).await.unwrap());
    assert_eq!(
        s.list_chunks(&org, &j2[0].document_id).await.unwrap().len(),
        2
    );
}

pub async fn completion_replaces_chunks(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "v1");
    d.custom_id = Some("c".into());
    add(s, d.clone()).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s
        .set_job_stage(&j, DocumentStatus::Embedding)
        .await
        .unwrap());
    assert_eq!(
        s.get_document(&org, "c").await.unwrap().unwrap().status,
        DocumentStatus::Embedding
    );
    assert_eq!(s.list_processing(&org).await.unwrap().len(), 1);
    assert!(s.complete_job(&j, processed(3)).await.unwrap());
    assert!(
        !s.complete_job(&j, processed(3)).await.unwrap(),
        "a job completes once"
    );
    let doc = s.get_document(&org, "c").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Done);
    assert_eq!(doc.chunk_count, 3);
    assert_eq!(doc.title.as_deref(), Some("Title"));
    assert!(s.list_processing(&org).await.unwrap().is_empty());
    let chunks = s.list_chunks(&org, &doc.id).await.unwrap();
    assert_eq!(
        chunks.iter().map(|c| c.position).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert_eq!(chunks[1].embedding, vec![1.0, 1.0, -0.5]);
    // reprocessing replaces, never appends
    d.content = "v2".into();
    add(s, d).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert!(s.complete_job(&j, processed(1)).await.unwrap());
    assert_eq!(s.list_chunks(&org, &doc.id).await.unwrap().len(), 1);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn stale_revision_is_fenced(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "v1");
    d.custom_id = Some("c".into());
    add(s, d.clone()).await;
    let old = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    d.content = "v2".into();
    add(s, d).await;
    assert!(!s.complete_job(&old, processed(5)).await.unwrap());
    let doc = s.get_document(&org, "c").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Queued);
    assert!(s.list_chunks(&org, &doc.id).await.unwrap().is_empty());
    let new = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert_eq!(new.revision, 2);
}

pub async fn failures_retry_then_fail(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    let later = now() + chrono::Duration::milliseconds(200);
    assert!(s.fail_job(&j, "transient", Some(later)).await.unwrap());
    assert!(
        s.claim_jobs("w", 1, LEASE).await.unwrap().is_empty(),
        "not due yet"
    );
    tokio::time::sleep(Duration::from_millis(250)).await;
    let j = s.claim_jobs("w", 1, LEASE).await.unwrap().remove(0);
    assert_eq!(j.attempts, 1);
    assert!(s.fail_job(&j, "permanent", None).await.unwrap());
    let d = s.get_document(&org, &doc.id).await.unwrap().unwrap();
    assert_eq!(d.status, DocumentStatus::Failed);
    assert_eq!(d.error.as_deref(), Some("permanent"));
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}

pub async fn release_returns_jobs(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let doc = add(s, new_doc(&org, "x")).await;
    let j = s.claim_jobs("w1", 1, LEASE).await.unwrap().remove(0);
    assert!(s
        .set_job_stage(&j, DocumentStatus::Embedding)
        .await
        .unwrap());
    assert!(s.claim_jobs("w2", 1, LEASE).await.unwrap().is_empty());
    assert_eq!(s.release_jobs("w1").await.unwrap(), 1);
    assert_eq!(
        s.get_document(&org, &doc.id).await.unwrap().unwrap().status,
        DocumentStatus::Queued
    );
    assert_eq!(s.claim_jobs("w2", 1, LEASE).await.unwrap().len(), 1);
}

/// Workers claiming at the same moment (as replicas do) never get the same
/// job, and every job is completed exactly once.
pub async fn concurrent_claims_are_exclusive(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    for i in 0..40 {
        add(s, new_doc(&org, &format!("doc {i}"))).await;
    }
    let work = |worker: &'static str| async move {
        let mut got = Vec::new();
        loop {
            let jobs = s.claim_jobs(worker, 3, LEASE).await.unwrap();
            if jobs.is_empty() {
                return got;
            }
            for job in jobs {
                assert!(s.complete_job(&job, processed(1)).await.unwrap());
                got.push(job.document_id);
            }
        }
    };
    let (a, b, c, d) = tokio::join!(work("w1"), work("w2"), work("w3"), work("w4"));
    let mut all: Vec<String> = [a, b, c, d].concat();
    let claimed = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), claimed, "a job was claimed twice");
    assert_eq!(claimed, 40);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
}
