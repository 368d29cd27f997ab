//go:build !headless

package update

// headlessBuild: this Hermes has the window (see build_headless.go).
const headlessBuild = false
