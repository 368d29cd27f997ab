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
	"sync"
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

// A memory is recalled for a task only when it is about the task: it holds
// at least minShared of the task's content terms (one word in common, "report"
// or "文件", says little), and its BM25 score is at least minRelevance of the
// score of a memory that held every content term of the task once, at the
// average length (relevance). Pinned memories and preferences hold for
// every task and need neither.
const (
	minShared    = 2
	minRelevance = 0.35
)

// functionTerms' words are the query terms that say nothing of a task's subject:
// a memory sharing only "the" and "to" with a task is not about it; nor
// are the words every memory of a run holds ("Task: … Outcome: …", "Files
// used for …"). They stay in the index, so the list can change without a
// rebuild. Chinese terms are pairs of characters: those among the words
// are no more, nor is any pair holding one of its chars (a particle or
// a pronoun: "的报" of "历史的报告" is no word). They are made at the first
// recall, not in the start of every process.
var functionTerms = sync.OnceValues(func() (words map[string]bool, chars map[rune]bool) {
	words, chars = map[string]bool{}, map[rune]bool{}
	for _, w := range strings.Fields(`a an the and or but if then so of to in on at by for from with as into
		is are was were be been it its this thi that these those there here i me my we our you your he she they them
		do doe did not no can will would should could may might must have ha had what which who how when where
		please also all any some up out about over after before than just only very more most such each
		task outcome file used md txt
		我们 你们 他们 她们 它们 这个 那个 这些 那些 这里 那里 这样 那样 一个 一下 一些 一份 一点 什么 怎么 如何
		为什 为何 哪些 哪个 哪里 可以 能否 是否 不是 就是 还是 但是 而且 或者 以及 因为 所以 如果 然后 并且
		关于 对于 帮忙 请帮 请问 请把 请将 告诉 需要 应该 已经 现在 没有`) {
		words[w] = true
	}
	for _, r := range "的了吗呢吧啊呀哦嘛么什是里我你您他她它" {
		chars[r] = true
	}
	return words, chars
})

