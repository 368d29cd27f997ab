#!/usr/bin/env bash
# The bot's load test at full size, with the load generator in a process of
# its own: USERS users (default 200) send 5 messages each at once through
# the signed, encrypted WeCom callback path to a real `hermes bot` process,
# whose runs ask a scripted model and whose replies go to a local server
# that speaks the WeCom API and refuses calls beyond LIMIT a second (default
# 500; the bot is set to 90% of it). Prints the callback's ack latency
# (target: p95 under 100 ms), the CPU time the bot, the load generator and
# the whole machine used while acking and until the last reply, the WeCom
# API calls made and the TCP connections the bot opened.
# It fails if a reply is lost or reaches the wrong user, the rate limit is
# passed, or the bot does not exit 0 on Ctrl-C. Both processes share this
# machine's cores. HERMES_BIN=PATH measures that hermes binary instead of
# building one from this tree.
# Usage: bench/bot.sh [USERS] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HERMES_BIN:-}
if [ -z "$bin" ]; then
  mkdir -p .bin
  CGO_ENABLED=0 go build -tags headless -o .bin/hermes-bench .
  bin="$PWD/.bin/hermes-bench"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! HERMES_BIN=$bin HERMES_BOT_LOAD_USERS=${1:-200} HERMES_BOT_LOAD_LIMIT=${2:-500} \
  go test -count=1 -run '^$' -bench '^BenchmarkBotLoad$' -benchtime 1x ./bench/botload/ >"$out" 2>&1; then
  cat "$out"
  exit 1
fi
sed -n 's/^ *load_test.go:[0-9]*: bot load: /  /p' "$out"
