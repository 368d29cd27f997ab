// Package longterm is Hermes's long-term memory: what runs learnt, kept across
// runs and recalled for new tasks (BM25 over its own inverted index). It keeps
// its buckets in hermes.db (backend/store), in transactions of the store's,
// so its commits are synced and a damaged page is store.ErrDamaged like any.
package longterm

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/store"
)

// Long-term memory: what runs learnt, kept across runs and recalled for new
// tasks. Nothing here is read when the store opens, so a home with a large
// memory opens as fast as an empty one; recall reads only the postings of
// the query's terms.
var (
	// memEntriesBucket maps an entry id (big-endian uint64) to its JSON.
	memEntriesBucket = []byte("memory.entries.v1")
	// memTermsBucket is the inverted index: term, 0x00, entry id → the
	// term's frequency and the entry's length (two big-endian uint16).
	memTermsBucket = []byte("memory.terms.v1")
	// memUsedBucket orders unpinned entries by last use (unix seconds, then
	// id; no value), so fading reads only what fades.
	memUsedBucket = []byte("memory.used.v1")
	// memPinnedBucket holds the ids of pinned entries (no value).
	memPinnedBucket = []byte("memory.pinned.v1")
	// memPrefsBucket holds the ids of preferences (no value), which apply
	// to every task whatever its words.
	memPrefsBucket = []byte("memory.preferences.v1")
	// memTextsBucket maps a hash of an entry's normalised text to its id, so
	// the same memory is not written twice.
	memTextsBucket = []byte("memory.texts.v1")
	// memCandidatesBucket holds preferences stated once, by normalised
	// text, until another run states them too.
	memCandidatesBucket = []byte("memory.candidates.v1")
	// memStatsBucket holds "stats": the entry count and their total length,
	// for BM25's average length.
	memStatsBucket = []byte("memory.stats.v1")
)

func init() {
	store.Register(memEntriesBucket, memTermsBucket, memUsedBucket, memPinnedBucket, memPrefsBucket,
		memTextsBucket, memCandidatesBucket, memStatsBucket)
}

var statsKey = []byte("stats")

// Memory is the long-term memory kept in a store. It is safe for concurrent
// use, as the store is.
type Memory struct{ s *store.Store }

// New is the long-term memory of s.
func New(s *store.Store) *Memory { return &Memory{s: s} }

// Kinds of memory entries.
const (
	KindOutcome    = "outcome"    // a finished run's task and answer
	KindFact       = "fact"       // a conclusion worth keeping
	KindPreference = "preference" // how the user wants things done
	KindPath       = "path"       // files a run found useful
)

// Sources: what a run was told or did that an entry was taken from.
const (
	SourceTask        = "task"        // the task as the user gave it
	SourceInstruction = "instruction" // an instruction injected while the run worked
	SourceStanding    = "standing"    // the run's standing instructions
	SourceResult      = "result"      // the run's answer and the files it used
)

// Entry is one long-term memory.
type Entry struct {
	ID       uint64    `json:"id"`
	Kind     string    `json:"kind"`
	Text     string    `json:"text"`
	RunID    string    `json:"run_id,omitempty"` // the run it came from
	Created  time.Time `json:"created"`
	Recalled time.Time `json:"recalled,omitzero"` // the last time a run was given it
	Recalls  int       `json:"recalls,omitempty"`
	Pinned   bool      `json:"pinned,omitempty"` // never fades, always recalled
	// Namespace is whose memory it is: "" the desktop's, "bot/wecom/USER/N"
	// a chat user's conversation. A run recalls only its own namespace's.
	Namespace string `json:"namespace,omitempty"`
	// Source is what in run RunID the entry was taken from (Source…);
	// entries written before it was kept have none.
	Source string `json:"source,omitempty"`
	// LastRecall is why the last run given this entry was given it.
	LastRecall *LastRecall `json:"last_recall,omitempty"`
}

// LastRecall is the run that last recalled an entry, and why.
type LastRecall struct {
	RunID string `json:"run_id"`
	Why
}

// Origin is the entry's Source, or for an entry older than sources the one
// its kind implies: an outcome or a path comes from a run's result. It is
// "" when unknown.
func (e Entry) Origin() string {
	if e.Source == "" && (e.Kind == KindOutcome || e.Kind == KindPath) {
		return SourceResult
	}
	return e.Source
}

// lastUsed is when the entry was last written or recalled.
func (e Entry) lastUsed() time.Time {
	if e.Recalled.After(e.Created) {
		return e.Recalled
	}
	return e.Created
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

func usedKey(e Entry) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, uint64(e.lastUsed().Unix())), e.ID)
}

