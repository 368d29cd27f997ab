#!/usr/bin/env bash
# The eval harness's own cost per run: 1,000 one-iteration runs of a
# 10-task suite through `hermes eval run --parallel 8` against a scripted
# model that answers at once (each run: a fresh copy of its fixture, the
# run started through the home's runner, its log and checkpoint, its result
# checked and kept in hermes.db). Prints the hermes process's CPU per run
# (goal: ≤ 10 ms on 2 cores) and the wall time per run.
# Usage: bench/eval.sh [RUNS] [PARALLEL]   (default 1000 and 8)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000}
parallel=${2:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -tags headless -o "$tmp/hermes" .
go build -o "$tmp/evalbench" ./bench/evalbench
"$tmp/evalbench" -hermes "$tmp/hermes" -tasks 10 -runs "$runs" -parallel "$parallel"
echo
# The same runs on NATS: three hermes worker processes, the first killed
# with SIGKILL once a third of the results are in.
"$tmp/evalbench" -hermes "$tmp/hermes" -tasks 10 -runs "$runs" -parallel "$parallel" -workers 3
