package notify

import (
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/event"
)

func ev(t *testing.T, typ event.Type, data any) event.Event {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return event.Event{RunID: "r1", Type: typ, Data: raw}
}

func TestFor_TellsOfWhatNeedsAPerson(t *testing.T) {
	cases := []struct {
		name string
		e    event.Event
		kind string
		body string // a part of the body
	}{
		{"approval", ev(t, event.ApprovalRequested, event.ApprovalRequestedData{ApprovalID: "a1", Name: "execute_command"}), KindApproval, "execute_command"},
		{"question", ev(t, event.QuestionAsked, event.QuestionAskedData{QuestionID: "q1", Question: "Which folder?"}), KindQuestion, "Which folder?"},
		{"finished", ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusFinished}), KindFinished, "Finished"},
		{"failed", ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusFailed}), KindFailed, "Failed"},
		{"guard", ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusGuard}), KindGuard, "guard"},
		{"budget", ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusBudget}), KindLimit, "limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if k, ok := KindOf(c.e); !ok || k != c.kind {
				t.Fatalf("KindOf = %q, %v; want %q", k, ok, c.kind)
			}
			n, ok := For(c.e, "Summarise the notes")
			if !ok {
				t.Fatal("no note")
			}
			if n.RunID != "r1" || n.Title != "Hermes — Summarise the notes" || !strings.Contains(n.Body, c.body) {
				t.Fatalf("note = %+v; want run r1, the run's title, a body with %q", n, c.body)
			}
		})
	}
}

func TestFor_QuietOnTheRest(t *testing.T) {
	for _, e := range []event.Event{
		ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusStopped}), // the person stopped it
		ev(t, event.IterationStarted, map[string]any{}),
		{RunID: "r1", Type: event.RunFinished, Data: json.RawMessage(`"broken"`)},
	} {
		if n, ok := For(e, "t"); ok {
			t.Errorf("%s: note %+v; want none", e.Type, n)
		}
	}
}

func TestFor_UntitledRunIsNamedByItsID(t *testing.T) {
	n, _ := For(ev(t, event.RunFinished, event.RunFinishedData{Status: event.StatusFinished}), "")
	if n.Title != "Hermes — r1" {
		t.Fatalf("title = %q", n.Title)
	}
}
