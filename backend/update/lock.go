package update

import (
	"fmt"
	"os"
	"path/filepath"
)

// lock takes the update lock of the home directory so that two Hermes
// processes (the desktop and a terminal, say) never download into the same
// partial file or swap the binary at once. The operating system releases it
// when the process dies, so a crash never leaves a stale lock behind.
func (u *Updater) lock() (unlock func(), err error) {
	if err := os.MkdirAll(u.dir(), 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", u.dir(), err)
	}
	path := filepath.Join(u.dir(), "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("lock %s: %w: %w", path, ErrBusy, err)
	}
	return func() { _ = f.Close() }, nil
}
