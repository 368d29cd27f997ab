package longterm

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/store"
	"hermes/backend/store/storetest"
)

// oldLayout is two memories as hermes.db held them before long-term memory
// had a package of its own, bucket by bucket, key by key, written out by
// hand: the format is pinned here, not derived from the code under test.
func oldLayout() map[string]map[string]string {
	be := func(vs ...uint64) string {
		var b []byte
		for _, v := range vs {
			b = binary.BigEndian.AppendUint64(b, v)
		}
		return string(b)
	}
	posting := func(term string, id uint64, tf, dl uint16) (string, string) {
		return term + "\x00" + be(id), string(binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, tf), dl))
	}
	text := func(norm string) string { sum := sha256.Sum256([]byte(norm)); return string(sum[:16]) }
	terms := map[string]string{}
	for _, p := range []struct {
		term string
		id   uint64
	}{{"zorgland", 1}, {"harbour", 1}, {"code", 1}, {"answer", 2}, {"in", 2}, {"french", 2}} {
		k, v := posting(p.term, p.id, 1, 3)
		terms[k] = v
	}
	day := uint64(day0.Unix())
	return map[string]map[string]string{
		"memory.entries.v1": {
			be(1): `{"id":1,"kind":"fact","text":"Zorgland harbour code","run_id":"r1","created":"2026-01-10T09:00:00Z","source":"result"}`,
			be(2): `{"id":2,"kind":"preference","text":"Answer in French","created":"2026-01-10T09:00:00Z","source":"standing"}`,
		},
		"memory.terms.v1":       terms,
		"memory.used.v1":        {be(day, 1): "", be(day, 2): ""},
		"memory.pinned.v1":      {},
		"memory.preferences.v1": {be(2): ""},
		"memory.texts.v1":       {text("zorgland harbour code"): be(1), text("answer in french"): be(2)},
		"memory.candidates.v1":  {},
		"memory.stats.v1":       {"stats": be(2, 6)},
	}
}

var oldEntries = []Entry{
	{Kind: KindFact, Text: "Zorgland harbour code", RunID: "r1", Source: SourceResult},
	{Kind: KindPreference, Text: "Answer in French", Source: SourceStanding},
}

// dump is every long-term memory bucket of the store at path but the
// namespace index, which is this version's own and rebuilt from the others.
func dump(t *testing.T, s *store.Store) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	err := s.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if !bytes.HasPrefix(name, []byte("memory.")) || bytes.Equal(name, memSpacesBucket) || bytes.Equal(name, memDFBucket) {
				return nil
			}
			keys := map[string]string{}
			out[string(name)] = keys
			return b.ForEach(func(k, v []byte) error { keys[string(k)] = string(v); return nil })
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// What Remember writes is, byte for byte, what hermes.db held before the
// move, so a store written by either version reads back in the other.
func TestMemory_WritesTheOldLayout(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := New(db).Remember(oldEntries, day0); err != nil {
		t.Fatal(err)
	}
	got, want := dump(t, db), oldLayout()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if !maps.Equal(got[name], want[name]) {
			t.Errorf("bucket %s = %q\nwant %q", name, got[name], want[name])
		}
	}
	if len(got) != len(want) {
		t.Errorf("buckets %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}

// A hermes.db written before the move opens and reads back whole: its
// entries, their postings, the fading order, the text keys and the ids.
func TestMemory_ReadsTheOldLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		for name, keys := range oldLayout() {
			b, err := tx.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			for k, v := range keys {
				if err := b.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
			}
		}
		return tx.Bucket([]byte("memory.entries.v1")).SetSequence(2)
	})
	if err != nil || raw.Close() != nil {
		t.Fatal(err)
	}

	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db)
	if n, err := m.Count(); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	hits, err := m.Recall("where is the zorgland harbour", 5)
	if err != nil || len(hits) != 2 || hits[0].Reason != ReasonPreference || hits[1].Reason != ReasonMatch || hits[1].RunID != "r1" {
		t.Fatalf("Recall = %v, %v; want the preference, then the match", texts(hits), err)
	}
	if again, err := m.Remember([]Entry{{Kind: KindFact, Text: "zorgland HARBOUR code!"}}, day0); err != nil || len(again) != 0 {
		t.Fatalf("the old text key did not hold: wrote %v, %v", again, err)
	}
	if next, err := m.Remember([]Entry{{Kind: KindFact, Text: "A new fact"}}, day0); err != nil || len(next) != 1 || next[0].ID != 3 {
		t.Fatalf("a new entry after the old ones = %+v, %v; want id 3", next, err)
	}
	if n, err := m.Fade(day0.Add(time.Second)); err != nil || n != 3 {
		t.Fatalf("Fade = %d, %v; want the three entries, by the old fading order", n, err)
	}
}

