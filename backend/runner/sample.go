package runner

import (
	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/runner/sample"
)

// sampleEvents is the recorded sample run; a build whose copy does not
// decode (the sample package's tests prevent it) simply has none.
func sampleEvents() ([]event.Event, bool) {
	events, err := sample.Events()
	return events, err == nil && len(events) > 0
}

func sampleSummary() (Summary, bool) {
	events, ok := sampleEvents()
	if !ok {
		return Summary{}, false
	}
	return Summary{Summary: runlog.Summarize(events), Sample: true}, true
}

// isSample reports whether id is the sample run's, which lives in the
// binary rather than the logs.
func (m *Manager) isSample(id string) bool {
	events, ok := sampleEvents()
	return ok && events[0].RunID == id
}
