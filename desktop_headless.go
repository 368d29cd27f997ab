//go:build headless

package main

import "hermes/backend/cli"

// desktopEntry: a headless build leaves Wails and cgo out, so a bare
// `hermes` runs the window build installed with it (cli.WindowBeside),
// as the .deb installs them, and says so when there is none.
func desktopEntry() func(w cli.Window) error { return cli.WindowBeside }
