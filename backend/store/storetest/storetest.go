// Package storetest writes real stores for tests and damages them the ways
// a disk does, so the store's and hermes doctor's tests meet the same files.
package storetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"hermes/backend/store"
)

// Written writes a real store at path through store.Open: runs
// checkpoints ("run-00", "run-01"…) of turns turns each, every turn
// "run R turn I" and some 400 bytes. It returns the file's bytes.
func Written(t *testing.T, path string, runs, turns int) []byte {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for r := range runs {
		var saved [][]byte
		for i := range turns {
			saved = append(saved, fmt.Appendf(nil, "run %d turn %d %s", r, i, strings.Repeat("x", 400)))
		}
		if err := s.SaveCheckpoint(fmt.Sprintf("run-%02d", r), []byte("state"), saved); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Meta reads what bbolt's newest meta page says: the page size, the
// freelist's page and the number of pages in use.
func Meta(data []byte) (pageSize, freelist, pages int) {
	var best uint64
	for _, off := range []int{0, 4096} {
		m := data[off+16:]
		if txid := binary.LittleEndian.Uint64(m[48:]); txid >= best {
			best, pageSize = txid, int(binary.LittleEndian.Uint32(m[8:]))
			freelist, pages = int(binary.LittleEndian.Uint64(m[32:])), int(binary.LittleEndian.Uint64(m[40:]))
		}
	}
	return pageSize, freelist, pages
}

// Overwrite is data with page filled with junk, as a torn or misdirected
// write leaves it.
func Overwrite(data []byte, page int) []byte {
	pageSize, _, _ := Meta(data)
	data = bytes.Clone(data)
	copy(data[page*pageSize:], bytes.Repeat([]byte{0xa5}, pageSize))
	return data
}

// CutInHalf is data with the second half of its pages gone.
func CutInHalf(data []byte) []byte {
	pageSize, _, pages := Meta(data)
	return data[:pageSize*pages/2]
}
