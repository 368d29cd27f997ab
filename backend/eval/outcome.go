package eval

import (
	"encoding/json"
	"time"

	"hermes/backend/event"
	"hermes/backend/runlog"
)

// Call is one tool call a run made, with its arguments decoded.
type Call struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// Outcome is what checks look at: how a run ended, what it answered, the
// tools it called, its counts, and the workspace it left.
type Outcome struct {
	RunID      string
	Status     string
	Answer     string
	Error      string
	Workspace  string
	Calls      []Call
	Guards     []string
	Iterations int
	Tokens     int
	Cost       *float64
	Duration   time.Duration
}

// OutcomeOf folds a run's events into its Outcome; workspace is the folder
// the run worked in.
func OutcomeOf(events []event.Event, workspace string) Outcome {
	s := runlog.Summarize(events)
	o := Outcome{
		RunID: s.RunID, Status: s.Status, Answer: s.Answer, Workspace: workspace,
		Iterations: s.Iterations, Tokens: s.Tokens, Cost: s.Cost,
	}
	if !s.Ended.IsZero() && !s.Started.IsZero() {
		o.Duration = s.Ended.Sub(s.Started)
	}
	started := map[string]bool{}
	for _, e := range events {
		switch e.Type {
		case event.ToolStarted:
			d, err := event.Decode[event.ToolStartedData](e)
			// A retried call is one call.
			if err != nil || started[d.CallID] {
				continue
			}
			started[d.CallID] = true
			c := Call{Name: d.Name}
			_ = json.Unmarshal([]byte(d.Arguments), &c.Args)
			o.Calls = append(o.Calls, c)
		case event.GuardTripped:
			if d, err := event.Decode[event.GuardTrippedData](e); err == nil {
				o.Guards = append(o.Guards, d.Guard)
			}
		case event.RunFinished:
			if d, err := event.Decode[event.RunFinishedData](e); err == nil {
				o.Error = d.Error
				if d.Totals.DurationMS > 0 {
					o.Duration = time.Duration(d.Totals.DurationMS) * time.Millisecond
				}
			}
		}
	}
	return o
}

// ModelFailed reports whether the run ended for a reason outside what is
// checked (a model call that failed after its retries, a checkpoint that
// could not be written): an error in the table, not a failed check.
func (o Outcome) ModelFailed() bool { return o.Status == event.StatusFailed }
