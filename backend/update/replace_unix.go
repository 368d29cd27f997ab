//go:build !windows

package update

import (
	"fmt"

	"hermes/backend/atomicfile"
)

// replace atomically puts staged in exe's place. POSIX rename replaces the
// name while a running process keeps its open, unlinked old file, so
// nothing is moved aside.
func replace(staged, exe, _ string) error {
	if err := atomicfile.Rename(staged, exe); err != nil {
		return fmt.Errorf("rename %s to %s: %w", staged, exe, err)
	}
	return nil
}
