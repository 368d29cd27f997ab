#!/usr/bin/env bash
# Builds the desktop app and opens it on $HERMES_HOME (default ~/.hermes).
#
#   scripts/app.sh                 set up, build, open the window
#   scripts/app.sh --build-only    set up and build build/bin/hermes
#   scripts/app.sh -- ARGS         pass ARGS to hermes (e.g. -- runs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

open=1
if [ "${1:-}" = "--build-only" ]; then
  open=0
  shift
fi
[ "${1:-}" = "--" ] && shift

scripts/setup.sh

echo "==> building the frontend"
(cd frontend && npm run build --silent)

# This is what `wails build` runs; calling go directly keeps the build
# quiet and skips the CLI's binding generation, which the UI does not use.
echo "==> building build/bin/hermes"
go build -tags desktop,production -ldflags "-w -s" -o build/bin/hermes .

if [ "$open" -eq 0 ]; then
  echo "built build/bin/hermes"
  exit 0
fi

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ "$#" -eq 0 ]; then
  cat <<'MSG'
There is no display to open the window on. Either
  - run it on a virtual display:  xvfb-run -a -s "-screen 0 1280x800x24" build/bin/hermes
    (scripts/smoke-desktop.sh does that and takes a screenshot), or
  - serve the same UI to a browser:  build/bin/hermes serve
MSG
  exit 0
fi
exec build/bin/hermes "$@"
