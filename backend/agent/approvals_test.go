package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// askWrites asks about every write and remembers what was always allowed.
type askWrites struct {
	mu     sync.Mutex
	always []string
}

func (p *askWrites) Check(t toolbox.Tool, args json.RawMessage, _ toolbox.Env) toolbox.Verdict {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.Contains(string(args), "rm -rf") {
		return toolbox.Verdict{Action: toolbox.Ask, Sensitive: true, Reason: "sensitive phrase"}
	}
	for _, name := range p.always {
		if name == t.Name {
			return toolbox.Verdict{Action: toolbox.Allow}
		}
	}
	if t.Risk == toolbox.RiskWrite {
		return toolbox.Verdict{Action: toolbox.Ask, Reason: "write tools are asked"}
	}
	return toolbox.Verdict{Action: toolbox.Allow}
}

func (p *askWrites) AllowAlways(t toolbox.Tool, _ string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.always = append(p.always, t.Name)
	return nil
}

func writeCall(id, path string) llmtest.Step {
	return llmtest.Step{ToolCalls: []llm.ToolCall{call(id, "write_file", map[string]any{"path": path, "content": id})}}
}

// answerApprovals answers each approval.requested with the next control.
func answerApprovals(t *testing.T, h *harness, run *agent.Run, answers ...agent.Control) {
	sub := h.setup.Bus.Subscribe(1024, nil)
	go func() {
		defer h.setup.Bus.Unsubscribe(sub)
		for _, a := range answers {
			e := waitFor(t, sub.C, event.ApprovalRequested)
			a.ApprovalID = decode[event.ApprovalRequestedData](t, e).ApprovalID
			run.Controls().Send(a)
		}
	}()
}

func TestApprovals_AnswersReachTheRun(t *testing.T) {
	srv := llmtest.NewServer(t,
		writeCall("w1", "once.txt"), writeCall("w2", "denied.txt"), writeCall("w3", "run1.txt"), writeCall("w4", "run2.txt"),
		llmtest.Step{Content: "done"},
	)
	h := newHarness(t, srv)
	h.setup.Policy = &askWrites{}
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run,
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveOnce},
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveDeny, Reason: "not that file"},
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveRun},
	)
	res, events := h.execute(run, t.Context())
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	for name, want := range map[string]bool{"once.txt": true, "denied.txt": false, "run1.txt": true, "run2.txt": true} {
		_, err := os.Stat(filepath.Join(h.ws, name))
		if (err == nil) != want {
			t.Errorf("%s written = %v, want %v", name, err == nil, want)
		}
	}
	if n := len(ofType(events, event.ApprovalRequested)); n != 3 {
		t.Errorf("%d approvals asked; allow_run should spare the fourth", n)
	}
	denied := h.request(2)
	if last := denied[len(denied)-1]; !strings.Contains(last.Content, "not that file") {
		t.Errorf("the model did not get the reason of the denial: %q", last.Content)
	}
}

func TestApprovals_AlwaysIsRemembered(t *testing.T) {
	srv := llmtest.NewServer(t, writeCall("w1", "a.txt"), writeCall("w2", "b.txt"), llmtest.Step{Content: "done"})
	h := newHarness(t, srv)
	policy := &askWrites{}
	h.setup.Policy = policy
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run, agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveAlways})
	_, events := h.execute(run, t.Context())
	if n := len(ofType(events, event.ApprovalRequested)); n != 1 || len(policy.always) != 1 {
		t.Errorf("%d approvals asked, policy remembers %v", n, policy.always)
	}
}

func TestApprovals_StopEndsAPendingApproval(t *testing.T) {
	srv := llmtest.NewServer(t, writeCall("w1", "a.txt"))
	h := newHarness(t, srv)
	h.setup.Policy = &askWrites{}
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run, agent.Control{Kind: agent.ControlStop})
	res, events := h.execute(run, t.Context())
	if res.Status != event.StatusStopped {
		t.Fatalf("status %s", res.Status)
	}
	r := decode[event.ApprovalResolvedData](t, ofType(events, event.ApprovalResolved)[0])
	if r.Decision != event.ApproveDeny || r.By != "stop" {
		t.Errorf("resolved = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(h.ws, "a.txt")); err == nil {
		t.Error("the call ran after the stop")
	}
}

