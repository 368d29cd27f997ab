//go:build !windows

package main

// attachConsole is needed only on Windows (console_windows.go).
func attachConsole() {}
