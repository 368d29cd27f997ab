package update

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the names a and b atomically (renamex_np with
// RENAME_SWAP, which APFS has); a file system without it gives
// errNoExchange.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