func TestApprovals_UnattendedRunsDenyWhatWouldBeAsked(t *testing.T) {
	srv := llmtest.NewServer(t, writeCall("w1", "a.txt"), llmtest.Step{Content: "could not write"})
	h := newHarness(t, srv)
	h.setup.Policy = &askWrites{}
	h.setup.Unattended = true
	res, events := h.run("write")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	r := decode[event.ApprovalResolvedData](t, ofType(events, event.ApprovalResolved)[0])
	if r.Decision != event.ApproveDeny || r.By != "unattended" {
		t.Errorf("resolved = %+v", r)
	}
	sent := h.request(1)
	if last := sent[len(sent)-1]; !strings.Contains(last.Content, "no one is there") {
		t.Errorf("the model was told %q", last.Content)
	}
}

func TestLoop_EditDecidedCallWhilePaused(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "write_file", map[string]any{"path": "draft.txt", "content": "model"})}, Wait: release},
		llmtest.Step{Content: "written"},
	)
	h := newHarness(t, srv)
	sub := h.setup.Bus.Subscribe(1024, nil)
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write a draft", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.IterationStarted)
		c := run.Controls()
		c.Send(agent.Control{Kind: agent.ControlPause})
		close(release)
		paused := decode[event.RunPausedData](t, waitFor(t, sub.C, event.RunPaused))
		if paused.At != event.PausedAtDecided || len(paused.PendingCalls) != 1 {
			t.Errorf("paused = %+v", paused)
		}
		c.Send(agent.Control{Kind: agent.ControlEditCall, CallID: "c1", Arguments: `{"path":"final.txt","content":"person"}`})
		c.Send(agent.Control{Kind: agent.ControlResume})
	}()
	res, events := h.execute(run, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	if b, err := os.ReadFile(filepath.Join(h.ws, "final.txt")); err != nil || string(b) != "person" {
		t.Fatalf("the edited call did not run: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(h.ws, "draft.txt")); err == nil {
		t.Error("the original call ran")
	}
	if e := decode[event.CallEditedData](t, ofType(events, event.CallEdited)[0]); e.NewArguments != `{"path":"final.txt","content":"person"}` {
		t.Errorf("call.edited = %+v", e)
	}
	// The model sees its call as it ran.
	sent := h.request(1)
	if got := sent[len(sent)-2].ToolCalls[0].Arguments; !strings.Contains(got, "final.txt") {
		t.Errorf("the conversation keeps the old arguments: %s", got)
	}
}

func TestLoop_ForkStartsFromACopiedConversation(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "forked answer"})
	h := newHarness(t, srv)
	seed := []llm.Message{
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "old", Name: "read_file", Arguments: `{"path":"x"}`}}},
		{Role: llm.RoleTool, ToolCallID: "old", Name: "read_file", Content: "recorded result"},
	}
	from := &event.ForkRef{RunID: "20261130-000000-abcdef", Iteration: 2}
	run, err := agent.NewRun(h.setup, agent.Task{Text: "edited task", Workspace: h.ws, Turns: seed, ForkedFrom: from})
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(run, t.Context())
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	started := decode[event.RunStartedData](t, events[0])
	if started.ForkedFrom == nil || *started.ForkedFrom != *from {
		t.Errorf("run.started forked_from = %+v", started.ForkedFrom)
	}
	sent := h.request(0)
	if len(sent) != 4 || sent[3].Content != "recorded result" || !strings.Contains(sent[1].Content, "edited task") {
		t.Errorf("the fork's first request = %+v", sent)
	}
	if len(ofType(events, event.ToolStarted)) != 0 {
		t.Error("a recorded tool call was run again")
	}
}

func TestApprovals_SensitiveCallsAreAskedEvenWhenAllowedForTheRun(t *testing.T) {
	srv := llmtest.NewServer(t,
		writeCall("w1", "a.txt"),
		llmtest.Step{ToolCalls: []llm.ToolCall{call("w2", "write_file", map[string]any{"path": "b.sh", "content": "rm -rf /"})}},
		llmtest.Step{Content: "done"},
	)
	h := newHarness(t, srv)
	h.setup.Policy = &askWrites{}
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run,
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveRun},
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveDeny, Reason: "never"},
	)
	_, events := h.execute(run, t.Context())
	if n := len(ofType(events, event.ApprovalRequested)); n != 2 {
		t.Fatalf("%d approvals asked; the sensitive call must be asked despite allow_run", n)
	}
	if _, err := os.Stat(filepath.Join(h.ws, "b.sh")); err == nil {
		t.Error("the denied sensitive call ran")
	}
}

