#!/usr/bin/env bash
# Run Engram's whole test suite on a fresh machine: installs the official
# Python SDK used by the compatibility test, moto's S3-compatible
# server (the S3 connection test syncs from it), and headless Chromium with
# a DevTools client (the console's browser test), makes sure the embedding model
# is in the cache (the real-model tests use it), then runs every test on
# SQLite, and the store conformance suite and the HTTP suite again on
# PostgreSQL.
#
# PostgreSQL: ENGRAM_TEST_DATABASE_URL names a server to create test
# databases on; without it, PostgreSQL 15 and pgvector are installed
# (scripts/postgres.sh, needs apt) and a throwaway cluster is started on a
# loopback port and removed at the end. ENGRAM_TEST_POSTGRES=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import supermemory, sys; sys.exit(0 if supermemory.__version__ == "3.62.0" else 1)' 2>/dev/null; then
  echo "==> installing the supermemory Python SDK (3.62.0) for the SDK compatibility test"
  python3 -m pip install -q --disable-pip-version-check supermemory==3.62.0 \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages supermemory==3.62.0
fi

if ! python3 -c 'import moto.server, flask' 2>/dev/null; then
  echo "==> installing moto's S3 server (the S3 connection test syncs from it)"
  python3 -m pip install -q --disable-pip-version-check 'moto[server]==5.2.5' \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages 'moto[server]==5.2.5'
fi

if ! command -v st >/dev/null 2>&1 || ! st --version 2>/dev/null | grep -q '4.32.5'; then
  echo "==> installing schemathesis (the fuzzing test drives every operation of the served OpenAPI with it)"
  python3 -m pip install -q --disable-pip-version-check 'schemathesis==4.32.5' \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages 'schemathesis==4.32.5'
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "==> installing Chromium (the console's browser test drives it headless)"
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
if ! python3 -c 'import websockets' 2>/dev/null; then
  echo "==> installing websockets (the console test speaks the DevTools protocol with it)"
  python3 -m pip install -q --disable-pip-version-check 'websockets==17.4' \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages 'websockets==17.4'
fi

if [ "${ENGRAM_TEST_POSTGRES:-1}" != 0 ] && [ -z "${ENGRAM_TEST_DATABASE_URL:-}" ]; then
  bash scripts/postgres.sh install
  PGDIR=$(mktemp -d)
  trap 'bash scripts/postgres.sh stop "$PGDIR"' EXIT
  PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  ENGRAM_TEST_DATABASE_URL=$(bash scripts/postgres.sh start "$PGDIR" "$PORT")
  export ENGRAM_TEST_DATABASE_URL
  echo "==> throwaway PostgreSQL at $ENGRAM_TEST_DATABASE_URL"
fi

# Every cargo step below selects the whole workspace, so the dependencies
# are resolved with one feature set and built once: `cargo run -p engram`
# or `-p engram-server` alone would resolve features for that package only
# and rebuild much of the tree (minutes on a cold CI machine).
if cargo nextest --version >/dev/null 2>&1; then nextest=1; else nextest=0; fi
run() {
  if [ "$nextest" = 1 ]; then
    cargo nextest run --no-fail-fast --workspace "$@"
  else
    cargo test --no-fail-fast --workspace "$@"
  fi
}

echo "==> building the tests"
if [ "$nextest" = 1 ]; then
  cargo nextest run --workspace --no-run "$@"
else
  cargo test --workspace --no-run "$@"
fi

echo "==> locating (or fetching) the embedding model"
# the CLI's integration tests built the engram binary along with the tests
target_dir=$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
[ -x "$target_dir/debug/engram" ] || cargo build -q --workspace --bins
"$target_dir/debug/engram" model

status=0
echo "==> running the tests (SQLite; store conformance on PostgreSQL too when a server is set)"
run "$@" || status=1
if [ -n "${ENGRAM_TEST_DATABASE_URL:-}" ] && [ "${ENGRAM_TEST_POSTGRES:-1}" != 0 ]; then
  echo "==> running the HTTP suite on PostgreSQL"
  if [ "$nextest" = 1 ]; then
    ENGRAM_TEST_BACKEND=postgres run -E 'package(engram-server) & binary(api)' "$@" || status=1
  else
    ENGRAM_TEST_BACKEND=postgres run --test api "$@" || status=1
  fi
fi
exit $status
