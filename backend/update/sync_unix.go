//go:build !windows

package update

import (
	"fmt"
	"os"
)

// syncDir makes a rename or create in dir durable: without it a crash can
// forget the new name even though the file's bytes were synced.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
