//! Request logs, their aggregates and retention; rate-limit windows.

use super::*;

fn log(org: &str, key: &str, kind: &str, status: u16, ms: f64, at: Timestamp) -> RequestLog {
    RequestLog {
        id: engram_core::ids::new_id(),
        org_id: org.to_string(),
        key_id: key.to_string(),
        kind: kind.to_string(),
        status_code: status,
        error_type: (status >= 400).then(|| match status {
            400 => "ValidationError".to_string(),
            404 => "NotFoundError".to_string(),
            _ => "InternalServerError".to_string(),
        }),
        duration_ms: ms,
        input: json!({"q": "hello"}),
        output: json!({"resultCount": 2}),
        created_at: at,
    }
}

pub async fn request_logs_aggregate_and_purge(s: &dyn Store) {
    let a = s.ensure_org("acme").await.unwrap();
    let b = s.ensure_org("other").await.unwrap();
    let key = |id: &str, org: &str, name: &str| ApiKeyRecord {
        id: id.into(),
        org_id: org.into(),
        name: name.into(),
        secret_hash: "ab".repeat(32),
        created_at: now(),
        revoked_at: None,
        container_tag: None,
        expires_at: None,
        rate_limit: None,
    };
    s.insert_api_key(&key("ka", &a.id, "laptop")).await.unwrap();
    s.insert_api_key(&key("kb", &a.id, "ci")).await.unwrap();
    // 10:00:05, 10:30, 11:15 on one day; one in another org; one 100 days old
    let day = from_millis(1_700_000_000_000 - 1_700_000_000_000 % 86_400_000);
    let at = |h: i64, m: i64| day + chrono::Duration::minutes(h * 60 + m);
    let old = at(10, 0) - chrono::Duration::days(100);
    let logs = vec![
        log(&a.id, "ka", "search", 200, 10.0, at(10, 0)),
        log(&a.id, "ka", "search", 200, 20.0, at(10, 30)),
        log(&a.id, "kb", "add", 200, 5.0, at(11, 15)),
        log(&a.id, "kb", "search", 400, 1.0, at(11, 20)),
        log(&a.id, "kb", "delete", 404, 2.0, at(11, 25)),
        log(&b.id, "zz", "search", 500, 3.0, at(10, 10)),
        log(&a.id, "ka", "add", 200, 7.0, old),
    ];
    s.record_requests(&logs).await.unwrap();
    // recording the same batch again (a retried flush) adds nothing
    s.record_requests(&logs[..1]).await.unwrap();

    let (from, to) = (at(0, 0), at(24, 0));
    let org_a = a.id.as_str();
    let usage = |from, to| async move { s.usage_stats(org_a, from, to).await.unwrap() };
    let u = usage(from, to).await;
    let kinds: Vec<_> = u
        .by_type
        .iter()
        .map(|t| (t.kind.as_str(), t.count))
        .collect();
    assert_eq!(kinds, [("search", 3), ("add", 1), ("delete", 1)]);
    let search = &u.by_type[0];
    assert!((search.avg_duration_ms - 31.0 / 3.0).abs() < 1e-9);
    assert_eq!(search.last_used, at(11, 20));
    let hours: Vec<_> = u.hourly.iter().map(|h| (h.hour, h.count)).collect();
    assert_eq!(hours, [(at(10, 0), 2), (at(11, 0), 3)]);
    assert!((u.hourly[0].avg_duration_ms - 15.0).abs() < 1e-9);
    let keys: Vec<_> = u
        .by_key
        .iter()
        .map(|k| (k.key_id.as_str(), k.key_name.as_str(), k.count))
        .collect();
    assert_eq!(keys, [("kb", "ci", 3), ("ka", "laptop", 2)]);
    // the window is half-open, and exact at its edges inside an hour
    let u = usage(at(10, 30), at(11, 15)).await;
    assert_eq!(u.by_type.len(), 1);
    assert_eq!(u.by_type[0].count, 1);
    let u = usage(at(10, 1), at(11, 21)).await;
    let kinds: Vec<_> = u
        .by_type
        .iter()
        .map(|t| (t.kind.as_str(), t.count))
        .collect();
    assert_eq!(kinds, [("search", 2), ("add", 1)]);
    // whole hours (the rollups) and edges (the logs) add up
    let u = usage(at(9, 59), at(11, 20)).await;
    assert_eq!(u.by_type.iter().map(|t| t.count).sum::<u64>(), 3);

    let errors = |from, to| async move { s.error_stats(org_a, from, to).await.unwrap() };
    let e = errors(from, to).await;
    assert_eq!(e.total_requests, 5);
    let groups: Vec<_> = e
        .groups
        .iter()
        .map(|g| (g.hour, g.error_type.as_str(), g.status_code, g.count))
        .collect();
    assert_eq!(
        groups,
        [
            (at(11, 0), "NotFoundError", 404, 1),
            (at(11, 0), "ValidationError", 400, 1)
        ]
    );
    let other = s.error_stats(&b.id, from, to).await.unwrap();
    assert_eq!(other.total_requests, 1);
    assert_eq!(other.groups[0].error_type, "InternalServerError");

    let mut q = LogQuery {
        from,
        to,
        kind: None,
        status_code: None,
        key_id: None,
        offset: 0,
        limit: 2,
    };
    let (page, total) = s.list_requests(&a.id, &q).await.unwrap();
    assert_eq!(total, 5);
    assert_eq!(page.len(), 2);
    assert_eq!(page[0].created_at, at(11, 25), "newest first");
    assert_eq!(page[0].input, json!({"q": "hello"}));
    assert_eq!(page[0].error_type.as_deref(), Some("NotFoundError"));
    q.offset = 4;
    assert_eq!(s.list_requests(&a.id, &q).await.unwrap().0.len(), 1);
    q.offset = 0;
    q.kind = Some("search".into());
    assert_eq!(s.list_requests(&a.id, &q).await.unwrap().1, 3);
    q.status_code = Some(400);
    assert_eq!(s.list_requests(&a.id, &q).await.unwrap().1, 1);
    q.status_code = None;
    q.key_id = Some("ka".into());
    assert_eq!(s.list_requests(&a.id, &q).await.unwrap().1, 2);
    q.key_id = Some("zz".into());
    assert_eq!(s.list_requests(&a.id, &q).await.unwrap().1, 0, "other org");

    assert_eq!(s.purge_requests(at(0, 0)).await.unwrap(), 1);
    // the purged hour's rollup went with it
    let before = usage(
        old - chrono::Duration::hours(2),
        old + chrono::Duration::hours(2),
    )
    .await;
    assert!(before.by_type.is_empty(), "{before:?}");
    let everything = LogQuery {
        from: old - chrono::Duration::days(1),
        to,
        kind: None,
        status_code: None,
        key_id: None,
        offset: 0,
        limit: 100,
    };
    assert_eq!(s.list_requests(&a.id, &everything).await.unwrap().1, 5);
}

