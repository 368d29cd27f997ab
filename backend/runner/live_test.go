package runner

import (
	"testing"

	"hermes/backend/event"
)

func TestLiveRun_FoldsPauseAndApproval(t *testing.T) {
	var told []Summary
	l := newLiveRun(func(s Summary) { told = append(told, s) })
	l.controls = nil
	var seq int64
	write := func(typ event.Type, data string) {
		t.Helper()
		seq++
		if err := l.Write(event.Event{RunID: "r", Seq: seq, Type: typ, Data: []byte(data)}); err != nil {
			t.Fatal(err)
		}
	}
	write(event.RunStarted, `{"task":"t","forked_from":{"run_id":"src","iteration":2}}`)
	write(event.RunPaused, `{"at":"boundary"}`)
	if s := l.summary(); !s.Paused || s.ForkedFrom == nil || s.ForkedFrom.RunID != "src" || s.Task != "t" {
		t.Fatalf("paused: %+v", s)
	}
	write(event.RunResumed, `{}`)
	write(event.ApprovalRequested, `{"approval_id":"approval_c1","name":"write_file"}`)
	if s := l.summary(); s.Paused || s.PendingApproval == nil || s.PendingApproval.ApprovalID != "approval_c1" {
		t.Fatalf("waiting for approval: %+v", s)
	}
	write(event.ModelDelta, `{"text":"x"}`) // not a change lists hear of
	write(event.ApprovalResolved, `{"approval_id":"approval_c1","decision":"allow_once"}`)
	if s := l.summary(); s.PendingApproval != nil {
		t.Fatalf("approved: %+v", s)
	}
	if len(told) != 5 {
		t.Errorf("lists were told %d times, want 5", len(told))
	}
}
