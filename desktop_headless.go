//go:build headless

package main

import "hermes/backend/cli"

// desktopEntry: a headless build leaves Wails and cgo out, so a bare
// `hermes` runs the window build installed with it (cli.WindowBeside),
// as the .deb installs them, and says so when there is none; a link to a
// run (the .deb's menu entry takes hermes:// links) goes on to it.
func desktopEntry(run string) func(w cli.Window) error {
	return func(w cli.Window) error {
		w.Run = run
		return cli.WindowBeside(w)
	}
}
