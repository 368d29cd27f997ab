package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/store"
)

// SummaryStore keeps run summaries; *store.Store is one.
type SummaryStore interface {
	PutRunSummary(store.RunSummary) error
}

// putSummary stores s (encodeSummary).
func putSummary(st SummaryStore, s Summary) error {
	r, err := encodeSummary(s)
	if err != nil {
		return err
	}
	return st.PutRunSummary(r)
}

// encodeSummary is s as the store keeps it, with its path relative to the
// home (the last three elements, logs/DAY/run_ID.jsonl), so a home that
// moves still lists.
func encodeSummary(s Summary) (store.RunSummary, error) {
	s.Path = relLogPath(s.Path)
	data, err := json.Marshal(s)
	if err != nil {
		return store.RunSummary{}, fmt.Errorf("encode summary of run %s: %w", s.RunID, err)
	}
	return store.RunSummary{RunID: s.RunID, Started: s.Started, Data: data}, nil
}

func relLogPath(p string) string {
	day := filepath.Dir(p)
	return filepath.ToSlash(filepath.Join("logs", filepath.Base(day), filepath.Base(p)))
}

// Index lists a home's runs from the summaries kept in its hermes.db,
// reading only what a page needs. Sync brings it up to date with logs that
// came without a summary: those of an older Hermes, or of a process that
// crashed before it saved one.
type Index struct {
	home string
	st   *store.Store
}

// NewIndex is the index of home's runs kept in st.
func NewIndex(home string, st *store.Store) *Index { return &Index{home: home, st: st} }

// settle is how recent a day folder's change may be for the index to trust
// its modification time: a log created in the same clock tick as the index
// read the folder would otherwise go unseen.
const settle = 2 * time.Second

// Sync indexes the day folders under logs/ whose modification time changed
// since they were indexed (a log added or removed) and forgets folders that
// are gone. A log that is already indexed is not read again; its writer
// keeps its summary. Logs that cannot be read are left out, named by the
// *SkippedError returned, and tried again at the next Sync.
func (x *Index) Sync() error {
	logs := filepath.Join(x.home, "logs")
	entries, err := os.ReadDir(logs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("list run logs in %s: %w", logs, err)
	}
	marks, err := x.st.RunDays()
	if err != nil {
		return err
	}
	var skipped []SkippedLog
	seen := map[string]bool{}
	for _, d := range entries {
		if !d.IsDir() {
			continue
		}
		seen[d.Name()] = true
		info, err := d.Info()
		if err != nil {
			continue // removed since ReadDir
		}
		mtime := info.ModTime().UnixNano()
		if marks[d.Name()] == mtime {
			continue
		}
		skip, err := x.indexDay(d.Name(), info.ModTime())
		if err != nil {
			return err
		}
		skipped = append(skipped, skip...)
	}
	for day := range marks {
		if !seen[day] {
			if err := x.forgetDay(day); err != nil {
				return err
			}
		}
	}
	if len(skipped) > 0 {
		return &SkippedError{Logs: skipped}
	}
	return nil
}

// indexDay reads the logs of one day folder that have no summary yet and
// drops the summaries of runs of that day whose logs are gone.
func (x *Index) indexDay(day string, mtime time.Time) ([]SkippedLog, error) {
	dir := filepath.Join(x.home, "logs", day)
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list run logs in %s: %w", dir, err)
	}
	var (
		put     []store.RunSummary
		skipped []SkippedLog
		present = map[string]bool{}
	)
	for _, f := range files {
		name := f.Name()
		if f.IsDir() || !strings.HasPrefix(name, "run_") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		id := IDFromPath(name)
		present[id] = true
		if ok, err := x.st.HasRunSummary(id); err != nil || ok {
			continue
		}
		path := filepath.Join(dir, name)
		s, err := summarizeFile(path)
		if err != nil {
			skipped = append(skipped, SkippedLog{Path: path, Err: err})
			continue
		}
		s.Path = relLogPath(path)
		data, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("encode summary of run %s: %w", s.RunID, err)
		}
		put = append(put, store.RunSummary{RunID: s.RunID, Started: s.Started, Data: data})
	}
	var gone []string
	if start, err := time.Parse(time.DateOnly, day); err == nil {
		ids, err := x.st.RunIDsBetween(start, start.Add(24*time.Hour))
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if !present[id] {
				gone = append(gone, id)
			}
		}
	}
	// A day with unreadable logs, or one changed a moment ago, is looked at
	// again next time.
	var mark int64
	if len(skipped) == 0 && time.Since(mtime) > settle {
		mark = mtime.UnixNano()
	}
	if mark == 0 && len(put) == 0 && len(gone) == 0 {
		return skipped, nil // nothing to write: the folder is looked at again next time anyway
	}
	return skipped, x.st.IndexRunDay(day, mark, put, gone)
}

