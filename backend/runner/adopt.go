package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hermes/backend/agent"
	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
)

// RunCopy is a run as it stood at its last durable checkpoint: the
// checkpoint's state and turns as the store holds them (redacted by the
// run's redactor) and the log up to the checkpoint (redacted as written).
// Another home takes the run up from it with Adopt and ResumeSetup.
type RunCopy struct {
	RunID     string   `json:"run_id"`
	Iteration int      `json:"iteration"`
	Running   bool     `json:"running"` // false: the run had ended
	State     []byte   `json:"state"`
	Turns     [][]byte `json:"turns"`
	Log       []byte   `json:"log"`
}

// CopyRun reads run id's last durable checkpoint and its log up to it. The
// log is synced past that point before the checkpoint is committed, so the
// two agree while the run goes on writing. An error wraps
// store.ErrNoCheckpoint for a run without one yet.
func (m *Manager) CopyRun(id string) (RunCopy, error) {
	st, err := m.store.acquire()
	if err != nil {
		return RunCopy{}, err
	}
	defer m.store.release()
	state, turns, err := st.LoadCheckpoint(id)
	if err != nil {
		return RunCopy{}, err
	}
	p, err := agent.PlaceOf(state)
	if err != nil {
		return RunCopy{}, err
	}
	f, err := os.Open(p.LogPath)
	if err != nil {
		return RunCopy{}, fmt.Errorf("read log of run %s: %w", id, err)
	}
	defer f.Close()
	log := make([]byte, p.LogOffset)
	if _, err := io.ReadFull(f, log); err != nil {
		return RunCopy{}, fmt.Errorf("read log of run %s up to its checkpoint: %w", id, err)
	}
	return RunCopy{RunID: id, Iteration: p.Iteration, Running: p.Running, State: state, Turns: turns, Log: log}, nil
}

// Adopt writes c into this home as if its run had run here up to its
// checkpoint: its log under the home's logs, and its checkpoint, in place
// of any the home held for the run, pointing to that log and to workspace.
// ResumeSetup then takes the run up from there, as after a crash.
func (m *Manager) Adopt(c RunCopy, workspace string) error {
	if c.RunID == "" || strings.ContainsAny(c.RunID, `/\.`) {
		return fmt.Errorf("adopt run %q: %w", c.RunID, runlog.ErrBadRunID)
	}
	if m.liveRun(c.RunID) != nil {
		return i18n.Wrap(ErrLive, "runner.live", c.RunID)
	}
	p, err := agent.PlaceOf(c.State)
	if err != nil {
		return err
	}
	// The day directory the run's first home filed it under.
	day, err := time.Parse(time.DateOnly, filepath.Base(filepath.Dir(p.LogPath)))
	if err != nil {
		return fmt.Errorf("adopt run %s: its log's path %q names no day: %w", c.RunID, p.LogPath, err)
	}
	path := runlog.LogPath(m.home, c.RunID, day)
	state, err := agent.Moved(c.State, path, workspace)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create log directory: %w", err)
	}
	if err := atomicfile.WriteFile(path, c.Log, 0o600); err != nil {
		return fmt.Errorf("write log of run %s: %w", c.RunID, err)
	}
	st, err := m.store.acquire()
	if err != nil {
		return err
	}
	defer m.store.release()
	if err := st.DeleteCheckpoint(c.RunID); err != nil {
		return err
	}
	return st.SaveCheckpoint(c.RunID, state, c.Turns)
}
