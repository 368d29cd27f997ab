//go:build !windows

package homelock

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with pid exists; one that belongs
// to another user (EPERM) exists too.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
