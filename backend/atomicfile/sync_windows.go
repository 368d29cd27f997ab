//go:build windows

package atomicfile

// syncDir does nothing on Windows: NTFS journals its names, and a directory
// cannot be opened for FlushFileBuffers without backup privileges.
var syncDir = func(dir, string) error { return nil }
