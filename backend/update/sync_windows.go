//go:build windows

package update

// syncDir is a no-op on Windows: NTFS journals its metadata, and a directory
// cannot be opened for FlushFileBuffers without backup privileges.
func syncDir(string) error { return nil }
