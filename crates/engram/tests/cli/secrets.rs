//! No key or secret in any log line or error: a live `engram serve`
//! logging at `debug` is used with its key (over `Authorization` and
//! through a console session), makes a key, is given a connector secret
//! and an S3 secret key, and is sent a wrong key and a wrong password.
//! Then neither its log nor any answer holds any of those values. The one
//! exception is by design: on its first run `engram serve` prints the key
//! it made, once, under a notice (the key a new user signs in with).

use super::*;

#[test]
fn no_key_or_secret_reaches_a_log_line_or_an_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start_with(
        &data,
        &cfg,
        free_port(),
        &[
            ("ENGRAM_LOG", "debug"),
            ("ENGRAM_FETCH_ALLOW_PRIVATE", "true"),
        ],
    );
    let key = saved_key(&cfg);
    let url = |p: &str| format!("{}{p}", srv.base);
    // every answer, to look for secrets in afterwards
    let answers = std::cell::RefCell::new(String::new());
    let call = |method: &str, path: &str, k: &str, body: Option<Value>| {
        let (s, v) = reqwest::call(method, &url(path), k, body);
        answers.borrow_mut().push_str(&v.to_string());
        (s, v)
    };
    let (s, made) = call(
        "POST",
        "/v3/auth/keys",
        &key,
        Some(json!({"name": "second"})),
    );
    assert_eq!(s, 201, "{made}");
    let second = made["key"].as_str().unwrap().to_string();
    let (s, v) = call(
        "PATCH",
        "/v3/settings",
        &key,
        Some(json!({"githubClientId": "Iv1.x", "githubClientSecret": "gh-client-s3cret-77"})),
    );
    assert_eq!(s, 200, "{v}");
    let (s, v) = call(
        "POST",
        "/v3/connections/s3",
        &second,
        Some(
            json!({"containerTag": "files", "metadata": {"bucket": "reports", "endpoint": "http://127.0.0.1:9",
                    "accessKeyId": "AKIAEXAMPLE", "secretAccessKey": "aws-s3cret-key-99"}}),
        ),
    );
    assert_eq!(s, 200, "{v}");
    let (s, v) = call(
        "GET",
        "/v3/documents/x",
        "em_wrongkey_notvalidatall0000000",
        None,
    );
    assert_eq!(s, 401, "{v}");
    let (s, v) = call("POST", "/v3/search", &key, Some(json!({"q": "anything"})));
    assert_eq!(s, 200, "{v}");
    // a console session with the key, and a wrong one
    let (s, v) = reqwest::call_raw(
        "POST",
        &url("/console-session"),
        &json!({"apiKey": key}).to_string(),
    );
    assert_eq!(s, 200, "{v}");
    answers.borrow_mut().push_str(&v);
    let (s, v) = reqwest::call_raw(
        "POST",
        &url("/console-session"),
        &json!({"apiKey": "em_guess_password_1234567890"}).to_string(),
    );
    assert_eq!(s, 401, "{v}");
    answers.borrow_mut().push_str(&v);
    let (s, listed) = call("POST", "/v3/connections/list", &key, Some(json!({})));
    assert_eq!(s, 200, "{listed}");
    let (s, v) = call("GET", "/v3/settings", &key, None);
    assert_eq!(s, 200, "{v}");
    // give the sync a moment to try (and fail: nothing listens there)
    std::thread::sleep(Duration::from_millis(1500));
    let log = std::fs::read_to_string(&srv.log).unwrap();
    assert!(log.lines().count() > 10, "the log says something: {log}");
    assert!(
        log.contains("DEBUG") || log.contains("debug"),
        "at debug level"
    );
    // the one exception, by design: the first run prints the key it made,
    // once, on its own line under the notice (as `engram serve` promises);
    // no log line ever holds it
    let notice = log
        .find("First run: created organisation")
        .expect("the first-run notice");
    let printed = log[notice..].lines().nth(2).unwrap().trim().to_string();
    assert_eq!(printed, key, "the notice shows the key");
    let log = log.replacen(&format!("    {key}\n"), "    (the first-run key)\n", 1);
    // the key's id (its first part) may be logged; its secret part never
    let secret_part = |k: &str| k.rsplit('_').next().unwrap().to_string();
    for (what, value) in [
        ("the API key", secret_part(&key)),
        ("the new key", secret_part(&second)),
        ("a wrong key", "notvalidatall0000000".to_string()),
        ("a guessed key", "password_1234567890".to_string()),
        (
            "the connector's client secret",
            "gh-client-s3cret-77".to_string(),
        ),
        ("the S3 secret key", "aws-s3cret-key-99".to_string()),
    ] {
        let line = log.lines().find(|l| l.contains(&value));
        assert!(
            line.is_none(),
            "{what} is in the log: {}",
            line.unwrap_or("")
        );
        if what != "the new key" {
            assert!(!answers.borrow().contains(&value), "{what} is in an answer");
        }
    }
}
