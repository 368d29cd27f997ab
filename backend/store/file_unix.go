//go:build !windows

package store

import (
	"os"
	"syscall"
)

// unlockFile lets go of bbolt's lock on f, which its memory map would
// otherwise keep after f is closed.
func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
