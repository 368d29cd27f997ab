#!/usr/bin/env bash
# Sets this machine up (scripts/setup.sh) and runs every test of Hermes:
# go vet, the Go lint, the layering rules, the headless build, the Go tests
# with the race detector, the frontend's lint and unit tests, the web UI in
# headless Chromium, the real desktop window under Xvfb, and a release's
# .deb and Windows setup installed, updated and removed
# (scripts/test-release.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
step() { printf '==> %s\n' "$*"; }

scripts/setup.sh

step "gofmt, and no built binaries in the repository"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "test: gofmt would change: $unformatted; run gofmt -w on them" >&2
  exit 1
fi
while IFS= read -r -d '' f; do
  if [ -f "$f" ] && [ "$(head -c 4 "$f" | tr -d '\0')" = $'\x7fELF' ]; then
    echo "test: $f is a built binary; remove it from git and build it instead" >&2
    exit 1
  fi
done < <(git ls-files -z)

step "go vet"
go vet ./...

# .golangci.yml says what the lint checks. The Windows build is linted in
# the packages hermes.exe is made of, without their tests, which run here
# on Linux; unused is left to the two others, since code that only the
# tests or another system use is not dead.
step "Go lint of the default, headless and Windows builds: no finding allowed"
.bin/golangci-lint run ./...
.bin/golangci-lint run --build-tags headless ./...
GOOS=windows .bin/golangci-lint run --tests=false --disable unused \
  $(GOOS=windows go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' . | sed -n 's|^hermes|.|p')

step "backend/ stays free of Wails"
if go list -deps ./backend/... | grep -q wailsapp; then
  echo "test: a package under backend/ imports Wails; keep Wails in app/ and the root desktop files" >&2
  exit 1
fi

step "headless build without cgo"
CGO_ENABLED=0 go build -tags headless -o /dev/null .

step "Go tests"
go test -race -count=1 ./...

step "frontend lint: tsc --strict and ESLint, no finding allowed"
(cd frontend && npm run lint --silent)

step "frontend unit tests"
(cd frontend && npm test --silent)

step "web UI in headless Chromium"
scripts/e2e.sh

step "desktop window under Xvfb"
scripts/smoke-desktop.sh

step "the window on its desktop under Xvfb (links, folder dialog, notifications, place, one window, drops)"
scripts/smoke-desktop-os.sh --no-build

step "the release, installed as a user installs it (.deb, and the Windows setup under Wine)"
scripts/test-release.sh

step "all tests passed"
