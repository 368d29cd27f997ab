#!/usr/bin/env bash
# Smoke check of the real desktop window: opens build/bin/hermes under Xvfb
# on a temp home holding real run logs, waits until the window shows the
# runs list, takes a screenshot ($HERMES_ARTIFACTS/desktop.png, default
# .artifacts/), then closes the app with SIGTERM. Fails if the window never
# shows the list or the app does not exit cleanly.
#
#   scripts/smoke-desktop.sh            build with scripts/app.sh --build-only first
#   scripts/smoke-desktop.sh --no-build use the build/bin/hermes that is there
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export HERMES_ARTIFACTS="${HERMES_ARTIFACTS:-$root/.artifacts}"
mkdir -p "$HERMES_ARTIFACTS"

if [ "${1:-}" = "--inside-xvfb" ]; then
  shot="$HERMES_ARTIFACTS/desktop.png"
  rm -f "$shot"
  build/bin/hermes --home "$HERMES_HOME" &
  pid=$!
  # The runs list is drawn when the status badges are: look for the colours
  # of the "finished" and "stopped by guard" badges on screen.
  shown=0
  deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "smoke: the app exited before its window showed" >&2
      break
    fi
    if xwininfo -root -tree | grep -q '"Hermes"'; then
      import -window root "$shot"
      colours=$(convert "$shot" -format %c histogram:info:-)
      if grep -qi '#DCFCE7' <<<"$colours" && grep -qi '#FEF3C7' <<<"$colours"; then
        shown=1
        break
      fi
    fi
    sleep 0.5
  done
  code=0
  if kill -TERM "$pid" 2>/dev/null; then
    wait "$pid" || code=$?
  else
    wait "$pid" || code=$?
    echo "smoke: the app had already exited with $code" >&2
    exit 1
  fi
  if [ "$shown" -ne 1 ]; then
    echo "smoke: the window never showed the runs list (last screenshot: $shot)" >&2
    exit 1
  fi
  if [ "$code" -ne 0 ]; then
    echo "smoke: the app exited with $code on SIGTERM" >&2
    exit 1
  fi
  echo "smoke: the window showed the runs list and closed cleanly; screenshot $shot"
  exit 0
fi

[ "${1:-}" = "--no-build" ] || scripts/app.sh --build-only

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./backend/server/servertest/mkhome "$tmp/home" >/dev/null
HERMES_HOME="$tmp/home" HERMES_LANG=en \
  xvfb-run -a -s "-screen 0 1280x800x24" "$0" --inside-xvfb
