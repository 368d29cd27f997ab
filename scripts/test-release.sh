#!/usr/bin/env bash
# Tests a release the way a user's machine sees it. Builds one with
# scripts/release.sh (the Windows and Linux desktop apps and their
# installers, the headless CLI for the platforms in
# HERMES_RELEASE_PLATFORMS, default "linux/amd64 windows/amd64"), then:
#
#   the .deb    dpkg -i on this machine (apt brings what it depends on), hermes
#               version from /usr/bin/hermes, the headless build (no shared
#               library), and from /usr/lib/hermes/hermes-window, the window
#               build; desktop-file-validate on the installed entry, which runs
#               /usr/bin/hermes; a run; hermes update from either binary
#               refusing to replace a package's file and naming the package; a
#               bare hermes becoming the window build under Xvfb and opening the
#               window (WM_CLASS hermes), and a hermes:// link to a run handed
#               to it (the entry takes the scheme); dpkg -r leaving ~/.hermes;
#   the setup   under Wine, in a prefix of its own: a silent install, hermes on
#               PATH, the hermes:// links (a toast's click) given to hermes.exe,
#               hermes.exe version and a run against the scripted model,
#               hermes.exe update from a feed on loopback while a hermes.exe
#               serve from the install runs, the new version answering and the
#               old binary gone after the next start, setup closing a running
#               Hermes, and the uninstaller keeping %USERPROFILE%\.hermes.
#
# Wine cannot show the window (it lacks WebView2), so the same hermes.exe is
# tested through its commands. Needs root (or sudo) for dpkg; run
# scripts/setup.sh first. It shares Go's build cache with the other builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
step() { printf '==> %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
fail() { printf 'test-release: FAIL: %s\n' "$*" >&2; exit 1; }
start=$SECONDS

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
if dpkg -s hermes >/dev/null 2>&1; then
  fail "a hermes package is installed on this machine; this test installs and removes its own: dpkg -r hermes first"
fi

version=1.0.0
next=1.0.1
tmp=$(mktemp -d)
model_pid="" feed_pid="" serve_pid=""
cleanup() {
  for pid in $serve_pid $feed_pid $model_pid; do kill "$pid" 2>/dev/null || true; done
  [ -n "${WINEPREFIX:-}" ] && timeout 20 wineserver -k 2>/dev/null || true
  dpkg -s hermes >/dev/null 2>&1 && $sudo dpkg -r hermes >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

step "building release $version (scripts/release.sh)"
HERMES_RELEASE_PLATFORMS=${HERMES_RELEASE_PLATFORMS:-linux/amd64 windows/amd64} \
  scripts/release.sh "$version" "$tmp/dist" >"$tmp/release.log" 2>&1 || {
  tail -40 "$tmp/release.log"
  fail "scripts/release.sh failed (its log is above)"
}
dist=$tmp/dist
hermes=$dist/hermes-$version-linux-amd64-headless
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files"
ok "built in $((SECONDS - start)) s; SHA256SUMS matches"
pubkey=$(tail -1 "$dist/hermes-release.pub")

# The next version, for the updates: the Windows binary and the package,
# signed into a copy of the feed served on loopback, as a publisher would.
step "the next version, $next, in a feed on loopback"
feed=$tmp/feed
mkdir -p "$feed"
cp "$dist/feed.json" "$feed/"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -tags desktop,production \
  -ldflags "-s -w -H windowsgui -X main.version=$next" -o "$feed/hermes-$next-windows-amd64.exe" .
cp "$dist/hermes_${version}_amd64.deb" "$feed/hermes_${next}_amd64.deb" # its version does not matter: it is refused
for a in "windows/amd64 binary hermes-$next-windows-amd64.exe" "linux/amd64 package hermes_${next}_amd64.deb"; do
  read -r platform form file <<<"$a"
  "$hermes" release sign --key "$dist/hermes-release.key" --version "$next" --platform "$platform" --form "$form" \
    --url "$file" --feed "$feed/feed.json" "$feed/$file" >/dev/null 2>&1 || fail "release sign $file"
done
python3 -m http.server --bind 127.0.0.1 0 --directory "$feed" >"$tmp/feed.out" 2>&1 &
feed_pid=$!
until grep -q 'port [0-9]*' "$tmp/feed.out" 2>/dev/null; do sleep 0.05; done
feed_url="http://127.0.0.1:$(grep -o 'port [0-9]*' "$tmp/feed.out" | head -1 | cut -d' ' -f2)/feed.json"
ok "$feed_url"

# The scripted model: one look at the workspace, then the answer.
go build -o "$tmp/scriptmodel" ./backend/llm/llmtest/cmd/scriptmodel
cat >"$tmp/script.json" <<'EOF'
[
  {"content": "Looking first.", "tool_calls": [{"id": "c1", "name": "list_files", "arguments": "{\"path\":\".\"}"}]},
  {"content": "The workspace holds notes.md."},
  {"content": "Looking first.", "tool_calls": [{"id": "c1", "name": "list_files", "arguments": "{\"path\":\".\"}"}]},
  {"content": "The workspace holds notes.md."}
]
EOF
"$tmp/scriptmodel" --script "$tmp/script.json" >"$tmp/model.out" 2>&1 &
model_pid=$!
until [ -s "$tmp/model.out" ]; do sleep 0.05; done
model_url=$(head -1 "$tmp/model.out")
mkdir -p "$tmp/ws"
echo "# notes" >"$tmp/ws/notes.md"

home_config() { # a home whose runs take two model calls and that updates from the feed
  printf '[agent]\nstrategy = "react"\n\n[update]\nfeed_url = "%s"\npublic_key = "%s"\ncheck = "manual"\n' \
    "$feed_url" "$pubkey"
}

# ---------------------------------------------------------------- the .deb
step "the .deb: install, run, update, remove"
deb=$dist/hermes_${version}_amd64.deb
if ! $sudo dpkg -i "$deb" >"$tmp/dpkg.out" 2>&1; then
  # What a user's apt install ./hermes.deb does: bring the dependencies.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -f >"$tmp/apt.out" 2>&1 ||
    { cat "$tmp/dpkg.out" "$tmp/apt.out"; fail "the .deb's dependencies cannot be installed"; }
fi
dpkg -s hermes | grep -q '^Status: install ok installed' || fail "dpkg does not list hermes as installed"
[ "$(command -v hermes)" = /usr/bin/hermes ] || fail "hermes is not /usr/bin/hermes on PATH"
[ "$(hermes version)" = "hermes $version" ] || fail "hermes version says $(hermes version), not hermes $version"
ok "installed: $(hermes version)"
# The terminal's hermes is the headless build: a command loads no shared
# library, where the window build loads GTK and WebKitGTK at every start.
window=/usr/lib/hermes/hermes-window
if ldd /usr/bin/hermes >/dev/null 2>&1; then fail "/usr/bin/hermes links shared libraries: it is not the headless build"; fi
[ -x "$window" ] && [ "$("$window" version)" = "hermes $version" ] || fail "$window does not answer hermes $version"
grep -q libwebkit2gtk <<<"$(ldd "$window")" || fail "$window does not link WebKitGTK: it is not the window build"
[ "$(dpkg -S "$window" | cut -d: -f1)" = hermes ] || fail "dpkg does not list $window as the package's"
cpu() { # the mean CPU time of 50 runs of a command, in ms
  /usr/bin/time -f '%U %S' sh -c 'for i in $(seq 50); do "$@" >/dev/null; done' _ "$@" 2>&1 |
    tail -1 | awk '{printf "%.1f", ($1 + $2) * 1000 / 50}'
}
ok "/usr/bin/hermes is the headless build ($(cpu hermes version) ms of CPU for hermes version, $(cpu "$window" version) ms with $window)"
desktop-file-validate /usr/share/applications/hermes.desktop || fail "desktop-file-validate refuses the installed entry"
entry=$(sed -n 's/^Exec=//p' /usr/share/applications/hermes.desktop)
[ "$(command -v "${entry%% *}")" = /usr/bin/hermes ] || fail "the menu entry runs $entry, not /usr/bin/hermes"
for size in 16 32 48 128 256 512; do
  [ -s "/usr/share/icons/hicolor/${size}x$size/apps/hermes.png" ] || fail "no ${size}x$size icon"
done
ok "the menu entry validates and runs $entry, /usr/bin/hermes; its icons are in hicolor"

# A user of the package: a home of their own with a run in it.
user_home=$tmp/user
mkdir -p "$user_home/.hermes"
home_config >"$user_home/.hermes/hermes.toml"
HOME=$user_home OPENAI_BASE_URL=$model_url OPENAI_API_KEY=sk-test hermes run --model scripted \
  --workspace "$tmp/ws" "What is in this folder?" >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out"; fail "hermes run from the package"; }
grep -q "notes.md" "$tmp/run.out" || { cat "$tmp/run.out"; fail "the run's answer is missing"; }
ok "a run against the scripted model"
HOME=$user_home hermes update >"$tmp/update.out" 2>&1 || { cat "$tmp/update.out"; fail "hermes update on the package"; }
grep -q "apt install .*hermes_${next}_amd64.deb" "$tmp/update.out" ||
  { cat "$tmp/update.out"; fail "hermes update does not name the new package and how to install it"; }
[ "$(hermes version)" = "hermes $version" ] || fail "hermes update changed /usr/bin/hermes, which dpkg owns"
ok "hermes update leaves /usr/bin/hermes to dpkg and names the package: $(grep -o 'apt install .*' "$tmp/update.out" | head -1)"
HOME=$user_home "$window" update >"$tmp/wupdate.out" 2>&1 || { cat "$tmp/wupdate.out"; fail "hermes-window update on the package"; }
grep -q "apt install .*hermes_${next}_amd64.deb" "$tmp/wupdate.out" ||
  { cat "$tmp/wupdate.out"; fail "the window build's update does not name the new package"; }
[ "$("$window" version)" = "hermes $version" ] || fail "the window build's update changed $window, which dpkg owns"
ok "so does the window build's, for $window"

# A bare hermes (what the menu entry runs) becomes the window build, in its
# own process, named hermes as the entry's StartupWMClass says.
rm -f "$user_home/.hermes/hermes.lock"
cat >"$tmp/bare.sh" <<'EOF'
hermes ${2:+"$2"} >"$1/window.out" 2>&1 &
pid=$!
# GTK may map and replace a window named Hermes while it starts, so a
# window found can be gone when asked for its class: ask again.
class=""
for _ in $(seq 200); do
  id=$(xwininfo -root -tree 2>/dev/null | awk '/"Hermes( —[^"]*)?"/ {print $1; exit}')
  [ -n "$id" ] && class=$(xprop -id "$id" WM_CLASS 2>/dev/null) && [ -n "$class" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "hermes exited before its window showed"; exit 1; }
  sleep 0.2
done
[ -n "$class" ] || { echo "no window in 40 s"; exit 1; }
echo "exe $(readlink "/proc/$pid/exe")"
echo "args $(tr '\0' ' ' <"/proc/$pid/cmdline")"
echo "$class"
kill -TERM "$pid"
wait "$pid" || true # the smoke test holds the exit code on SIGTERM
EOF
HOME=$user_home timeout 120 xvfb-run -a bash "$tmp/bare.sh" "$tmp" >"$tmp/bare.out" 2>&1 ||
  { cat "$tmp/bare.out" "$tmp/window.out"; fail "a bare hermes did not open the window"; }
grep -qx "exe $window" "$tmp/bare.out" || { cat "$tmp/bare.out"; fail "a bare hermes did not become $window"; }
grep -q 'WM_CLASS(STRING) = "hermes", "Hermes"' "$tmp/bare.out" || { cat "$tmp/bare.out"; fail "the window's WM_CLASS is not hermes"; }
ok "a bare hermes became $window (the same process) and opened the window, WM_CLASS hermes"
# A hermes:// link to a run (a browser's, or a click on a toast elsewhere):
# the menu entry takes the scheme, and the window build gets the link.
grep -qx 'MimeType=x-scheme-handler/hermes;' /usr/share/applications/hermes.desktop || fail "the menu entry does not take hermes:// links"
if [ -f /usr/share/applications/mimeinfo.cache ]; then
  grep -q '^x-scheme-handler/hermes=.*hermes.desktop' /usr/share/applications/mimeinfo.cache ||
    fail "the desktop's database does not send hermes:// links to hermes.desktop"
fi
run_id=$(find "$user_home/.hermes/logs" -name 'run_*.jsonl' | head -1 | sed 's|.*/run_||; s|\.jsonl$||')
[ -n "$run_id" ] || fail "no run in the user's home to link to"
link="hermes://run/$run_id?home=$user_home/.hermes"
rm -f "$user_home/.hermes/hermes.lock"
HOME=$user_home timeout 120 xvfb-run -a bash "$tmp/bare.sh" "$tmp" "$link" >"$tmp/link.out" 2>&1 ||
  { cat "$tmp/link.out" "$tmp/window.out"; fail "hermes with a link to a run did not open the window"; }
grep -qx "exe $window" "$tmp/link.out" && grep -qF "args hermes hermes://run/$run_id?home=" "$tmp/link.out" &&
  grep -q 'WM_CLASS(STRING) = "hermes", "Hermes"' "$tmp/link.out" ||
  { cat "$tmp/link.out"; fail "hermes with a link did not hand it to $window"; }
ok "a hermes:// link to a run opens $window on it (the menu entry takes the scheme)"
before=$(cd "$user_home" && find .hermes -type f -exec sha256sum {} + | sort)
$sudo dpkg -r hermes >/dev/null
[ ! -e /usr/bin/hermes ] && [ ! -e "$window" ] || fail "dpkg -r left /usr/bin/hermes or $window"
[ "$(cd "$user_home" && find .hermes -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "dpkg -r changed ~/.hermes"
ok "dpkg -r removed it and left ~/.hermes as it was"

# ---------------------------------------------------------------- Windows
step "the Windows setup under Wine"
export WINEPREFIX=$tmp/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wine wineboot --init >/dev/null 2>&1
# Wine 8 lacks bcryptprimitives.dll, whose ProcessPrng Go's runtime needs
# since Go 1.22; a stand-in that forwards to RtlGenRandom (tests only).
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
# WebView2 as Windows 11 has it, so setup does not fetch it.
wine reg add 'HKCU\Software\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}' \
  /v pv /d 120.0.2210.91 /f >/dev/null 2>&1
winpath() { wine cmd /c "echo $1" 2>/dev/null | tr -d '\r'; }
appdata=$(winpath '%LOCALAPPDATA%')
install_win="$appdata\\Programs\\Hermes"
install=$(winepath -u "$install_win")
exe="$install_win\\hermes.exe"
home_unix=$(winepath -u "$(winpath '%USERPROFILE%')\\.hermes")

wine "$dist/Hermes-$version-windows-amd64-setup.exe" /S || fail "the silent install exited with $?"
[ -f "$install/hermes.exe" ] && [ -f "$install/uninstall.exe" ] || fail "no hermes.exe and uninstall.exe in $install_win"
wine reg query 'HKCU\Environment' /v Path 2>/dev/null | tr -d '\r' | grep -qiF "$install_win" || fail "the install folder is not on the user's PATH"
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Hermes' >/dev/null 2>&1 || fail "no entry in Apps & features"
find "$WINEPREFIX/drive_c/users" -path '*Start Menu/Programs/Hermes.lnk' | grep -q . || fail "no Start-menu entry"
wine reg query 'HKCU\Software\Classes\hermes' /v 'URL Protocol' >/dev/null 2>&1 || fail "hermes:// is not a URL protocol"
wine reg query 'HKCU\Software\Classes\hermes\shell\open\command' /ve 2>/dev/null | tr -d '\r' |
  grep -qiF "\"$install_win\\hermes.exe\" \"%1\"" || fail "hermes:// links are not given to $install_win\\hermes.exe"
ok "installed into $install_win, on PATH, in the Start menu and Apps & features; hermes:// links open hermes.exe"
[ "$(wine cmd /c hermes version 2>/dev/null | tr -d '\r')" = "hermes $version" ] || fail "hermes on PATH does not answer hermes $version"
set +e
wine cmd /c hermes no-such-command >/dev/null 2>&1
code=$?
set -e
[ "$code" -eq 2 ] || fail "hermes on PATH exited with $code for an unknown command, not 2 (hermes.com passes on hermes.exe's code)"
ok "hermes version, found on PATH: hermes $version; its exit codes come through"

mkdir -p "$home_unix"
home_config >"$home_unix/hermes.toml"
ws_win=$(winepath -w "$tmp/ws")
OPENAI_BASE_URL=$model_url OPENAI_API_KEY=sk-test wine "$exe" run --model scripted --workspace "$ws_win" \
  "What is in this folder?" >"$tmp/wrun.out" 2>&1 || { cat "$tmp/wrun.out"; fail "hermes.exe run"; }
grep -q "notes.md" "$tmp/wrun.out" || { cat "$tmp/wrun.out"; fail "the run's answer is missing"; }
wine "$exe" runs 2>/dev/null | grep -q "What is in this folder" || fail "hermes.exe runs does not list the run"
ok "hermes.exe run against the scripted model; hermes.exe runs lists it"

step "hermes.exe update while hermes.exe serve runs from the install"
start_serve() {
  wine "$exe" serve --listen 127.0.0.1:0 >"$tmp/serve.out" 2>&1 &
  serve_pid=$!
  until grep -q 'token=' "$tmp/serve.out" 2>/dev/null; do
    kill -0 "$serve_pid" 2>/dev/null || { cat "$tmp/serve.out"; fail "hermes.exe serve did not start"; }
    sleep 0.1
  done
}
start_serve
stop_serve() {
  # Wine cannot pass Ctrl-C to it: the server is stopped, and the lock it
  # leaves goes with it, since Wine gives its process id to the next
  # process at once.
  kill "$serve_pid"
  wait "$serve_pid" 2>/dev/null || true
  timeout 20 wineserver -w || true
  rm -f "$home_unix/hermes.lock"
}
if wine "$exe" update >"$tmp/wupdate.out" 2>&1; then
  [ "$(wine "$exe" version 2>/dev/null | tr -d '\r')" = "hermes $next" ] || fail "after the update hermes.exe does not answer hermes $next"
  ok "updated: hermes.exe answers hermes $next while the old one still serves"
  ls "$install" | grep -q '^hermes\.exe\.old-' || fail "the running binary was not moved aside"
  stop_serve
  start_serve
  # The start removes it in the background, once it serves.
  for _ in $(seq 200); do ls "$install" | grep -q '^hermes\.exe\.old-' || break; sleep 0.1; done
  if ls "$install" | grep -q '^hermes\.exe\.old-'; then fail "the moved-aside binary is still there 20 s after the next start"; fi
  ok "the moved-aside binary is gone once hermes.exe serve starts again"
else
  cat "$tmp/wupdate.out"
  fail "hermes.exe update"
fi

step "setup closes a running Hermes, and the uninstaller keeps the home"
wine "$dist/Hermes-$version-windows-amd64-setup.exe" /S || fail "setup over a running Hermes exited with $?"
if kill -0 "$serve_pid" 2>/dev/null; then fail "setup left the hermes.exe serve of the install running"; fi
wait "$serve_pid" 2>/dev/null || true
serve_pid=""
[ "$(wine "$exe" version 2>/dev/null | tr -d '\r')" = "hermes $version" ] || fail "setup did not install hermes $version"
ok "setup stopped the running hermes.exe serve and installed $version"
rm -f "$home_unix/hermes.lock"
before=$(cd "$home_unix" && find . -type f -exec sha256sum {} + | sort)
wine "$install_win\\uninstall.exe" /S
timeout 60 wineserver -w || true
[ ! -e "$install/hermes.exe" ] && [ ! -e "$install/uninstall.exe" ] || fail "the uninstaller left files in $install_win"
if wine reg query 'HKCU\Environment' /v Path 2>/dev/null | tr -d '\r' | grep -qiF "$install_win"; then fail "the uninstaller left the folder on PATH"; fi
if find "$WINEPREFIX/drive_c/users" -path '*Start Menu/Programs/Hermes.lnk' | grep -q .; then fail "the Start-menu entry is left"; fi
if wine reg query 'HKCU\Software\Classes\hermes' >/dev/null 2>&1; then fail "the uninstaller left the hermes:// protocol"; fi
[ "$(cd "$home_unix" && find . -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "the uninstaller changed %USERPROFILE%\\.hermes"
ok "uninstalled; %USERPROFILE%\\.hermes is as it was"

step "release tests passed in $((SECONDS - start)) s"