// A call escaping the OS sandbox is asked every time: "allow for this run"
// on the first does not cover the second, nor do [tools] allow and a rule
// for any arguments. The request shows the command line's commands, and
// the policy is asked with the run's workspace.
func TestApprovals_EscapingIsAskedEveryTime(t *testing.T) {
	command := func(id, line string) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{call(id, "execute_command", map[string]any{"command": line})}}
	}
	srv := llmtest.NewServer(t, command("c1", "echo one > one.txt"), command("c2", "echo two > two.txt"), llmtest.Step{Content: "done"})
	exec := toolbox.ExecuteCommand(0, 4096, nil)
	var mu sync.Mutex
	var workspaces []string
	exec.Confinement = func(env toolbox.Env, _ json.RawMessage) toolbox.Confinement {
		mu.Lock()
		defer mu.Unlock()
		workspaces = append(workspaces, env.Workspace)
		return toolbox.Escaping
	}
	h := newHarness(t, srv, exec)
	policy := toolbox.NewPolicy(toolbox.PolicyConfig{Tools: map[string]toolbox.Action{"execute_command": toolbox.Allow}}, nil)
	if err := policy.AllowAlways(exec, ""); err != nil {
		t.Fatal(err)
	}
	h.setup.Policy = policy
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run,
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveRun},
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveOnce},
	)
	res, events := h.execute(run, t.Context())
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	asked := ofType(events, event.ApprovalRequested)
	if len(asked) != 2 {
		t.Fatalf("%d approvals asked, want both calls", len(asked))
	}
	req := decode[event.ApprovalRequestedData](t, asked[1])
	if !req.Escaping || !slices.Equal(req.Commands, []string{"echo two > two.txt"}) {
		t.Errorf("request %+v", req)
	}
	for _, name := range []string{"one.txt", "two.txt"} {
		if _, err := os.Stat(filepath.Join(h.ws, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(workspaces) == 0 || workspaces[0] != h.ws {
		t.Errorf("the policy was asked with workspaces %q, want %s", workspaces, h.ws)
	}
}

// A person reads why a call is asked in their language, and the model reads
// a denial in English with the person's reason as they wrote it, its
// punctuation not doubled: "Not now." does not become "Not now..", nor the
// policy's reason "(… deny.)."
func TestApprovals_WordsForThePersonAndForTheModel(t *testing.T) {
	was := i18n.Current()
	i18n.SetLang(i18n.ZH)
	t.Cleanup(func() { i18n.SetLang(was) })
	srv := llmtest.NewServer(t,
		writeCall("w1", "a.txt"),
		llmtest.Step{ToolCalls: []llm.ToolCall{call("r1", "read_file", map[string]any{"path": "notes.txt"})}},
		llmtest.Step{Content: "Nothing was written."},
	)
	h := newHarness(t, srv)
	policy := toolbox.NewPolicy(toolbox.PolicyConfig{
		Risk:  map[toolbox.Risk]toolbox.Action{toolbox.RiskRead: toolbox.Allow, toolbox.RiskWrite: toolbox.Ask},
		Tools: map[string]toolbox.Action{"read_file": toolbox.Deny},
	}, nil)
	h.setup.Policy = policy
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write a.txt", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run, agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveDeny, Reason: "Not now."})
	_, events := h.execute(run, t.Context())
	asked := decode[event.ApprovalRequestedData](t, ofType(events, event.ApprovalRequested)[0])
	if asked.Reason != `write_file 是 write 类工具，且 [tools.risk] write = "ask"` {
		t.Errorf("the person is told why in %q", asked.Reason)
	}
	denied := h.request(1)
	if last := denied[len(denied)-1].Content; !strings.Contains(last, "the user denied this call: Not now. Do not retry it;") {
		t.Errorf("the model reads the person's denial as %q", last)
	}
	byPolicy := h.request(2)
	if last := byPolicy[len(byPolicy)-1].Content; !strings.Contains(last, "not allowed by the user's policy (read_file is listed in [tools] deny). Do not retry it;") {
		t.Errorf("the model reads the policy's denial as %q", last)
	}
}

// Why a call is asked travels in both languages, whatever the process's,
// so that a chat user or a browser reads it in their own: a risk level's
// policy and a sensitive pattern alike. A reason the policy did not word
// from its messages has only Reason.
func TestApprovals_ReasonInBothLanguages(t *testing.T) {
	was := i18n.Current()
	i18n.SetLang(i18n.EN)
	t.Cleanup(func() { i18n.SetLang(was) })
	policy := toolbox.NewPolicy(toolbox.PolicyConfig{
		Risk:      map[toolbox.Risk]toolbox.Action{toolbox.RiskRead: toolbox.Allow, toolbox.RiskWrite: toolbox.Ask},
		Sensitive: []string{"secret"},
	}, nil)
	for _, tc := range []struct {
		name   string
		policy toolbox.Policy
		path   string
		want   map[string]string
	}{
		{"risk", policy, "a.txt", map[string]string{
			"en":    `write_file is a write tool and [tools.risk] write = "ask"`,
			"zh-CN": `write_file 是 write 类工具，且 [tools.risk] write = "ask"`,
		}},
		{"sensitive", policy, "secret.txt", map[string]string{
			"en":    `the arguments contain the sensitive phrase "secret" ([tools] sensitive)`,
			"zh-CN": `参数中含有敏感词 "secret"（[tools] sensitive）`,
		}},
		{"not worded", &askWrites{}, "a.txt", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, writeCall("w1", tc.path), llmtest.Step{Content: "done"})
			h := newHarness(t, srv)
			h.setup.Policy = tc.policy
			run, err := agent.NewRun(h.setup, agent.Task{Text: "write " + tc.path, Workspace: h.ws})
			if err != nil {
				t.Fatal(err)
			}
			answerApprovals(t, h, run, agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveDeny})
			_, events := h.execute(run, t.Context())
			asked := decode[event.ApprovalRequestedData](t, ofType(events, event.ApprovalRequested)[0])
			if !maps.Equal(asked.ReasonIn, tc.want) {
				t.Errorf("reason_in %q, want %q", asked.ReasonIn, tc.want)
			}
			if want := tc.want["en"]; want != "" && asked.Reason != want {
				t.Errorf("reason %q, want it in the process's language: %q", asked.Reason, want)
			}
		})
	}
}

