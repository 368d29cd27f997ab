#!/usr/bin/env bash
# Prints what the context manager saves on a long task: the same scripted
# run (30 reads of 20 KB pages, then the answer, through the real client and
# a scripted server on loopback) with the context manager and with plain
# appending (no compression, no cutting), the tokens sent per request and in
# total for both; then the time to lay out a request of 200 turns from
# nothing, as after a compression or on resume.
# Targets: managed total at most 40% of plain appending; 200 turns under 1 ms.
# Usage: bench/context.sh
set -euo pipefail
cd "$(dirname "$0")/.."

go test -run '^$' -bench '^BenchmarkContextLongTask$' -benchtime 1x -v ./backend/agent/ |
  awk '
    /(managed|plain): [0-9]+ requests/ {
      sub(/^.*_test.go:[0-9]+: /, "")
      mode = $1; sub(/:$/, "", mode)
      list = $0; sub(/^.*tokens per request \[/, "", list); sub(/\].*$/, "", list)
      total = $NF
      printf "%-8s %s requests, %s tokens in total\n  per request: %s\n", mode, $2, total, list
      totals[mode] = total
    }
    END {
      if (totals["plain"] > 0) printf "managed / plain: %.1f%% (target: at most 40%%)\n", 100 * totals["managed"] / totals["plain"]
    }'

go test -run '^$' -bench '^BenchmarkBuild200Turns$' -benchtime 2000x -count 3 ./backend/contextmgr/ |
  awk '/^BenchmarkBuild200Turns/ { printf "lay out 200 turns: %.3f ms (target: under 1 ms)\n", $3 / 1e6 }'
