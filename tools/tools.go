//go:build tools

// Package tools pins the wails CLI. It lives in a module of its own because
// wails v2.9.2 asks for a golang.org/x/tools that no longer builds on Go 1.26;
// this module raises it without touching the app's go.mod.
// scripts/setup.sh builds it into .bin/wails. winres/, which writes the
// Windows resources of hermes.exe for scripts/release.sh, lives here too,
// to keep its image libraries out of the app's go.mod.
package tools

import _ "github.com/wailsapp/wails/v2/cmd/wails"
