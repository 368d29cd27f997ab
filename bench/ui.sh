#!/usr/bin/env bash
# Prints how the timeline copes with a long run: a generated run of 1,000
# iterations (about 10,000 events, written through the real emitter and run
# log) opened in headless Chromium through `hermes serve`, and a live run
# against the scripted model, each in four pages open at once in one browser
# (each page holds one event stream; a browser allows six connections to a
# host). Targets: first render <= 1 s, scrolling frames <= 16 ms at the 95th
# percentile, live event to card <= 50 ms at the 95th percentile in the page
# in front (the one a person watches; the pages behind it are printed too).
# HERMES_BENCH_PAGES=N opens N pages; HERMES_BENCH_PROFILE=1 builds the UI
# unminified and prints where the live page in front spends its script time
# (self time, and total time with what each function called), and traces the
# browser for the paints and tiles rastered per change drawn; its figures are
# then the unminified, profiled and traced build's, not comparable with the
# others. Tracing is only on with HERMES_BENCH_PROFILE: it slows the browser
# (about twice the event-to-card p95 in a paired run).
# Usage: bench/ui.sh [ITERATIONS]   (run scripts/setup.sh first)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
n=${1:-1000}
mkdir -p .bin
# Profiling reads the functions' names: the UI is built unminified then.
if [ -n "${HERMES_BENCH_PROFILE:-}" ]; then
  (cd frontend && npm run typecheck --silent && npx vite build --minify false >/dev/null)
else
  (cd frontend && npm run build --silent >/dev/null)
fi
CGO_ENABLED=0 go build -tags headless,ui -o .bin/hermes-serve .
go build -o .bin/scriptmodel ./backend/llm/llmtest/cmd/scriptmodel

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$(go run ./bench/uigen -iterations "$n" "$tmp/home")

# The figures are only as quiet as the machine: the load average is printed beside them.
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
load_before=$(load)
cd frontend
HERMES_BIN="$root/.bin/hermes-serve" \
  HERMES_SCRIPTMODEL="$root/.bin/scriptmodel" \
  HERMES_BENCH_HOME="$tmp/home" \
  HERMES_BENCH_RUN="$run" \
  HERMES_BENCH_OUT="$tmp/figures.json" \
  npx vitest run --config vitest.bench.config.ts >"$tmp/vitest.log" 2>&1 || status=$?
# A failed check (a page that never loaded, too few live cards on a loaded
# machine) is shown, then the figures measured so far, and the exit says so.
if [ "${status:-0}" -ne 0 ]; then tail -40 "$tmp/vitest.log"; fi
[ -s "$tmp/figures.json" ] || exit 1
load_after=$(load)
# HERMES_BENCH_PROFILE=1: the profile the bench logged.
if [ -n "${HERMES_BENCH_PROFILE:-}" ]; then grep -A170 "trace, ms by event" "$tmp/vitest.log" || true; fi

node -e '
const f = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
const row = (name, value, unit, target) => {
  // Figures only some runs measure (paints and raster need HERMES_BENCH_PROFILE) are left out.
  if (typeof value !== "number" || !Number.isFinite(value)) return
  const ok = target === undefined ? "" : value <= target ? "  ok" : `  over the target of ${target} ${unit}`
  console.log(`  ${name.padEnd(54)} ${String(Math.round(value * 10) / 10).padStart(8)} ${unit}${ok}`)
}
console.log(`UI benchmark (${f.events} events in the long run; ${f.live_pages} run pages open at once in one browser)`)
row("first render of the timeline, 1,000 iterations", f.first_render_ms, "ms", 1000)
row("  of which the events arrived by", f.first_render_fetched_ms, "ms")
row(`scrolling end to end, frame p95 (${f.scroll_frames} frames)`, f.scroll_frame_p95_ms, "ms", 16)
row("scrolling end to end, frame p50", f.scroll_frame_p50_ms, "ms")
row("machine: a fixed script loop, before the live run", f.machine_loop_ms, "ms")
// The page in front is the one a person watches; Chromium draws the pages
// behind it a few times a second, where a desktop browser would hide them.
row(`live: event to card, p95, the page in front (${f.live_front_cards} cards)`, f.live_front_delay_p95_ms, "ms", 50)
row("live: event to card, p50, the page in front", f.live_front_delay_p50_ms, "ms")
// The pages behind fold at their frames, about once a second: their cards come in then.
row(`  p95 of all ${f.live_pages} pages pooled (${f.live_cards} cards)`, f.live_delay_p95_ms, "ms")
row(`  p50 of all ${f.live_pages} pages pooled`, f.live_delay_p50_ms, "ms")
row("  p95 of the best page", f.live_delay_p95_best_page_ms, "ms")
row("  p95 of the worst page", f.live_delay_p95_worst_page_ms, "ms")
// When the card is first painted (the render time of Element Timing): what a person sees.
row("live: event to the card painted, p95, the page in front", f.live_front_shown_p95_ms, "ms")
row("  p95 of the pages behind", f.live_behind_shown_p95_ms, "ms")
row("live: event to a client outside the browser, p95", f.live_server_p95_ms, "ms")
// CPU time, not wall-clock: comparable across a busy and a quiet machine.
row("live: page CPU (renderer) per iteration", f.live_renderer_cpu_ms_per_iteration, "ms")
row("  the whole browser, per iteration and page", f.live_browser_cpu_ms_per_iteration, "ms")
row("live: cores the browser used", f.live_browser_cores, "")
row("live: changes drawn per iteration, each page", f.live_draws_per_iteration, "")
row("live: page CPU per change drawn", f.live_renderer_cpu_ms_per_draw, "ms")
row("live: main thread per change drawn", f.live_main_ms_per_draw, "ms")
row("live: layouts per change drawn", f.live_layouts_per_draw, "")
row("live: paints per change drawn (profile only)", f.live_paints_per_draw, "")
row("  paint time per change drawn", f.live_paint_ms_per_draw, "ms")
row("live: tiles rastered per change drawn", f.live_raster_tiles_per_draw, "")
row("  raster time per change drawn", f.live_raster_ms_per_draw, "ms")
// Main-thread task time as Chromium counts it: wall-clock of its tasks, so it grows on a busy machine.
row("live: main thread per iteration, each page", f.live_main_ms_per_iteration, "ms")
row("  of which script", f.live_script_ms_per_iteration, "ms")
row("  of which layout and style", f.live_layout_ms_per_iteration, "ms")
row("  layouts per iteration", f.live_layouts_per_iteration, "")
row("live: main thread busy, share of the live run", f.live_main_busy * 100, "%")
' "$tmp/figures.json"
echo "  load average (1, 5, 15 min): before $load_before, after $load_after"
exit "${status:-0}"