// Normalise folds case, spaces and punctuation, so "Always use tabs." and
// "always use tabs" are one memory.
func Normalise(text string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

func textKey(namespace, text string) []byte {
	key := Normalise(text)
	if namespace != "" {
		key = namespace + "\x00" + key
	}
	sum := sha256.Sum256([]byte(key))
	return sum[:16]
}

// Remember writes the entries that are not already in memory (by their
// normalised text) and returns them with their ids. An entry without a
// Created time is created now.
func (m *Memory) Remember(entries []Entry, now time.Time) ([]Entry, error) {
	var written []Entry
	err := m.update(func(tx *bolt.Tx) error {
		written = written[:0]
		texts := tx.Bucket(memTextsBucket)
		for _, e := range entries {
			if strings.TrimSpace(e.Text) == "" || texts.Get(textKey(e.Namespace, e.Text)) != nil {
				continue
			}
			if e.Created.IsZero() {
				e.Created = now
			}
			id, err := tx.Bucket(memEntriesBucket).NextSequence()
			if err != nil {
				return err
			}
			e.ID = id
			if err := putEntry(tx, e, true); err != nil {
				return err
			}
			written = append(written, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("write memory: %w", err)
	}
	return written, nil
}

// putEntry stores a new entry with its postings, its place in the fading
// order (or among the pinned) and its text key.
func putEntry(tx *bolt.Tx, e Entry, index bool) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := tx.Bucket(memEntriesBucket).Put(idKey(e.ID), data); err != nil {
		return err
	}
	if err := tx.Bucket(memTextsBucket).Put(textKey(e.Namespace, e.Text), idKey(e.ID)); err != nil {
		return err
	}
	spaces := tx.Bucket(memSpacesBucket)
	if e.Kind == KindPreference {
		if err := tx.Bucket(memPrefsBucket).Put(idKey(e.ID), nil); err != nil {
			return err
		}
		if err := spaces.Put(spaceIDKey(e.Namespace, classPref, e.ID), nil); err != nil {
			return err
		}
	}
	if e.Pinned {
		if err := tx.Bucket(memPinnedBucket).Put(idKey(e.ID), nil); err != nil {
			return err
		}
		if err := spaces.Put(spaceIDKey(e.Namespace, classPinned, e.ID), nil); err != nil {
			return err
		}
	} else if err := tx.Bucket(memUsedBucket).Put(usedKey(e), nil); err != nil {
		return err
	}
	if !index {
		return nil
	}
	return indexEntry(tx, e, +1)
}

// Get returns the entry with this id, or ErrNoMemory.
func (m *Memory) Get(id uint64) (Entry, error) {
	var e Entry
	err := m.s.View(func(tx *bolt.Tx) error {
		var err error
		e, err = getEntry(tx, id)
		return err
	})
	if err != nil {
		return Entry{}, fmt.Errorf("read memory %d: %w", id, err)
	}
	return e, nil
}

// getEntry reads an entry. One that an index names may be lost
// (lostEntry): hermes doctor --salvage keeps what a damaged page left,
// so an entry's postings or its place in the fading order can outlive it;
// readers skip such an entry, and Fade drops its place.
func getEntry(tx *bolt.Tx, id uint64) (Entry, error) {
	var e Entry
	data := tx.Bucket(memEntriesBucket).Get(idKey(id))
	if data == nil {
		return e, ErrNoMemory
	}
	return e, json.Unmarshal(data, &e)
}

// Memories returns up to limit entries (all when limit <= 0), newest first.
func (m *Memory) Memories(limit int) ([]Entry, error) {
	var out []Entry
	err := m.s.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(memEntriesBucket).Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("decode memory %d: %w", binary.BigEndian.Uint64(k), err)
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list memory: %w", err)
	}
	return out, nil
}

// Count is how many entries the memory holds.
func (m *Memory) Count() (int, error) {
	var n int
	err := m.s.View(func(tx *bolt.Tx) error {
		n = int(readStats(tx).docs)
		return nil
	})
	return n, err
}

// Forget removes an entry and everything that finds it.
func (m *Memory) Forget(id uint64) error {
	err := m.update(func(tx *bolt.Tx) error {
		e, err := getEntry(tx, id)
		if err != nil {
			return err
		}
		return deleteEntry(tx, e)
	})
	if err != nil {
		return fmt.Errorf("forget memory %d: %w", id, err)
	}
	return nil
}

func deleteEntry(tx *bolt.Tx, e Entry) error {
	if err := indexEntry(tx, e, -1); err != nil {
		return err
	}
	for _, del := range []struct {
		bucket, key []byte
	}{
		{memEntriesBucket, idKey(e.ID)},
		{memTextsBucket, textKey(e.Namespace, e.Text)},
		{memUsedBucket, usedKey(e)},
		{memPinnedBucket, idKey(e.ID)},
		{memPrefsBucket, idKey(e.ID)},
		{memSpacesBucket, spaceIDKey(e.Namespace, classPinned, e.ID)},
		{memSpacesBucket, spaceIDKey(e.Namespace, classPref, e.ID)},
	} {
		if err := tx.Bucket(del.bucket).Delete(del.key); err != nil {
			return err
		}
	}
	return nil
}

// Pin pins an entry (it never fades and is recalled for every task)
// or unpins it (it fades like the others, counting from now).
func (m *Memory) Pin(id uint64, pinned bool, now time.Time) error {
	err := m.update(func(tx *bolt.Tx) error {
		e, err := getEntry(tx, id)
		if err != nil {
			return err
		}
		if e.Pinned == pinned {
			return nil
		}
		if err := tx.Bucket(memUsedBucket).Delete(usedKey(e)); err != nil {
			return err
		}
		if err := tx.Bucket(memPinnedBucket).Delete(idKey(e.ID)); err != nil {
			return err
		}
		if err := tx.Bucket(memSpacesBucket).Delete(spaceIDKey(e.Namespace, classPinned, e.ID)); err != nil {
			return err
		}
		e.Pinned = pinned
		if !pinned && e.lastUsed().Before(now) {
			e.Recalled = now
		}
		return putEntry(tx, e, false)
	})
	if err != nil {
		return fmt.Errorf("pin memory %d: %w", id, err)
	}
	return nil
}

// Fade forgets the unpinned entries last written or recalled before cutoff,
// and the preferences stated only once before it; it returns how many
// entries it forgot. It reads only what it removes.
func (m *Memory) Fade(cutoff time.Time) (int, error) {
	// Most runs find nothing to fade: a read then, not a synced commit.
	due := false
	err := m.s.View(func(tx *bolt.Tx) error {
		k, _ := tx.Bucket(memUsedBucket).Cursor().First()
		due = k != nil && int64(binary.BigEndian.Uint64(k[:8])) < cutoff.Unix()
		if !due {
			due = tx.Bucket(memCandidatesBucket).ForEach(func(_, v []byte) error {
				if candidateFades(v, cutoff) {
					return errDue
				}
				return nil
			}) != nil
		}
		return nil
	})
	if err != nil || !due {
		return 0, wrapFade(err)
	}
	n := 0
	err = m.update(func(tx *bolt.Tx) error {
		n = 0
		used := tx.Bucket(memUsedBucket)
		c := used.Cursor()
		var keys [][]byte
		for k, _ := c.First(); k != nil && int64(binary.BigEndian.Uint64(k[:8])) < cutoff.Unix(); k, _ = c.Next() {
			keys = append(keys, bytes.Clone(k))
		}
		for _, k := range keys {
			id := binary.BigEndian.Uint64(k[8:])
			e, err := getEntry(tx, id)
			if errors.Is(err, ErrNoMemory) {
				if err := used.Delete(k); err != nil { // see getEntry
					return err
				}
				continue
			}
			if err != nil {
				return fmt.Errorf("memory %d: %w", id, err)
			}
			if err := deleteEntry(tx, e); err != nil {
				return err
			}
			n++
		}
		return fadeCandidates(tx, cutoff)
	})
	return n, wrapFade(err)
}

func wrapFade(err error) error {
	if err != nil {
		return fmt.Errorf("fade memory: %w", err)
	}
	return nil
}

// candidate is a preference stated in one run, waiting to recur.
type candidate struct {
	Text  string    `json:"text"`
	RunID string    `json:"run_id"`
	Seen  time.Time `json:"seen"`
}

// NotePreference records that run stated text as an instruction. It reports
// whether an earlier, different run stated it too: then it is a preference
// worth remembering, and the caller writes it.
func (m *Memory) NotePreference(text, runID string, now time.Time) (recurring bool, err error) {
	return m.In("").NotePreference(text, runID, now)
}

// NotePreference is Memory.NotePreference among the runs of the namespace.
func (sp Space) NotePreference(text, runID string, now time.Time) (recurring bool, err error) {
	text = sp.clean(text)
	key := []byte(Normalise(text))
	if len(key) == 0 {
		return false, nil
	}
	if sp.namespace != "" {
		key = append([]byte(sp.namespace+"\x00"), key...)
	}
	err = sp.m.s.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(memCandidatesBucket)
		var c candidate
		if data := b.Get(key); data != nil {
			if err := json.Unmarshal(data, &c); err != nil {
				return err
			}
			if c.RunID != runID {
				recurring = true
				return b.Delete(key)
			}
		}
		data, err := json.Marshal(candidate{Text: text, RunID: runID, Seen: now})
		if err != nil {
			return err
		}
		return b.Put(key, data)
	})
	if err != nil {
		return false, fmt.Errorf("note preference: %w", err)
	}
	return recurring, nil
}

// fadeCandidates drops preferences stated once before cutoff. There are
// few: one per distinct instruction a person gave.
func fadeCandidates(tx *bolt.Tx, cutoff time.Time) error {
	b := tx.Bucket(memCandidatesBucket)
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if candidateFades(v, cutoff) {
			old = append(old, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// candidateFades says whether the candidate v was stated before cutoff (or
// cannot be read).
func candidateFades(v []byte, cutoff time.Time) bool {
	var c candidate
	return json.Unmarshal(v, &c) != nil || c.Seen.Before(cutoff)
}

// errDue stops a walk that found something to fade.
var errDue = errors.New("due to fade")
