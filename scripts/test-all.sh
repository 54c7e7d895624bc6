#!/usr/bin/env bash
# Runs the Rust tests, then the browser tests, and ends with one line
# `N passed, N failed` adding both up. Exits non-zero if anything failed.
# `make test` runs it in the linted build's environment (the Makefile's
# LINTED_ENV), so that `cargo test` finds its binaries built.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
passed=0
failed=0

echo "== Rust tests (cargo test --workspace --no-fail-fast --features dames/ssr)"
cargo test --workspace --no-fail-fast --features dames/ssr 2>&1 | tee "$log"
rust_status=${PIPESTATUS[0]}
while read -r p f; do
  passed=$((passed + p))
  failed=$((failed + f))
done < <(sed -n 's/^test result: [A-Za-z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p' "$log")
if [ "$rust_status" -ne 0 ] && ! grep -q '^test result: FAILED' "$log"; then
  echo "cargo test failed before running its tests"
  failed=$((failed + 1))
fi

echo "== Browser tests (Playwright, Debian Chromium)"
rm -f end2end/test-results/results.json
# The browser tests' database lives in a folder removed however they end.
e2e_db_dir=$(mktemp -d)
trap 'rm -rf "$e2e_db_dir"' EXIT
export DAMES_E2E_DB="$e2e_db_dir/dames.sqlite3"
(cd end2end && npx playwright test)
e2e_status=$?
if [ -f end2end/test-results/results.json ]; then
  read -r p f < <(node -e '
    const s = require("./end2end/test-results/results.json").stats;
    console.log(`${s.expected + s.flaky} ${s.unexpected}`);')
  passed=$((passed + p))
  failed=$((failed + f))
fi
if [ "$e2e_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "the browser tests failed to run"
  failed=$((failed + 1))
fi
rm -f "$log"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
