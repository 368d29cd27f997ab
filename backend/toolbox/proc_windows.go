//go:build windows

package toolbox

import "io/fs"

// hardLinks is 1: the file tools do not look for hard links on Windows,
// whose FileInfo does not count them.
func hardLinks(fs.FileInfo) uint64 { return 1 }
