package eval

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/store"
)

// The buckets evals keep in hermes.db. Every name carries its layout's
// version, as the store's own do.
var (
	// evalsBucket maps an eval's id (its start time first, so ids sort as
	// they were started) to its Eval without results.
	evalsBucket = []byte("eval.evals.v1")
	// resultsBucket maps "EVAL_ID/TASK/VARIANT/REP" to a Result, written as
	// each run is checked, so that a stopped eval resumes where it stood.
	resultsBucket = []byte("eval.results.v1")
	// tagsBucket maps a run's id to the Tag of the eval run it is.
	tagsBucket = []byte("eval.tags.v1")
)

func init() { store.Register(evalsBucket, resultsBucket, tagsBucket) }

// States of an eval.
const (
	StateRunning = "running"
	StateDone    = "done"
	StateStopped = "stopped"
)

// Eval is one run of a suite: which tasks under which variants, how many
// times each, and the results so far.
type Eval struct {
	ID        string    `json:"id"`
	Suite     string    `json:"suite"`
	SuitePath string    `json:"suite_path"`
	Tasks     []string  `json:"tasks"`
	Variants  []Variant `json:"variants"`
	Repeat    int       `json:"repeat"`
	Baseline  string    `json:"baseline,omitempty"`
	State     string    `json:"state"`
	Started   time.Time `json:"started"`
	Ended     time.Time `json:"ended,omitzero"`
	Results   []Result  `json:"results,omitempty"`
}

// Result is one run of one task under one variant: its run, whether every
// check passed, each check's result, and what it took. Error, when set,
// is why the run could not be checked (its model call failed) or graded
// (Ungraded: the judge could not say): neither a pass nor a fail.
type Result struct {
	Task    string `json:"task"`
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
	RunID   string `json:"run_id,omitempty"`
	Status  string `json:"status,omitempty"`
	Pass    bool   `json:"pass"`
	Error   string `json:"error,omitempty"`
	// ErrorIn is Error in both languages ("en", "zh-CN") when Hermes worded
	// it (a run not graded says what to do next); Error is its English.
	ErrorIn    map[string]string `json:"error_in,omitempty"`
	Ungraded   bool              `json:"ungraded,omitempty"`
	Checks     []CheckResult     `json:"checks,omitempty"`
	Answer     string            `json:"answer,omitempty"`
	Iterations int               `json:"iterations"`
	Tokens     int               `json:"tokens"`
	Cost       *float64          `json:"cost,omitempty"`
	DurationMS int64             `json:"duration_ms"`
}

// ErrorText is why the run was not checked or graded, in l when Hermes
// worded it in l, else as it was kept.
func (r Result) ErrorText(l i18n.Lang) string {
	if s := r.ErrorIn[string(l)]; s != "" {
		return s
	}
	return r.Error
}

// Tag says which eval, task, variant and repetition a run was started for.
type Tag struct {
	Eval    string `json:"eval"`
	Task    string `json:"task"`
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
}

// NewID is a new eval's id: its start time, then random hex.
func NewID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return "ev-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

func resultKey(id, task, variant string, rep int) []byte {
	return fmt.Appendf(nil, "%s/%s/%s/%d", id, task, variant, rep)
}

// Redacted is ev with the secrets of its variants' base URLs (a
// password, query values) masked, as it is kept and shown.
func (ev *Eval) Redacted() *Eval {
	out := *ev
	out.Variants = make([]Variant, len(ev.Variants))
	for i, v := range ev.Variants {
		v.BaseURL = llm.RedactURL(v.BaseURL)
		if ev.Variants[i].BaseURL == "" {
			v.BaseURL = ""
		}
		out.Variants[i] = v
	}
	return &out
}

// HidesSecret reports whether a variant's base URL, as kept, had a secret
// masked: a resume must be given the URL again.
func (v Variant) HidesSecret() bool {
	return v.BaseURL != "" && llm.RedactURL(v.BaseURL) != v.BaseURL || strings.Contains(v.BaseURL, "xxxxx")
}

// SaveEval writes ev without its results, its base URLs' secrets masked.
func SaveEval(st *store.Store, ev *Eval) error {
	head := *ev.Redacted()
	head.Results = nil
	v, err := json.Marshal(head)
	if err != nil {
		return err
	}
	return st.Update(func(tx *bolt.Tx) error { return tx.Bucket(evalsBucket).Put([]byte(ev.ID), v) })
}

