package tasks

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/sandbox"
	"hermes/backend/toolbox"
)

// Approvals is a policy the approvals suite runs a task under, and how the
// person at the window answers.
type Approvals struct {
	Name string
	// Exec is [tools.risk] exec; the rest of [tools] is the default.
	Exec string
	// Confined: execute_command reports that its calls run inside the OS
	// sandbox (they run in the workspace either way).
	Confined bool
	// Always: the person answers "always" to an execute_command call, with
	// the patterns offered, and the rules are kept from task to task as
	// hermes.db keeps them; else, and for other tools, "once".
	Always bool
}

// Policy is the policy of [tools] with exec as the mode says, and no rule
// yet.
func (m Approvals) Policy() *toolbox.RulePolicy {
	tools := config.Default().Tools
	tools.Risk.Exec = m.Exec
	return toolbox.NewPolicy(toolbox.PolicyFromConfig(tools), nil)
}

// ApprovalModes are the policies compared: the old default (every command
// asked), the same with a person who answers "always", and the new
// default with the commands in the sandbox.
var ApprovalModes = []Approvals{
	{Name: "ask", Exec: "ask"},
	{Name: "ask+always", Exec: "ask", Always: true},
	{Name: "sandbox", Exec: config.ActionSandbox, Confined: true},
}

// Asked is how one run of a command task went under one policy.
type Asked struct {
	Task, Mode string
	Success    bool
	Why        string
	Calls      int // tool calls
	Commands   int // execute_command calls
	Asked      int // approval.requested events
	AskedExec  int // of them for execute_command
	Wall       time.Duration
}

// RunApprovals runs a command task under the react strategy with policy
// (mode's), a person answering every approval as mode says, and counts what
// was asked.
func RunApprovals(t testing.TB, task CommandTask, mode Approvals, policy *toolbox.RulePolicy) Asked {
	t.Helper()
	srv := llmtest.NewFuncServer(t, (&model{task: &task.Task}).answer)
	defer srv.Close()
	// The old default ran commands as the user; the new one in the
	// sandbox, with the Go build cache writable as a user who builds Go
	// there may make it (sandbox_writable), so the tasks' go test does not
	// rebuild the standard library.
	environ := toolbox.NewEnviron(toolbox.Secrets{})
	sb := toolbox.SandboxConfig{Mode: sandbox.Off}
	if mode.Confined {
		sb = toolbox.SandboxConfig{Mode: sandbox.Workspace, Writable: goCache(t)}
	}
	environ.SetSandbox(sb)
	exec := toolbox.ExecuteCommand(time.Minute, config.DefaultOutputLimit, environ)
	h := agenttest.New(t, srv, agenttest.Options{Key: "sk-suite-0000000000000000", Model: "suite", Tools: []toolbox.Tool{exec}, Files: task.Files})
	if task.Setup != nil {
		if err := task.Setup(h.Workspace); err != nil {
			t.Fatal(err)
		}
	}
	h.Setup.Policy, h.Setup.Strategy, h.Setup.Route = policy, agent.StrategyReact, true
	h.Setup.Limits = agent.Limits{MaxIterations: MaxIterations}
	run := h.Start(agent.Task{Text: task.Prompt})
	asks := h.Setup.Bus.Subscribe(64, func(e event.Event) bool { return e.Type == event.ApprovalRequested })
	go func() {
		for e := range asks.C {
			req, _ := event.Decode[event.ApprovalRequestedData](e)
			ctl := agent.Control{Kind: agent.ControlApprove, ApprovalID: req.ApprovalID, Decision: event.ApproveOnce}
			if mode.Always && req.Name == "execute_command" && len(req.Patterns) > 0 {
				ctl.Decision, ctl.Pattern = event.ApproveAlways, strings.Join(req.Patterns, "; ")
			}
			run.Controls().Send(ctl)
		}
	}()
	start := time.Now()
	res, events := h.Execute(t.Context(), run)
	out := Asked{Task: task.Name, Mode: mode.Name, Wall: time.Since(start)}
	h.Setup.Bus.Unsubscribe(asks)

	lines := map[string]string{} // call ID -> command line
	var why []string
	for _, e := range events {
		switch e.Type {
		case event.ApprovalRequested:
			req, _ := event.Decode[event.ApprovalRequestedData](e)
			out.Asked++
			if req.Name == "execute_command" {
				out.AskedExec++
			}
		case event.ToolStarted:
			d, _ := event.Decode[event.ToolStartedData](e)
			if d.Attempt > 1 {
				continue
			}
			out.Calls++
			if d.Name == "execute_command" {
				out.Commands++
				var a struct{ Command string }
				_ = json.Unmarshal([]byte(d.Arguments), &a)
				lines[d.CallID] = a.Command
			}
		case event.ToolFinished:
			d, _ := event.Decode[event.ToolFinishedData](e)
			if want, ok := task.Shows[lines[d.CallID]]; ok && !strings.Contains(d.Result, want) {
				why = append(why, fmt.Sprintf("%q showed %q, not %q", lines[d.CallID], d.Result, want))
			}
		}
	}
	switch {
	case res.Status != event.StatusFinished:
		why = append(why, res.Status+": "+res.Error)
	default:
		if err := task.Check(h.Workspace, res.Answer); err != nil {
			why = append(why, err.Error())
		}
	}
	out.Why = strings.Join(why, "; ")
	out.Success = out.Why == ""
	return out
}

// ApprovalsTable prints what each task asked under each policy, then the
// totals.
func ApprovalsTable(results []Asked) string {
	var b strings.Builder
	row := func(task, mode, success string, r Asked) {
		fmt.Fprintf(&b, "%-18s %-11s %-7s %5d %8d %6d %11d %9s\n", task, mode, success, r.Calls, r.Commands, r.Asked, r.AskedExec, r.Wall.Round(time.Millisecond))
	}
	fmt.Fprintf(&b, "%-18s %-11s %-7s %5s %8s %6s %11s %9s\n", "task", "policy", "success", "calls", "commands", "asked", "asked(exec)", "wall")
	totals := map[string]*Asked{}
	passed, tasks := map[string]int{}, map[string]int{}
	var order []string
	for _, r := range results {
		ok := "yes"
		if !r.Success {
			ok = "NO"
		}
		row(r.Task, r.Mode, ok, r)
		t := totals[r.Mode]
		if t == nil {
			t = &Asked{}
			totals[r.Mode] = t
			order = append(order, r.Mode)
		}
		tasks[r.Mode]++
		if r.Success {
			passed[r.Mode]++
		}
		t.Calls += r.Calls
		t.Commands += r.Commands
		t.Asked += r.Asked
		t.AskedExec += r.AskedExec
		t.Wall += r.Wall
	}
	for _, m := range order {
		row("total", m, fmt.Sprintf("%d/%d", passed[m], tasks[m]), *totals[m])
	}
	for _, m := range order {
		fmt.Fprintf(&b, "asked per task, %s: %.2f\n", m, float64(totals[m].Asked)/float64(tasks[m]))
	}
	return b.String()
}

func writeFiles(ws string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// goCache is the Go build cache's folder, as go env says.
func goCache(t testing.TB) []string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	return []string{strings.TrimSpace(string(out))}
}
