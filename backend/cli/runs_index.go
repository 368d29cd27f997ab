package cli

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runapi"
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
func openIndex(home string) (x *runlog.Index, st *store.Store, syncErr error, ok bool) {
	st, err := host.OpenStore(home, indexWait)
	if err != nil {
		return nil, nil, nil, false
	}
	x = runlog.NewIndex(home, st)
	syncErr = x.Sync()
	if syncErr != nil && !errors.Is(syncErr, runlog.ErrUnreadableLog) {
		_ = st.Close()
		return nil, nil, nil, false
	}
	return x, st, syncErr, true
}

// listRuns returns the newest q.Limit runs (0: all) that q asks for (its
// status and label), whether more match, and whether the home has any run
// at all: asked of the home's owner when a process owns it (it keeps the
// index and the labels, and may hold hermes.db for a live run), else from
// the index, else, when the store is held and no owner answers, from the
// logs (where a label cannot be read: ErrStoreHeld). The error may be an
// ErrUnreadableLog one beside the runs.
func listRuns(home string, q runapi.ListQuery) (runs []runlog.Summary, more, anyRuns bool, err error) {
	var keep func(runlog.Summary) bool
	if q.Status != "" || q.Label != "" {
		keep = func(s runlog.Summary) bool { return q.Matches(s, "") }
	}
	if runs, more, anyRuns, ok := ownerRuns(home, q); ok {
		return runs, more, anyRuns, nil
	}
	if x, st, syncErr, ok := openIndex(home); ok {
		defer func() { _ = st.Close() }() // only read
		if q.Label != "" {
			if q.Labels, err = st.Labels(); err != nil {
				return nil, false, false, err
			}
		}
		p, err := x.Page("", q.Limit, keep)
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
	if q.Label != "" {
		return nil, false, false, i18n.Wrap(store.ErrLocked, "cli.eval.store_held")
	}
	all, err := runlog.List(home)
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		return nil, false, false, err
	}
	runs = all
	if keep != nil {
		runs = slices.DeleteFunc(slices.Clone(all), func(s runlog.Summary) bool { return !keep(s) })
	}
	if q.Limit > 0 && len(runs) > q.Limit {
		runs, more = runs[:q.Limit], true
	}
	return runs, more, len(all) > 0, err
}

// maxPrefixMatches is how many runs an ambiguous prefix names.
const maxPrefixMatches = 20

// runsWithPrefix returns the runs whose id begins with prefix: asked of the
// home's owner, else one seek in the index, else (the store held and no
// owner answering) a read of every log.
func runsWithPrefix(home, prefix string) ([]runlog.Summary, error) {
	if matches, ok := ownerPrefix(home, prefix); ok {
		return matches, nil
	}
	if x, st, syncErr, ok := openIndex(home); ok {
		defer func() { _ = st.Close() }() // only read
		matches, err := x.Prefix(prefix, maxPrefixMatches)
		if err != nil {
			return nil, err
		}
		return matches, syncErr
	}
	runs, err := runlog.List(home)
	return slices.DeleteFunc(runs, func(s runlog.Summary) bool { return !strings.HasPrefix(s.RunID, prefix) }), err
}

// ownerWait bounds a question to the home's owner, which answers from its
// index at once; past it the list is read here instead.
const ownerWait = 2 * time.Second

// ownerRuns asks the process that owns home, named by hermes.lock, for a
// page of its runs (GET /api/runs?limit=&status=&label=). ok is false when no
// process owns the home or it does not answer; its sample run, shown in an
// empty window, is not one of the home's runs.
func ownerRuns(home string, q runapi.ListQuery) (runs []runlog.Summary, more, anyRuns, ok bool) {
	page, ok := ownerPage(home, q)
	if !ok {
		return nil, false, false, false
	}
	runs = logged(page.Runs)
	anyRuns = len(runs) > 0
	if !anyRuns && (q.Status != "" || q.Label != "") {
		all, ok := ownerPage(home, runapi.ListQuery{Limit: 1})
		if !ok {
			return nil, false, false, false
		}
		anyRuns = len(logged(all.Runs)) > 0
	}
	return runs, page.Next != "", anyRuns, true
}

// ownerPrefix asks the home's owner for the runs whose id begins with
// prefix: a search for it, kept to the ids that begin with it (a task may
// hold it too).
func ownerPrefix(home, prefix string) (matches []runlog.Summary, ok bool) {
	q := runapi.ListQuery{Search: prefix, Limit: 100}
	for {
		page, ok := ownerPage(home, q)
		if !ok {
			return nil, false
		}
		for _, s := range logged(page.Runs) {
			if strings.HasPrefix(s.RunID, prefix) && len(matches) < maxPrefixMatches {
				matches = append(matches, s)
			}
		}
		if page.Next == "" || len(matches) == maxPrefixMatches {
			return matches, true
		}
		q.Before = page.Next
	}
}

func ownerPage(home string, q runapi.ListQuery) (runner.RunPage, bool) {
	lock, err := homelock.ReadLock(home)
	if err != nil {
		return runner.RunPage{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), ownerWait)
	defer cancel()
	page, err := remote.Page(ctx, lock, q)
	return page, err == nil
}

// logged is the runs of a page without the sample run.
func logged(runs []runner.Summary) []runlog.Summary {
	out := make([]runlog.Summary, 0, len(runs))
	for _, s := range runs {
		if !s.Sample {
			out = append(out, s.Summary)
		}
	}
	return out
}