// hermes doctor's salvage walks the memory's buckets with the store's own:
// a salvaged store recalls what the old one did.
func TestMemory_SurvivesSalvage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(db).Remember(oldEntries, day0); err != nil || db.Close() != nil {
		t.Fatal(err)
	}
	if r, err := store.Salvage(path, day0); err != nil || len(r.Damage) != 0 {
		t.Fatalf("Salvage = %+v, %v", r, err)
	}
	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, want := dump(t, db), oldLayout(); !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatalf("after salvage the memory buckets are %q\nwant %q", got, want)
	}
}

// A damaged page of the memory's is met as the store's own are: the read
// is store.ErrDamaged, saying to run hermes doctor --salvage, never a
// panic; salvage then keeps every memory that can still be read.
func TestMemory_DamageIsTheStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const total = 2000
	entries := make([]Entry, total)
	for i := range entries {
		entries[i] = Entry{Kind: KindFact, Text: fmt.Sprintf("Zorgland fact %d: %s", i, strings.Repeat("x", 100))}
	}
	if _, err := New(db).Remember(entries, day0); err != nil || db.Close() != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A leaf page (flag 0x02) of the entries bucket, overwritten.
	pageSize, _, pages := storetest.Meta(data)
	leaf := 0
	for p := 2; p < pages && leaf == 0; p++ {
		page := data[p*pageSize : (p+1)*pageSize]
		if binary.LittleEndian.Uint16(page[8:]) == 0x02 && bytes.Contains(page, []byte(`"text":"Zorgland fact`)) {
			leaf = p
		}
	}
	if leaf == 0 {
		t.Fatal("no leaf page of entries")
	}
	if err := os.WriteFile(path, storetest.Overwrite(data, leaf), 0o600); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(path)
	if err != nil {
		t.Fatalf("store.Open checks only what is cheap, yet failed: %v", err)
	}
	_, err = New(db).Memories(0)
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "hermes doctor --salvage") {
		t.Fatalf("listing a damaged memory: %v, want store.ErrDamaged saying to run hermes doctor --salvage", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Salvage(path, day0); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept, err := New(db).Memories(0)
	if err != nil || len(kept) == 0 || len(kept) >= total {
		t.Fatalf("after salvage %d memories, %v; want those the damaged page did not hold", len(kept), err)
	}
	if hits, err := New(db).Recall("Zorgland fact", 5); err != nil || len(hits) != 5 {
		t.Fatalf("recall after salvage: %d hits, %v; want 5 of the memories kept", len(hits), err)
	}
	// A memory the page held is gone, though its words may still be indexed.
	lost := uint64(0)
	for id := uint64(1); lost == 0; id++ {
		if !slices.ContainsFunc(kept, func(e Entry) bool { return e.ID == id }) {
			lost = id
		}
	}
	if hits, err := New(db).Recall(fmt.Sprintf("fact %d", lost-1), 5); err != nil {
		t.Fatalf("recall of a lost memory's words after salvage: %v, %v", hits, err)
	}
	if n, err := New(db).Fade(day0.Add(time.Second)); err != nil || n != len(kept) {
		t.Fatalf("Fade after salvage = %d, %v; want the %d kept, and the lost ones' places dropped", n, err, len(kept))
	}
}
