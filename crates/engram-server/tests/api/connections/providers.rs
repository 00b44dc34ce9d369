//! Notion, Google Drive, Gmail and OneDrive against the stand-in in
//! [`super::cloud`]: authorisation with PKCE (Notion's JSON token
//! exchange), the first sync, each provider's own change mechanism
//! (last-edited times, the changes feed, history ids, delta links) for
//! added, changed and deleted content, token refresh, a revoked grant,
//! 429, a sync that dies midway and resumes from its checkpoint, and
//! the document limit.

use super::cloud::*;
use super::*;

fn content(d: &Value) -> String {
    d["content"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn notion_syncs_pages_by_last_edited_time() {
    let (cloud, st) = start_cloud().await;
    {
        let mut s = st.lock().unwrap();
        for (id, title, edited, text) in [
            (
                "p1",
                "Harbour log",
                "2026-11-01T10:00:00.000Z",
                "The ferry leaves at nine.",
            ),
            (
                "p2",
                "Garden",
                "2026-11-02T10:00:00.000Z",
                "Tomatoes need staking in June.",
            ),
            (
                "p3",
                "Recipes",
                "2026-11-03T10:00:00.000Z",
                "Bread wants a long cold rise.",
            ),
        ] {
            s.pages.insert(
                id.into(),
                (title.into(), edited.into(), vec![text.into()], false),
            );
        }
    }
    let app = app_for(&cloud, &["notion"]).await;
    let id = connect(&app, &st, "notion", json!({"containerTag": "notes"})).await;
    // Notion's token exchange is JSON with Basic client authentication
    assert_eq!(
        st.lock().unwrap().grants,
        [("authorization_code".to_string(), true)]
    );
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    assert_eq!(c["email"], "nia@example.com", "{c}");
    let docs = done_docs(&app, "notion", "notes").await;
    assert_eq!(docs.len(), 3, "{docs:#?}");
    let garden = &docs[0];
    assert_eq!(garden["title"], "Garden");
    assert!(
        content(garden).contains("Tomatoes need staking"),
        "{garden}"
    );
    assert!(
        content(garden).contains("A nested note of p2"),
        "nested blocks: {garden}"
    );
    assert_eq!(garden["source"], "notion");
    assert_eq!(garden["url"], "https://www.notion.so/p2");
    assert_eq!(garden["metadata"]["notionPageId"], "p2");
    let blocks_before = hits(&st, "/v1/blocks/p1");

    // one page edited, one archived, one new; p1 untouched
    {
        let mut s = st.lock().unwrap();
        let p2 = s.pages.get_mut("p2").unwrap();
        p2.1 = "2026-11-05T10:00:00.000Z".into();
        p2.2 = vec!["Tomatoes need staking in May, not June.".into()];
        s.pages.get_mut("p3").unwrap().3 = true;
        s.pages.insert(
            "p4".into(),
            (
                "Boats".into(),
                "2026-11-06T10:00:00.000Z".into(),
                vec!["The dinghy leaks at the stern.".into()],
                false,
            ),
        );
    }
    let c = import_and_wait(&app, "notion", "notes", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "notion", "notes").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Boats", "Garden", "Harbour log"]);
    assert!(
        content(&docs[1]).contains("in May, not June"),
        "{}",
        docs[1]
    );
    assert_eq!(
        hits(&st, "/v1/blocks/p1"),
        blocks_before,
        "an unedited page is not read again"
    );

    // the grant is revoked: the connection says so and stops
    st.lock().unwrap().access.clear();
    let c = import_and_wait(&app, "notion", "notes", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "failed", "{c}");
    assert_eq!(c["lastSyncRun"]["errorCode"], "auth_expired", "{c}");
}

#[tokio::test]
async fn google_drive_follows_the_changes_feed_refreshes_and_resumes() {
    let (cloud, st) = start_cloud().await;
    {
        let mut s = st.lock().unwrap();
        s.expires_in = 60; // inside the refresh margin: every sync refreshes first
        let file = |id: &str, name: &str, mime: &str, text: &str| {
            json!({"id": id, "name": name, "mimeType": mime, "content": text,
                   "modifiedTime": "2026-11-01T10:00:00.000Z", "trashed": false,
                   "webViewLink": format!("https://drive.google.com/file/d/{id}/view")})
        };
        for f in [
            file(
                "d1",
                "Trip plan",
                "application/vnd.google-apps.document",
                "We land in Porto on Friday.",
            ),
            file(
                "d2",
                "packing.md",
                "text/markdown",
                "# Packing\nBring the blue raincoat.",
            ),
            file("d3", "photo.png", "image/png", "PNG"),
            file(
                "d4",
                "Budget",
                "application/vnd.google-apps.spreadsheet",
                "item,eur\nhotel,300\n",
            ),
            file("d5", "folder", "application/vnd.google-apps.folder", ""),
        ] {
            s.files.insert(f["id"].as_str().unwrap().into(), f);
        }
        // the listing's second page fails once: the sync stops there and resumes
        s.fail_once = Some(("/drive/v3/files".into(), 500));
    }
    let app = app_for(&cloud, &["google-drive"]).await;
    let id = connect(&app, &st, "google-drive", json!({"containerTag": "drive"})).await;
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["errorCode"], "provider_unavailable", "{c}");
    let c = import_and_wait(&app, "google-drive", "drive", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    assert_eq!(c["email"], "gia@example.com");
    let grants: Vec<String> = st
        .lock()
        .unwrap()
        .grants
        .iter()
        .map(|g| g.0.clone())
        .collect();
    assert!(
        grants.len() >= 3 && grants[1..].iter().all(|g| g == "refresh_token"),
        "{grants:?}"
    );
    let docs = done_docs(&app, "google-drive", "drive").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Budget", "Trip plan", "packing.md"], "{docs:#?}");
    assert!(content(&docs[1]).contains("Porto on Friday"));
    assert!(content(&docs[0]).contains("hotel"));
    assert_eq!(docs[1]["url"], "https://drive.google.com/file/d/d1/view");
    assert_eq!(
        hits(&st, "/drive/v3/files/d1"),
        1,
        "resumed, not started over"
    );

    // changes: one edited, one trashed, one added; the listing is not read again
    let listings = hits(&st, "/drive/v3/files");
    {
        let mut s = st.lock().unwrap();
        let mut d2 = s.files["d2"].clone();
        d2["content"] = "# Packing\nBring the green raincoat and boots.".into();
        s.files.insert("d2".into(), d2.clone());
        s.changes
            .push(json!({"fileId": "d2", "removed": false, "file": d2}));
        let mut d1 = s.files["d1"].clone();
        d1["trashed"] = true.into();
        s.changes
            .push(json!({"fileId": "d1", "removed": false, "file": d1}));
        let d6 = json!({"id": "d6", "name": "notes.txt", "mimeType": "text/plain",
                        "content": "The museum opens at ten.", "trashed": false});
        s.files.insert("d6".into(), d6.clone());
        s.changes
            .push(json!({"fileId": "d6", "removed": false, "file": d6}));
        s.changes.push(json!({"fileId": "d4", "removed": true}));
        s.fail_once = Some(("/drive/v3/changes".into(), 429));
    }
    let c = import_and_wait(&app, "google-drive", "drive", &c).await;
    assert_eq!(c["lastSyncRun"]["errorCode"], "rate_limited", "{c}");
    // Retry-After was one second: the runner comes back by itself
    let c = wait_sync(&app, &id, c["lastSyncRun"]["completedAt"].as_str()).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "google-drive", "drive").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["notes.txt", "packing.md"], "{docs:#?}");
    assert!(content(&docs[1]).contains("green raincoat"));
    assert_eq!(
        hits(&st, "/drive/v3/files") - listings,
        2,
        "only the two downloads"
    );
}

fn message(id: &str, subject: &str, body: &str, labels: &[&str]) -> Value {
    let data = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(body);
    json!({"id": id, "threadId": format!("t-{id}"), "labelIds": labels, "snippet": body,
           "payload": {"mimeType": "multipart/alternative",
                       "headers": [{"name": "Subject", "value": subject},
                                   {"name": "From", "value": "Ana <ana@example.com>"}],
                       "parts": [{"mimeType": "text/plain", "body": {"data": data}}]}})
}

#[tokio::test]
async fn gmail_reads_history_and_honours_the_limit() {
    let (cloud, st) = start_cloud().await;
    {
        let mut s = st.lock().unwrap();
        for (id, subject, body, labels) in [
            (
                "m1",
                "Old news",
                "The bakery closed in March.",
                &["INBOX"][..],
            ),
            (
                "m2",
                "Dentist",
                "Your appointment is on Tuesday at 3pm.",
                &["INBOX"],
            ),
            ("m3", "Win a prize", "Click here.", &["SPAM"]),
            (
                "m4",
                "Ferry",
                "The ferry to the island now leaves at 8:15.",
                &["INBOX"],
            ),
        ] {
            s.messages
                .insert(id.into(), message(id, subject, body, labels));
        }
        s.history.push(json!({"id": 100}));
    }
    let app = app_for(&cloud, &["gmail"]).await;
    let id = connect(
        &app,
        &st,
        "gmail",
        json!({"containerTag": "mail", "documentLimit": 2}),
    )
    .await;
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "gmail", "mail").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        ["Dentist", "Ferry"],
        "the two newest, not spam: {docs:#?}"
    );
    assert!(content(&docs[1]).contains("From: Ana <ana@example.com>"));
    assert!(content(&docs[1]).contains("leaves at 8:15"));

    // history: one deleted, one new, one moved to the trash
    {
        let mut s = st.lock().unwrap();
        s.messages.remove("m2");
        s.messages.insert(
            "m5".into(),
            message(
                "m5",
                "Keys",
                "The spare key is under the blue pot.",
                &["INBOX"],
            ),
        );
        s.messages.get_mut("m4").unwrap()["labelIds"] = json!(["TRASH"]);
        s.history
            .push(json!({"id": 101, "messagesDeleted": [{"message": {"id": "m2"}}]}));
        s.history.push(
            json!({"id": 102, "messagesAdded": [{"message": {"id": "m5", "labelIds": ["INBOX"]}}]}),
        );
        s.history.push(
            json!({"id": 103, "labelsAdded": [{"message": {"id": "m4"}, "labelIds": ["TRASH"]}]}),
        );
    }
    let listings = hits(&st, "/gmail/v1/users/me/messages");
    let c = import_and_wait(&app, "gmail", "mail", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "gmail", "mail").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Keys"], "{docs:#?}");
    assert_eq!(
        hits(&st, "/gmail/v1/users/me/messages") - listings,
        2,
        "the history, then the two messages it named; no listing"
    );

    // a history id too old to read: listed again from scratch
    {
        let mut s = st.lock().unwrap();
        s.history_floor = 200;
        s.history.push(json!({"id": 201}));
        s.messages.insert(
            "m6".into(),
            message("m6", "Choir", "Rehearsal moved to Thursday.", &["INBOX"]),
        );
    }
    let c = import_and_wait(&app, "gmail", "mail", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "gmail", "mail").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Choir", "Keys"], "{docs:#?}");
}

#[tokio::test]
async fn onedrive_follows_delta_links_and_resyncs_when_they_expire() {
    let (cloud, st) = start_cloud().await;
    let item = |id: &str, name: &str, mime: &str, ctag: &str| {
        json!({"id": id, "name": name, "cTag": ctag, "size": 40,
               "file": {"mimeType": mime}, "webUrl": format!("https://onedrive.live.com/{id}"),
               "parentReference": {"path": "/drive/root:/Documents"}})
    };
    {
        let mut s = st.lock().unwrap();
        s.events
            .push(json!({"id": "root", "name": "root", "folder": {"childCount": 3}, "root": {}}));
        for (id, name, mime, text) in [
            (
                "o1",
                "minutes.md",
                "text/markdown",
                "# Minutes\nThe roof repair is approved.",
            ),
            (
                "o2",
                "report.txt",
                "text/plain",
                "Water use fell by a tenth this year.",
            ),
            ("o3", "logo.png", "image/png", "PNG"),
        ] {
            s.events.push(item(id, name, mime, "c1"));
            s.contents.insert(id.into(), text.into());
        }
    }
    let app = app_for(&cloud, &["onedrive"]).await;
    let id = connect(&app, &st, "onedrive", json!({"containerTag": "od"})).await;
    let c = wait_sync(&app, &id, None).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    assert_eq!(c["email"], "mo@example.com");
    let docs = done_docs(&app, "onedrive", "od").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["minutes.md", "report.txt"], "{docs:#?}");
    assert_eq!(
        docs[0]["metadata"]["path"],
        "/drive/root:/Documents/minutes.md"
    );

    // a change, a deletion, an unchanged item seen again (same cTag)
    {
        let mut s = st.lock().unwrap();
        s.contents
            .insert("o2".into(), "Water use fell by a fifth this year.".into());
        s.events.push(item("o2", "report.txt", "text/plain", "c2"));
        s.events
            .push(json!({"id": "o1", "deleted": {"state": "deleted"}}));
        s.events.push(item("o3", "logo.png", "image/png", "c2"));
    }
    let downloads = hits(&st, "/download/");
    let c = import_and_wait(&app, "onedrive", "od", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "onedrive", "od").await;
    assert_eq!(docs.len(), 1, "{docs:#?}");
    assert!(content(&docs[0]).contains("a fifth"));
    assert_eq!(hits(&st, "/download/") - downloads, 1);

    // the log is compacted, so the saved delta link has expired (410):
    // a full walk, and what it does not see is gone
    {
        let mut s = st.lock().unwrap();
        s.events.clear();
        s.events.push(item("o2", "report.txt", "text/plain", "c2"));
        s.events.push(item("o7", "plan.txt", "text/plain", "c1"));
        s.contents.insert(
            "o7".into(),
            "The plan is to paint the hall in spring.".into(),
        );
    }
    let downloads = hits(&st, "/download/");
    let c = import_and_wait(&app, "onedrive", "od", &c).await;
    assert_eq!(c["lastSyncRun"]["status"], "completed", "{c}");
    let docs = done_docs(&app, "onedrive", "od").await;
    let titles: Vec<&str> = docs.iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["plan.txt", "report.txt"], "{docs:#?}");
    assert_eq!(
        hits(&st, "/download/") - downloads,
        1,
        "o2 is unchanged (same cTag)"
    );
}
