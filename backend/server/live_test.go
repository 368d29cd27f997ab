package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

func calls(id, name, args string) []llm.ToolCall {
	return []llm.ToolCall{{ID: id, Name: name, Arguments: args}}
}

// until reads messages until one carries an event for which stop is true,
// and returns the events read, checking their order from after.
func until(t *testing.T, ms <-chan message, after int64, stop func(event.Event) bool) []event.Event {
	t.Helper()
	var events []event.Event
	for m := range ms {
		if m.name != "hermes" {
			t.Fatalf("got %s before the event waited for", m.name)
		}
		var e event.Event
		if err := json.Unmarshal([]byte(m.data), &e); err != nil {
			t.Fatal(err)
		}
		if e.Seq != after+int64(len(events))+1 {
			t.Fatalf("got seq %d after %d events from %d", e.Seq, len(events), after)
		}
		events = append(events, e)
		if stop(e) {
			return events
		}
	}
	t.Fatal("the stream closed before the event waited for")
	return nil
}

func is(t event.Type) func(event.Event) bool { return func(e event.Event) bool { return e.Type == t } }

func TestServer_StartAndWatchLive(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: calls("c1", "list_files", `{}`), Wait: hold},
		llmtest.Step{Content: "The workspace is empty.", Chunks: 3},
	)
	h := newHarness(t, srv, nil, "")
	runs := h.stream("/api/runs/stream", nil)
	id := h.start("what is in the workspace?")
	live := h.stream("/api/runs/"+id+"/stream", nil)
	close(hold)
	events := h.follow(live, 0, nil)

	if got := types(events); !strings.HasPrefix(got, "run.started") || !strings.HasSuffix(got, "run.finished") {
		t.Fatalf("events: %s", got)
	}
	var logged []event.Event
	h.call("GET", "/api/runs/"+id+"/events", "", http.StatusOK, &logged)
	if len(logged) != len(events) || logged[len(logged)-1].Seq != events[len(events)-1].Seq {
		t.Fatalf("the log has %d events, the stream gave %d", len(logged), len(events))
	}
	// The runs stream told of the run while it was live, and of its end.
	var sawLive bool
	for m := range runs {
		var s runner.Summary
		if err := json.Unmarshal([]byte(m.data), &s); err != nil || m.name != "run" || s.RunID != id {
			t.Fatalf("runs stream: %s %s (%v)", m.name, m.data, err)
		}
		sawLive = sawLive || s.Live
		if !s.Live {
			if !sawLive || s.Status != event.StatusFinished || s.Answer != "The workspace is empty." {
				t.Fatalf("last summary %+v (saw it live: %v)", s, sawLive)
			}
			break
		}
	}
	// A stream of a run that is not live gives the log after `after`, then ends.
	if again := h.watch(id, 3, nil); len(again) != len(events)-3 {
		t.Fatalf("replayed %d events after seq 3, want %d", len(again), len(events)-3)
	}
}

func TestServer_LateJoinersGetEveryEventOnce(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "First a look.", ToolCalls: calls("c1", "list_files", `{}`)},
		llmtest.Step{Content: "Now a file.", ToolCalls: calls("c2", "write_file", `{"path":"a.txt","content":"a"}`), Wait: hold},
		llmtest.Step{Content: "Done.", Chunks: 4},
	)
	h := newHarness(t, srv, nil, "")
	id := h.start("write a.txt")
	first := h.stream("/api/runs/"+id+"/stream?after=0", nil)
	before := until(t, first, 0, func(e event.Event) bool { return e.Type == event.ContextBuilt && e.Iteration == 2 })
	mid := before[len(before)/2].Seq

	// Two viewers join while the run waits for the model: one from the
	// start, one from the middle by Last-Event-ID, as a browser reconnects.
	fromStart := h.stream("/api/runs/"+id+"/stream", nil)
	fromMid := h.stream("/api/runs/"+id+"/stream", http.Header{"Last-Event-Id": {fmt.Sprint(mid)}})
	close(hold)

	all := slices.Concat(before, h.follow(first, before[len(before)-1].Seq, nil))
	if got := h.follow(fromStart, 0, nil); len(got) != len(all) {
		t.Fatalf("the viewer from the start got %d events, want %d", len(got), len(all))
	}
	if got := h.follow(fromMid, mid, nil); len(got) != len(all)-int(mid) || got[0].Seq != mid+1 {
		t.Fatalf("the viewer from seq %d got %d events, want %d", mid, len(got), len(all)-int(mid))
	}
}

