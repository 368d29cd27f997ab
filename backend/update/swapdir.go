package update

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"hermes/backend/atomicfile"
)

// dirOps are the two renames a bundle's swap may use; tests inject
// failures into them and take the exchange away.
type dirOps struct {
	// exchange swaps the names of a and b in one step, or fails with
	// errNoExchange where the system or file system cannot.
	exchange func(a, b string) error
	rename   func(oldpath, newpath string) error
}

var osDirOps = dirOps{exchange: exchange, rename: os.Rename}

// errNoExchange says that two names cannot be exchanged in one step here.
var errNoExchange = errors.New("the file system cannot exchange two names")

// swapDirs puts the folder incoming at target. Where two names can be
// exchanged in one step (Linux, APFS on macOS), target always names a
// complete folder, and the old one ends at incoming's name; elsewhere the
// old one is renamed to outgoing first, and a failure of the second rename
// moves it back, so target is empty only between the two renames, which
// Recover repairs.
func swapDirs(ops dirOps, incoming, target, outgoing string) error {
	err := ops.exchange(incoming, target)
	switch {
	case errors.Is(err, errNoExchange):
		if err := ops.rename(target, outgoing); err != nil {
			return fmt.Errorf("move %s aside: %w", target, err)
		}
		if err := ops.rename(incoming, target); err != nil {
			if back := ops.rename(outgoing, target); back != nil {
				return fmt.Errorf("rename %s to %s: %w (and moving the old one back failed: %w)", incoming, target, err, back)
			}
			return fmt.Errorf("rename %s to %s: %w", incoming, target, err)
		}
	case err != nil:
		return fmt.Errorf("exchange %s and %s: %w", incoming, target, err)
	}
	return atomicfile.SyncDir(filepath.Dir(target))
}
