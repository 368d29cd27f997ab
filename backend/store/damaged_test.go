package store_test

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
	"time"

	"hermes/backend/store"
	"hermes/backend/store/storetest"
)

const testRuns = 40

// writtenStore is a real store of testRuns checkpoints of 20 turns each,
// some hundred pages. It returns the file's bytes.
func writtenStore(t *testing.T) []byte {
	return storetest.Written(t, filepath.Join(t.TempDir(), "hermes.db"), testRuns, 20)
}

// damage is one way a store file gets damaged.
type damage struct {
	name string
	do   func(data []byte) []byte
}

func damages(data []byte) []damage {
	pageSize, freelist, hwm := storetest.Meta(data)
	cut := func(n int) func([]byte) []byte { return func(d []byte) []byte { return d[:n] } }
	return []damage{
		{"cut to 100 bytes", cut(100)},
		{"cut to one page", cut(pageSize)},
		{"cut to the meta pages", cut(2 * pageSize)},
		{"cut to three pages", cut(3 * pageSize)},
		{"cut mid-page", cut(5*pageSize + 123)},
		{"cut in half", storetest.CutInHalf},
		{"cut before the freelist", cut(freelist * pageSize)},
		{"last page cut", cut(hwm*pageSize - 1)},
		{"freelist page overwritten", func(d []byte) []byte { return storetest.Overwrite(d, freelist) }},
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
				s, err := store.Open(path)
				if err == nil {
					s.Close()
					t.Fatal("a damaged store opened")
				}
				if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "hermes doctor --salvage") {
					t.Fatalf("err = %v, want store.ErrDamaged saying to run hermes doctor --salvage", err)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil || sha256.Sum256(after) != sha256.Sum256(damaged) {
				t.Fatalf("the damaged file was changed (%v)", err)
			}
		})
	}
}

// leafPage is a page in the middle of the file that holds turns.
func leafPage(data []byte) int {
	pageSize, _, hwm := storetest.Meta(data)
	for p := hwm / 2; p < hwm; p++ {
		page := data[p*pageSize:]
		if binary.LittleEndian.Uint16(page[8:]) == 0x02 && bytes.Contains(page[:pageSize], []byte(" turn ")) {
			return p
		}
	}
	panic("no leaf page of turns")
}

func TestSalvage_SavesWhatCanBeRead(t *testing.T) {
	data := writtenStore(t)
	leaf := leafPage(data)
	cases := append(damages(data), damage{"a page of turns overwritten", func(d []byte) []byte {
		return storetest.Overwrite(d, leaf)
	}})
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, d := range cases {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "hermes.db")
			damaged := d.do(data)
			if err := os.WriteFile(path, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			before, err := store.Verify(path)
			if err != nil || len(before.Damage) == 0 {
				t.Fatalf("verify: %+v %v, want damage", before, err)
			}
			r, err := store.Salvage(path, now)
			if err != nil {
				t.Fatal(err)
			}
			kept := filepath.Join(dir, "hermes.db.damaged-20250304-050607")
			if b, err := os.ReadFile(kept); err != nil || !bytes.Equal(b, damaged) {
				t.Fatalf("the damaged file is not kept as it was at %s (%v)", kept, err)
			}
			if r.Kept != kept || len(r.Damage) == 0 {
				t.Fatalf("report %+v", r)
			}
			after, err := store.Verify(path)
			if err != nil || len(after.Damage) != 0 || after.Keys != r.Keys {
				t.Fatalf("the new store: %+v %v; salvage reported %d keys", after, err, r.Keys)
			}
			s, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			whole := 0
			for run := range testRuns {
				state, turns, err := s.LoadCheckpoint(fmt.Sprintf("run-%02d", run))
				if errors.Is(err, store.ErrNoCheckpoint) {
					continue
				}
				if err != nil || string(state) != "state" {
					t.Fatalf("run %d: %q %v", run, state, err)
				}
				for _, turn := range turns {
					if !strings.HasPrefix(string(turn), fmt.Sprintf("run %d turn ", run)) {
						t.Fatalf("run %d has a turn it never had: %.40q", run, turn)
					}
				}
				if len(turns) == 20 {
					whole++
				}
			}
			switch d.name {
			case "freelist page overwritten":
				if whole != testRuns || r.Keys != testRuns*21 {
					t.Fatalf("%d whole runs and %d keys saved of a store whose data was intact", whole, r.Keys)
				}
			case "a page of turns overwritten":
				if whole != testRuns-1 {
					t.Fatalf("%d whole runs saved, want all but the one whose page was lost", whole)
				}
			}
		})
	}
}

func TestVerify_HealthyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	if err := os.WriteFile(path, writtenStore(t), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := store.Verify(path)
	if err != nil || len(r.Damage) != 0 || r.Keys != testRuns*21 {
		t.Fatalf("verify: %+v %v", r, err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := store.Verify(path); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("verify of a store in use: %v, want store.ErrLocked", err)
	}
}

// A page damaged past what store.Open checks is met by a later read or write:
// it is store.ErrDamaged then too, never a panic that ends the process.
func TestStore_DamageMetLaterIsAnError(t *testing.T) {
	data := writtenStore(t)
	data = storetest.Overwrite(data, leafPage(data))
	path := filepath.Join(t.TempDir(), "hermes.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatalf("store.Open checks only what is cheap, yet failed: %v", err)
	}
	defer s.Close()
	var met error
	for r := range testRuns {
		id := fmt.Sprintf("run-%02d", r)
		if _, _, err := s.LoadCheckpoint(id); err != nil {
			met = err
			break
		}
		if err := s.SaveCheckpoint(id, []byte("state"), [][]byte{[]byte("one more turn")}); err != nil {
			met = err
			break
		}
	}
	if !errors.Is(met, store.ErrDamaged) || !strings.Contains(met.Error(), "hermes doctor --salvage") {
		t.Fatalf("reading every checkpoint met %v, want store.ErrDamaged saying to run hermes doctor --salvage", met)
	}
}
