//! Schema-driven fuzzing of every operation: schemathesis (which
//! `scripts/test.sh` installs) reads the served `/v3/openapi` of a live
//! `engram serve` and sends generated valid and invalid bodies, parameters
//! and headers, with a real key, then stateful sequences (create, read,
//! update, delete) along the description's links. The bar: no 5xx, no
//! answer outside the described schema, status or content type, no
//! invalid input accepted. Runs on SQLite and, when
//! `ENGRAM_TEST_DATABASE_URL` names a server, on PostgreSQL.
//!
//! `ENGRAM_FUZZ_EXAMPLES` (default 10 per operation) and `ENGRAM_FUZZ_SEED`
//! (default fixed, so CI is repeatable) make a longer or different run;
//! settings are in `tests/fuzz/schemathesis.toml`. What the fuzzer found is
//! kept as regression tests in `engram-server`'s `fuzzed.rs`.

use super::*;
use std::path::PathBuf;

fn fuzz(backend: &str, env: &[(&str, &str)]) {
    let st = which_st().unwrap_or_else(|| {
        panic!("schemathesis (`st`) is not installed: `pip install schemathesis==4.32.5` (scripts/test.sh does)")
    });
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = (tmp.path().join("data"), tmp.path().join("cfg"));
    let srv = start_with(&data, &cfg, free_port(), env);
    let key = saved_key(&cfg);
    let examples = std::env::var("ENGRAM_FUZZ_EXAMPLES").unwrap_or_else(|_| "10".into());
    let seed = std::env::var("ENGRAM_FUZZ_SEED").unwrap_or_else(|_| "20261124".into());
    let config = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fuzz/schemathesis.toml"
    );
    // schemathesis keeps a cache where it runs: in the test's directory,
    // not the repository
    let out = Command::new(&st)
        .current_dir(tmp.path())
        .args(["--config-file", config, "run"])
        .arg(format!("{}/v3/openapi", srv.base))
        .args(["-H", &format!("Authorization: Bearer {key}")])
        .args(["-n", &examples, "--seed", &seed, "-w", "2"])
        .args(["--request-timeout", "60", "--max-failures", "50"])
        .env("NO_COLOR", "1")
        .output()
        .expect("schemathesis runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let summary: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("generated") || l.contains("Tested:"))
        .collect();
    println!("{backend}: {}", summary.join(" / "));
    assert!(
        out.status.success(),
        "{backend}: schemathesis found failures\n{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // it did test every operation the description has, not nothing
    let (_, doc) = reqwest::call("GET", &format!("{}/v3/openapi", srv.base), &key, None);
    let operations: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    let tested = said
        .lines()
        .find_map(|l| l.trim().strip_prefix("Tested: "))
        .and_then(|n| n.trim().parse::<usize>().ok());
    assert_eq!(tested, Some(operations), "{said}");
}

fn which_st() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("st"))
            .find(|p| p.is_file())
    })
}

#[test]
fn every_operation_survives_schema_driven_fuzzing() {
    fuzz("sqlite", &[]);
}

/// The same against PostgreSQL, in a database of its own.
#[test]
fn every_operation_survives_schema_driven_fuzzing_on_postgres() {
    let Some(url) = fresh_postgres() else {
        return;
    };
    fuzz("postgres", &[("ENGRAM_DATABASE_URL", &url)]);
}
