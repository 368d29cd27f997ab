//go:build !windows

package sandbox

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// userMayWrite reports whether Hermes, and so the user, may write path, or
// make it in its folder when it does not exist.
func userMayWrite(path string) bool {
	if unix.Access(path, unix.W_OK) == nil {
		return true
	}
	return unix.Access(filepath.Dir(path), unix.W_OK) == nil
}
