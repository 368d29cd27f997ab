#!/usr/bin/env bash
# The bot's cluster load: REPLICAS (default 3) `hermes bot` replicas share
# one NATS server with JetStream; USERS users (default 200) send 5 messages
# each at once through the signed, encrypted WeCom callback, spread across
# the replicas, to a local stand-in of the WeCom API that allows LIMIT calls
# a second (default 500, the company's limit; each replica keeps to its
# share); once every callback is acknowledged one replica is cut off NATS
# with the tasks it holds, which the others take over after the ack wait.
# The replicas, the NATS server and the stand-ins run in one process (this
# slice of issue 18); the load generator shares it. Prints the figures and
# ends with one line:
#   cluster: N messages, L lost, D answered twice, ack p95 X ms, K tasks taken over
# It fails if a message is lost or answered twice.
# Usage: bench/cluster.sh [USERS] [REPLICAS] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bin
go build -o .bin/clusterbench ./bench/clusterbench
exec .bin/clusterbench -users "${1:-200}" -replicas "${2:-3}" -limit "${3:-500}"
