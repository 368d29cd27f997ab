#!/usr/bin/env bash
# What each command costs to start: the CPU time (user + sys, from the
# child's rusage) of a hermes process until the command's own start is
# over, beside a Go hello-world built here with the same Go:
#   - the commands that exit by themselves: version, --help, runs (a home
#     without runs and one of 20), config check, tools list, skills list;
#   - the commands that go on, killed at the end of their start: `hermes run`
#     at its first request to the model (the check of the endpoint),
#     `hermes serve` when it prints its URL, `hermes bot` (a generic webhook)
#     when it prints its callback URL.
# The headless build (CGO_ENABLED=0 go build -tags headless .) runs them
# all; `hermes version` also runs in the desktop builds: `go build .`, and
# the window's (-tags desktop,production, as scripts/app.sh builds it) when
# frontend/dist and the GTK and WebKitGTK development packages are there.
# Min, median and max over the rounds, and each median over the
# hello-world's (goal: ≤ 3×); the cases run in turns, round after round, so
# a change in the machine's load falls on all of them alike, each round in
# an order of its own. Each binary is first put in the page cache as a read
# from the disk puts it: one just linked starts slower from the pages the
# linker's writes left there (1.5 ms more of CPU for tools list here). Then
# each build's size.
# HERMES_BIN=PATH measures that headless binary instead, and no other.
# HERMES_BEFORE=PATH also runs the headless cases with that binary (an
# older build, say), in the same turns, each named "(before)".
# Usage: bench/start.sh [ROUNDS]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin=${HERMES_BIN:-}
desktop= window=
if [ -z "$bin" ]; then
  CGO_ENABLED=0 go build -tags headless -o "$tmp/hermes" .
  bin="$tmp/hermes"
  go build -o "$tmp/hermes-desktop" . && desktop="$tmp/hermes-desktop"
  if [ -f frontend/dist/index.html ] && pkg-config --exists gtk+-3.0 webkit2gtk-4.0 2>/dev/null; then
    go build -tags desktop,production -o "$tmp/hermes-window" . && window="$tmp/hermes-window"
  fi
fi
go build -o "$tmp/startbench" ./bench/startbench
go build -o "$tmp/historybench" ./bench/historybench
mkdir -p "$tmp/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }\n' >"$tmp/hello/main.go"
printf 'module hello\n' >"$tmp/hello/go.mod"
(cd "$tmp/hello" && CGO_ENABLED=0 go build -o "$tmp/hello-world" .)

export HERMES_LANG=en OPENAI_API_KEY=sk-bench # the bot starts only with a key
home="$tmp/home"   # hermes.toml as config init writes it, and 20 runs
empty="$tmp/empty" # no runs
live="$tmp/live"   # the home of run and serve, which own it while they run
bothome="$tmp/bot" # [bot] a generic webhook
mkdir -p "$tmp/ws" "$bothome"
"$bin" config init --home "$home" >/dev/null
"$bin" config init --home "$live" >/dev/null
"$bin" config init --home "$empty" >/dev/null
"$tmp/historybench" gen -home "$home" -runs 20 >/dev/null
"$bin" runs --home "$home" >/dev/null 2>&1 # builds the runs' index, once
cat >"$bothome/hermes.toml" <<'EOF'
[bot]
platform = "webhook"
listen = "127.0.0.1:0"
webhook_secret = "bench-secret"
reply_url = "http://127.0.0.1:9/reply"
EOF

t=$'\t'
cases() { # BINARY NAME-SUFFIX: the headless cases of that binary
  local bin=$1 s=$2
  echo "version$s${t}exit${t}$bin version"
  echo "--help$s${t}exit${t}$bin --help"
  echo "runs (none)$s${t}exit${t}$bin runs --home $empty"
  echo "runs (20)$s${t}exit${t}$bin runs --home $home"
  echo "config check$s${t}exit${t}$bin config check --home $home"
  echo "tools list$s${t}exit${t}$bin tools list --home $home"
  echo "skills list$s${t}exit${t}$bin skills list --home $home"
  echo "run$s${t}request${t}$bin run --home $live --workspace $tmp/ws --base-url {url} --model m hello"
  echo "serve$s${t}out:token=${t}$bin serve --home $live --listen 127.0.0.1:0"
  echo "bot$s${t}out:taking callbacks${t}OPENAI_BASE_URL={url} $bin bot --home $bothome"
}
{
  echo "hello-world${t}exit${t}$tmp/hello-world"
  cases "$bin" ""
  [ -z "${HERMES_BEFORE:-}" ] || cases "$HERMES_BEFORE" " (before)"
  [ -z "$desktop" ] || echo "version, go build .${t}exit${t}$desktop version"
  [ -z "$window" ] || echo "version, window build${t}exit${t}$window version"
} >"$tmp/cases"
printf 'load %s, %s rounds\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)" "$rounds"
"$tmp/startbench" -n "$rounds" -base hello-world -lock "$live/hermes.lock" -lock "$bothome/hermes.lock" <"$tmp/cases"

size() { stat -c %s "$1" | awk '{printf "%.1f MB", $1/1e6}'; }
echo
if [ -z "${HERMES_BIN:-}" ]; then
  printf 'headless (CGO_ENABLED=0 go build -tags headless .)   %s\n' "$(size "$bin")"
  [ -z "$desktop" ] || printf 'desktop (go build .)                                 %s\n' "$(size "$desktop")"
  if [ -n "$window" ]; then
    printf 'window (go build -tags desktop,production .)         %s, %s shared libraries\n' "$(size "$window")" "$(ldd "$window" | wc -l)"
  else
    echo 'window (go build -tags desktop,production .): not built (needs frontend/dist and the GTK and WebKitGTK development packages: scripts/setup.sh)'
  fi
fi
