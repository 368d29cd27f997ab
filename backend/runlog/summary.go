package runlog

import (
	"encoding/json"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/price"
)

// Summary is what run lists show, folded from a log.
type Summary struct {
	RunID string `json:"run_id"`
	Task  string `json:"task"`
	// Status is one of event.Status*. A run shows as running when no
	// run.finished follows its last start or resume, which is also how a
	// crashed run looks.
	Status     string    `json:"status"`
	Model      string    `json:"model"`
	Workspace  string    `json:"workspace"`
	Started    time.Time `json:"started"`
	Ended      time.Time `json:"ended,omitzero"`
	Iterations int       `json:"iterations"`
	Tokens     int       `json:"tokens"`
	ToolCalls  int       `json:"tool_calls"`
	Answer     string    `json:"answer,omitempty"`
	Verified   bool      `json:"verified"`
	Path       string    `json:"path"`
	// Origin is who asked, when not the person at this machine (a chat
	// user of the bot: "wecom/USER").
	Origin string `json:"origin,omitempty"`
	// AskedBy is who that chat user is (name, departments), from
	// run.started, when the platform could say.
	AskedBy *event.Asker `json:"asked_by,omitempty"`
	// Cost is what the run's model calls cost, in Currency, as the events
	// priced them (model.decided's cost, run.finished's totals); absent
	// when its model has no price.
	Cost     *float64 `json:"cost,omitempty"`
	Currency string   `json:"currency,omitempty"`
}

// Folder folds events into a Summary one at a time, so a live run's entry
// can be kept current without rereading its log.
//
// Counts are summed from the events themselves (iteration numbers, usage and
// calls in model.decided, as the run's totals count them: a denied or
// skipped call counts though it never starts; the usage of summary.updated's
// summary call) and raised to the totals of
// run.finished when those are larger, which holds whether a resumed run's
// totals cover one leg or the whole run.
type Folder struct {
	s Summary
}

// folded is the set of event types Folder reads; List decodes only these.
// Its keys are plain strings so List can look up a type held in bytes.
var folded = map[string]bool{
	string(event.RunStarted):       true,
	string(event.RunResumed):       true,
	string(event.IterationStarted): true,
	string(event.ModelDecided):     true,
	string(event.SummaryUpdated):   true,
	string(event.TaskEdited):       true,
	string(event.RunFinished):      true,
}

// Add folds one event in. Payloads that do not decode add nothing.
func (f *Folder) Add(e event.Event) {
	if !folded[string(e.Type)] {
		return
	}
	s := &f.s
	if s.RunID == "" {
		s.RunID = e.RunID
	}
	s.Iterations = max(s.Iterations, e.Iteration)
	switch e.Type {
	case event.RunStarted:
		var d event.RunStartedData
		if json.Unmarshal(e.Data, &d) == nil {
			s.Task, s.Model, s.Workspace, s.Origin, s.AskedBy = d.Task, d.Model, d.Workspace, d.Origin, d.AskedBy
		}
		s.Started, s.Status = e.Time, event.StatusRunning
	case event.RunResumed:
		s.Status, s.Ended, s.Answer, s.Verified = event.StatusRunning, time.Time{}, "", false
	case event.ModelDecided:
		var d struct {
			Usage     llm.Usage         `json:"usage"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
			Cost      *float64          `json:"cost"`
			Currency  string            `json:"currency"`
		}
		if json.Unmarshal(e.Data, &d) == nil {
			s.Tokens += usageTotal(d.Usage)
			s.ToolCalls += len(d.ToolCalls)
			s.Cost = price.Sum(s.Cost, &s.Currency, d.Cost, d.Currency)
		}
	case event.SummaryUpdated:
		// A compression's summary call is paid for like a decision.
		var d struct {
			Usage llm.Usage `json:"usage"`
		}
		if json.Unmarshal(e.Data, &d) == nil {
			s.Tokens += usageTotal(d.Usage)
		}
	case event.TaskEdited:
		var d event.TaskEditedData
		if json.Unmarshal(e.Data, &d) == nil && d.NewTask != "" {
			s.Task = d.NewTask
		}
	case event.RunFinished:
		var d event.RunFinishedData
		if json.Unmarshal(e.Data, &d) == nil {
			s.Status, s.Answer, s.Verified = d.Status, d.Answer, d.Verified
			s.Iterations = max(s.Iterations, d.Totals.Iterations)
			s.Tokens = max(s.Tokens, d.Totals.TotalTokens)
			s.ToolCalls = max(s.ToolCalls, d.Totals.ToolCalls)
			if t := d.Totals; t.Cost != nil && (s.Cost == nil || *t.Cost > *s.Cost) {
				s.Cost, s.Currency = t.Cost, t.Currency
			}
		}
		s.Ended = e.Time
	}
}

func usageTotal(u llm.Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.PromptTokens + u.CompletionTokens
}

// Summary is the run as folded so far.
func (f *Folder) Summary() Summary { return f.s }

// Summarize folds a whole run.
func Summarize(events []event.Event) Summary {
	var f Folder
	for _, e := range events {
		f.Add(e)
	}
	return f.Summary()
}
