package longterm

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/store"
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

// dump is every long-term memory bucket of the store at path.
func dump(t *testing.T, s *store.Store) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	err := s.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if !bytes.HasPrefix(name, []byte("memory.")) {
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
