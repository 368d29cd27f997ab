#!/usr/bin/env bash
# The bot's cluster load, issue 18's test at full size: REPLICAS (default 3)
# `hermes bot` processes, each with its own home and the same [bot] and
# [cluster] config, share one NATS server with JetStream (run in the bench
# driver from the server module, on loopback, with the scripted model and
# the WeCom API stand-in). USERS users (default 2000) send 5 messages each
# through the signed, encrypted WeCom callback, spread across the replicas,
# open loop at RATE messages a second (default 500: users write when they
# write; RATE 0 sends all at once). The stand-in allows 500 API calls a
# second ([bot] rate_limit is 90% of it, held across the replicas). Once 40% of the messages are
# sent the first replica is killed with SIGKILL and started again on its
# home 2 s later; the callbacks it did not acknowledge go to the next
# replica, as a balancer does; the others take its tasks over after the ack
# wait (3 s). Prints the figures, the load average, and ends with one line:
#   cluster: N messages, L lost, D answered twice, ack p95 X ms, K tasks taken over
# It fails if a message is lost or answered twice, or a task the killed
# replica held is never finished. HERMES_BIN=PATH runs that hermes binary
# instead of building one from this tree; more flags:
# `go run ./bench/clusterbench -h`.
# Usage: bench/cluster.sh [USERS] [RATE] [REPLICAS] [clusterbench flags…]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bin
bin=${HERMES_BIN:-}
if [ -z "$bin" ]; then
  CGO_ENABLED=0 go build -tags headless -o .bin/hermes-bench .
  bin="$PWD/.bin/hermes-bench"
fi
go build -o .bin/clusterbench ./bench/clusterbench
exec .bin/clusterbench -bin "$bin" -users "${1:-2000}" -rate "${2:-500}" -replicas "${3:-3}" "${@:4}"
