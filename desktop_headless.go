//go:build headless

package main

// desktopEntry is nil in headless builds, which leave Wails and cgo out;
// `hermes` with no arguments then says to use the headless commands.
func desktopEntry() func(home string) error { return nil }
