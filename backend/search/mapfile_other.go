//go:build !linux

package search

import "os"

// readFile reads the file at path; on Linux it is mapped instead.
func readFile(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}