// deniedReasons: a person's reason ending in any mark, or none, reaches the
// model as one sentence before the next.
func TestApprovals_DeniedReasonsEndOnce(t *testing.T) {
	for reason, want := range map[string]string{
		"Not now.":       "Not now. Do not retry",
		"不行。":            "不行。 Do not retry",
		"No!":            "No! Do not retry",
		"Why this file?": "Why this file? Do not retry",
		"see (notes)":    "see (notes). Do not retry",
		"later":          "later. Do not retry",
	} {
		srv := llmtest.NewServer(t, writeCall("w1", "a.txt"), llmtest.Step{Content: "done"})
		h := newHarness(t, srv)
		h.setup.Policy = &askWrites{}
		run, err := agent.NewRun(h.setup, agent.Task{Text: "write a.txt", Workspace: h.ws})
		if err != nil {
			t.Fatal(err)
		}
		answerApprovals(t, h, run, agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveDeny, Reason: reason})
		h.execute(run, t.Context())
		msgs := h.request(1)
		if last := msgs[len(msgs)-1].Content; !strings.Contains(last, "the user denied this call: "+want) {
			t.Errorf("denied with %q, the model reads %q", reason, last)
		}
	}
}

// A tool that can tell what a call would change (a vault edit) has that
// change in the approval, for the person to approve the change rather than
// the arguments; one whose preview fails is asked with its arguments.
func TestApprovals_CarryTheChangeAToolPreviews(t *testing.T) {
	previewed := toolbox.Func("edit_note", "Edit a note.", toolbox.RiskWrite, func(_ context.Context, _ toolbox.Env, a struct {
		Path string `json:"path"`
	}) (string, error) {
		return "edited " + a.Path, nil
	})
	previewed.Preview = func(args json.RawMessage) (json.RawMessage, error) {
		if strings.Contains(string(args), "broken") {
			return nil, errors.New("no such heading")
		}
		return json.RawMessage(`{"tool":"edit_note","notes":[{"path":"Plan.md"}]}`), nil
	}
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("e1", "edit_note", map[string]any{"path": "Plan.md"})}},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("e2", "edit_note", map[string]any{"path": "broken.md"})}},
		llmtest.Step{Content: "done"},
	)
	h := newHarness(t, srv, previewed)
	h.setup.Policy = &askWrites{}
	run, err := agent.NewRun(h.setup, agent.Task{Text: "edit", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerApprovals(t, h, run,
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveOnce},
		agent.Control{Kind: agent.ControlApprove, Decision: event.ApproveOnce},
	)
	_, events := h.execute(run, t.Context())
	asked := ofType(events, event.ApprovalRequested)
	if len(asked) != 2 {
		t.Fatalf("%d approvals asked, want 2", len(asked))
	}
	if got := string(decode[event.ApprovalRequestedData](t, asked[0]).Change); got != `{"tool":"edit_note","notes":[{"path":"Plan.md"}]}` {
		t.Errorf("the first approval's change = %s", got)
	}
	if d := decode[event.ApprovalRequestedData](t, asked[1]); d.Change != nil || !strings.Contains(d.Arguments, "broken.md") {
		t.Errorf("the second approval = %+v; want its arguments and no change", d)
	}
}
