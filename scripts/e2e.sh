#!/usr/bin/env bash
# End-to-end test of the web UI: builds the frontend, a headless hermes with
# the UI embedded and the scripted model process, writes real run logs into a
# temp home, and drives `hermes serve` with headless Chromium (frontend/e2e):
# past runs, and live runs steered from the page against the scripted model.
# Screenshots go to $HERMES_ARTIFACTS (default .artifacts/). Run
# scripts/setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export HERMES_ARTIFACTS="${HERMES_ARTIFACTS:-$root/.artifacts}"
mkdir -p "$HERMES_ARTIFACTS" .bin

echo "==> building the frontend and hermes (-tags headless,ui)"
(cd frontend && npm run build --silent)
CGO_ENABLED=0 go build -tags headless,ui -o .bin/hermes-serve .
go build -o .bin/scriptmodel ./backend/llm/llmtest/cmd/scriptmodel
go build -o .bin/clusterreplica ./backend/cluster/clustertest/cmd/clusterreplica

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/empty"
go run ./backend/server/servertest/mkhome "$tmp/home" >"$tmp/expected.json"

echo "==> end-to-end tests in headless Chromium"
cd frontend
HERMES_BIN="$root/.bin/hermes-serve" \
  HERMES_SCRIPTMODEL="$root/.bin/scriptmodel" \
  HERMES_CLUSTERREPLICA="$root/.bin/clusterreplica" \
  HERMES_E2E_HOME="$tmp/home" \
  HERMES_E2E_EMPTY_HOME="$tmp/empty" \
  HERMES_E2E_EXPECTED="$tmp/expected.json" \
  npm run e2e --silent
