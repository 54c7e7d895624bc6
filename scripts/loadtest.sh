#!/usr/bin/env bash
# The load figures of the README: `dames loadtest` against one server on
# SQLite, one server on PostgreSQL, and two servers on one PostgreSQL behind
# the round-robin proxy (`dames cluster`). Uses target/release/dames (make
# release); PLAYERS, LOADTEST_SECONDS and THINK_MS may be set, and the
# servers' DAMES_LIMIT_* (a think time of 0 needs them raised: a player
# may send 300 moves a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
PLAYERS=${PLAYERS:-200}
SECONDS_EACH=${LOADTEST_SECONDS:-30}
THINK_MS=${THINK_MS:-500}
dames=./target/release/dames
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

wait_ready() {
  for _ in $(seq 300); do
    curl -fs "$1/pret" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "$1 not ready" >&2
  return 1
}

run() {
  echo "== $1"
  shift
  "$dames" loadtest "$@" --players "$PLAYERS" --seconds "$SECONDS_EACH" --think-ms "$THINK_MS" || true
  echo
}

# One server, SQLite.
DAMES_DB="$work/dames.sqlite3" LEPTOS_SITE_ADDR=127.0.0.1:3101 DAMES_TRUSTED_PROXIES=127.0.0.1 RUST_LOG=warn \
  "$dames" &
pids+=($!)
wait_ready http://127.0.0.1:3101
run "one server, SQLite" http://127.0.0.1:3101 --server-pid "${pids[-1]}"
kill "${pids[-1]}"

# dames cluster prints its servers' addresses; their pids are its children.
cluster() {
  local servers=$1 port=$2 log=$work/cluster-$1.log
  RUST_LOG=warn "$dames" cluster --servers "$servers" --port "$port" >"$log" 2>&1 &
  pids+=($!)
  local cluster_pid=$!
  wait_ready "http://127.0.0.1:$port"
  cluster_pid_of=$cluster_pid
}

cluster 1 3102
server=$(sed -n 's/^serveur *: //p' "$work/cluster-1.log" | head -1)
children=$(pgrep -P "$cluster_pid_of" -x dames | sed 's/^/--server-pid /' | tr '\n' ' ')
# shellcheck disable=SC2086
run "one server, PostgreSQL" "$server" $children
kill -INT "$cluster_pid_of"; wait "$cluster_pid_of" || true

cluster 2 3103
children=$(pgrep -P "$cluster_pid_of" -x dames | sed 's/^/--server-pid /' | tr '\n' ' ')
# shellcheck disable=SC2086
run "two servers, one PostgreSQL, behind the proxy" http://127.0.0.1:3103 $children
kill -INT "$cluster_pid_of"; wait "$cluster_pid_of" || true
