#!/usr/bin/env bash
# Writes 2,000 run logs (about 190 KB each, as an older Hermes wrote them:
# no summaries in hermes.db) into a temporary home and prints, with the
# goals beside them:
#   - the first `hermes runs` (it builds the index from the logs, once);
#   - `hermes runs` (a page of 20) and `--limit 200`, whole process: median
#     time and bytes read (rchar, from /proc: page cache or disk alike);
#   - `hermes runs show PREFIX` (resolved by a seek in the index);
#   - `hermes runs` and `hermes runs show PREFIX` while `hermes serve` owns
#     the home and holds hermes.db for a live run (they ask it for a page);
#   - `hermes runs` while a process that is no owner holds hermes.db (reads
#     the logs);
#   - GET /api/runs?limit=50 from `hermes serve`: the first request of a new
#     process (cold) and the median of 21 more (warm), and the size of the page.
# Usage: bench/history.sh [RUNS]   (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2000}
tmp=$(mktemp -d)
serve_pid=
model_pid=
trap '[ -z "$serve_pid" ] || kill "$serve_pid"; [ -z "$model_pid" ] || kill "$model_pid"; rm -rf "$tmp"' EXIT

go build -tags headless -o "$tmp/hermes" .
go build -o "$tmp/historybench" ./bench/historybench
go build -o "$tmp/scriptmodel" ./backend/llm/llmtest/cmd/scriptmodel
hb="$tmp/historybench"
home="$tmp/home"
echo "writing $runs runs…"
"$hb" gen -home "$home" -runs "$runs"
printf 'logs                                %s runs, %s MB\n' \
  "$(find "$home/logs" -name 'run_*.jsonl' | wc -l)" "$(du -sb "$home/logs" | awk '{printf "%.0f", $1/1e6}')"
export HERMES_LANG=en

printf 'first hermes runs (builds index)    %s\n' "$("$hb" time -n 1 -- "$tmp/hermes" runs --home "$home")"
# The index trusts a day folder changed in the last 2 s only after it settles.
sleep 2
"$tmp/hermes" runs --home "$home" >/dev/null 2>&1
printf 'hermes.db                           %s MB (read through mmap: not in rchar below)\n' "$(du -b "$home/hermes.db" | awk '{printf "%.1f", $1/1e6}')"
printf 'hermes runs (20)                    %s  (goal ≤ 50 ms, independent of the runs beyond the page)\n' \
  "$("$hb" time -n 11 -- "$tmp/hermes" runs --home "$home")"
printf 'hermes runs --limit 200             %s\n' "$("$hb" time -n 11 -- "$tmp/hermes" runs --home "$home" --limit 200)"
printf 'hermes runs --status stopped        %s\n' "$("$hb" time -n 11 -- "$tmp/hermes" runs --home "$home" --status stopped)"
prefix=$(find "$home/logs" -name 'run_*.jsonl' | sort | sed -n "$((runs / 2))p" | sed 's/.*run_//; s/\.jsonl$//' | cut -c1-17)
printf 'hermes runs show %s   %s  (goal ≤ 60 ms)\n' "$prefix" "$("$hb" time -n 11 -- "$tmp/hermes" runs show --home "$home" "$prefix")"

# A model that holds its first answer, so a run started in serve stays live.
echo '[{"content": "working on it", "hold": true}]' >"$tmp/script.json"
"$tmp/scriptmodel" --script "$tmp/script.json" >"$tmp/model.out" 2>&1 &
model_pid=$!
until [ -s "$tmp/model.out" ]; do sleep 0.05; done
model_url=$(head -1 "$tmp/model.out")
OPENAI_BASE_URL=$model_url OPENAI_API_KEY=sk-bench "$tmp/hermes" serve --home "$home" --listen 127.0.0.1:0 >"$tmp/serve.out" 2>&1 &
serve_pid=$!
until grep -q 'token=' "$tmp/serve.out" 2>/dev/null; do sleep 0.05; done
url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$tmp/serve.out" | head -1)
read -r cold cu warm wu size su <<<"$("$hb" get -url "$url" -n 21 '/api/runs?limit=50')"
printf 'GET /api/runs?limit=50 cold         %s %s  (goal ≤ 20 ms)\n' "$cold" "$cu"
printf 'GET /api/runs?limit=50 warm         %s %s, %s %s a page\n' "$warm" "$wu" "$size" "$su"
read -r cold cu warm wu size su <<<"$("$hb" get -url "$url" -n 5 '/api/runs')"
printf 'GET /api/runs (unpaged, old shape)  %s %s cold, %s %s warm, %s %s\n' "$cold" "$cu" "$warm" "$wu" "$size" "$su"

# A live run in serve holds hermes.db; hermes runs asks serve for the page.
token=${url##*token=}
curl -fsS -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"task":"hold hermes.db while the bench lists"}' "${url%%/\?*}/api/runs" >/dev/null
until curl -fsS "${model_url%/v1}/state" | grep -q '"waiting":1'; do sleep 0.05; done
if ! flock -n "$home/hermes.db" true 2>/dev/null; then
  printf 'hermes runs, serve owns and holds   %s  (asks serve for the page; goal ≤ 50 ms)\n' \
    "$("$hb" time -n 11 -- "$tmp/hermes" runs --home "$home")"
  printf 'hermes runs show PREFIX, same       %s  (goal ≤ 60 ms)\n' \
    "$("$hb" time -n 11 -- "$tmp/hermes" runs show --home "$home" "$prefix")"
else
  echo 'serve did not hold hermes.db for its live run; the attached case is not measured'
fi
kill "$serve_pid" "$model_pid"
wait "$serve_pid" "$model_pid" 2>/dev/null || true
serve_pid= model_pid=

# A process that holds hermes.db without owning the home (no hermes.lock
# to ask): hermes runs reads the logs. Simulated by holding the file's lock
# with flock(1).
if command -v flock >/dev/null; then
  printf 'hermes runs, store held elsewhere   %s  (reads the logs)\n' \
    "$(flock "$home/hermes.db" "$hb" time -n 3 -- "$tmp/hermes" runs --home "$home")"
fi