// contentTerm reports whether a query term can say what a task is about.
func contentTerm(term string) bool {
	functionWords, functionChars := functionTerms()
	if functionWords[term] {
		return false
	}
	for _, r := range term {
		if functionChars[r] {
			return false
		}
	}
	return true
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
// task's terms it holds (those that weighed most first), its BM25 score
// and its relevance: that score as a share of the score of a memory
// holding every content term of the task (0 to 1).
type Why struct {
	Reason    string   `json:"reason"`
	Terms     []string `json:"terms,omitempty"`
	Score     float64  `json:"score,omitempty"`
	Relevance float64  `json:"relevance,omitempty"`
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
	before    time.Time           // zero: every entry; else those created before it
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

// AsOf is sp as it stood at t: it recalls only the entries written before
// t, none written then or later (a fork recalls the memory as it was when
// its source run started, never what that run or a later one wrote). What
// it writes is written now, as by sp.
func (sp Space) AsOf(t time.Time) Space {
	sp.before = t
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

// Recall is Memory.Recall among the namespace's entries (those written
// before its AsOf time, when it has one).
func (sp Space) Recall(query string, limit int) ([]Hit, error) {
	terms := queryTerms(query)
	var hits []Hit
	err := sp.m.view(func(tx *bolt.Tx) error {
		var err error
		if hits, err = sp.standing(tx, limit); err != nil {
			return err
		}
		matches, err := sp.matches(tx, terms, limit)
		hits = append(hits, matches...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("recall memory: %w", err)
	}
	return hits, nil
}

// queryTerms are the distinct content terms of query, at most
// maxQueryTerms of them.
func queryTerms(query string) []string {
	counts, _ := termCounts(query)
	terms := make([]string, 0, len(counts))
	for t := range counts {
		if contentTerm(t) {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	return terms[:min(len(terms), maxQueryTerms)]
}

// visible reports whether the space sees e: it is the namespace's, and
// written before the space's AsOf time when it has one.
func (sp Space) visible(e Entry) bool {
	return e.Namespace == sp.namespace && (sp.before.IsZero() || e.Created.Before(sp.before))
}

// standing returns the namespace's pinned entries, then its preferences
// (newest first, at most limit).
func (sp Space) standing(tx *bolt.Tx, limit int) ([]Hit, error) {
	var hits []Hit
	c := tx.Bucket(memSpacesBucket).Cursor()
	prefix := spacePrefix(sp.namespace, classPinned)
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		e, err := getEntry(tx, binary.BigEndian.Uint64(k[len(prefix):]))
		if errors.Is(err, ErrNoMemory) {
			continue // see getEntry
		}
		if err != nil {
			return nil, err
		}
		if sp.visible(e) {
			hits = append(hits, Hit{Entry: e, Why: Why{Reason: ReasonPinned}})
		}
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
			return nil, err
		}
		if !e.Pinned && sp.visible(e) {
			hits = append(hits, Hit{Entry: e, Why: Why{Reason: ReasonPreference}})
		}
	}
	return hits, nil
}

// matches returns up to limit of the namespace's other entries that are
// about the task whose content terms are terms (minShared, minRelevance),
// best first by BM25.
func (sp Space) matches(tx *bolt.Tx, terms []string, limit int) ([]Hit, error) {
	st := readStats(tx)
	if st.docs == 0 || limit <= 0 {
		return nil, nil
	}
	avg := float64(st.length) / float64(st.docs)
	idf := func(df float64) float64 { return math.Log(1 + (float64(st.docs)-df+0.5)/(df+0.5)) }
	type weighed struct {
		term  string
		score float64
	}
	scores := map[uint64]float64{}
	matched := map[uint64][]weighed{}
	// ideal is the score of a memory holding each term once at the
	// average length: the sum of their idfs, a term no memory holds
	// weighing as one held by a single memory.
	ideal := 0.0
	c := tx.Bucket(memSpacesBucket).Cursor()
	for _, term := range terms {
		df := float64(termDF(tx, term))
		ideal += idf(max(df, 1))
		if df == 0 {
			continue
		}
		w := idf(df)
		prefix := append(spacePrefix(sp.namespace, classPosting), append([]byte(term), 0)...)
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			id := binary.BigEndian.Uint64(k[len(prefix):])
			tf, dl := float64(binary.BigEndian.Uint16(v)), float64(binary.BigEndian.Uint16(v[2:]))
			score := w * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avg))
			scores[id] += score
			matched[id] = append(matched[id], weighed{term, score})
		}
	}
	ranked := make([]Hit, 0, len(scores))
	for id, score := range scores {
		relevance := score / ideal
		if len(matched[id]) < minShared || relevance < minRelevance {
			continue
		}
		ranked = append(ranked, Hit{Entry: Entry{ID: id}, Why: Why{Reason: ReasonMatch, Score: score, Relevance: min(relevance, 1)}})
	}
	slices.SortFunc(ranked, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID) // the newer of two equal matches
	})
	var hits []Hit
	for _, h := range ranked {
		if len(hits) >= limit {
			break
		}
		e, err := getEntry(tx, h.ID)
		if errors.Is(err, ErrNoMemory) {
			continue // see getEntry
		}
		if err != nil {
			return nil, fmt.Errorf("memory %d: %w", h.ID, err)
		}
		if e.Pinned || e.Kind == KindPreference || !sp.visible(e) {
			continue // already listed, someone else's, or written after AsOf
		}
		terms := matched[h.ID]
		slices.SortStableFunc(terms, func(a, b weighed) int { return cmp.Compare(b.score, a.score) })
		for _, w := range terms[:min(len(terms), maxWhyTerms)] {
			h.Terms = append(h.Terms, w.term)
		}
		h.Entry = e
		hits = append(hits, h)
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
