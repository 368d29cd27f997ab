package runlog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// Find returns the path of a run's log, or an ErrRunNotFound error that tells
// the user how to see the runs.
func Find(home, runID string) (string, error) {
	notFound := i18n.Wrap(ErrRunNotFound, "runlog.not_found", runID, home)
	if !safeName(runID) {
		return "", notFound
	}
	// The id begins with its start time, which names the day directory; a log
	// moved by hand to another day is still found by the glob.
	if len(runID) >= 8 {
		if day, err := time.Parse("20060102", runID[:8]); err == nil {
			p := LogPath(home, runID, day)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	matches, err := filepath.Glob(filepath.Join(home, "logs", "*", "run_"+runID+".jsonl"))
	if err != nil || len(matches) == 0 {
		return "", notFound
	}
	return matches[0], nil
}

// SkippedLog is a log List could not read.
type SkippedLog struct {
	Path string
	Err  error
}

// SkippedError is the error List returns, alongside the runs it could read,
// when it left some logs out. It wraps ErrUnreadableLog.
type SkippedError struct {
	Logs []SkippedLog
}

func (e *SkippedError) Error() string {
	parts := make([]string, len(e.Logs))
	for i, l := range e.Logs {
		parts[i] = l.Path + ": " + l.Err.Error()
	}
	return i18n.T("runlog.skipped", len(e.Logs), strings.Join(parts, "; "))
}

func (e *SkippedError) Unwrap() error { return ErrUnreadableLog }

// List returns every run under home's logs/, newest first.
//
// A log that cannot be read is left out rather than failing the list: the
// runs that could be read are always returned, and the error, when not nil,
// is a *SkippedError naming the logs left out (errors.Is ErrUnreadableLog).
// Callers show the list and report the error beside it. Any other error means
// the logs directory itself could not be read.
func List(home string) ([]Summary, error) {
	paths, err := logPaths(filepath.Join(home, "logs"))
	if err != nil {
		return nil, err
	}
	sums := make([]Summary, len(paths))
	errs := make([]error, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := range next {
				sums[i], errs[i] = summaries.get(paths[i])
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()

	out := sums[:0]
	var skipped []SkippedLog
	for i, s := range sums {
		if errs[i] != nil {
			skipped = append(skipped, SkippedLog{Path: paths[i], Err: errs[i]})
			continue
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Summary) int {
		return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.RunID, a.RunID))
	})
	if len(skipped) > 0 {
		return out, &SkippedError{Logs: skipped}
	}
	return out, nil
}

// summaries remembers the summary of each log by its size and modification
// time, so listing again (the window refreshes its list) folds only the logs
// that changed: finished runs never do.
var summaries = &summaryCache{m: map[string]cachedSummary{}}

type summaryCache struct {
	mu sync.Mutex
	m  map[string]cachedSummary
}

type cachedSummary struct {
	size    int64
	modTime time.Time
	s       Summary
}

func (c *summaryCache) get(path string) (Summary, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Summary{}, err
	}
	c.mu.Lock()
	hit, ok := c.m[path]
	c.mu.Unlock()
	if ok && hit.size == st.Size() && hit.modTime.Equal(st.ModTime()) {
		return hit.s, nil
	}
	s, err := summarizeFile(path)
	if err != nil {
		return Summary{}, err
	}
	c.mu.Lock()
	c.m[path] = cachedSummary{size: st.Size(), modTime: st.ModTime(), s: s}
	c.mu.Unlock()
	return s, nil
}

func (c *summaryCache) reset() {
	c.mu.Lock()
	clear(c.m)
	c.mu.Unlock()
}

// logPaths finds logs/<day>/run_*.jsonl; no logs directory means no runs yet.
func logPaths(logs string) ([]string, error) {
	days, err := os.ReadDir(logs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list run logs in %s: %w", logs, err)
	}
	var paths []string
	for _, day := range days {
		if !day.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(logs, day.Name()))
		if err != nil {
			return nil, fmt.Errorf("list run logs in %s: %w", filepath.Join(logs, day.Name()), err)
		}
		for _, f := range files {
			if name := f.Name(); !f.IsDir() && strings.HasPrefix(name, "run_") && strings.HasSuffix(name, ".jsonl") {
				paths = append(paths, filepath.Join(logs, day.Name(), name))
			}
		}
	}
	return paths, nil
}

// summarizeFile folds a log, decoding only the events Folder reads and only
// once: the envelope, which the writer puts before the payload, is split from
// the payload by position, and Folder decodes the payload. Every other line is
// passed over after a look at its type. Lines that do not have the writer's
// shape are decoded in full.
func summarizeFile(path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	fold, err := foldLog(f)
	if err != nil {
		return Summary{}, err
	}
	s := fold.Summary()
	if s.Started.IsZero() {
		return Summary{}, i18n.Errorf("runlog.empty")
	}
	s.Path = path
	return s, nil
}

// foldLog folds the log in r; see summarizeFile.
func foldLog(r io.Reader) (Folder, error) {
	var (
		fold    Folder
		scratch []byte
		first   = true
	)
	err := scanLines(r, func(line []byte, n int, last bool) error {
		var e event.Event
		head, data, split := splitLine(line)
		switch {
		case split && !first && !folded[string(peekType(head))]:
			return nil
		case split && !last:
			scratch = append(append(scratch[:0], head...), '}')
			if err := json.Unmarshal(scratch, &e); err != nil {
				return corruptLine(n, err)
			}
			e.Data = data
		default:
			if err := json.Unmarshal(line, &e); err != nil {
				if last {
					return nil
				}
				return corruptLine(n, err)
			}
		}
		if first && e.Type != event.RunStarted {
			return i18n.Errorf("runlog.empty")
		}
		first = false
		fold.Add(e)
		return nil
	})
	return fold, err
}

var (
	typeKey = []byte(`,"type":"`)
	dataKey = []byte(`,"data":`)
)

// splitLine cuts a line as the writer lays it out, {envelope,"data":payload},
// into the envelope (without its closing brace) and the payload. The keys
// cannot occur inside a JSON string, whose quotes are escaped, so their first
// matches are the envelope's own when the type comes before the payload.
func splitLine(line []byte) (head, data []byte, ok bool) {
	line = bytes.TrimRight(line, " \t\r\n")
	d := bytes.Index(line, dataKey)
	t := bytes.Index(line, typeKey)
	if d < 0 || t < 0 || t > d || len(line) == 0 || line[len(line)-1] != '}' {
		return nil, nil, false
	}
	return line[:d], line[d+len(dataKey) : len(line)-1], true
}

// peekType reads the type from an envelope cut by splitLine.
func peekType(head []byte) []byte {
	rest := head[bytes.Index(head, typeKey)+len(typeKey):]
	if end := bytes.IndexByte(rest, '"'); end >= 0 {
		return rest[:end]
	}
	return nil
}
