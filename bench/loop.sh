#!/usr/bin/env bash
# Prints the agent loop's own overhead per iteration over a 1,000-iteration
# run (context, events, log, checkpoint) against a model and a tool that cost
# nothing, whether it stays flat as the run grows, and the heap at the end;
# then the same run through the real client and a scripted server on loopback.
# Usage: bench/loop.sh [COUNT]   (runs each benchmark COUNT times, default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}

go test -run '^$' -bench '^BenchmarkLoop(HTTP|Plan)?$' -benchtime 1x -count "$count" ./backend/agent/ |
  awk '
    /^Benchmark/ {
      name = $1; sub(/-[0-9]+$/, "", name)
      for (i = 3; i < NF; i += 2) { v[name, $(i+1)] = v[name, $(i+1)] " " $i }
      names[name] = 1
    }
    END {
      for (n in names) {
        printf "%s (1,000 iterations, %s runs)\n", n, '"$count"'
        printf "  per iteration, whole run   %s ms\n", v[n, "ms/iteration"]
        printf "  per iteration, first 100   %s ms\n", v[n, "ms/iter-first100"]
        printf "  per iteration, last 100    %s ms\n", v[n, "ms/iter-last100"]
        printf "  heap at the end            %s MB\n", v[n, "MB-heap-at-end"]
      }
    }'
