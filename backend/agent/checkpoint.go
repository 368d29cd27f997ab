package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

const stateVersion = 1

// state is what a checkpoint holds besides the conversation, which is stored
// turn by turn so that a checkpoint costs the same late in a run as early.
type state struct {
	V         int          `json:"v"`
	RunID     string       `json:"run_id"`
	Task      string       `json:"task"`
	Instr     string       `json:"instructions,omitempty"`
	Workspace string       `json:"workspace"`
	Iteration int          `json:"iteration"`
	Turns     int          `json:"turns"`
	Totals    event.Totals `json:"totals"`
	Guards    guardState   `json:"guards"`
	Status    string       `json:"status"`
	// AllowedTools were allowed by a person for the rest of the run.
	AllowedTools []string       `json:"allowed_tools,omitempty"`
	ForkedFrom   *event.ForkRef `json:"forked_from,omitempty"`
	Origin       string         `json:"origin,omitempty"`
	AskedBy      *event.Asker   `json:"asked_by,omitempty"`
	// Sandbox is the run's own sandbox mode, "" for [tools]'s.
	Sandbox string `json:"sandbox,omitempty"`
	// Memory is the run's own use of long-term memory, "" for the setup's;
	// MemoryAsOf, when set, is when the memory it recalls stood (Task).
	Memory     MemoryUse `json:"memory,omitempty"`
	MemoryAsOf time.Time `json:"memory_as_of,omitzero"`
	// Model and BaseURL (masked, as in run.started) are what the run last
	// ran with, so a resume with others records the switch.
	Model   string `json:"model,omitempty"`
	BaseURL string `json:"base_url,omitempty"`
	// Seq and LogOffset are the last event and the log's length at the
	// checkpoint: a resumed run truncates the log there and numbers on.
	Seq       int64  `json:"seq"`
	LogPath   string `json:"log_path"`
	LogOffset int64  `json:"log_offset"`
	// Context is the summary and what it covers, the pins and the recalled
	// memory; the turns themselves stay append-only.
	Context contextmgr.State `json:"context"`
	// Strategy is the run's for its whole life; Route is how intake routed
	// it. Plan is the plan strategy's plan (nil before planning, or when no
	// usable plan could be made), Best the last answer that did not pass the
	// completion check, Asked the guessed values already asked about.
	Strategy Strategy   `json:"strategy,omitempty"`
	Route    string     `json:"route,omitempty"`
	Planned  bool       `json:"planned,omitempty"`
	Plan     *planState `json:"plan,omitempty"`
	Best     string     `json:"best,omitempty"`
	Asked    []string   `json:"asked,omitempty"`
}

// checkpoint ends an iteration: the checkpoint.saved event, the log
// flushed, then the state and the new turns saved in one transaction.
func (r *Run) checkpoint() error {
	r.publish(event.CheckpointSaved, event.CheckpointSavedData{Messages: len(r.turns)})
	return r.save()
}

// save flushes the log and queues the state and the new turns as a
// checkpoint, which the store commits after syncing the log: the log is
// never behind a durable checkpoint, and the loop does not wait for either
// fsync. A crash loses the checkpoints not yet durable, and resume cuts the
// log back to the last one that is. A checkpoint that failed fails the next
// save, so the run ends when one is lost. The saves that end a run are not
// announced, so that run.finished ends the stream.
func (r *Run) save() error {
	if r.saving != nil {
		if err := r.saving.Failed(); err != nil {
			return fmt.Errorf("save checkpoint: %w", err)
		}
	}
	r.st.Turns = len(r.turns)
	r.st.Totals.DurationMS = r.elapsedMS()
	if err := r.log.Flush(); err != nil {
		return fmt.Errorf("flush run log: %w", err)
	}
	r.st.Seq = r.emit.LastSeq()
	r.st.LogOffset = r.log.Offset()
	data, err := json.Marshal(r.st)
	if err != nil {
		return fmt.Errorf("encode checkpoint: %w", err)
	}
	// The state holds the task, the summary and the recalled memory, which
	// may quote a secret as the turns may.
	data = r.setup.Redactor.Redact(data)
	newTurns := make([][]byte, 0, len(r.turns)-r.saved.Turns)
	for _, m := range r.turns[r.saved.Turns:] {
		b, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("encode turn: %w", err)
		}
		if r.setup.Redactor != nil {
			b = r.setup.Redactor.Redact(b)
		}
		newTurns = append(newTurns, b)
	}
	r.saving = r.setup.Store.QueueCheckpoint(store.Checkpoint{
		RunID: r.st.RunID, State: data, From: r.saved.Turns, Turns: newTurns, Before: r.log.Sync, Summary: r.log.TakeSummary,
	})
	if err := r.saving.Failed(); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	r.saved = r.st
	r.saved.Guards = r.st.Guards.clone()
	r.saved.AllowedTools = slices.Clone(r.st.AllowedTools)
	r.saved.Context = r.st.Context.Clone()
	r.saved.Plan = r.st.Plan.clone()
	r.saved.Asked = slices.Clone(r.st.Asked)
	r.snapshot()
	return nil
}