// SaveResult writes one run's result of eval id.
func SaveResult(st *store.Store, id string, r Result) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return st.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(resultsBucket).Put(resultKey(id, r.Task, r.Variant, r.Rep), v)
	})
}

// SaveTag tags run runID as an eval run.
func SaveTag(st *store.Store, runID string, t Tag) error {
	v, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return st.Update(func(tx *bolt.Tx) error { return tx.Bucket(tagsBucket).Put([]byte(runID), v) })
}

// Tags returns the tags of every eval run.
func Tags(st *store.Store) (map[string]Tag, error) {
	out := map[string]Tag{}
	err := st.View(func(tx *bolt.Tx) error {
		return tx.Bucket(tagsBucket).ForEach(func(k, v []byte) error {
			var t Tag
			if json.Unmarshal(v, &t) == nil {
				out[string(k)] = t
			}
			return nil
		})
	})
	return out, err
}

// LoadEval reads eval id (or the one eval whose id starts with it) with its
// results, in the order they were run.
func LoadEval(st *store.Store, id string) (*Eval, error) {
	var ev *Eval
	err := st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(evalsBucket)
		v := b.Get([]byte(id))
		if v == nil {
			var found [][]byte
			c := b.Cursor()
			for k, val := c.Seek([]byte(id)); k != nil && bytes.HasPrefix(k, []byte(id)); k, val = c.Next() {
				found = append(found, val)
			}
			if len(found) != 1 {
				return i18n.Wrap(ErrNoEval, "eval.no_eval", id)
			}
			v = found[0]
		}
		ev = &Eval{}
		if err := json.Unmarshal(v, ev); err != nil {
			return fmt.Errorf("eval %s: %w", id, err)
		}
		prefix := []byte(ev.ID + "/")
		c := tx.Bucket(resultsBucket).Cursor()
		for k, val := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, val = c.Next() {
			var r Result
			if json.Unmarshal(val, &r) == nil {
				ev.Results = append(ev.Results, r)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ev.sortResults()
	return ev, nil
}

// ListEvals returns every eval, newest first, without results.
func ListEvals(st *store.Store) ([]Eval, error) {
	var out []Eval
	err := st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(evalsBucket).Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var ev Eval
			if json.Unmarshal(v, &ev) == nil {
				out = append(out, ev)
			}
		}
		return nil
	})
	return out, err
}

// Tally counts an eval's results: those that passed, that failed, that
// were not graded (the judge could not say: neither a pass nor a fail, and
// `hermes eval run --resume` grades them again) and that erred (the run
// could not be checked).
type Tally struct {
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Ungraded int `json:"ungraded"`
	Errors   int `json:"errors"`
}

// Add counts r.
func (t *Tally) Add(r Result) {
	switch {
	case r.Ungraded:
		t.Ungraded++
	case r.Error != "":
		t.Errors++
	case r.Pass:
		t.Passed++
	default:
		t.Failed++
	}
}

// Counts returns each eval's Tally, by id.
func Counts(st *store.Store) (map[string]Tally, error) {
	out := map[string]Tally{}
	err := st.View(func(tx *bolt.Tx) error {
		return tx.Bucket(resultsBucket).ForEach(func(k, v []byte) error {
			id, _, _ := strings.Cut(string(k), "/")
			var r Result
			if json.Unmarshal(v, &r) != nil {
				return nil
			}
			n := out[id]
			n.Add(r)
			out[id] = n
			return nil
		})
	})
	return out, err
}

// sortResults orders results by task and variant as the eval lists them,
// then by repetition.
func (ev *Eval) sortResults() {
	ti, vi := map[string]int{}, map[string]int{}
	for i, t := range ev.Tasks {
		ti[t] = i
	}
	for i, v := range ev.Variants {
		vi[v.Label()] = i
	}
	slices.SortStableFunc(ev.Results, func(a, b Result) int {
		return cmp.Or(cmp.Compare(ti[a.Task], ti[b.Task]), cmp.Compare(vi[a.Variant], vi[b.Variant]), cmp.Compare(a.Rep, b.Rep))
	})
}
