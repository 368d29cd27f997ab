//go:build headless

package main

import "hermes/backend/cli"

// desktopEntry: a headless build leaves Wails and cgo out, so a bare
// `hermes` runs the window build installed with it (cli.WindowBeside),
// as the .deb installs them, and says so when there is none. The run a
// link named is left to the window's own build (Windows, where links
// carry a toast's click, has no headless build).
func desktopEntry(string) func(w cli.Window) error { return cli.WindowBeside }