// saveDurable saves and waits until the checkpoint (and every one before
// it) is durable, where the run needs it: at its end.
func (r *Run) saveDurable() error {
	if err := r.save(); err != nil {
		return err
	}
	if err := r.saving.Wait(); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	return nil
}

// ResumeRun takes up a stopped or crashed run from its last checkpoint: its
// log is cut back to the checkpoint (dropping a half-done iteration) and
// numbering goes on from there, so no event is lost or written twice.
func ResumeRun(s Setup, runID string, sinks ...event.Sink) (*Run, error) {
	raw, turns, err := s.Store.LoadCheckpoint(runID)
	if errors.Is(err, store.ErrNoCheckpoint) {
		return nil, i18n.Wrap(err, "agent.no_checkpoint", runID)
	}
	if err != nil {
		return nil, err
	}
	r := newRun(s)
	if err := json.Unmarshal(raw, &r.st); err != nil {
		return nil, fmt.Errorf("decode checkpoint of run %s: %w", runID, err)
	}
	if r.st.Status == event.StatusFinished {
		return nil, i18n.Errorf("agent.already_finished", runID)
	}
	if r.turns, err = decodeTurns(runID, turns, r.st.Turns); err != nil {
		return nil, err
	}
	w, err := runlog.Append(r.st.LogPath, r.st.LogOffset)
	if err != nil {
		return nil, err
	}
	r.st.Status = event.StatusRunning
	r.priorMS = r.st.Totals.DurationMS
	r.saved = r.st
	r.saved.Context = r.st.Context.Clone()
	r.saved.Plan = r.st.Plan.clone()
	r.resumed = true
	r.attach(w, r.st.Seq, sinks)
	return r, nil
}

// decodeTurns decodes the first n stored turns of a run's conversation.
func decodeTurns(runID string, stored [][]byte, n int) ([]llm.Message, error) {
	if len(stored) < n {
		return nil, fmt.Errorf("checkpoint of run %s holds %d turns, want %d", runID, len(stored), n)
	}
	turns := make([]llm.Message, n)
	for i := range turns {
		if err := json.Unmarshal(stored[i], &turns[i]); err != nil {
			return nil, fmt.Errorf("decode turn %d of run %s: %w", i, runID, err)
		}
	}
	return turns, nil
}

// resumedData is run.resumed for a run taken up from its checkpoint: the
// model and endpoint it goes on with, and the ones it had when they differ
// (a checkpoint from before runs kept them has none to compare).
func (r *Run) resumedData() event.RunResumedData {
	d := event.RunResumedData{
		FromCheckpoint: true, Iteration: r.st.Iteration, Model: r.setup.ModelName, BaseURL: r.setup.BaseURL,
	}
	if r.st.Model != "" && (r.st.Model != d.Model || r.st.BaseURL != d.BaseURL) {
		d.FromModel, d.FromBaseURL = r.st.Model, r.st.BaseURL
	}
	r.st.Model, r.st.BaseURL = d.Model, d.BaseURL
	return d
}

// Place is where a checkpoint leaves its run: the iteration done, whether
// the run was still going, and the part of its log that stands.
type Place struct {
	Iteration int
	Running   bool
	LogPath   string
	LogOffset int64
}

// PlaceOf reads the place of a checkpoint's state, as Store.LoadCheckpoint
// returns it.
func PlaceOf(state []byte) (Place, error) {
	var st struct {
		Iteration int    `json:"iteration"`
		Status    string `json:"status"`
		LogPath   string `json:"log_path"`
		LogOffset int64  `json:"log_offset"`
	}
	if err := json.Unmarshal(state, &st); err != nil {
		return Place{}, fmt.Errorf("decode checkpoint: %w", err)
	}
	return Place{Iteration: st.Iteration, Running: st.Status == event.StatusRunning, LogPath: st.LogPath, LogOffset: st.LogOffset}, nil
}

// Moved is a checkpoint's state for its run copied to another home (a bot
// replica taking a task over): its log at logPath, its workspace there.
func Moved(saved []byte, logPath, workspace string) ([]byte, error) {
	var st state
	if err := json.Unmarshal(saved, &st); err != nil {
		return nil, fmt.Errorf("decode checkpoint: %w", err)
	}
	st.LogPath, st.Workspace = logPath, workspace
	return json.Marshal(st)
}
