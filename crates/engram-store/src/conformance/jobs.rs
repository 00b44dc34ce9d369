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

/// A `memory` document that dreams `dynamic`ally is `done` after
/// processing but keeps a dream job, due at `dream_at`, until its
/// memories are formed; others (and re-sent documents) do not.
pub async fn dynamic_dreams_wait_their_turn(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    let mut d = new_doc(&org, "dynamic");
    d.dreaming = Dreaming::Dynamic;
    d.custom_id = Some("dyn".into());
    add(s, d.clone()).await;
    let mut rag = new_doc(&org, "superrag");
    rag.task_type = TaskType::Superrag;
    rag.dreaming = Dreaming::Dynamic;
    add(s, rag).await;
    let jobs = s.claim_jobs("w", 5, LEASE).await.unwrap();
    assert_eq!(jobs.len(), 2);
    assert!(jobs.iter().all(|j| j.stage == JobStage::Process));
    let later = crate::now() + chrono::Duration::milliseconds(150);
    let done: Vec<_> = jobs
        .into_iter()
        .map(|j| {
            let mut p = processed(1);
            p.dream_at = later;
            (j, p)
        })
        .collect();
    assert_eq!(s.complete_jobs(done).await.unwrap(), vec![true, true]);
    let doc = s.get_document(&org, "dyn").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Done);
    assert_eq!(doc.dreaming_status, DreamingStatus::Dreaming);
    assert_eq!(s.pending_jobs().await.unwrap(), 1, "only the dream is left");
    assert!(
        s.claim_jobs("w", 5, LEASE).await.unwrap().is_empty(),
        "not due yet"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let dreams = s.claim_jobs("w", 5, LEASE).await.unwrap();
    assert_eq!(dreams.len(), 1);
    assert_eq!(
        (dreams[0].stage, dreams[0].document_id.as_str()),
        (JobStage::Dream, doc.id.as_str())
    );
    // another worker cannot complete a dream it does not hold
    let mut stolen = dreams[0].clone();
    stolen.lease_owner = "w2".into();
    assert_eq!(s.complete_dreams(&[stolen]).await.unwrap(), vec![false]);
    assert_eq!(s.complete_dreams(&dreams).await.unwrap(), vec![true]);
    let doc = s.get_document(&org, "dyn").await.unwrap().unwrap();
    assert_eq!(doc.dreaming_status, DreamingStatus::Done);
    assert_eq!(s.pending_jobs().await.unwrap(), 0);
    // re-sending a dreaming document makes its job a processing job again
    add(s, d.clone()).await;
    let j = s.claim_jobs("w", 5, LEASE).await.unwrap().remove(0);
    let mut p = processed(1);
    p.dream_at = crate::now();
    assert!(s.complete_job(&j, p).await.unwrap());
    d.content = "dynamic, again".into();
    add(s, d).await;
    let j = s.claim_jobs("w", 5, LEASE).await.unwrap().remove(0);
    assert_eq!(j.stage, JobStage::Process);
    let doc = s.get_document(&org, "dyn").await.unwrap().unwrap();
    assert_eq!(doc.status, DocumentStatus::Queued);
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

/// A batch completes in a few statements on every backend: each document
/// gets its own chunks, embeddings and counts, and a fenced job in the
/// batch changes nothing.
pub async fn batch_completion_keeps_documents_apart(s: &dyn Store) {
    let org = s.ensure_org("o").await.unwrap().id;
    for i in 0..4 {
        add(s, new_doc(&org, &format!("doc {i}"))).await;
    }
    let mut jobs = s.claim_jobs("w", 10, LEASE).await.unwrap();
    jobs.sort_by_key(|j| j.document_id.clone());
    let mut stale = jobs.pop().unwrap();
    stale.lease_owner = "someone else".into();
    let mut done: Vec<_> = jobs
        .iter()
        .enumerate()
        .map(|(d, j)| {
            let mut p = processed(d + 1);
            p.text = format!("text {d}");
            p.title = (d != 1).then(|| format!("Title {d}"));
            for c in &mut p.chunks {
                c.content = format!("doc {d} chunk {}", c.position);
                c.embedding = vec![d as f32, c.position as f32, 0.5];
            }
            (j.clone(), p)
        })
        .collect();
    done.push((stale.clone(), processed(2)));
    assert_eq!(
        s.complete_jobs(done).await.unwrap(),
        vec![true, true, true, false]
    );
    for (d, j) in jobs.iter().enumerate() {
        let doc = s.get_document(&org, &j.document_id).await.unwrap().unwrap();
        assert_eq!(doc.status, DocumentStatus::Done);
        assert_eq!(doc.text.as_deref(), Some(format!("text {d}").as_str()));
        assert_eq!(doc.chunk_count, d as i64 + 1);
        let chunks = s.list_chunks(&org, &doc.id).await.unwrap();
        let got: Vec<(String, Vec<f32>)> = chunks
            .into_iter()
            .map(|c| (c.content, c.embedding))
            .collect();
        let want: Vec<(String, Vec<f32>)> = (0..=d)
            .map(|p| (format!("doc {d} chunk {p}"), vec![d as f32, p as f32, 0.5]))
            .collect();
        assert_eq!(got, want);
    }
    let fenced = s
        .get_document(&org, &stale.document_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(fenced.status, DocumentStatus::Queued);
    assert!(s.list_chunks(&org, &fenced.id).await.unwrap().is_empty());
    assert_eq!(s.pending_jobs().await.unwrap(), 1, "the fenced job is left");
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
