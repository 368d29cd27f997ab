#!/usr/bin/env bash
# The desktop window on its desktop, checked in the real window under Xvfb
# as scripts/smoke-desktop.sh opens it, with a session bus of its own:
#
#   1. a link in an answer goes to the system opener (a stand-in xdg-open on
#      PATH records it) and the page stays;
#   2. "Choose…" opens the system's folder dialog, and its choice fills the
#      New run form's workspace: the run started from it works there;
#   3. a run asking for an approval while another window has focus sends a
#      notification over the session bus (a stand-in notification server
#      records it), with the run's title; its click brings the window to
#      that run, and the title says it waits ("Hermes — TASK · waiting for
#      approval");
#   4. the window's size, position and page survive a restart;
#   5. a second launch on the home brings the window to the front instead
#      of opening another, on the run when it is a link to one (what a
#      toast's click starts on Windows); `hermes --new-window` opens one;
#   6. a folder dragged onto the window (from a stand-in file manager,
#      tests/desktop/dragsource.c) opens the New run form on it, and the
#      run started there works in it;
#   7. the vault's "Choose…" in the New run form's Configured panel opens
#      the folder dialog, its choice fills the field, and Save writes it
#      into hermes.toml, whose own lines stay;
#   8. a note of that vault dragged onto the window opens in the
#      inspector's Note tab, whose "Open in Obsidian" names it.
#
# Screenshots go to $HERMES_ARTIFACTS (default .artifacts/).
#
#   scripts/smoke-desktop-os.sh            build with scripts/app.sh --build-only first
#   scripts/smoke-desktop-os.sh --no-build use the build/bin/hermes that is there
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export HERMES_ARTIFACTS="${HERMES_ARTIFACTS:-$root/.artifacts}"
mkdir -p "$HERMES_ARTIFACTS"

if [ "${1:-}" != "--inside-xvfb" ]; then
  [ "${1:-}" = "--no-build" ] || scripts/app.sh --build-only
  for tool in dbus-daemon xdotool xmessage xwininfo import; do
    command -v "$tool" >/dev/null || { echo "smoke: $tool is missing: run scripts/setup.sh" >&2; exit 1; }
  done
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/bin"
  go build -o "$tmp/bin/notifyserver" ./backend/notify/cmd/notifyserver
  go build -o "$tmp/bin/scriptmodel" ./backend/llm/llmtest/cmd/scriptmodel
  # shellcheck disable=SC2046
  gcc -O1 -o "$tmp/bin/dragsource" tests/desktop/dragsource.c $(pkg-config --cflags --libs gtk+-3.0)
  SMOKE_TMP="$tmp" HERMES_LANG=en xvfb-run -a -s "-screen 0 1280x800x24" "$0" --inside-xvfb
  exit
fi

tmp=$SMOKE_TMP
app="$root/build/bin/hermes"
home="$tmp/home"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "smoke: $*" >&2
  import -window root "$HERMES_ARTIFACTS/desktop-os-failed.png" 2>/dev/null || true
  echo "smoke: screenshot $HERMES_ARTIFACTS/desktop-os-failed.png; the app's log:" >&2
  tail -20 "$tmp/app.log" >&2 || true
  # A page never drawn was seen in CI (a resize off GTK's main thread, see
  # app/desktop_place.go): whether WebKit's processes were alive, and in
  # what state, tells a stalled renderer from a crash.
  echo "smoke: the app's and WebKit's processes:" >&2
  ps -eo pid,ppid,stat,etime,rss,args | grep -E "[W]ebKit|[b]in/hermes" >&2 || true
  exit 1
}
# until CMD... polls CMD every 0.2 s for up to $patience seconds (60; the
# window's first page can take that long on a busy machine).
patience=60
until_ok() {
  local deadline=$((SECONDS + patience))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}
# The window tree, read again when a window went away while it was read.
tree() {
  local t
  for _ in 1 2 3 4 5; do
    t=$(xwininfo -root -tree 2>/dev/null) && { printf '%s\n' "$t"; return; }
  done
  return 1
}
# window_named NAME: a window's name starts with NAME (its class, which
# GTK's helper windows share, is not its name).
window_named() { tree | grep -qE "^ *0x[0-9a-f]+ \"$1"; }
# window_id NAME: the id of the first window whose name starts with NAME
# (case counts: GTK's helper windows are named "hermes").
window_id() { tree | grep -E "^ *0x[0-9a-f]+ \"$1" | awk '{ print $1; exit }'; }
hermes_windows() { tree | grep -cE '^ *0x[0-9a-f]+ "Hermes' || true; }

