#!/usr/bin/env bash
# Sets up this machine to build, run, test and release Hermes: Debian
# packages (GTK, WebKitGTK, Xvfb, Chromium, a CJK font, NSIS, Wine), the Go
# modules, the wails CLI and golangci-lint in .bin/, and the frontend's npm
# packages. Safe to run again: it skips what is already there. Needs Go and
# Node; run as root or with sudo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

step() { printf '==> %s\n' "$*"; }
need() {
  command -v "$1" >/dev/null 2>&1 || { echo "setup: $1 is missing; install $2 first" >&2; exit 1; }
}
need go "Go 1.26"
need node "Node 20"
need npm "npm (it comes with Node)"

# fonts-wqy-microhei gives the Chinese UI real glyphs in screenshots taken on
# machines with no desktop fonts; bench/vault.sh times ripgrep beside search
# and reads peak memory from GNU time. The release (scripts/release.sh)
# needs nsis for the Windows setup program and desktop-file-utils for the
# Linux menu entry; its tests (scripts/test-release.sh) run the setup under
# wine, build a DLL that Wine lacks with the MinGW compiler, and serve the
# update feed with python3. The window's desktop checks
# (scripts/smoke-desktop-os.sh, backend/notify's tests) start a session bus
# with dbus-daemon and click and type in the window with xdotool.
packages=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.0-dev
  xvfb xauth x11-utils imagemagick chromium chromium-driver fonts-wqy-microhei ripgrep time
  nsis desktop-file-utils wine wine64 gcc-mingw-w64-x86-64 python3
  dbus-daemon xdotool)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  step "installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

step "Go modules"
go mod download

# The wails CLI is built from tools/, a module of its own that raises
# golang.org/x/tools so the CLI builds on Go 1.26.
if [ ! -x .bin/wails ] || [ tools/go.sum -nt .bin/wails ]; then
  step "building the wails CLI into .bin/"
  (cd tools && go build -o ../.bin/wails github.com/wailsapp/wails/v2/cmd/wails)
fi

# The Go lint of scripts/test.sh (.golangci.yml), at one version for every
# machine, built from the Go module proxy by this Go so that it reads code
# of the Go version go.mod names.
golangci_version=v2.15.0
if ! .bin/golangci-lint version 2>/dev/null | grep -q "version ${golangci_version#v} "; then
  step "building golangci-lint $golangci_version into .bin/"
  GOBIN="$root/.bin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$golangci_version"
fi

# npm ci replaces node_modules; skip it when the lock file has not changed
# since the last install.
if [ ! -f frontend/node_modules/.package-lock.json ] ||
  [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  step "npm packages of the frontend"
  (cd frontend && npm ci --no-audit --no-fund)
fi
# The real MCP server that the skills tests start over stdio.
if [ ! -f tests/mcp/node_modules/.package-lock.json ] ||
  [ tests/mcp/package-lock.json -nt tests/mcp/node_modules/.package-lock.json ]; then
  step "npm packages of the MCP test server"
  (cd tests/mcp && npm ci --no-audit --no-fund)
fi
# Obsidian's own help vault, its English and Chinese notes at a fixed
# commit, which the vault tests run on where it is here
# (backend/vault/help_test.go): a partial clone fetches only the notes'
# contents. It is optional: where GitHub cannot be reached (CI) the tests
# use their own vault (backend/vault/testdata/helpvault), so a failed or
# slow fetch is said in one line and setup goes on.
help_rev=fa179e91e86eaff5859226cc045c81000d64e3cd
if [ ! -f ".cache/obsidian-help/.rev-$help_rev" ]; then
  step "Obsidian's help vault for the vault tests (optional)"
  rm -rf .cache/obsidian-help
  if ! (export GIT_TERMINAL_PROMPT=0 &&
    git init -q .cache/obsidian-help &&
    cd .cache/obsidian-help &&
    git remote add origin https://github.com/obsidianmd/obsidian-help.git &&
    git sparse-checkout set --no-cone '/en/**/*.md' '/zh/**/*.md' &&
    timeout 60 git fetch -q --depth 1 --filter=blob:none origin "$help_rev" &&
    timeout 60 git checkout -q FETCH_HEAD &&
    rm -rf .git && touch ".rev-$help_rev") 2>/dev/null; then
    rm -rf .cache/obsidian-help
    echo "setup: Obsidian's help vault was not fetched; the vault tests use their own fixture (backend/vault/testdata/helpvault)"
  fi
fi
step "set up"
