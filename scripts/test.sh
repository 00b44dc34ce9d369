#!/usr/bin/env bash
# Run Engram's whole test suite on a fresh machine: installs the official
# Python SDK used by the compatibility test, makes sure the embedding model
# is in the cache (the real-model tests use it), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import supermemory, sys; sys.exit(0 if supermemory.__version__ == "3.62.0" else 1)' 2>/dev/null; then
  echo "==> installing the supermemory Python SDK (3.62.0) for the SDK compatibility test"
  python3 -m pip install -q --disable-pip-version-check supermemory==3.62.0 \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages supermemory==3.62.0
fi

echo "==> locating (or fetching) the embedding model"
cargo run -q -p engram -- model

echo "==> running the tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast "$@"
else
  cargo test --workspace --no-fail-fast "$@"
fi
