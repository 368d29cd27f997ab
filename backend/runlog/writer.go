// Package runlog keeps the record of runs in the home directory: each run's
// events as JSONL under logs/YYYY-MM-DD/run_ID.jsonl, read back as the same
// event values; run summaries for lists; the redaction that keeps secrets out
// of them; and artifacts/RUN/CALL, the full tool outputs the model saw in part.
package runlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"hermes/backend/event"
	"hermes/backend/store"
)

// Writer appends a run's events to its log, one JSON object per line. It is
// an event.Sink. Lines are buffered until Flush, which the loop calls at every
// iteration boundary, so a crash loses at most the iteration under way, which
// the run's checkpoint does not cover either. Sync makes them durable; the
// store's writer calls it, off the loop's path, before it commits a
// checkpoint that points into the log.
type Writer struct {
	mu     sync.Mutex
	f      *os.File
	buf    *bufio.Writer
	enc    *json.Encoder
	path   string
	offset int64
	// created is set for a new log, whose directory entries Sync makes
	// durable once too.
	created   bool
	syncMu    sync.Mutex
	dirSynced bool
	// sums, when set, keeps the run's summary, folded from the events
	// written: the summary of the lines flushed goes into each checkpoint's
	// commit (TakeSummary, which the store's writer calls off the loop's
	// path after Sync), and is saved at Close (after run.finished) if it
	// changed since. sumMu orders the saves, so an older summary never
	// lands after a newer one.
	sums    SummaryStore
	fold    Folder
	flushed Summary
	dirty   bool
	sumMu   sync.Mutex
}

// Create starts the log of a new run under home. The directories are made as
// needed; an existing log for the run is ErrRunExists.
func Create(home, runID string, started time.Time) (*Writer, error) {
	if !safeName(runID) {
		return nil, fmt.Errorf("create log for run %q: %w", runID, ErrBadRunID)
	}
	path := LogPath(home, runID, started)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create log %s: %w", path, ErrRunExists)
	}
	if err != nil {
		return nil, fmt.Errorf("create log %s: %w", path, err)
	}
	w := newWriter(f, path, 0)
	w.created = true
	return w, nil
}

// Append reopens the log of a resumed run. It keeps the first keep bytes (the
// log as it was at the run's last checkpoint), dropping whatever came after,
// a torn last line included, and appends after them. keep must be the end of
// a line (or 0), as Offset always is.
func Append(path string, keep int64) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("reopen log %s: %w", path, err)
	}
	if err := checkLineEnd(f, keep); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("reopen log %s at %d: %w", path, keep, err)
	}
	if err := f.Truncate(keep); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("truncate log %s to %d: %w", path, keep, err)
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("seek log %s: %w", path, err)
	}
	return newWriter(f, path, keep), nil
}

// checkLineEnd refuses an offset that would cut a line in two or grow the
// file, either of which would leave a log that no reader accepts.
func checkLineEnd(f *os.File, keep int64) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if keep < 0 || keep > st.Size() {
		return fmt.Errorf("%w (the log has %d bytes)", ErrBadOffset, st.Size())
	}
	if keep == 0 {
		return nil
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], keep-1); err != nil {
		return err
	}
	if b[0] != '\n' {
		return ErrBadOffset
	}
	return nil
}

func newWriter(f *os.File, path string, offset int64) *Writer {
	w := &Writer{f: f, path: path, offset: offset}
	w.buf = bufio.NewWriterSize(f, 64<<10)
	w.enc = json.NewEncoder(countingWriter{w})
	// Data is raw JSON already; HTML escaping would rewrite it, and the
	// reader must get back the very bytes that were emitted.
	w.enc.SetEscapeHTML(false)
	return w
}

// countingWriter keeps Offset in step with what is handed to the buffer.
type countingWriter struct{ w *Writer }

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.buf.Write(p)
	c.w.offset += int64(n)
	return n, err
}

