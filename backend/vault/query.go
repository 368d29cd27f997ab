package vault

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/toolbox"
)

// Query is what query_notes asks of the index: notes that match every
// filter given.
type Query struct {
	Tag    string
	Folder string
	// Property maps a property's name to a value (equal, or held by a
	// list, without regard to case) or to conditions such as
	// {"gte": 2, "lt": 5}, {"ne": "done"}, {"contains": "x"},
	// {"exists": false}.
	Property      map[string]any
	LinksTo       string // a note path
	ModifiedAfter time.Time
	Orphan        bool // no other note links to it
	Unresolved    bool // it has links that resolve to no note
	// Sort is path (the default), name, modified (newest first), or a
	// property's name; "-" before it reverses the order.
	Sort  string
	Limit int
}

// QueryHit is a note that matched, with its unresolved links when asked.
type QueryHit struct {
	Note       *Note
	Unresolved []string
}

// condition is one test of a property's values.
type condition struct {
	op    string // eq, ne, gt, gte, lt, lte, contains, exists
	value any
}

var conditionOps = []string{"eq", "ne", "gt", "gte", "lt", "lte", "contains", "exists"}

// conditions turns a property filter's value into its tests. Its errors
// are for the model.
func conditions(name string, want any) ([]condition, error) {
	m, ok := want.(map[string]any)
	if !ok {
		return []condition{{"eq", want}}, nil
	}
	var out []condition
	for _, op := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(conditionOps, op) {
			return nil, toolbox.Errorf("property %q: %q is not a condition; use one of %s, such as {\"%s\": {\"gte\": 3}}", name, op, strings.Join(conditionOps, ", "), name)
		}
		out = append(out, condition{op, m[op]})
	}
	return out, nil
}

// test reports whether a note's values of a property (nil when it has
// none) pass c.
func (c condition) test(values []string, has bool) bool {
	if c.op == "exists" {
		b, _ := c.value.(bool)
		return has == b
	}
	if !has {
		return c.op == "ne"
	}
	want := valueText(c.value)
	if list, ok := c.value.([]any); ok && c.op == "eq" {
		// A list equals a list that holds the same items.
		if len(list) != len(values) {
			return false
		}
		for _, item := range list {
			if !slices.ContainsFunc(values, func(v string) bool { return strings.EqualFold(v, valueText(item)) }) {
				return false
			}
		}
		return true
	}
	switch c.op {
	case "eq":
		return slices.ContainsFunc(values, func(v string) bool { return strings.EqualFold(v, want) }) || want == "" && len(values) == 0
	case "ne":
		return !slices.ContainsFunc(values, func(v string) bool { return strings.EqualFold(v, want) })
	case "contains":
		w := strings.ToLower(want)
		return slices.ContainsFunc(values, func(v string) bool { return strings.Contains(strings.ToLower(v), w) })
	}
	for _, v := range values {
		d := compareValues(v, want)
		switch {
		case c.op == "gt" && d > 0, c.op == "gte" && d >= 0, c.op == "lt" && d < 0, c.op == "lte" && d <= 0:
			return true
		}
	}
	return false
}

// compareValues compares two values as numbers when both are, else as
// text (dates as YYYY-MM-DD compare in order as text).
func compareValues(a, b string) int {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(strings.ToLower(a), strings.ToLower(b))
}

// valueText is a JSON value as the index holds property values.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// listing is every note in path order, with the spellings of each
// property's name by its lower case: what a query goes through, made
// again only after a note changed, since going through the notes' map
// and each note's properties by map costs more than the query.
type listing struct {
	mu    sync.Mutex
	gen   int
	notes []*Note
	keys  map[string][]string
}

// list is v's notes in path order and the spellings of their property
// names; v.mu is read-locked with every note decoded.
func (v *Vault) list() ([]*Note, map[string][]string) {
	l := &v.listed
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.notes == nil || l.gen != v.gen {
		l.notes, l.keys, l.gen = make([]*Note, 0, len(v.notes)), map[string][]string{}, v.gen
		for _, n := range v.notes {
			l.notes = append(l.notes, n)
			for k := range n.Front {
				lower := strings.ToLower(k)
				if !slices.Contains(l.keys[lower], k) {
					l.keys[lower] = append(l.keys[lower], k)
				}
			}
		}
		slices.SortFunc(l.notes, func(a, b *Note) int { return strings.Compare(a.Path, b.Path) })
	}
	return l.notes, l.keys
}

