//go:build !windows

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// execWindow replaces this process with the window build: the window gets
// its process id, its signals and its exit code, and nothing of the
// headless process is left waiting beside it.
func execWindow(path string, argv []string) error {
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("start the window %s: %w", path, err)
	}
	return nil
}
