#!/usr/bin/env bash
# The bot's load test at full size: USERS users (default 200) send 5
# messages each at once through the signed, encrypted WeCom callback path to
# a real `hermes bot` handler, whose runs ask a scripted model and whose
# replies go to a local server that speaks the WeCom API and refuses calls
# beyond LIMIT a second (default 500; the bot is set to 90% of it). Prints
# the callback's ack latency (target: p95 under 100 ms), the time spent in
# the handler itself, and the WeCom API calls made. The test fails if a
# reply is lost, reaches the wrong user, or the rate limit is passed.
# The load generator runs on the same machine and shares its cores.
# Usage: bench/bot.sh [USERS] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/.."
HERMES_BOT_LOAD_USERS=${1:-200} HERMES_BOT_LOAD_LIMIT=${2:-500} \
  go test -count=1 -run '^TestBot_Load$' -v ./backend/bot/ |
  sed -n 's/^ *load_test.go:[0-9]*: bot load: /  /p; /^--- \|^FAIL\|^ok/p'
