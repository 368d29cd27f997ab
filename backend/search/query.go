package search

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"
)

// Query asks for the documents that best match Text among those that pass
// every filter.
type Query struct {
	// Text is split into terms as documents are; a document matching more
	// of them ranks higher. Empty Text returns every document that passes
	// the filters, in id order.
	Text    string
	Filters []Filter
	// Limit caps the hits; 0 means 10.
	Limit int
}

// Filter keeps the documents that hold one of Values (compared without
// regard to case) under keyword Key.
type Filter struct {
	Key    string
	Values []string
}

// Hit is one document found.
type Hit struct {
	ID       string
	Score    float64
	Keywords map[string][]string
	// Matched lists the query terms the document holds.
	Matched []string
}

// Result is the answer to a query.
type Result struct {
	Hits []Hit
	// Total counts every document that matched, beyond Limit too.
	Total int
}

// Search runs q.
func (ix *Index) Search(q Query) Result {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	terms := uniqueTerms(q.Text)

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	allowed := ix.filter(q.Filters)
	if len(terms) == 0 {
		return ix.unranked(allowed, limit)
	}

	n := float64(ix.live)
	avg := 1.0
	if ix.live > 0 && ix.totalLen > 0 {
		avg = ix.totalLen / n
	}
	k1, b := ix.opts.K1, ix.opts.B
	scores := make([]float64, len(ix.docs))
	matched := make([]uint64, len(ix.docs)) // bit i: query term i found
	for i, term := range terms {
		for _, p := range ix.postingsFor(term) {
			// Replaced documents stay listed until compaction: cap df so
			// that idf stays positive.
			df := min(float64(len(p.docs)), n)
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			for j, d := range p.docs {
				doc := &ix.docs[d]
				if !doc.live || allowed != nil && !allowed[d] {
					continue
				}
				tf := float64(p.tfs[j])
				scores[d] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(doc.length)/avg))
				if i < 64 {
					matched[d] |= 1 << i
				}
			}
		}
	}

	var found []uint32
	for d, s := range scores {
		if s > 0 {
			// A document holding every term beats one holding a few of
			// them many times.
			coverage := float64(bits.OnesCount64(matched[d])) / float64(min(len(terms), 64))
			scores[d] = s * coverage * coverage
			found = append(found, uint32(d))
		}
	}
	slices.SortFunc(found, func(x, y uint32) int {
		if c := cmp.Compare(scores[y], scores[x]); c != 0 {
			return c
		}
		return cmp.Compare(ix.docs[x].id, ix.docs[y].id)
	})
	res := Result{Total: len(found)}
	for _, d := range found[:min(limit, len(found))] {
		h := Hit{ID: ix.docs[d].id, Score: scores[d], Keywords: decodeKeywords(ix.docs[d].keywords)}
		for i, term := range terms {
			if i < 64 && matched[d]&(1<<i) != 0 {
				h.Matched = append(h.Matched, term)
			}
		}
		res.Hits = append(res.Hits, h)
	}
	return res
}

// postingsFor returns the postings of term. A lone CJK character is indexed
// only where it stands alone, so it also matches every character pair that
// holds it.
func (ix *Index) postingsFor(term string) []*postings {
	var out []*postings
	if p := ix.lookupLocked(term); p != nil {
		out = append(out, p)
	}
	r, size := utf8.DecodeRuneInString(term)
	if size != len(term) || !isCJK(r) {
		return out
	}
	ix.eachTermLocked(func(t string, get func() *postings) {
		if len(t) > size && utf8.RuneCountInString(t) == 2 {
			first, n := utf8.DecodeRuneInString(t)
			second, _ := utf8.DecodeRuneInString(t[n:])
			if first == r || second == r {
				if p := get(); p != nil {
					out = append(out, p)
				}
			}
		}
	})
	return out
}

// filter returns which documents pass every filter, or nil when there are
// no filters.
func (ix *Index) filter(filters []Filter) []bool {
	if len(filters) == 0 {
		return nil
	}
	allowed := make([]bool, len(ix.docs))
	for n := range ix.docs {
		d := &ix.docs[n]
		allowed[n] = d.live && !slices.ContainsFunc(filters, func(f Filter) bool { return !d.hasKeyword(f.Key, f.Values) })
	}
	return allowed
}

// unranked lists the live documents that allowed lets through, in id order.
func (ix *Index) unranked(allowed []bool, limit int) Result {
	var ids []uint32
	for n := range ix.docs {
		if ix.docs[n].live && (allowed == nil || allowed[n]) {
			ids = append(ids, uint32(n))
		}
	}
	slices.SortFunc(ids, func(x, y uint32) int { return cmp.Compare(ix.docs[x].id, ix.docs[y].id) })
	res := Result{Total: len(ids)}
	for _, n := range ids[:min(limit, len(ids))] {
		res.Hits = append(res.Hits, Hit{ID: ix.docs[n].id, Keywords: decodeKeywords(ix.docs[n].keywords)})
	}
	return res
}

// uniqueTerms tokenises a query, each term once, in order.
func uniqueTerms(text string) []string {
	var out []string
	for _, t := range Tokenize(text) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