func TestServer_PauseEditResume(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: calls("c1", "list_files", `{}`), Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	h := newHarness(t, srv, nil, "")
	id := h.start("the original task")
	ms := h.stream("/api/runs/"+id+"/stream", nil)
	h.control(id, `{"kind":"pause"}`)
	close(hold)
	seen := until(t, ms, 0, is(event.RunPaused))

	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	if !runs[0].Live || !runs[0].Paused || runs[0].RunID != id {
		t.Fatalf("while paused the list shows %+v", runs[0])
	}
	asked := len(srv.Requests())
	h.control(id, `{"kind":"edit","task":"the EDITED task","instructions":"be brief"}`)
	h.control(id, `{"kind":"resume"}`)
	rest := h.follow(ms, seen[len(seen)-1].Seq, nil)

	if !strings.Contains(types(rest), "task.edited run.resumed") {
		t.Errorf("after the pause: %s", types(rest))
	}
	reqs := srv.Requests()
	if len(reqs) <= asked {
		t.Fatalf("no request after the pause")
	}
	anchor := reqs[asked].Messages[1].Content
	if !strings.Contains(anchor, "the EDITED task") || !strings.Contains(anchor, "be brief") {
		t.Errorf("the next request's task anchor is %q", anchor)
	}
}

func TestServer_Inject(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: calls("c1", "list_files", `{}`), Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	h := newHarness(t, srv, nil, "")
	id := h.start("list the workspace")
	ms := h.stream("/api/runs/"+id+"/stream", nil)
	h.control(id, `{"kind":"inject","text":"also say how many files there are"}`)
	close(hold)
	events := h.follow(ms, 0, nil)

	if !strings.Contains(types(events), "instruction.injected") {
		t.Fatalf("no instruction.injected in %s", types(events))
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !slices.ContainsFunc(last.Messages, func(m llm.Message) bool {
		return m.Role == llm.RoleUser && strings.Contains(m.Content, "also say how many files there are")
	}) {
		t.Errorf("the last request lacks the instruction: %+v", last.Messages)
	}
}

func TestServer_ApproveAndDeny(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("w1", "write_file", `{"path":"a.txt","content":"a"}`)},
		llmtest.Step{ToolCalls: calls("w2", "write_file", `{"path":"b.txt","content":"b"}`)},
		llmtest.Step{Content: "Wrote a.txt; b.txt was not allowed."},
	)
	h := newHarness(t, srv, &askWrites{}, "")
	id := h.start("write a.txt and b.txt")
	ms := h.stream("/api/runs/"+id+"/stream", nil)

	seen := until(t, ms, 0, is(event.ApprovalRequested))
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	first := runs[0].PendingApproval
	if first == nil || first.Name != "write_file" || !strings.Contains(first.Arguments, "a.txt") {
		t.Fatalf("pending approval %+v", first)
	}
	h.call("POST", "/api/runs/"+id+"/approvals/"+first.ApprovalID, `{"decision":"allow_once"}`, http.StatusAccepted, nil)

	seen = append(seen, until(t, ms, int64(len(seen)), is(event.ApprovalRequested))...)
	second, err := event.Decode[event.ApprovalRequestedData](seen[len(seen)-1])
	if err != nil {
		t.Fatal(err)
	}
	h.call("POST", "/api/runs/"+id+"/approvals/"+second.ApprovalID, `{"decision":"deny","reason":"b.txt is not needed"}`, http.StatusAccepted, nil)
	seen = append(seen, until(t, ms, int64(len(seen)), is(event.ApprovalResolved))...)
	// The first answer won; another is refused.
	h.call("POST", "/api/runs/"+id+"/approvals/"+second.ApprovalID, `{"decision":"allow_once"}`, http.StatusConflict, nil)
	h.follow(ms, int64(len(seen)), nil)

	if b, err := os.ReadFile(filepath.Join(h.ws, "a.txt")); err != nil || string(b) != "a" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(h.ws, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("b.txt was written after a denial: %v", err)
	}
	third := srv.Requests()[2].Messages
	if got := third[len(third)-1]; got.Role != llm.RoleTool || !strings.Contains(got.Content, "b.txt is not needed") {
		t.Errorf("the model was told %+v", got)
	}
}