// Write appends e as one line. The Encoder writes the whole line in one call,
// so a failed write never leaves half a line in the buffer unaccounted for.
func (w *Writer) Write(e event.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.enc.Encode(e); err != nil {
		return fmt.Errorf("write event %d to %s: %w", e.Seq, w.path, err)
	}
	if w.sums != nil {
		w.fold.Add(e)
	}
	return nil
}

// Flush hands the buffered lines to the operating system. It does not fsync:
// the page cache outlives a killed process; Sync covers a power cut.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.buf.Flush(); err != nil {
		return fmt.Errorf("flush log %s: %w", w.path, err)
	}
	w.markFlushed()
	return nil
}

// Sync makes the lines flushed so far durable: the file's data, and for a
// new log once its directory's entry too. It does not hold the lock that
// Write takes, so events go on being written while the disk syncs. The
// summary of those lines goes into the checkpoint's commit that follows
// (TakeSummary).
func (w *Writer) Sync() error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("sync log %s: %w", w.path, err)
	}
	if w.created && !w.dirSynced {
		// The log's day folder may be new too, so its parent is synced as well.
		dir := filepath.Dir(w.path)
		if err := errors.Join(syncDir(dir), syncDir(filepath.Dir(dir))); err != nil {
			return fmt.Errorf("sync log %s: %w", w.path, err)
		}
		w.dirSynced = true
	}
	return nil
}

// syncDir makes a directory's entries durable. Windows has no such call; its
// file system keeps them with the file's metadata.
func syncDir(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// Offset is the byte length of the log once everything written so far is
// flushed; it is always the end of a line.
func (w *Writer) Offset() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.offset
}

// Path is the file the log is written to.
func (w *Writer) Path() string { return w.path }

// Close flushes the log, closes its file and saves the run's summary.
func (w *Writer) Close() error {
	w.mu.Lock()
	ferr := w.buf.Flush()
	if ferr == nil {
		w.markFlushed()
	}
	cerr := w.f.Close()
	w.mu.Unlock()
	serr := w.saveSummary()
	if err := errors.Join(ferr, serr, cerr); err != nil {
		return fmt.Errorf("close log %s: %w", w.path, err)
	}
	return nil
}

// KeepSummary makes the writer keep the run's summary in sums, so run
// lists read it instead of the log. A reopened log's kept part is folded
// first, once; when it cannot be read the summary is left as it was.
func (w *Writer) KeepSummary(sums SummaryStore) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.offset > 0 {
		fold, err := foldLog(io.NewSectionReader(w.f, 0, w.offset))
		if err != nil {
			return
		}
		w.fold = fold
	}
	w.sums = sums
}

// markFlushed takes the summary of the lines just flushed. w.mu is held.
func (w *Writer) markFlushed() {
	if w.sums == nil {
		return
	}
	w.sumMu.Lock()
	w.flushed, w.dirty = w.fold.Summary(), true
	w.sumMu.Unlock()
}

// TakeSummary is the run's summary as of the lines flushed, encoded for the
// store, when it changed since it was last taken or saved: the checkpoint
// that follows the log's Sync keeps it in its own commit
// (store.Checkpoint.Summary). nil when unchanged or when the writer keeps no
// summary.
func (w *Writer) TakeSummary() *store.RunSummary {
	w.sumMu.Lock()
	defer w.sumMu.Unlock()
	if w.sums == nil || !w.dirty || w.flushed.Started.IsZero() {
		return nil
	}
	s := w.flushed
	s.Path = w.path
	r, err := encodeSummary(s)
	if err != nil {
		return nil // a Summary always encodes; Close tries again
	}
	w.dirty = false
	return &r
}

// saveSummary stores the summary of the lines flushed, when it changed
// since the last save. It does not hold w.mu, so events go on being
// written while the store commits.
func (w *Writer) saveSummary() error {
	w.sumMu.Lock()
	defer w.sumMu.Unlock()
	if w.sums == nil || !w.dirty || w.flushed.Started.IsZero() {
		return nil
	}
	s := w.flushed
	s.Path = w.path
	if err := putSummary(w.sums, s); err != nil {
		return err
	}
	w.dirty = false
	return nil
}
