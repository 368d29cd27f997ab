#!/usr/bin/env bash
# Generates a vault of 10,000 notes (about 50 MB, mixed Chinese and English)
# in a temporary directory and prints: the index build time; search_notes
# latency at the 50th and 95th percentile (targets 10 ms and 30 ms); the
# delay from a file change to its being searchable; then, as whole
# processes, `hermes tools call search_notes` ÷ `rg -l -i` for the same word
# (goal ≤ 1.0×), and a one-iteration `hermes run` with `[obsidian] vault` set
# ÷ the same run without (goal ≤ 1.1×: a run that calls no vault tool never
# opens the vault), each with its peak memory.
# Usage: bench/vault.sh [NOTES]   (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
notes=${1:-10000}
tmp=$(mktemp -d)
model_pid=
trap '[ -z "$model_pid" ] || kill "$model_pid"; rm -rf "$tmp"' EXIT

go build -tags headless -o "$tmp/hermes" .
go build -o "$tmp/vaultbench" ./bench/vaultbench
echo "generating $notes notes…"
go run ./bench/vaultgen -dir "$tmp/vault" -notes "$notes"
printf 'vault                         %s notes, %s MB\n' \
  "$(find "$tmp/vault" -name '*.md' | wc -l)" "$(du -sb "$tmp/vault" | awk '{printf "%.1f", $1/1e6}')"

mkdir -p "$tmp/home" "$tmp/ws"
"$tmp/vaultbench" -vault "$tmp/vault" -home "$tmp/home"
printf "[obsidian]\nvault = '%s'\n" "$tmp/vault" >"$tmp/home/hermes.toml"

# median N CMD…: the median wall time of N runs of CMD, in microseconds.
median() {
  local n=$1 times=()
  shift
  for ((i = 0; i < n; i++)); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$((n / 2 + 1))p"
}
# rss CMD…: the peak resident memory of one run of CMD, in MB.
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>&1
    awk '{printf "%.0f MB", $1/1024}' "$tmp/rss"
  else
    echo "(GNU time is not installed: scripts/setup.sh installs it)"
  fi
}
ms() { awk -v us="$1" 'BEGIN{printf "%.1f ms", us/1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f×", a/b}'; }

word=lantern
search=("$tmp/hermes" tools call --home "$tmp/home" --workspace "$tmp/ws" search_notes "{\"query\":\"$word\"}")
"${search[@]}" >/dev/null # warm: the index is built and saved
echo "one word (\"$word\") as a whole process, warm, median of 11:"
h=$(median 11 "${search[@]}")
printf '  hermes tools call search_notes  %s  %s  (ranked, top 10 with snippets)\n' "$(ms "$h")" "$(rss "${search[@]}")"
printf '  grep -ril                       %s  (%s files, unranked)\n' \
  "$(ms "$(median 11 grep -ril "$word" "$tmp/vault")")" "$(grep -ril "$word" "$tmp/vault" | wc -l)"
if command -v rg >/dev/null; then
  r=$(median 11 rg -l -i "$word" "$tmp/vault")
  printf '  rg -l -i                        %s  %s\n' "$(ms "$r")" "$(rss rg -l -i "$word" "$tmp/vault")"
  printf '  search_notes ÷ rg               %s  (goal ≤ 1.0×)\n' "$(ratio "$h" "$r")"
else
  echo "  rg -l -i                        (ripgrep is not installed: scripts/setup.sh installs it)"
fi

# A model on loopback that answers at once: the run's cost is Hermes's own.
"$tmp/vaultbench" -serve-model >"$tmp/model.url" &
model_pid=$!
until [ -s "$tmp/model.url" ]; do sleep 0.05; done
url=$(cat "$tmp/model.url")
mkdir -p "$tmp/plain" "$tmp/withvault"
printf "[model]\nbase_url = '%s'\nmodel = 'bench'\n" "$url" >"$tmp/plain/hermes.toml"
cp "$tmp/plain/hermes.toml" "$tmp/withvault/hermes.toml"
printf "[obsidian]\nvault = '%s'\n" "$tmp/vault" >>"$tmp/withvault/hermes.toml"
cp -r "$tmp/home/index" "$tmp/withvault/" # the index a previous process built
plain=("$tmp/hermes" run --home "$tmp/plain" --workspace "$tmp/ws" "say done")
withvault=("$tmp/hermes" run --home "$tmp/withvault" --workspace "$tmp/ws" "say done")
"${plain[@]}" >/dev/null 2>&1
"${withvault[@]}" >/dev/null 2>&1
echo "one-iteration hermes run, no vault tool called, median of 11:"
p=$(median 11 "${plain[@]}")
w=$(median 11 "${withvault[@]}")
printf '  without a vault                 %s  %s\n' "$(ms "$p")" "$(rss "${plain[@]}")"
printf '  with [obsidian] vault set       %s  %s\n' "$(ms "$w")" "$(rss "${withvault[@]}")"
printf '  with ÷ without                  %s  (goal ≤ 1.1×)\n' "$(ratio "$w" "$p")"
