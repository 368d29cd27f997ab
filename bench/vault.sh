#!/usr/bin/env bash
# Generates a vault of 10,000 notes (about 50 MB, mixed Chinese and English)
# in a temporary directory and prints: the index build time; search_notes
# latency at the 50th and 95th percentile (targets 10 ms and 30 ms); the
# delay from a file change to its being searchable; query_notes by a
# property and by a tag, p50 and p95 (targets 10 ms and 30 ms); rename_note
# of the note most linked to, its links rewritten in every note that links
# to it (goal 1 s); then, as whole
# processes, `hermes tools call search_notes` ÷ `rg -l -i` for the same word
# (goal ≤ 1.0×), and a one-iteration `hermes run` with `[obsidian] vault` set
# ÷ the same run without (goal ≤ 1.1×: a run that calls no vault tool never
# opens the vault, and one whose task says nothing of notes is not sent the
# vault tools' schemas), each with its peak memory. The two sides of a ratio
# run by turns, and each figure shows the load average as it was taken; the
# runs' CPU time, which the machine's load hardly moves, is shown beside
# their wall time.
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

# wall CMD…: the wall time of one run of CMD, in microseconds.
wall() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(((end - start) / 1000))
}
mid() { printf '%s\n' "$@" | sort -n | sed -n "$(($# / 2 + 1))p"; }
# median N CMD…: the median wall time of N runs of CMD, in microseconds.
median() {
  local n=$1 times=()
  shift
  for ((i = 0; i < n; i++)); do times+=("$(wall "$@")"); done
  mid "${times[@]}"
}
# paired N A B: runs the commands in the arrays named A and B by turns, N
# times each, so that both meet the same load; prints both medians.
paired() {
  local -n first=$2 second=$3
  local ta=() tb=()
  for ((i = 0; i < $1; i++)); do
    ta+=("$(wall "${first[@]}")")
    tb+=("$(wall "${second[@]}")")
  done
  echo "$(mid "${ta[@]}") $(mid "${tb[@]}")"
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
# load: the load average as each figure is taken (the machine may be shared).
load() { [ -r /proc/loadavg ] && printf '  [load %s]' "$(cut -d' ' -f1-3 /proc/loadavg)"; echo; }

word=lantern
search=("$tmp/hermes" tools call --home "$tmp/home" --workspace "$tmp/ws" search_notes "{\"query\":\"$word\"}")
ripgrep=(rg -l -i "$word" "$tmp/vault")
"${search[@]}" >/dev/null # warm: the index is built and saved
echo "one word (\"$word\") as a whole process, warm, median of 11 (hermes and rg by turns):"
if command -v rg >/dev/null; then
  read -r h r < <(paired 11 search ripgrep)
else
  h=$(median 11 "${search[@]}")
fi
printf '  hermes tools call search_notes  %s  %s  (ranked, top 10 with snippets)' "$(ms "$h")" "$(rss "${search[@]}")"
load
printf '  grep -ril                       %s  (%s files, unranked)' \
  "$(ms "$(median 11 grep -ril "$word" "$tmp/vault")")" "$(grep -ril "$word" "$tmp/vault" | wc -l)"
load
if command -v rg >/dev/null; then
  printf '  rg -l -i                        %s  %s' "$(ms "$r")" "$(rss "${ripgrep[@]}")"
  load
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
echo "one-iteration hermes run, no vault tool called, 31 of each by turns: median wall [p25–p75], median CPU:"
"$tmp/vaultbench" -paired 31 "${plain[@]}" -- "${withvault[@]}" >"$tmp/paired"
printf '  without a vault                 %s  %s' "$(sed -n 's/^A wall //p' "$tmp/paired")" "$(rss "${plain[@]}")"
load
printf '  with [obsidian] vault set       %s  %s' "$(sed -n 's/^B wall //p' "$tmp/paired")" "$(rss "${withvault[@]}")"
load
printf '  with ÷ without                  %s  (goal ≤ 1.1×)\n' "$(sed -n 's/^B÷A wall //p' "$tmp/paired")"