// forgetDay drops a day folder that was removed, and its runs.
func (x *Index) forgetDay(day string) error {
	var gone []string
	if start, err := time.Parse(time.DateOnly, day); err == nil {
		ids, err := x.st.RunIDsBetween(start, start.Add(24*time.Hour))
		if err != nil {
			return err
		}
		gone = ids
	}
	return x.st.IndexRunDay(day, 0, nil, gone)
}

// Page is one page of a run list, newest first. Next is the cursor of the
// page after it (the last run's id), "" when there is none.
type Page struct {
	Runs []Summary `json:"runs"`
	Next string    `json:"next,omitempty"`
}

// Page returns up to limit runs (limit <= 0: all) that keep accepts (nil:
// all), starting after the run before ("": the newest). Only the summaries
// walked are read.
func (x *Index) Page(before string, limit int, keep func(Summary) bool) (Page, error) {
	var (
		p      Page
		decErr error
	)
	found, err := x.st.RunSummaries(before, func(id string, data []byte) bool {
		s, err := x.decode(data)
		if err != nil {
			decErr = fmt.Errorf("decode summary of run %s: %w", id, err)
			return false
		}
		if keep != nil && !keep(s) {
			return true
		}
		if limit > 0 && len(p.Runs) == limit {
			p.Next = p.Runs[len(p.Runs)-1].RunID
			return false
		}
		p.Runs = append(p.Runs, s)
		return true
	})
	switch {
	case err != nil:
		return Page{}, err
	case decErr != nil:
		return Page{}, decErr
	case !found:
		return Page{}, i18n.Wrap(ErrBadCursor, "runlog.bad_cursor", before)
	}
	return p, nil
}

// Prefix returns the runs whose id begins with prefix, at most limit.
func (x *Index) Prefix(prefix string, limit int) ([]Summary, error) {
	recs, err := x.st.RunSummariesByPrefix(prefix, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(recs))
	for _, r := range recs {
		s, err := x.decode(r.Data)
		if err != nil {
			return nil, fmt.Errorf("decode summary of run %s: %w", r.RunID, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// Forget drops a deleted run's summary.
func (x *Index) Forget(runID string) error { return x.st.DeleteRunSummary(runID) }

func (x *Index) decode(data []byte) (Summary, error) {
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return Summary{}, err
	}
	s.Path = filepath.Join(x.home, filepath.FromSlash(s.Path))
	return s, nil
}

// PageOf is Page over runs already listed (List's, newest first), for when
// the index cannot be opened.
func PageOf(runs []Summary, before string, limit int, keep func(Summary) bool) (Page, error) {
	i := 0
	if before != "" {
		i = slices.IndexFunc(runs, func(s Summary) bool { return s.RunID == before }) + 1
		if i == 0 {
			return Page{}, i18n.Wrap(ErrBadCursor, "runlog.bad_cursor", before)
		}
	}
	var p Page
	for _, s := range runs[i:] {
		if keep != nil && !keep(s) {
			continue
		}
		if limit > 0 && len(p.Runs) == limit {
			p.Next = p.Runs[len(p.Runs)-1].RunID
			break
		}
		p.Runs = append(p.Runs, s)
	}
	return p, nil
}