# A session bus with a stand-in notification server on it.
dbus-daemon --session --nofork --nopidfile --address="unix:path=$tmp/bus" --print-address=1 >"$tmp/bus.addr" &
pids+=($!)
until_ok test -s "$tmp/bus.addr" || fail "dbus-daemon did not start"
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$tmp/bus.addr")
"$tmp/bin/notifyserver" "$tmp/notes.jsonl" >"$tmp/notifyserver.out" &
notifier=$!
pids+=($notifier)
until_ok grep -q ready "$tmp/notifyserver.out" || fail "the stand-in notification server did not start"

# The system opener: a stand-in that records what it is asked to open.
cat >"$tmp/bin/xdg-open" <<'SH'
#!/bin/sh
echo "$1" >>"$SMOKE_TMP/opened.txt"
SH
chmod +x "$tmp/bin/xdg-open"
export PATH="$tmp/bin:$PATH" SMOKE_TMP="$tmp"
# The page's own storage (panels opened, recent workspaces) starts empty.
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"

# A scripted model whose first answer waits to be released: a write that
# asks for an approval, then an answer.
cat >"$tmp/script.json" <<'JSON'
[
  {"content": "Writing the summary.", "hold": true,
   "tool_calls": [{"id": "w1", "name": "write_file", "arguments": "{\"path\":\"SUMMARY.md\",\"content\":\"notes\"}"}]},
  {"content": "Done."}
]
JSON
"$tmp/bin/scriptmodel" --script "$tmp/script.json" >"$tmp/model.url" &
pids+=($!)
until_ok test -s "$tmp/model.url" || fail "the scripted model did not start"
model=$(head -1 "$tmp/model.url")

