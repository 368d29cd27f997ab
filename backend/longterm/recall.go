package longterm

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/search"
)

// BM25's usual constants: term-frequency saturation and length normalisation.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// maxQueryTerms bounds the work of one recall: a task of many paragraphs is
// matched on its first terms.
const maxQueryTerms = 128

// functionWords are the query terms that say nothing of a task's subject:
// a memory sharing only "the" and "to" with a task is not about it. They
// stay in the index, so the list can change without a rebuild.
var functionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if then so of to in on at by for from with as into
		is are was were be been it its this thi that these those there here i me my we our you your he she they them
		do doe did not no can will would should could may might must have ha had what which who how when where
		please also all any some up out about over after before than just only very more most such each`) {
		functionWords[w] = true
	}
}

type memStats struct{ docs, length uint64 }

func readStats(tx *bolt.Tx) memStats {
	v := tx.Bucket(memStatsBucket).Get(statsKey)
	if len(v) != 16 {
		return memStats{}
	}
	return memStats{binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:])}
}

func writeStats(tx *bolt.Tx, st memStats) error {
	v := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, st.docs), st.length)
	return tx.Bucket(memStatsBucket).Put(statsKey, v)
}

// termCounts splits text as the vault's search index does (words, and
// pairs of characters for Chinese), and counts each term.
func termCounts(text string) (map[string]int, int) {
	counts := map[string]int{}
	n := 0
	for _, t := range search.Tokenize(text) {
		counts[t]++
		n++
	}
	return counts, n
}

func postingKey(term string, id uint64) []byte {
	k := make([]byte, 0, len(term)+9)
	k = append(k, term...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, id)
}

// indexEntry adds (sign +1) or removes (-1) an entry's postings and its
// share of the stats.
func indexEntry(tx *bolt.Tx, e Entry, sign int) error {
	counts, length := termCounts(e.Text)
	terms, spaces := tx.Bucket(memTermsBucket), tx.Bucket(memSpacesBucket)
	dl := uint16(min(length, math.MaxUint16))
	for term, tf := range counts {
		k, sk := postingKey(term, e.ID), spacePostingKey(e.Namespace, term, e.ID)
		if sign < 0 {
			if terms.Get(k) == nil {
				continue // lost to a damaged page (see getEntry)
			}
			if err := errors.Join(terms.Delete(k), spaces.Delete(sk), addDF(tx, term, -1)); err != nil {
				return err
			}
			continue
		}
		v := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, uint16(min(tf, math.MaxUint16))), dl)
		if err := errors.Join(terms.Put(k, v), spaces.Put(sk, v), addDF(tx, term, +1)); err != nil {
			return err
		}
	}
	st := readStats(tx)
	if sign > 0 {
		st.docs++
		st.length += uint64(length)
	} else {
		st.docs = max(st.docs, 1) - 1
		st.length -= min(st.length, uint64(length))
	}
	return writeStats(tx, st)
}

// Reasons a memory is recalled.
const (
	ReasonPinned     = "pinned"     // pinned: recalled for every task
	ReasonPreference = "preference" // a preference: holds for every task
	ReasonMatch      = "match"      // it shares words with the task
)

// maxWhyTerms is how many of the matched terms a hit names.
const maxWhyTerms = 8

// Why says why a memory was recalled: its Reason, and for a match the
// task's terms it holds (those that weighed most first) and its BM25 score.
type Why struct {
	Reason string   `json:"reason"`
	Terms  []string `json:"terms,omitempty"`
	Score  float64  `json:"score,omitempty"`
}

// Hit is a recalled entry and why it was recalled.
type Hit struct {
	Entry
	Why
}

// Recall returns the pinned entries, then the preferences (newest first,
// at most limit), which hold whatever the task, then up to limit others that
// match query best by BM25 (words, and character pairs for Chinese), best
// first. It does not mark them recalled: the caller marks those it uses.
func (m *Memory) Recall(query string, limit int) ([]Hit, error) {
	return m.In("").Recall(query, limit)
}

// Space is one namespace of the long-term memory: what a run recalls and
// writes there is its namespace's only, so a chat user never sees another's
// (or the desktop's) memories.
type Space struct {
	m         *Memory
	namespace string
	scrub     func(string) string // nil: texts are written as given
}

// In is the namespace's part of the memory; "" is the desktop's.
func (m *Memory) In(namespace string) Space { return Space{m: m, namespace: namespace} }

// Scrubbed is sp with every text passed through scrub before it is written
// (Remember, NotePreference), so that a secret a run saw is never kept:
// a run's redactor, which its events pass through too.
func (sp Space) Scrubbed(scrub func(string) string) Space {
	sp.scrub = scrub
	return sp
}

func (sp Space) clean(text string) string {
	if sp.scrub == nil {
		return text
	}
	return sp.scrub(text)
}

// Remember is Memory.Remember with the entries put in the namespace.
func (sp Space) Remember(entries []Entry, now time.Time) ([]Entry, error) {
	entries = slices.Clone(entries)
	for i := range entries {
		entries[i].Namespace = sp.namespace
		entries[i].Text = sp.clean(entries[i].Text)
	}
	return sp.m.Remember(entries, now)
}

// MarkRecalled is Memory.MarkRecalled.
func (sp Space) MarkRecalled(hits []Hit, runID string, now time.Time) error {
	return sp.m.MarkRecalled(hits, runID, now)
}

// Fade is Memory.Fade: memories fade by age in every namespace alike.
func (sp Space) Fade(cutoff time.Time) (int, error) { return sp.m.Fade(cutoff) }

// Recall is Memory.Recall among the namespace's entries.
func (sp Space) Recall(query string, limit int) ([]Hit, error) {
	counts, _ := termCounts(query)
	terms := make([]string, 0, len(counts))
	for t := range counts {
		if !functionWords[t] {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	terms = terms[:min(len(terms), maxQueryTerms)]

	var hits []Hit
	err := sp.m.view(func(tx *bolt.Tx) error {
		spaces := tx.Bucket(memSpacesBucket)
		c := spaces.Cursor()
		prefix := spacePrefix(sp.namespace, classPinned)
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			e, err := getEntry(tx, binary.BigEndian.Uint64(k[len(prefix):]))
			if errors.Is(err, ErrNoMemory) {
				continue // see getEntry
			}
			if err != nil {
				return err
			}
			hits = append(hits, Hit{Entry: e, Why: Why{Reason: ReasonPinned}})
		}
		listed := len(hits)
		prefix = spacePrefix(sp.namespace, classPref)
		k, _ := c.Seek(spacePrefix(sp.namespace, classPref+1))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(hits)-listed < limit; k, _ = c.Prev() {
			e, err := getEntry(tx, binary.BigEndian.Uint64(k[len(prefix):]))
			if errors.Is(err, ErrNoMemory) {
				continue // see getEntry
			}
			if err != nil {
				return err
			}
			if !e.Pinned {
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
		for _, term := range terms {
			df := float64(termDF(tx, term))
			if df == 0 {
				continue
			}
			idf := math.Log(1 + (float64(st.docs)-df+0.5)/(df+0.5))
			prefix := append(spacePrefix(sp.namespace, classPosting), append([]byte(term), 0)...)
			for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
				id := binary.BigEndian.Uint64(k[len(prefix):])
				tf, dl := float64(binary.BigEndian.Uint16(v)), float64(binary.BigEndian.Uint16(v[2:]))
				score := idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avg))
				scores[id] += score
				matched[id] = append(matched[id], weighed{term, score})
			}
		}
		ranked := make([]Hit, 0, len(scores))
		for id, score := range scores {
			ranked = append(ranked, Hit{Entry: Entry{ID: id}, Why: Why{Reason: ReasonMatch, Score: score}})
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

// MarkRecalled records that the hits were given to run now, and why, which
// keeps them from fading.
func (m *Memory) MarkRecalled(hits []Hit, runID string, now time.Time) error {
	err := m.update(func(tx *bolt.Tx) error {
		for _, h := range hits {
			e, err := getEntry(tx, h.ID)
			if errors.Is(err, ErrNoMemory) {
				continue // forgotten meanwhile
			}
			if err != nil {
				return err
			}
			if !e.Pinned {
				if err := tx.Bucket(memUsedBucket).Delete(usedKey(e)); err != nil {
					return err
				}
			}
			e.Recalled = now
			e.Recalls++
			e.LastRecall = &LastRecall{RunID: runID, Why: h.Why}
			if err := putEntry(tx, e, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mark memory recalled: %w", err)
	}
	return nil
}