pub async fn rate_windows_count_and_reset(s: &dyn Store) {
    let t0 = from_millis(1_700_000_000_000);
    let minute = Duration::from_secs(60);
    let ms = |n: i64| t0 + chrono::Duration::milliseconds(n);
    let w = s.hit_rate_limit("org:a", t0, minute).await.unwrap();
    assert_eq!((w.started_at, w.count), (t0, 1));
    let w = s.hit_rate_limit("org:a", ms(59_999), minute).await.unwrap();
    assert_eq!((w.started_at, w.count), (t0, 2));
    assert_eq!(
        s.hit_rate_limit("org:b", ms(10), minute)
            .await
            .unwrap()
            .count,
        1
    );
    let w = s.hit_rate_limit("org:a", ms(60_000), minute).await.unwrap();
    assert_eq!((w.started_at, w.count), (ms(60_000), 1), "a new window");
    // concurrent hits are all counted, each once
    let hit = || async {
        let mut seen = Vec::new();
        for _ in 0..5 {
            seen.push(
                s.hit_rate_limit("org:c", ms(100), minute)
                    .await
                    .unwrap()
                    .count,
            );
        }
        seen
    };
    let (a, b, c, d) = tokio::join!(hit(), hit(), hit(), hit());
    let mut counts = [a, b, c, d].concat();
    counts.sort();
    assert_eq!(counts, (1..=20).collect::<Vec<u64>>());
}