# A home with a finished run whose answer is a link, and a folder to choose.
mkdir -p "$home/logs/2026-12-05" "$tmp/pick/chosen-ws"
run=20261205-090000-11c0de
cat >"$home/logs/2026-12-05/run_$run.jsonl" <<JSON
{"v":1,"run_id":"$run","seq":1,"time":"2026-12-05T09:00:00Z","iteration":0,"type":"run.started","data":{"task":"Find the quarterly report","workspace":"$tmp","model":"m","base_url":"http://127.0.0.1:1/v1","max_iterations":5,"tools":[]}}
{"v":1,"run_id":"$run","seq":2,"time":"2026-12-05T09:00:01Z","iteration":1,"type":"iteration.started","data":{}}
{"v":1,"run_id":"$run","seq":3,"time":"2026-12-05T09:00:02Z","iteration":1,"type":"model.decided","data":{"content":"Found it.","finish_reason":"stop","usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15},"latency_ms":100,"attempts":1}}
{"v":1,"run_id":"$run","seq":4,"time":"2026-12-05T09:00:03Z","iteration":1,"type":"run.finished","data":{"status":"finished","answer":"[The quarterly report on example.com, opened in your browser](https://example.com/report?q=1)","verified":false,"totals":{"iterations":1,"tokens":15}}}
JSON
cat >"$home/hermes.toml" <<TOML
# The smoke's own settings: saving the vault keeps this line.
version = 1

[model]
base_url = "$model"
model = "llmtest-model"
api_key = "smoke-key"

[agent]
workspace = "$tmp/pick"
strategy = "react"
route = false
TOML

# open PAGE: opens the window on PAGE (as kept in window.json, 1280x800 at
# the screen's corner) and waits until it shows it.
open_window() {
  printf '{"last":"1280x800","screens":{"1280x800":{"x":0,"y":0,"width":1280,"height":800,"page":"%s"}}}\n' "$1" >"$home/window.json"
  "$app" --home "$home" >>"$tmp/app.log" 2>&1 &
  win=$!
  pids+=($win)
  until_ok window_named "Hermes" || fail "the window did not open"
  wid=$(window_id Hermes)
  patience=120 until_ok drawn || fail "the window never drew its page"
}
# drawn: the page is drawn (the top bar's "New run" button, in the accent
# colour, is on screen): the window shows its title before that.
drawn() {
  local colours
  import -window root "$tmp/drawn.png" 2>/dev/null || return 1
  colours=$(convert "$tmp/drawn.png" -format %c histogram:info:-)
  grep -qi '#4F46E5' <<<"$colours"
}
close_window() {
  kill -TERM "$win"
  local code=0
  wait "$win" || code=$?
  [ "$code" -eq 0 ] || fail "the window exited with $code on SIGTERM"
}
# still waits until the screen stops changing (the page is laid out and
# its transitions are over): a click before that can land on nothing.
still() {
  local a b="" deadline=$((SECONDS + patience))
  while ((SECONDS < deadline)); do
    a=$(import -window root "$tmp/still.png" && convert "$tmp/still.png" -format '%#' info:)
    [ "$a" = "$b" ] && return 0
    b=$a
    sleep 0.5
  done
  fail "the screen never stopped changing"
}
# accent_at X Y W H [WIDE]: the middle of the first line of text in the
# links' colour, wider than WIDE pixels (200: a long link, not a tab's
# underline), in that part of the screen, as "x y".
accent_at() {
  import -window root "$tmp/shot.png"
  convert "$tmp/shot.png" -crop "$3x$4+$1+$2" +repage txt:- |
    awk -F'[,: ]+' -v x0="$1" -v y0="$2" -v wide="${5:-200}" '
      tolower($0) ~ /#4f46e5/ {
        if (!n++) { y = $2; lo = $1; hi = $1 }
        if ($2 <= y + 4) { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
      }
      END { if (n && hi - lo > wide) print x0 + int((lo + hi) / 2), y0 + y + 4 }'
}
# drag_onto_window URI: a drag from the stand-in file manager, at the
# screen's bottom right, onto the middle of the window. The drag source
# of the drag before goes first (the window takes the dropped data after
# the button is let go, so a source stays until the next drag).
source=""
drag_onto_window() {
  if [ -n "$source" ]; then
    kill -TERM "$source" 2>/dev/null || true
    until_ok sh -c '! xwininfo -root -tree | grep -q "\"dragsource\""' || fail "the drag source before did not close"
  fi
  "$tmp/bin/dragsource" "$1" >>"$tmp/app.log" 2>&1 &
  source=$!
  pids+=($source)
  until_ok window_named "dragsource" || fail "the drag source did not open"
  xdotool windowmove --sync "$(window_id dragsource)" 1100 680 windowraise "$(window_id dragsource)"
  # A drop before the page has drawn (and listens) would replace the page.
  until_ok drawn || fail "the window's page is not drawn"
  still
  # Press on it, move in steps (a drag starts past a threshold), let go
  # over the window.
  xdotool mousemove 1160 720 mousedown 1
  for at in "1150 710" "1130 690" "1100 650" "1000 600" "800 500" "640 400" "630 400"; do
    # shellcheck disable=SC2086
    xdotool mousemove $at
    sleep 0.15
  done
  xdotool mouseup 1
}

echo "smoke: 1. a link opens in the system, the page stays"
open_window "#/runs/$run"
until_ok window_named "Hermes — Find the quarterly report · finished" || fail "the run's page and title did not show"
still
xdotool mousemove 70 205 click 1 mousemove 1000 700 # open the Answer panel, under the label bar; no tooltip over it
link=""
answer_shown() { link=$(accent_at 20 225 750 36) && [ -n "$link" ]; }
until_ok answer_shown || fail "the answer's link did not show"
still
answer_shown || fail "the answer's link went away"
read -r lx ly <<<"$link"
xdotool mousemove "$lx" "$ly" click 1
until_ok grep -qx 'https://example.com/report?q=1' "$tmp/opened.txt" 2>/dev/null || fail "the link was not handed to the system opener"
still
# The page is still the run's: its "Finished" badge is on screen.
colours=$(convert "$tmp/still.png" -format %c histogram:info:-)
grep -qi '#DCFCE7' <<<"$colours" || fail "the page did not stay on the run"
close_window

echo "smoke: 2. Choose… fills the workspace from the system's folder dialog"
open_window "#/new"
until_ok window_named "Hermes\"" || fail "the New run form did not show"
still
xdotool mousemove 390 233 click 1 # the task
xdotool type --delay 0 "Summarise the notes"
xdotool key Tab Tab Tab space # instructions, workspace, Choose…
until_ok window_named "Choose the run's workspace" || fail "the folder dialog did not open"
still
xdotool mousemove 600 400
xdotool type --delay 0 "chosen-ws"
xdotool key Return # into the folder
still
# Open, at the dialog's bottom right: the folder shown is the choice.
read -r dx dy dw dh <<<"$(xwininfo -id "$(window_id "Choose the run")" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} /Width/ {w=$NF} /Height/ {h=$NF} END {print x, y, w, h}')"
xdotool mousemove $((dx + dw - 50)) $((dy + dh - 24)) click 1
dialog_closed() {
  local t
  t=$(tree) && ! grep -qE '^ *0x[0-9a-f]+ "Choose the run' <<<"$t"
}
until_ok dialog_closed || fail "the folder dialog did not close"
still
import -window root "$HERMES_ARTIFACTS/desktop-os-chosen.png"
xdotool key shift+Tab Return # submit the form from the workspace field
until_ok window_named "Hermes — Summarise the notes · running" || fail "the run did not start from the form"
started=$(grep -l '"task":"Summarise the notes"' "$home"/logs/*/run_*.jsonl | head -1)
grep -q "\"workspace\":\"$tmp/pick/chosen-ws\"" "$started" || fail "the run did not start in the chosen folder: $(head -1 "$started")"
new_run=$(basename "$started" .jsonl)
new_run=${new_run#run_}

echo "smoke: 3. a notification for an approval while another window has focus"
# Back to the runs list (a live run's page never stands still: click until
# the title says the list is shown).
back_to_list() {
  xdotool mousemove 48 82 click 1
  sleep 0.5
  window_named "Hermes\""
}
until_ok back_to_list || fail "the runs list did not show"
xmessage -geometry 300x100+900+650 "another window" &
pids+=($!)
until_ok window_named "xmessage" || fail "xmessage did not open"
other=$(window_id xmessage)
xdotool mousemove 1000 690 windowfocus --sync "$other"
sleep 0.5
curl -fsS -X POST "${model%/v1}/release" >/dev/null || fail "the model's answer was not released"
until_ok grep -q '"summary":"Hermes — Summarise the notes"' "$tmp/notes.jsonl" 2>/dev/null || fail "no notification was sent for the approval"
grep -q 'approval' "$tmp/notes.jsonl" || fail "the notification does not say it waits for an approval: $(cat "$tmp/notes.jsonl")"
kill -USR1 "$notifier" # the person clicks it
until_ok window_named "Hermes — Summarise the notes · waiting for approval" || fail "the click did not bring the window to the run"
import -window root "$HERMES_ARTIFACTS/desktop-os-notified.png"
close_window

echo "smoke: 4. size, position and page survive a restart"
open_window "#/"
xdotool windowsize --sync "$wid" 1000 680 windowmove --sync "$wid" 60 40
xdotool mousemove 200 300
sleep 0.5
close_window
grep -q '"width": 1000' "$home/window.json" || fail "the window's size was not kept: $(cat "$home/window.json")"
"$app" --home "$home" >>"$tmp/app.log" 2>&1 &
win=$!
pids+=($win)
until_ok window_named "Hermes" || fail "the window did not open again"
geometry() { xwininfo -id "$(window_id Hermes)" 2>/dev/null | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} /Width/ {w=$NF} /Height/ {h=$NF} END {print w "x" h "+" x "+" y}'; }
placed() { [ "$(geometry)" = "1000x680+60+40" ]; }
until_ok placed || fail "the window opened at $(geometry), not 1000x680+60+40"
patience=120 until_ok drawn || fail "the window never drew its page"

echo "smoke: 5. a window last on another screen takes its place on this one, and draws"
close_window
printf '{"last":"1920x1080","screens":{"1920x1080":{"x":100,"y":50,"width":1600,"height":1000,"page":"#/"},"1280x800":{"x":30,"y":20,"width":900,"height":600,"page":"#/"}}}\n' >"$home/window.json"
"$app" --home "$home" >>"$tmp/app.log" 2>&1 &
win=$!
pids+=($win)
until_ok window_named "Hermes" || fail "the window did not open on another screen"
placed_here() { [ "$(geometry)" = "900x600+30+20" ]; }
until_ok placed_here || fail "the window last on another screen opened at $(geometry), not 900x600+30+20"
patience=120 until_ok drawn || fail "the window resized for this screen never drew its page"

echo "smoke: 6. a second launch brings the window to the front"
# The launch hands its arguments to the window and exits at once, with
# no window of its own.
code=0
timeout 20 "$app" --home "$home" >>"$tmp/app.log" 2>&1 || code=$?
[ "$code" -ne 124 ] || fail "a second launch on the home did not exit"
[ "$(hermes_windows)" -eq 1 ] || fail "a second launch opened another window"
# A link to a run, as the system starts Hermes with when a toast is
# clicked on Windows: the window shows that run.
link="hermes://run/$run?home=$(sed 's|/|%2F|g' <<<"$home")"
timeout 20 "$app" "$link" >>"$tmp/app.log" 2>&1 || true
until_ok window_named "Hermes — Find the quarterly report · finished" || fail "a link to a run did not bring the window to it"
[ "$(hermes_windows)" -eq 1 ] || fail "a link to a run opened another window"
"$app" --home "$home" --new-window >>"$tmp/app.log" 2>&1 &
second=$!
pids+=($second)
two_windows() { [ "$(hermes_windows)" -ge 2 ]; }
until_ok two_windows || fail "hermes --new-window did not open a window"
kill -TERM "$second"
wait "$second" || true

echo "smoke: 7. a folder dropped on the window starts a run there"
mkdir -p "$tmp/dropped-ws"
drag_onto_window "file://$tmp/dropped-ws"
until_ok drawn || fail "the window did not draw the New run form"
still
xdotool mousemove 390 233 click 1 # the task
xdotool type --delay 0 "Read the dropped folder"
xdotool key Tab Tab Return # instructions, workspace; submit
dropped_run() { grep -l '"task":"Read the dropped folder"' "$home"/logs/*/run_*.jsonl >/dev/null 2>&1; }
until_ok dropped_run || fail "the dropped folder did not open the New run form on it, or its run did not start"
started=$(grep -l '"task":"Read the dropped folder"' "$home"/logs/*/run_*.jsonl | head -1)
grep -q "\"workspace\":\"$tmp/dropped-ws\"" "$started" || fail "the run did not start in the dropped folder: $(head -1 "$started")"
close_window

echo "smoke: 8. the vault's Choose… fills its field from the folder dialog, and Save writes hermes.toml"
mkdir -p "$tmp/pick/my-vault"
printf '# Garden plan\n\nDropped on the window, read in the inspector.\n' >"$tmp/pick/my-vault/Garden plan.md"
open_window "#/new"
until_ok window_named "Hermes\"" || fail "the New run form did not show"
still
xdotool mousemove 965 371 click 1 # the vault's field, in the Configured panel
xdotool type --delay 0 "$tmp/pick" # where the dialog opens
xdotool key Tab space              # Choose…
until_ok window_named "Choose the Obsidian vault" || fail "the vault's folder dialog did not open"
still
xdotool mousemove 600 400
xdotool type --delay 0 "my-vault"
xdotool key Return # into the folder
still
read -r dx dy dw dh <<<"$(xwininfo -id "$(window_id "Choose the Obsidian")" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} /Width/ {w=$NF} /Height/ {h=$NF} END {print x, y, w, h}')"
xdotool mousemove $((dx + dw - 50)) $((dy + dh - 24)) click 1 # Open
vault_dialog_closed() {
  local t
  t=$(tree) && ! grep -qE '^ *0x[0-9a-f]+ "Choose the Obsidian' <<<"$t"
}
until_ok vault_dialog_closed || fail "the vault's folder dialog did not close"
still
import -window root "$HERMES_ARTIFACTS/desktop-os-vault-chosen.png"
xdotool key Tab Return # Save, beside Choose…
saved_vault() { grep -qxF "vault = \"$tmp/pick/my-vault\"" "$home/hermes.toml"; }
until_ok saved_vault || fail "the chosen vault was not saved into hermes.toml: $(cat "$home/hermes.toml")"
grep -q "^# The smoke's own settings" "$home/hermes.toml" || fail "saving the vault lost hermes.toml's own lines: $(cat "$home/hermes.toml")"
close_window

echo "smoke: 9. a link to a run opens the window on it; a note of the vault dropped on it opens in the inspector"
: >"$tmp/opened.txt"
printf '{"last":"1280x800","screens":{"1280x800":{"x":0,"y":0,"width":1280,"height":800,"page":"#/new"}}}\n' >"$home/window.json"
"$app" "$link" >>"$tmp/app.log" 2>&1 &
win=$!
pids+=($win)
until_ok window_named "Hermes — Find the quarterly report · finished" || fail "a link to a run did not open the window on it"
drag_onto_window "file://$tmp/pick/my-vault/Garden%20plan.md"
# The Note tab's "Open in Obsidian", under the inspector's tabs at its
# right, names the note read from the vault.
obsidian=""
note_shown() { obsidian=$(accent_at 1000 295 280 25 60) && [ -n "$obsidian" ]; }
until_ok note_shown || fail "the dropped note did not open in the inspector"
still
import -window root "$HERMES_ARTIFACTS/desktop-os-note-dropped.png"
note_shown || fail "the dropped note's view went away"
read -r ox oy <<<"$obsidian"
xdotool mousemove "$ox" "$oy" click 1
opened_note() { grep -q '^obsidian://open?vault=my-vault&file=Garden' "$tmp/opened.txt" 2>/dev/null; }
until_ok opened_note || fail "the inspector did not show the dropped note: $(cat "$tmp/opened.txt" 2>/dev/null)"
close_window
echo "smoke: the window opened links in the system, chose a folder, notified and was brought to the run, kept its place, took its place on another screen, stayed one, went to a linked run, took a dropped folder, set the vault from the folder dialog and showed a dropped note; screenshots in $HERMES_ARTIFACTS"
