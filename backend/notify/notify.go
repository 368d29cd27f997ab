// Package notify sends the desktop notifications of the window: a run waits
// for an approval or an answer, or ended, while the window is not in front.
// What is said is decided here from the run's events (For); how it reaches
// the person is each OS's own mechanism (New): the freedesktop
// notification service on the session bus on Linux and the BSDs, the
// system's notifications elsewhere. The window decides when (it knows
// whether it is in front); `hermes serve` and `hermes bot` send none.
package notify

import (
	"errors"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// ErrNoService is returned by New when the system has no notification
// service to send to (no session bus, or nothing on it that shows them).
var ErrNoService = errors.New("no desktop notification service")

// Note is one notification.
type Note struct {
	// RunID is the run it is about; a click hands it back (Notifier.Clicks).
	RunID string
	Title string
	Body  string
	// Link opens the run where the system hands a click to no process but
	// by a link (desktoplink.Run): a toast on Windows.
	Link string
}

// Notifier sends notes and tells which were clicked.
type Notifier interface {
	// Send shows n; a later note of the same run replaces it where the
	// system can.
	Send(n Note) error
	// Clicks receives the RunID of each note the person clicked, where the
	// system tells; it is closed by Close.
	Clicks() <-chan string
	Close() error
}

// The kinds of moment a person is told of.
const (
	KindApproval = "approval"
	KindQuestion = "question"
	KindFinished = "finished"
	KindFailed   = "failed"
	KindGuard    = "guard"
	KindLimit    = "limit"
)

// KindOf says whether e is a moment to tell a person of, and which: a run
// asks for an approval or an answer, or it ended. A run a person stopped
// is not: they know.
func KindOf(e event.Event) (string, bool) {
	switch e.Type {
	case event.ApprovalRequested:
		return KindApproval, true
	case event.QuestionAsked:
		return KindQuestion, true
	case event.RunFinished:
		d, err := event.Decode[event.RunFinishedData](e)
		if err != nil {
			return "", false
		}
		switch d.Status {
		case event.StatusFinished:
			return KindFinished, true
		case event.StatusMaxIterations, event.StatusBudget:
			return KindLimit, true
		case event.StatusFailed:
			return KindFailed, true
		case event.StatusGuard:
			return KindGuard, true
		}
	}
	return "", false
}

// For is the note that tells of e, a moment of the run titled title, in
// the current language; false when e is none (KindOf).
func For(e event.Event, title string) (Note, bool) {
	kind, ok := KindOf(e)
	if !ok {
		return Note{}, false
	}
	body := i18n.T("notify.body." + kind)
	switch kind {
	case KindApproval:
		if d, err := event.Decode[event.ApprovalRequestedData](e); err == nil && d.Name != "" {
			body = i18n.T("notify.body.approval_tool", d.Name)
		}
	case KindQuestion:
		if d, err := event.Decode[event.QuestionAskedData](e); err == nil && d.Question != "" {
			body = i18n.T("notify.body.question_text", d.Question)
		}
	}
	if title == "" {
		title = e.RunID
	}
	return Note{RunID: e.RunID, Title: i18n.T("notify.title", title), Body: body}, true
}
