// Package backend holds everything Hermes does without a window: the
// packages below it never import Wails, app/ or the entry points. Which
// package may import which is docs/architecture.md, and
// architecture_test.go holds every package to it.
package backend
