package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testRuns = 40

// writtenStore is a real store written by Open: testRuns checkpoints of 20
// turns each, some hundred pages. It returns the file's bytes.
func writtenStore(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for r := range testRuns {
		var turns [][]byte
		for i := range 20 {
			turns = append(turns, []byte(fmt.Sprintf("run %d turn %d %s", r, i, strings.Repeat("x", 500))))
		}
		if err := s.SaveCheckpoint(fmt.Sprintf("run-%02d", r), []byte("state"), turns); err != nil {
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

// boltMeta reads what the newest meta page says: the page size, the
// freelist's page and the high-water mark (pages in use).
func boltMeta(data []byte) (pageSize, freelist, hwm int) {
	var best uint64
	for _, off := range []int{0, 4096} {
		m := data[off+16:]
		if txid := binary.LittleEndian.Uint64(m[48:]); txid >= best {
			best = txid
			pageSize = int(binary.LittleEndian.Uint32(m[8:]))
			freelist = int(binary.LittleEndian.Uint64(m[32:]))
			hwm = int(binary.LittleEndian.Uint64(m[40:]))
		}
	}
	return pageSize, freelist, hwm
}

// damage is one way a store file gets damaged.
type damage struct {
	name string
	do   func(data []byte) []byte
}

func damages(data []byte) []damage {
	pageSize, freelist, hwm := boltMeta(data)
	cut := func(n int) func([]byte) []byte { return func(d []byte) []byte { return d[:n] } }
	overwrite := func(page int) func([]byte) []byte {
		return func(d []byte) []byte {
			d = bytes.Clone(d)
			copy(d[page*pageSize:], bytes.Repeat([]byte{0xa5}, pageSize))
			return d
		}
	}
	return []damage{
		{"cut to 100 bytes", cut(100)},
		{"cut to one page", cut(pageSize)},
		{"cut to the meta pages", cut(2 * pageSize)},
		{"cut to three pages", cut(3 * pageSize)},
		{"cut mid-page", cut(5*pageSize + 123)},
		{"cut in half", cut(hwm * pageSize / 2)},
		{"cut before the freelist", cut(freelist * pageSize)},
		{"last page cut", cut(hwm*pageSize - 1)},
		{"freelist page overwritten", overwrite(freelist)},
		{"not a store", func([]byte) []byte { return []byte("hello, I am a text file\n") }},
	}
}

func TestOpen_DamagedStore(t *testing.T) {
	data := writtenStore(t)
	for _, d := range damages(data) {
		t.Run(d.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hermes.db")
			damaged := d.do(data)
			if err := os.WriteFile(path, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second open in this process meets no lock of the first
				s, err := Open(path)
				if err == nil {
					s.Close()
					t.Fatal("a damaged store opened")
				}
				if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "hermes doctor --salvage") {
					t.Fatalf("err = %v, want ErrDamaged saying to run hermes doctor --salvage", err)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil || sha256.Sum256(after) != sha256.Sum256(damaged) {
				t.Fatalf("the damaged file was changed (%v)", err)
			}
		})
	}
}
