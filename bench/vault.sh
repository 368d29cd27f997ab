#!/usr/bin/env bash
# Generates a vault of 10,000 notes (about 50 MB, mixed Chinese and English)
# in a temporary directory and prints: the index build time; search_notes
# latency at the 50th and 95th percentile (targets 10 ms and 30 ms); the
# time of `hermes tools call search_notes` as a whole process beside
# `grep -ril` and `rg -l` for the same word; and the delay from a file
# change to its being searchable.
# Usage: bench/vault.sh [NOTES]   (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
notes=${1:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -tags headless -o "$tmp/hermes" .
echo "generating $notes notes…"
go run ./bench/vaultgen -dir "$tmp/vault" -notes "$notes"
printf 'vault                         %s notes, %s MB\n' \
  "$(find "$tmp/vault" -name '*.md' | wc -l)" "$(du -sb "$tmp/vault" | awk '{printf "%.1f", $1/1e6}')"

mkdir -p "$tmp/home"
go run ./bench/vaultbench -vault "$tmp/vault" -home "$tmp/home"
printf "[obsidian]\nvault = '%s'\n" "$tmp/vault" >"$tmp/home/hermes.toml"

# One word, searched five ways; each command runs 5 times, the median is shown.
word=lantern
median() {
  local times=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | awk '{printf "%.1f ms", $1/1000}'
}
echo "one word (\"$word\") as a whole process, median of 5:"
printf '  hermes tools call search_notes  %s  (ranked, top 10 with snippets; opens the index)\n' \
  "$(median "$tmp/hermes" tools call --home "$tmp/home" --workspace "$tmp" search_notes "{\"query\":\"$word\"}")"
printf '  grep -ril                       %s  (%s files, unranked)\n' \
  "$(median grep -ril "$word" "$tmp/vault")" "$(grep -ril "$word" "$tmp/vault" | wc -l)"
if command -v rg >/dev/null; then
  printf '  rg -l -i                        %s\n' "$(median rg -l -i "$word" "$tmp/vault")"
else
  echo "  rg -l -i                        (ripgrep is not installed: scripts/setup.sh installs it)"
fi
