#!/usr/bin/env bash
# Builds a release of Hermes into OUT, from this Debian machine:
#
#   scripts/release.sh VERSION OUT
#
#   Hermes-VERSION-windows-amd64-setup.exe  the desktop app's Windows setup program
#   hermes-VERSION-windows-amd64.exe        the same hermes.exe, bare
#   hermes_VERSION_amd64.deb                the desktop app as a Debian/Ubuntu package: the
#                                           headless build as /usr/bin/hermes, the window
#                                           build as /usr/lib/hermes/hermes-window
#   hermes-VERSION-linux-amd64.tar.gz       the window build alone, for other distributions
#   hermes-VERSION-linux-amd64              its binary, bare (what a tar.gz install updates from)
#   hermes-VERSION-OS-ARCH-headless[.exe]   the CLI without the window, for linux,
#                                           windows and darwin on amd64 and arm64
#   SHA256SUMS, feed.json                   checksums; the update feed, signed
#
# The macOS app cannot be built here (it needs cgo and Apple's SDK):
# docs/release.md has the commands for a Mac. The feed is signed with the
# key in HERMES_RELEASE_KEY (a file from hermes release keygen) and the
# password in HERMES_RELEASE_PASSWORD; without a key, a throwaway one is
# made in OUT and said so. HERMES_RELEASE_NOTES, HERMES_RELEASE_NOTES_ZH and
# HERMES_RELEASE_CHANNEL ("beta") go into the feed. HERMES_RELEASE_PLATFORMS
# limits the headless builds (default: "linux/amd64 linux/arm64
# windows/amd64 windows/arm64 darwin/amd64 darwin/arm64"; the Windows and
# Linux desktop builds are always made). Runs scripts/setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
step() { printf '==> %s\n' "$*"; }
die() { echo "release: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: scripts/release.sh VERSION OUT (e.g. scripts/release.sh 1.2.0 dist)"
version=${1#v}
[[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
  die "VERSION must be a semantic version such as 1.2.0 or 1.3.0-beta.1, not $1"
version4="${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.${BASH_REMATCH[3]}.0"
# A Debian version sorts "~" before the release, as semver does "-".
debversion=${version/-/\~}
mkdir -p "$2"
out=$(cd "$2" && pwd)

scripts/setup.sh
for tool in makensis dpkg-deb desktop-file-validate convert objdump; do
  command -v "$tool" >/dev/null || die "$tool is missing; run scripts/setup.sh"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ldflags="-X main.version=$version"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}

step "the frontend"
(cd frontend && npm run build --silent)

# The icon, manifest and version information of every Windows build: a
# .syso per architecture in the main package, which go build links into
# that architecture's Windows builds only (by its name) and which is
# removed when the script ends.
step "Windows resources"
(cd tools && go build -o "$work/winres" ./winres)
syso=()
trap 'rm -rf "$work" "${syso[@]}"' EXIT
for arch in amd64 arm64; do
  syso+=("$root/zz_release_windows_$arch.syso")
  "$work/winres" -png build/appicon.png -manifest build/windows/hermes.exe.manifest \
    -info build/windows/info.json -version "$version" -arch "$arch" \
    -syso "$root/zz_release_windows_$arch.syso" -ico "$work/hermes.ico"
done

# Each build is reproducible from the version and the commit: no paths, no
# build IDs, the same flags every time.
gobuild() { go build -trimpath "$@"; }

read -ra platforms <<<"${HERMES_RELEASE_PLATFORMS:-linux/amd64 linux/arm64 windows/amd64 windows/arm64 darwin/amd64 darwin/arm64}"
# The host's own headless build signs the feed.
[[ " ${platforms[*]} " == *" linux/amd64 "* ]] || platforms=(linux/amd64 "${platforms[@]}")
headless() { # OS/ARCH: the file name of its headless build
  local ext=""
  [ "${1%/*}" = windows ] && ext=.exe
  echo "hermes-$version-${1%/*}-${1#*/}-headless$ext"
}
step "the headless CLI for ${platforms[*]}"
for p in "${platforms[@]}"; do
  GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 gobuild -tags headless -ldflags "-s -w $ldflags" \
    -o "$out/$(headless "$p")" .
done

# Wails's Windows frontend needs no cgo; -H windowsgui opens no console
# with the window.
step "the desktop app for Windows"
win="$out/hermes-$version-windows-amd64.exe"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 gobuild -tags desktop,production \
  -ldflags "-s -w -H windowsgui $ldflags" -o "$win" .

step "the Windows setup program"
# hermes.com, the console program that `hermes` in a terminal runs.
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/hermes.com" ./launcher
setup="Hermes-$version-windows-amd64-setup.exe"
webview2="$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)/internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe"
[ -f "$webview2" ] || die "WebView2's bootstrapper is not in the wails module ($webview2); run go mod download"
makensis -V2 -INPUTCHARSET UTF8 -DVERSION="$version" -DVERSION4="$version4" -DBINARY="$win" -DLAUNCHER="$work/hermes.com" \
  -DICON="$work/hermes.ico" -DWEBVIEW2_SETUP="$webview2" -DOUTFILE="$out/$setup" \
  build/windows/installer/hermes.nsi

step "the desktop app for Linux"
linux="$out/hermes-$version-linux-amd64"
CGO_ENABLED=1 GOOS=linux GOARCH=amd64 gobuild -tags desktop,production -ldflags "-s -w $ldflags" -o "$linux" .
icons="$work/icons"
for size in 16 24 32 48 64 128 256 512; do
  mkdir -p "$icons/${size}x$size/apps"
  convert build/appicon.png -resize "${size}x$size" -strip "$icons/${size}x$size/apps/hermes.png"
done
desktop-file-validate build/linux/hermes.desktop

step "the Debian package"
# /usr/bin/hermes is the headless build with the UI inside (for hermes
# serve), so that a command typed in a terminal starts without loading GTK
# and WebKitGTK; a bare `hermes`, and so the menu entry, runs the window
# build installed beside it as /usr/lib/hermes/hermes-window.
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 gobuild -tags headless,ui -ldflags "-s -w $ldflags" -o "$work/hermes-terminal" .
pkg="$work/deb"
install -Dm755 "$work/hermes-terminal" "$pkg/usr/bin/hermes"
install -Dm755 "$linux" "$pkg/usr/lib/hermes/hermes-window"
install -Dm644 build/linux/hermes.desktop "$pkg/usr/share/applications/hermes.desktop"
mkdir -p "$pkg/usr/share/icons"
cp -r "$icons" "$pkg/usr/share/icons/hicolor"
install -Dm644 build/linux/copyright "$pkg/usr/share/doc/hermes/copyright"
# The newest C library symbol the binary links, so dpkg refuses a system
# too old to start it.
glibc=$(objdump -T "$linux" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<EOF
Package: hermes
Version: $debversion
Architecture: amd64
Maintainer: Hermes contributors <hermes@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
Depends: libc6 (>= $glibc), libgtk-3-0, libwebkit2gtk-4.0-37
Section: devel
Priority: optional
Description: desktop workbench for AI agents
 Hermes runs an agent loop against any OpenAI-compatible model and shows
 every iteration as it happens: the context and its token budget, the
 model's reasoning, each tool call and its result. Runs are logged, can be
 replayed, and resume from their last checkpoint. The same engine runs in a
 terminal (hermes run), as a chat bot and in a browser (hermes serve).
EOF
deb="hermes_${debversion}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out/$deb" >/dev/null

step "the tar.gz for other distributions"
tardir="$work/hermes-$version-linux-amd64"
install -Dm755 "$linux" "$tardir/hermes"
install -Dm644 build/linux/hermes.desktop "$tardir/hermes.desktop"
install -Dm644 "$icons/256x256/apps/hermes.png" "$tardir/hermes.png"
install -Dm644 build/linux/README.txt "$tardir/README.txt"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$work" -czf "$out/hermes-$version-linux-amd64.tar.gz" "hermes-$version-linux-amd64"

step "SHA256SUMS"
artefacts=("$setup" "$(basename "$win")" "$deb" "hermes-$version-linux-amd64.tar.gz" "$(basename "$linux")")
for p in "${platforms[@]}"; do
  artefacts+=("$(headless "$p")")
done
(cd "$out" && sha256sum "${artefacts[@]}" >SHA256SUMS)

step "the update feed"
hermes="$out/$(headless linux/amd64)"
key=${HERMES_RELEASE_KEY:-}
if [ -z "$key" ]; then
  key="$out/hermes-release.key"
  if [ ! -f "$key" ]; then
    "$hermes" release keygen --out "$out/hermes-release" </dev/null >/dev/null 2>&1
  fi
  echo "release: HERMES_RELEASE_KEY is not set: the feed is signed with a throwaway key,"
  echo "  $key; Hermes builds trust only the key built into them or [update] public_key."
  echo "  For a real release, give the key users trust in HERMES_RELEASE_KEY."
fi
[ -f "$key" ] || die "HERMES_RELEASE_KEY names $key, which does not exist"
# An encrypted key (scrypt, "Sc" after "Ed") needs its password once, not
# at each of the signatures below.
if [ -z "${HERMES_RELEASE_PASSWORD:-}" ] && [ "$(sed -n 2p "$key" | base64 -d 2>/dev/null | head -c 4 | tail -c 2 | tr -d '\0')" = Sc ]; then
  [ -t 0 ] || die "$key is encrypted: set HERMES_RELEASE_PASSWORD"
  read -rsp "password of $key: " HERMES_RELEASE_PASSWORD
  echo
  export HERMES_RELEASE_PASSWORD
fi
feed="$out/feed.json"
sign() { # PLATFORM FORM FILE
  local args=(--key "$key" --version "$version" --platform "$1" --form "$2" --url "$3" --feed "$feed")
  [ -n "${HERMES_RELEASE_NOTES:-}" ] && args+=(--notes "$HERMES_RELEASE_NOTES")
  [ -n "${HERMES_RELEASE_NOTES_ZH:-}" ] && args+=(--notes-zh "$HERMES_RELEASE_NOTES_ZH")
  [ -n "${HERMES_RELEASE_CHANNEL:-}" ] && args+=(--channel "$HERMES_RELEASE_CHANNEL")
  "$hermes" release sign "${args[@]}" "$out/$3" >/dev/null 2>"$work/sign.log" || { cat "$work/sign.log" >&2; exit 1; }
}
# Each platform's binary is what a bare or unpacked install updates from
# (a Windows setup's install too): the desktop app where there is one.
sign windows/amd64 installer "$setup"
sign windows/amd64 binary "$(basename "$win")"
sign linux/amd64 package "$deb"
sign linux/amd64 binary "$(basename "$linux")"
# A headless install updates from the headless build; where a platform has
# no desktop build, that is its binary too.
for p in "${platforms[@]}"; do
  case $p in
  linux/amd64 | windows/amd64) sign "$p" headless "$(headless "$p")" ;;
  *) sign "$p" binary "$(headless "$p")" ;;
  esac
done

step "built $version into $out"
(cd "$out" && ls -l --block-size=K "${artefacts[@]}" feed.json | awk '{printf "  %8s  %s\n", $5, $9}')
cat <<EOF
The macOS app (Hermes.app, the form "bundle") cannot be built on Linux: it
needs cgo and Apple's SDK. Build, sign and notarize it on a Mac and add it
to this feed as docs/release.md says. Upload the files first, feed.json last.
EOF
