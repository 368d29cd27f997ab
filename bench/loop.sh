#!/usr/bin/env bash
# Prints the agent loop's own overhead per iteration over a 1,000-iteration
# run (context, events, log, checkpoint) against a model and a tool that cost
# nothing, whether it stays flat as the run grows, the time from an
# iteration's end to its checkpoint being durable (synced to disk, off the
# loop's path), and the heap at the end; then the same run through the real
# client and a scripted server on loopback.
# Usage: bench/loop.sh [COUNT] [--busy-disk]
#   COUNT        runs each benchmark COUNT times (default 3)
#   --busy-disk  another writer rewrites and syncs 1 MB chunks on the same disk
set -euo pipefail
cd "$(dirname "$0")/.."
count=3
for arg in "$@"; do
  case $arg in
    --busy-disk) export HERMES_BENCH_BUSY_DISK=1 ;;
    *) count=$arg ;;
  esac
done
disk="no extra disk load"
[[ ${HERMES_BENCH_BUSY_DISK:-} == 1 ]] && disk="busy disk: another writer syncing 1 MB chunks"

go test -run '^$' -bench '^BenchmarkLoop(HTTP|Plan)?$' -benchtime 1x -count "$count" ./backend/agent/ |
  awk -v count="$count" -v disk="$disk" '
    /^Benchmark/ {
      name = $1; sub(/-[0-9]+$/, "", name)
      for (i = 3; i < NF; i += 2) { v[name, $(i+1)] = v[name, $(i+1)] " " $i }
      names[name] = 1
    }
    END {
      for (n in names) {
        printf "%s (1,000 iterations, %s runs, %s)\n", n, count, disk
        # Without HTTP the model costs nothing: the whole run is loop overhead.
        label = n ~ /HTTP/ ? "per iteration, with HTTP  " : "loop overhead per iteration"
        printf "  %s %s ms\n", label, v[n, "ms/iteration"]
        printf "  per iteration, first 100    %s ms\n", v[n, "ms/iter-first100"]
        printf "  per iteration, last 100     %s ms\n", v[n, "ms/iter-last100"]
        printf "  iteration end to durable    p50 %s ms; p95 %s ms\n", v[n, "ms-durable-p50"], v[n, "ms-durable-p95"]
        printf "  heap at the end             %s MB\n", v[n, "MB-heap-at-end"]
      }
    }'
