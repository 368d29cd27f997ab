package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"hermes/backend/atomicfile"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// List returns the live runs first, newest first, then the runs in the
// home's logs, newest first, then the sample run. Logs
// that cannot be read are left out and named by the error, a
// *runlog.SkippedError, returned beside the runs that could be read.
func (m *Manager) List() ([]Summary, error) {
	p, err := m.ListPage(runapi.ListQuery{})
	return p.Runs, err
}

var (
	_ runapi.Runs  = (*Manager)(nil)
	_ runapi.Pager = (*Manager)(nil)
)

// ListPage is one page of List. The first page has the live runs before
// the logged ones (Limit counts the logged ones only). The logged runs come
// from the summaries kept in hermes.db, so a page reads only what it shows
// (a filter reads the summaries it passes over, never their logs); when
// another process holds the store, from the logs.
func (m *Manager) ListPage(q runapi.ListQuery) (RunPage, error) {
	if m.isSample(q.Before) {
		return RunPage{}, nil // nothing comes after the sample
	}
	if q.Labelled() && q.Labels == nil {
		labels, err := m.labels()
		if err != nil && q.Label != "" {
			return RunPage{}, i18n.Wrap(err, "runner.list_failed", err)
		}
		q.Labels = labels // a search without them still finds the text
	}
	var out []Summary
	live := map[string]bool{}
	for _, s := range m.Live() {
		live[s.RunID] = true
		if q.Before == "" && q.Matches(s.Summary, s.Title) {
			out = append(out, s)
		}
	}
	metas := map[string]meta{}
	keep := func(s runlog.Summary) bool {
		if live[s.RunID] {
			return false
		}
		if q.Search == "" {
			return q.Matches(s, "")
		}
		md := readMeta(s.Path)
		metas[s.RunID] = md
		return q.Matches(s, md.Title)
	}
	page, err := m.logged(q.Before, q.Limit, keep)
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		if errors.Is(err, runlog.ErrBadCursor) {
			return RunPage{}, err
		}
		return RunPage{}, i18n.Wrap(err, "runner.list_failed", err)
	}
	for _, s := range page.Runs {
		md, ok := metas[s.RunID]
		if !ok {
			md = readMeta(s.Path)
		}
		out = append(out, Summary{Summary: s, Title: md.Title, ForkedFrom: md.ForkedFrom})
	}
	// The sample run ends the list, after the home's own runs, whatever
	// they are: a list that showed it beside the first run of one's own
	// shows it again when the process starts again. It counts against the
	// limit like a logged run, on a page of its own when the last is full.
	if s, ok := sampleSummary(); ok && page.Next == "" && q.Matches(s.Summary, "") {
		if n := len(page.Runs); q.Limit > 0 && n == q.Limit {
			page.Next = page.Runs[n-1].RunID
		} else {
			out = append(out, s)
		}
	}
	return RunPage{Runs: out, Next: page.Next}, err
}

// labels are the labels people gave the runs, from hermes.db.
func (m *Manager) labels() (map[string]store.Label, error) {
	st, err := m.store.acquire()
	if err != nil {
		return nil, err
	}
	defer m.store.release()
	return st.Labels()
}

// logged is a page of the runs in the home's logs: from the index in
// hermes.db, brought up to date with logs that came without a summary, or,
// when another process holds the store, from the logs themselves.
func (m *Manager) logged(before string, limit int, keep func(runlog.Summary) bool) (runlog.Page, error) {
	st, err := m.store.acquire()
	if err != nil {
		all, listErr := runlog.List(m.home)
		if listErr != nil && !errors.Is(listErr, runlog.ErrUnreadableLog) {
			return runlog.Page{}, listErr
		}
		p, err := runlog.PageOf(all, before, limit, keep)
		if err != nil {
			return p, err
		}
		return p, listErr
	}
	defer m.store.release()
	x := runlog.NewIndex(m.home, st)
	syncErr := x.Sync()
	if syncErr != nil && !errors.Is(syncErr, runlog.ErrUnreadableLog) {
		return runlog.Page{}, syncErr
	}
	p, err := x.Page(before, limit, keep)
	if err != nil {
		return p, err
	}
	return p, syncErr
}

