package cli

import "testing"

// SetUpdateInstall points hermes update at the binary exe under the file
// system root, for the rest of the test.
func SetUpdateInstall(t *testing.T, exe, root string) {
	saved := updateInstall
	updateInstall.exe, updateInstall.root = exe, root
	t.Cleanup(func() { updateInstall = saved })
}