// Query finds the notes that match q, from the index.
func (v *Vault) Query(q Query) ([]QueryHit, int, error) {
	tag := strings.ToLower(strings.Trim(strings.TrimSpace(q.Tag), "#/"))
	prefix := ""
	if q.Folder != "" {
		folder, err := v.clean(q.Folder)
		if err != nil {
			return nil, 0, toolError(q.Folder, err)
		}
		if folder != "" {
			prefix = strings.ToLower(folder) + "/"
		}
	}
	type propTest struct {
		name      string
		spellings []string
		conds     []condition
	}
	var props []propTest
	for _, name := range slices.Sorted(maps.Keys(q.Property)) {
		conds, err := conditions(name, q.Property[name])
		if err != nil {
			return nil, 0, err
		}
		props = append(props, propTest{name: name, conds: conds})
	}
	after := q.ModifiedAfter.UnixNano()

	v.rlockAll()
	defer v.mu.RUnlock()
	notes, keys := v.list()
	for i := range props {
		props[i].spellings = keys[strings.ToLower(props[i].name)]
	}
	var linked map[string]bool
	if q.Orphan {
		linked = map[string]bool{}
		for from, n := range v.notes {
			for _, l := range n.Links {
				if to, ok := v.names.resolve(l.Target, from); ok && to != from {
					linked[to] = true
				}
			}
		}
	}
	var hits []QueryHit
	for _, n := range notes {
		p := n.Path
		if prefix != "" && !(len(p) >= len(prefix) && strings.EqualFold(p[:len(prefix)], prefix)) {
			continue
		}
		if tag != "" && !slices.ContainsFunc(n.Tags, func(t string) bool { return hasTag(t, tag) }) {
			continue
		}
		if !q.ModifiedAfter.IsZero() && n.ModTime <= after {
			continue
		}
		if q.Orphan && linked[p] {
			continue
		}
		ok := true
		for _, pt := range props {
			var values []string
			has := false
			for _, k := range pt.spellings {
				if vs, ok := n.Front[k]; ok {
					values, has = vs, true
					break
				}
			}
			for _, c := range pt.conds {
				if !c.test(values, has) {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		if q.LinksTo != "" && !slices.ContainsFunc(n.Links, func(l Link) bool {
			to, ok := v.names.resolve(l.Target, p)
			return ok && to == q.LinksTo
		}) {
			continue
		}
		hit := QueryHit{Note: n}
		if q.Unresolved {
			for _, l := range n.Links {
				if _, ok := v.names.resolve(l.Target, p); !ok && !attachment(l.Target) {
					hit.Unresolved = appendUnique(hit.Unresolved, l.Target)
				}
			}
			if len(hit.Unresolved) == 0 {
				continue
			}
		}
		hits = append(hits, hit)
	}
	sortHits(hits, q.Sort)
	total := len(hits)
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits, total, nil
}

// hasTag reports whether the tag t is want (lower case) or nested under
// it, without regard to case.
func hasTag(t, want string) bool {
	return len(t) >= len(want) && strings.EqualFold(t[:len(want)], want) && (len(t) == len(want) || t[len(want)] == '/')
}

// lookupProperty finds a property's values without regard to the case of
// its name; the tags and aliases of a note are its own.
func lookupProperty(front map[string][]string, name string) ([]string, bool) {
	for k, vs := range front {
		if strings.EqualFold(k, name) {
			return vs, true
		}
	}
	return nil, false
}

// attachment reports whether a link names a file that is not a note (an
// image, a PDF), which the index does not hold.
func attachment(target string) bool {
	ext := path.Ext(target)
	return ext != "" && !strings.EqualFold(ext, ".md") && len(ext) <= 6 && !strings.ContainsAny(ext, " ")
}

func sortHits(hits []QueryHit, by string) {
	desc := strings.HasPrefix(by, "-")
	by = strings.TrimPrefix(by, "-")
	key := func(h QueryHit) string { return h.Note.Path }
	switch by {
	case "", "path":
		if !desc {
			return // the notes are gone through in path order
		}
	case "name":
		key = func(h QueryHit) string { return strings.ToLower(h.Note.Name()) }
	case "modified":
		desc = !desc // newest first
		slices.SortFunc(hits, func(a, b QueryHit) int {
			c := cmp.Or(cmp.Compare(a.Note.ModTime, b.Note.ModTime), cmp.Compare(a.Note.Path, b.Note.Path))
			if desc {
				return -c
			}
			return c
		})
		return
	default:
		// A property: notes without it last, whichever the order.
		slices.SortFunc(hits, func(a, b QueryHit) int {
			va, oka := lookupProperty(a.Note.Front, by)
			vb, okb := lookupProperty(b.Note.Front, by)
			oka, okb = oka && len(va) > 0, okb && len(vb) > 0
			switch {
			case !oka && !okb:
				return cmp.Compare(a.Note.Path, b.Note.Path)
			case !oka:
				return 1
			case !okb:
				return -1
			}
			c := cmp.Or(compareValues(va[0], vb[0]), cmp.Compare(a.Note.Path, b.Note.Path))
			if desc {
				return -c
			}
			return c
		})
		return
	}
	slices.SortFunc(hits, func(a, b QueryHit) int {
		c := cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.Note.Path, b.Note.Path))
		if desc {
			return -c
		}
		return c
	})
}
