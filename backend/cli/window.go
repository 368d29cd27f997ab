package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"hermes/backend/desktoplink"
	"hermes/backend/i18n"
)

// WindowName is the file name of the window build that a headless build
// runs for a bare `hermes`: the .deb installs the headless build as
// /usr/bin/hermes, so that every command typed in a terminal starts without
// loading GTK and WebKitGTK (168 shared libraries, about 70 ms of CPU), and
// the window build beside it as /usr/lib/hermes/hermes-window.
const WindowName = "hermes-window"

// ErrNoWindow is returned by a WindowBeside that found no window build.
var ErrNoWindow = errors.New("no window build")

// WindowBeside is the Desktop of a headless build: it runs the window build
// installed with this executable (FindWindow) in this process's place, on
// the home named. Without one it returns an error that wraps ErrNoWindow
// and says where it looked.
func WindowBeside(w Window) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the window build: %w", err)
	}
	window, looked := FindWindow(exe)
	if window == "" {
		return i18n.Wrap(ErrNoWindow, "cli.no_window", looked[0], looked[1])
	}
	return execWindow(window, windowArgs(w))
}

// windowArgs are the window build's arguments for w, its own name first:
// hermes, the window's name as GTK gives it to the desktop (the menu
// entry's StartupWMClass) and WebKit its data folder. A run a link named
// goes on as that link, which the window reads as a link clicked.
func windowArgs(w Window) []string {
	if w.Run != "" {
		return []string{"hermes", desktoplink.Run(w.Home, w.Run)}
	}
	args := []string{"hermes", "--home", w.Home}
	if w.New {
		args = append(args, "--new-window")
	}
	return args
}

// FindWindow looks for the window build that belongs with the binary at exe:
// WindowName in its folder (an unpacked pair), then in ../lib/hermes/ (the
// .deb's layout). A link to exe is followed first, so a link on PATH finds
// the window beside the file it names. A candidate that is exe itself is
// passed over: a headless build named so never runs itself. It returns the
// window's path, or "" and the two places it looked.
func FindWindow(exe string) (window string, looked [2]string) {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	name := WindowName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	dir := filepath.Dir(exe)
	looked = [2]string{
		filepath.Join(dir, name),
		filepath.Join(dir, "..", "lib", "hermes", name),
	}
	self, selfErr := os.Stat(exe)
	for _, p := range looked {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || (selfErr == nil && os.SameFile(fi, self)) {
			continue
		}
		return p, looked
	}
	return "", looked
}
