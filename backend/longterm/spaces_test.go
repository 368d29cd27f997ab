package longterm

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/store"
)

// company is a memory as a bot replica's is with shared memory: users
// namespaces of a chat user each, with an outcome, a fact and a
// preference apiece, and the desktop's own.
func company(tb testing.TB, m *Memory, users int) {
	tb.Helper()
	topics := []string{"sales report", "staging database", "garden tomatoes", "harbour code", "销售报告", "数据库备份"}
	var entries []Entry
	for u := range users {
		ns := fmt.Sprintf("bot/wecom/user%d/0", u)
		topic := topics[u%len(topics)]
		entries = append(entries,
			Entry{Namespace: ns, Kind: KindOutcome, Text: fmt.Sprintf("Task: update the %s for user %d\nOutcome: done, figures in reports/u%d.csv", topic, u, u), RunID: "r"},
			Entry{Namespace: ns, Kind: KindFact, Text: fmt.Sprintf("The %s of user %d is kept in folder %d", topic, u, u%17)},
			Entry{Namespace: ns, Kind: KindPreference, Text: fmt.Sprintf("Answer user %d as Markdown tables, %s first", u, topic)},
		)
	}
	entries = append(entries,
		Entry{Kind: KindPreference, Text: "Dates as YYYY-MM-DD"},
		Entry{Kind: KindFact, Text: "The sales report is due on Fridays"},
	)
	if _, err := m.Remember(entries, day0); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkRecallOneOfManySpaces is a recall in one chat user's namespace
// of a replica that holds 2,000 users' memories: its cost is that
// namespace's, not the store's.
//
//	go test -run '^$' -bench RecallOneOfManySpaces -benchmem ./backend/longterm/
func BenchmarkRecallOneOfManySpaces(b *testing.B) {
	for _, users := range []int{200, 2000} {
		b.Run(fmt.Sprintf("users=%d", users), func(b *testing.B) {
			m := openTemp(b)
			company(b, m, users)
			sp := m.In("bot/wecom/user42/0")
			b.ResetTimer()
			for range b.N {
				hits, err := sp.Recall("Please update the sales report for Q3 and the staging database", 20)
				if err != nil || len(hits) != 3 {
					b.Fatalf("Recall = %v, %v", texts(hits), err)
				}
			}
		})
	}
}

// recallByScan is Recall as it was before the namespace index: it reads
// every pinned entry and preference, and every posting of the query's
// terms, of every namespace. The index must not change what it finds.
func (sp Space) recallByScan(query string, limit int) ([]Hit, error) {
	terms := queryTerms(query)
	var hits []Hit
	err := sp.m.s.View(func(tx *bolt.Tx) error {
		err := tx.Bucket(memPinnedBucket).ForEach(func(k, _ []byte) error {
			e, err := getEntry(tx, binary.BigEndian.Uint64(k))
			if errors.Is(err, ErrNoMemory) {
				return nil // see getEntry
			}
			if err != nil {
				return err
			}
			if e.Namespace == sp.namespace {
				hits = append(hits, Hit{Entry: e, Why: Why{Reason: ReasonPinned}})
			}
			return nil
		})
		if err != nil {
			return err
		}
		listed := len(hits)
		c := tx.Bucket(memPrefsBucket).Cursor()
		for k, _ := c.Last(); k != nil && len(hits)-listed < limit; k, _ = c.Prev() {
			e, err := getEntry(tx, binary.BigEndian.Uint64(k))
			if errors.Is(err, ErrNoMemory) {
				continue // see getEntry
			}
			if err != nil {
				return err
			}
			if !e.Pinned && e.Namespace == sp.namespace {
				hits = append(hits, Hit{Entry: e, Why: Why{Reason: ReasonPreference}})
			}
		}
		st := readStats(tx)
		if st.docs == 0 || limit <= 0 {
			return nil
		}
		avg := float64(st.length) / float64(st.docs)
		scores := map[uint64]float64{}
		type weighed struct {
			term  string
			score float64
		}
		matched := map[uint64][]weighed{}
		c = tx.Bucket(memTermsBucket).Cursor()
		type posting struct {
			id     uint64
			tf, dl float64
		}
		var list []posting
		ideal := 0.0
		for _, term := range terms {
			prefix := append([]byte(term), 0)
			list = list[:0]
			for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
				list = append(list, posting{
					id: binary.BigEndian.Uint64(k[len(prefix):]),
					tf: float64(binary.BigEndian.Uint16(v)), dl: float64(binary.BigEndian.Uint16(v[2:])),
				})
			}
			df := float64(len(list))
			idf := math.Log(1 + (float64(st.docs)-df+0.5)/(df+0.5))
			ideal += math.Log(1 + (float64(st.docs)-max(df, 1)+0.5)/(max(df, 1)+0.5))
			for _, p := range list {
				score := idf * p.tf * (bm25K1 + 1) / (p.tf + bm25K1*(1-bm25B+bm25B*p.dl/avg))
				scores[p.id] += score
				matched[p.id] = append(matched[p.id], weighed{term, score})
			}
		}
		ranked := make([]Hit, 0, len(scores))
		for id, score := range scores {
			if len(matched[id]) >= minShared && score/ideal >= minRelevance {
				ranked = append(ranked, Hit{Entry: Entry{ID: id}, Why: Why{Reason: ReasonMatch, Score: score, Relevance: min(score/ideal, 1)}})
			}
		}
		slices.SortFunc(ranked, func(a, b Hit) int {
			if c := cmp.Compare(b.Score, a.Score); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID) // the newer of two equal matches
		})
		found := 0
		for _, h := range ranked {
			if found >= limit {
				break
			}
			e, err := getEntry(tx, h.ID)
			if errors.Is(err, ErrNoMemory) {
				continue // see getEntry
			}
			if err != nil {
				return fmt.Errorf("memory %d: %w", h.ID, err)
			}
			if e.Pinned || e.Kind == KindPreference || e.Namespace != sp.namespace {
				continue // already listed, or someone else's
			}
			terms := matched[h.ID]
			slices.SortStableFunc(terms, func(a, b weighed) int { return cmp.Compare(b.score, a.score) })
			for _, w := range terms[:min(len(terms), maxWhyTerms)] {
				h.Terms = append(h.Terms, w.term)
			}
			h.Entry = e
			hits = append(hits, h)
			found++
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recall memory: %w", err)
	}
	return hits, nil
}

// Recall through the namespace index finds, in the same order and with the
// same scores and reasons, what a scan of the whole store found, in every
// namespace, after writes, pins, unpins, forgets and fades.
func TestRecall_IndexFindsWhatTheScanFound(t *testing.T) {
	m := openTemp(t)
	company(t, m, 60)
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"sales", "report", "database", "garden", "harbour", "code", "tables", "q3", "销售", "报告", "folder", "user"}
	namespaces := []string{"", "bot/wecom/user1/0", "bot/wecom/user7/0", "bot/wecom/user13/0", "bot/wecom/user59/0"}
	check := func(step string) {
		t.Helper()
		for _, ns := range namespaces {
			for q := range 6 {
				query := ""
				for range 1 + q {
					query += words[rng.IntN(len(words))] + " "
				}
				for _, limit := range []int{0, 1, 3, 20} {
					got, err := m.In(ns).Recall(query, limit)
					if err != nil {
						t.Fatal(err)
					}
					want, err := m.In(ns).recallByScan(query, limit)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: Recall(%q, %d) in %q =\n%+v\nthe scan found\n%+v", step, query, limit, ns, got, want)
					}
				}
			}
		}
	}
	check("written")
	for i := range 40 {
		ns := namespaces[rng.IntN(len(namespaces))]
		text := fmt.Sprintf("%s %s note %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i)
		kind := []string{KindFact, KindOutcome, KindPreference}[i%3]
		if _, err := m.In(ns).Remember([]Entry{{Kind: kind, Text: text}}, day0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	check("more written")
	all, err := m.Memories(0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range all {
		switch i % 9 {
		case 0:
			if err := m.Pin(e.ID, true, day0); err != nil {
				t.Fatal(err)
			}
		case 4:
			if err := m.Forget(e.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	check("pinned and forgotten")
	for i, e := range all {
		if i%18 == 0 {
			if err := m.Pin(e.ID, false, day0.Add(48*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
	}
	hits, err := m.In(namespaces[1]).Recall("sales report tables", 20)
	if err != nil || m.MarkRecalled(hits, "r9", day0.Add(30*time.Hour)) != nil {
		t.Fatal(err)
	}
	if _, err := m.Fade(day0.Add(20 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	check("unpinned, recalled and faded")
}

// A store an older Hermes wrote to after this one (it keeps the buckets
// it knows, not the namespace index) recalls what it holds now: the index
// is rebuilt, as after hermes doctor --salvage, which does not copy it.
func TestRecall_IndexRebuiltAfterAnOlderHermesOrSalvage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := New(db)
	company(t, m, 20)
	mine, err := m.Memories(0)
	if err != nil {
		t.Fatal(err)
	}
	mine = slices.DeleteFunc(mine, func(e Entry) bool { return e.Namespace != "bot/wecom/user3/0" || e.Kind == KindPreference })
	if err := m.Pin(mine[0].ID, true, day0); err != nil {
		t.Fatal(err)
	}
	// The older Hermes, in the buckets it knows: it unpins that memory and
	// pins another (as many pinned as before), and writes a new one, its
	// id going on from where ours stopped.
	var next uint64
	err = db.Update(func(tx *bolt.Tx) error {
		for i, e := range []Entry{mine[0], mine[1]} {
			e.Pinned = i == 1
			data, _ := json.Marshal(e)
			pinned := tx.Bucket(memPinnedBucket)
			if err := errors.Join(tx.Bucket(memEntriesBucket).Put(idKey(e.ID), data), pinned.Delete(idKey(e.ID)), tx.Bucket(memUsedBucket).Delete(usedKey(e))); err != nil {
				return err
			}
			if e.Pinned {
				err = pinned.Put(idKey(e.ID), nil)
			} else {
				err = tx.Bucket(memUsedBucket).Put(usedKey(e), nil)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sp := m.In("bot/wecom/user3/0")
	if got, err := sp.Recall("sales report", 5); err != nil || len(got) == 0 || got[0].ID != mine[1].ID || got[0].Reason != ReasonPinned {
		t.Fatalf("after an older Hermes pinned: Recall = %v, %v; want the memory it pinned first", texts(got), err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		next = tx.Bucket(memEntriesBucket).Sequence() + 1
		e := Entry{ID: next, Kind: KindFact, Text: "Zorgland harbour code", Namespace: "bot/wecom/user3/0", Created: day0}
		data, _ := json.Marshal(e)
		if err := tx.Bucket(memEntriesBucket).Put(idKey(e.ID), data); err != nil {
			return err
		}
		if err := tx.Bucket(memEntriesBucket).SetSequence(next); err != nil {
			return err
		}
		if err := tx.Bucket(memUsedBucket).Put(usedKey(e), nil); err != nil {
			return err
		}
		for _, term := range []string{"zorgland", "harbour", "code"} {
			v := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, 1), 3)
			if err := tx.Bucket(memTermsBucket).Put(postingKey(term, e.ID), v); err != nil {
				return err
			}
		}
		st := readStats(tx)
		return writeStats(tx, memStats{st.docs + 1, st.length + 3})
	})
	if err != nil {
		t.Fatal(err)
	}
	same := func(step string) {
		t.Helper()
		got, err := sp.Recall("where is the zorgland harbour", 5)
		if err != nil {
			t.Fatal(err)
		}
		want, err := sp.recallByScan("where is the zorgland harbour", 5)
		found := slices.ContainsFunc(got, func(h Hit) bool { return h.ID == next }) &&
			slices.ContainsFunc(got, func(h Hit) bool { return h.ID == mine[1].ID && h.Reason == ReasonPinned })
		if err != nil || !reflect.DeepEqual(got, want) || !found {
			t.Fatalf("%s: Recall = %v; the scan found %v, %v", step, texts(got), texts(want), err)
		}
	}
	same("after an older Hermes wrote")
	if db.Close() != nil {
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
	empty := true
	if err := db.View(func(tx *bolt.Tx) error { empty = tx.Bucket(memSpacesBucket).Stats().KeyN == 0; return nil }); err != nil {
		t.Fatal(err)
	}
	if !empty {
		t.Fatal("salvage copied the namespace index; it is rebuilt, since a damaged page may have cost it keys")
	}
	m = New(db)
	sp = m.In("bot/wecom/user3/0")
	same("after salvage")
}

// Every run fades the memory before it recalls; when nothing is old enough
// to fade that is a read, not a synced commit on the run's path: the file
// is not written.
func TestFade_NothingDueWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db)
	company(t, m, 3)
	if _, err := m.In("bot/wecom/user1/0").NotePreference("Use tabs", "r1", day0); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.Fade(day0.Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("Fade = %d, %v; want nothing faded", n, err)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Fatalf("a Fade with nothing to fade wrote the store (%v)", err)
	}
	if recurring, err := m.In("bot/wecom/user1/0").NotePreference("Use tabs", "r2", day0.Add(time.Hour)); err != nil || !recurring {
		t.Fatalf("NotePreference after the Fade = %v, %v; the candidate was kept", recurring, err)
	}
	if n, err := m.Fade(day0.Add(time.Hour)); err != nil || n != 3*3+2 {
		t.Fatalf("Fade = %d, %v; want every memory", n, err)
	}
}
