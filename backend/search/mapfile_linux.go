package search

import (
	"os"
	"syscall"
)

// readFile maps the file at path into memory, read-only and populated at
// once, instead of copying it: a process that runs one query touches the
// terms it asks for, not a heap copy of the whole index. unmap releases
// the mapping. The file is never changed in place (Save replaces it by
// renaming), so the mapped bytes stay as they were read.
func readFile(path string) (data []byte, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, func() {}, nil // too short to be an index: ErrCorrupt
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