// Events returns every event of a run so far, in seq order.
func (m *Manager) Events(id string) ([]event.Event, error) {
	if l := m.liveRun(id); l != nil {
		return l.log.Events(), nil
	}
	if m.isSample(id) {
		events, _ := sampleEvents()
		return events, nil
	}
	path, err := runlog.Find(m.home, id)
	if err != nil {
		return nil, err
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return events, nil
}

// Watch follows a run's events after seq after: those so far, then, for a
// live run, the live ones until its leg is over. A run that is not live
// gives its logged events and ends.
func (m *Manager) Watch(id string, after int64) (*runapi.Watcher, error) {
	if l := m.liveRun(id); l != nil {
		return l.log.Watch(after), nil
	}
	events, err := m.Events(id)
	if err != nil {
		return nil, err
	}
	return runapi.Replay(events).Watch(after), nil
}

// maxTitle is the longest title, in characters, that a run may be given.
const maxTitle = 200

// Rename gives a run a title that lists show instead of its task; an empty
// title takes it away. The title is kept beside the log (see meta).
func (m *Manager) Rename(id, title string) error {
	if m.isSample(id) {
		return i18n.Wrap(ErrSample, "runner.sample")
	}
	title = strings.TrimSpace(title)
	if utf8.RuneCountInString(title) > maxTitle {
		return i18n.Wrap(ErrBadTitle, "runner.bad_title", maxTitle)
	}
	path, err := runlog.Find(m.home, id)
	if err != nil {
		return err
	}
	meta := readMeta(path)
	meta.Title = title
	if err := writeMeta(path, meta); err != nil {
		return i18n.Wrap(err, "runner.meta_failed", err)
	}
	if l := m.liveRun(id); l != nil {
		m.publish(l.setTitle(title))
	}
	return nil
}

// Delete removes a run: its checkpoint, its artifacts, its title and its
// log. A live run is not deleted (ErrLive); stop it first.
func (m *Manager) Delete(id string) error {
	if m.isSample(id) {
		return i18n.Wrap(ErrSample, "runner.sample")
	}
	path, err := runlog.Find(m.home, id)
	if err != nil {
		return err
	}
	// Held throughout, so the run cannot be resumed while it is removed.
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, live := m.live[id]; live {
		return i18n.Wrap(ErrLive, "runner.live", id)
	}
	// The checkpoint goes first: a run whose log outlives it still lists and
	// can be deleted again, while a checkpoint without its log would linger
	// unseen.
	store, err := m.store.acquire()
	if err != nil {
		return err
	}
	err = errors.Join(store.DeleteCheckpoint(id), store.DeleteRunSummary(id))
	m.store.release()
	if err != nil {
		return i18n.Wrap(err, "runner.delete_failed", id, err)
	}
	for _, p := range []string{filepath.Join(m.home, "artifacts", id), metaPath(path), path} {
		if err := os.RemoveAll(p); err != nil {
			return i18n.Wrap(err, "runner.delete_failed", id, err)
		}
	}
	return nil
}

// Artifact returns up to limit bytes (limit <= 0: all) of the full output
// of one of the run's tool calls, from offset, and the output's total size.
// ref is the tool.finished event's artifact; it must belong to the run.
func (m *Manager) Artifact(id, ref string, offset, limit int) ([]byte, int, error) {
	if !strings.HasPrefix(ref, "artifacts/"+id+"/") {
		return nil, 0, fmt.Errorf("artifact %q of run %s: %w", ref, id, runlog.ErrBadArtifactRef)
	}
	return runlog.ReadArtifact(m.home, ref, offset, limit)
}

// meta is what Hermes keeps about a run beside its log, in
// run_ID.meta.json: things the log does not say, or that change after it
// was written. The log itself is never edited.
type meta struct {
	Title string `json:"title,omitempty"`
	// ForkedFrom repeats the fork's run.started link, so lists show it
	// without reading every log.
	ForkedFrom *event.ForkRef `json:"forked_from,omitempty"`
}

func metaPath(logPath string) string {
	return strings.TrimSuffix(logPath, ".jsonl") + ".meta.json"
}

// readMeta returns a run's meta; none, or one that cannot be read, is empty:
// the run still lists, under its task.
func readMeta(logPath string) meta {
	var md meta
	if b, err := os.ReadFile(metaPath(logPath)); err == nil {
		_ = json.Unmarshal(b, &md)
	}
	return md
}

// writeMeta replaces a run's meta atomically: a crash leaves the old one or
// the new one, never half of either.
func writeMeta(logPath string, md meta) error {
	b, err := json.Marshal(md)
	if err != nil {
		return fmt.Errorf("encode meta: %w", err)
	}
	return atomicfile.WriteFile(metaPath(logPath), b, 0o600)
}
