package cli

import (
	"errors"
	"slices"
	"strings"
	"time"

	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// indexWait is how long a list waits for the process that holds hermes.db
// (the home's owner, while a run is live) before it reads the logs instead.
const indexWait = 100 * time.Millisecond

// openIndex opens the run index kept in the home's hermes.db, brought up to
// date with logs that came without a summary. ok is false when another
// process holds the store: the caller reads the logs, as before the index.
func openIndex(home string) (x *runlog.Index, closeFn func(), syncErr error, ok bool) {
	st, err := store.OpenWithin(runner.StorePath(home), indexWait)
	if err != nil {
		return nil, nil, nil, false
	}
	x = runlog.NewIndex(home, st)
	syncErr = x.Sync()
	if syncErr != nil && !errors.Is(syncErr, runlog.ErrUnreadableLog) {
		st.Close()
		return nil, nil, nil, false
	}
	return x, func() { st.Close() }, syncErr, true
}

// listRuns returns the newest limit runs (0: all) with status ("" any),
// whether more match, and whether the home has any run at all. The error
// may be an ErrUnreadableLog one beside the runs.
func listRuns(home, status string, limit int) (runs []runlog.Summary, more, anyRuns bool, err error) {
	var keep func(runlog.Summary) bool
	if status != "" {
		keep = func(s runlog.Summary) bool { return s.Status == status }
	}
	if x, closeIndex, syncErr, ok := openIndex(home); ok {
		defer closeIndex()
		p, err := x.Page("", limit, keep)
		if err != nil {
			return nil, false, false, err
		}
		anyRuns = len(p.Runs) > 0
		if !anyRuns && keep != nil {
			all, err := x.Page("", 1, nil)
			if err != nil {
				return nil, false, false, err
			}
			anyRuns = len(all.Runs) > 0
		}
		return p.Runs, p.Next != "", anyRuns, syncErr
	}
	all, err := runlog.List(home)
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		return nil, false, false, err
	}
	runs = all
	if keep != nil {
		runs = slices.DeleteFunc(slices.Clone(all), func(s runlog.Summary) bool { return !keep(s) })
	}
	if limit > 0 && len(runs) > limit {
		runs, more = runs[:limit], true
	}
	return runs, more, len(all) > 0, err
}

// maxPrefixMatches is how many runs an ambiguous prefix names.
const maxPrefixMatches = 20

// runsWithPrefix returns the runs whose id begins with prefix: one seek in
// the index, or a read of every log when the store is held.
func runsWithPrefix(home, prefix string) ([]runlog.Summary, error) {
	if x, closeIndex, syncErr, ok := openIndex(home); ok {
		defer closeIndex()
		matches, err := x.Prefix(prefix, maxPrefixMatches)
		if err != nil {
			return nil, err
		}
		return matches, syncErr
	}
	runs, err := runlog.List(home)
	return slices.DeleteFunc(runs, func(s runlog.Summary) bool { return !strings.HasPrefix(s.RunID, prefix) }), err
}