func TestServer_StopAndResume(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("w1", "write_file", `{"path":"a.txt","content":"a"}`), Wait: hold},
		llmtest.Step{ToolCalls: calls("w2", "write_file", `{"path":"b.txt","content":"b"}`)},
		llmtest.Step{Content: "Done."},
	)
	h := newHarness(t, srv, nil, "")
	id := h.start("write files")
	ms := h.stream("/api/runs/"+id+"/stream", nil)
	h.call("DELETE", "/api/runs/"+id, "", http.StatusConflict, nil)
	h.control(id, `{"kind":"stop"}`)
	close(hold)
	events := h.follow(ms, 0, nil)
	finished, err := event.Decode[event.RunFinishedData](events[len(events)-1])
	if err != nil || finished.Status != event.StatusStopped {
		t.Fatalf("the run ended %+v, %v", finished, err)
	}
	h.call("POST", "/api/runs/"+id+"/control", `{"kind":"pause"}`, http.StatusConflict, nil)

	var ref struct {
		RunID string `json:"run_id"`
	}
	h.call("POST", "/api/runs/"+id+"/resume", "", http.StatusAccepted, &ref)
	if ref.RunID != id {
		t.Fatalf("resume answered run %q", ref.RunID)
	}
	rest := h.watch(id, 0, nil)
	if last := rest[len(rest)-1]; last.Type != event.RunFinished || !strings.Contains(string(last.Data), `"status":"finished"`) {
		t.Fatalf("after the resume: %s", types(rest))
	}
	if _, err := os.Stat(filepath.Join(h.ws, "b.txt")); err != nil {
		t.Errorf("the resumed run did not go on: %v", err)
	}
	h.call("POST", "/api/runs/"+id+"/resume", `{}`, http.StatusConflict, nil)
}

func TestServer_Fork(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("a1", "write_file", `{"path":"log.txt","content":"one\n","append":true}`)},
		llmtest.Step{ToolCalls: calls("a2", "write_file", `{"path":"log.txt","content":"two\n","append":true}`)},
		llmtest.Step{Content: "Logged two lines."},
		llmtest.Step{Content: "Forked and done."},
	)
	h := newHarness(t, srv, nil, "")
	src := h.start("log two lines")
	h.watch(src, 0, nil)

	h.call("POST", "/api/runs/"+src+"/fork", `{"iteration":9}`, http.StatusBadRequest, nil)
	var ref struct {
		RunID string `json:"run_id"`
	}
	h.call("POST", "/api/runs/"+src+"/fork", `{"iteration":3,"task":"log two lines, then stop"}`, http.StatusCreated, &ref)
	events := h.watch(ref.RunID, 0, nil)

	if strings.Contains(types(events), "tool.started") {
		t.Errorf("the fork ran tools again: %s", types(events))
	}
	if b, _ := os.ReadFile(filepath.Join(h.ws, "log.txt")); string(b) != "one\ntwo\n" {
		t.Errorf("log.txt = %q", b)
	}
	started, err := event.Decode[event.RunStartedData](events[0])
	if err != nil || started.ForkedFrom == nil || *started.ForkedFrom != (event.ForkRef{RunID: src, Iteration: 3}) {
		t.Fatalf("run.started forked_from = %+v, %v", started.ForkedFrom, err)
	}
	// The fork's first request is iteration 3's, under the edited task.
	req := srv.Requests()[3].Messages
	if !strings.Contains(req[1].Content, "log two lines, then stop") {
		t.Errorf("the fork's anchor is %q", req[1].Content)
	}
	var results []string
	for _, m := range req {
		if m.Role == llm.RoleTool {
			results = append(results, m.ToolCallID)
		}
	}
	if !slices.Equal(results, []string{"a1", "a2"}) || req[len(req)-1].ToolCallID != "a2" {
		t.Errorf("the fork's first request ends with %+v; tool results %v", req[len(req)-1], results)
	}
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	if runs[0].RunID != ref.RunID || runs[0].ForkedFrom == nil || runs[0].ForkedFrom.RunID != src {
		t.Errorf("the list shows %+v", runs[0])
	}
}
