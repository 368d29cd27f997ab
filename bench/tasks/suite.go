// Package tasks is the task suite: multi-step tasks, each with a scripted
// model that behaves as real models do (it wanders, repeats itself, claims
// success after a failure, drifts from the goal, needs a replan, guesses an
// ID it does not have) and a check of the final state of its workspace.
// Run runs a task under a strategy through the real loop, the real client
// and a scripted OpenAI-compatible server on loopback; bench/suite.sh
// prints the table, and TestSuite keeps the plan strategy ahead in CI.
//
// The scripted models play fair: a task's Act is the same function under
// both strategies. It reads only what a real model reads — the request's
// messages — so what differs is what the strategy puts in front of it: a
// plan, the check of a step, a drift warning, a person's answer.
package tasks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// Task is one task of the suite.
type Task struct {
	Name   string
	Prompt string
	Files  map[string]string // the workspace before the run
	Tools  []toolbox.Tool    // tools besides the file tools
	// User is what the person answers when the run asks about a guessed
	// value; "" means no one answers.
	User string
	// Direct tasks need no tools: the scripted model routes them so.
	Direct bool
	// Plan is the plan the model writes, Replan the steps it writes when
	// told a result contradicted it.
	Plan, Replan []Step
	// Act is the model's turn: what it does next, given what it sees.
	Act func(s *Situation) Move
	// Check inspects the workspace and the answer after the run.
	Check func(ws, answer string) error
}

// Step is a plan step as the model writes it, and how the model judges
// its results when asked to check them (nil: passed unless the last
// result is an error).
type Step struct {
	Desc, Accept string
	Tools        []string
	Judge        func(evidence string) Verdict
}

// Verdict is a check of a step's results.
type Verdict struct {
	Passed, Contradicts bool
	Reason              string
}

// Result is how one run of a task went.
type Result struct {
	Task       string
	Strategy   agent.Strategy
	Success    bool
	Status     string
	Iterations int
	StageCalls int
	Tokens     int
	Guards     int
	Wall       time.Duration
	Why        string         // why a run failed
	Stages     map[string]int // tokens by stage (event.SpentOrder)
}

// MaxIterations bounds every run of the suite.
const MaxIterations = 20

// Run runs task once under strategy in fresh temp directories.
func Run(t testing.TB, task Task, strategy agent.Strategy) Result {
	t.Helper()
	srv := llmtest.NewFuncServer(t, (&model{task: &task}).answer)
	defer srv.Close()
	h := agenttest.New(t, srv, agenttest.Options{Key: "sk-suite-0000000000000000", Model: "suite", Tools: task.Tools, Files: task.Files})
	h.Setup.Strategy, h.Setup.Route = strategy, true
	h.Setup.Limits = agent.Limits{MaxIterations: MaxIterations}
	run := h.Start(agent.Task{Text: task.Prompt})
	// The person answers what the run asks.
	asks := h.Setup.Bus.Subscribe(16, func(e event.Event) bool { return e.Type == event.QuestionAsked })
	go func() {
		for e := range asks.C {
			q, _ := event.Decode[event.QuestionAskedData](e)
			run.Controls().Send(agent.Control{Kind: agent.ControlAnswer, QuestionID: q.QuestionID, Text: task.User})
		}
	}()
	start := time.Now()
	res, events := h.Execute(t.Context(), run)
	wall := time.Since(start)
	h.Setup.Bus.Unsubscribe(asks)
	out := Result{
		Task: task.Name, Strategy: strategy, Status: res.Status, Iterations: res.Totals.Iterations,
		StageCalls: res.Totals.StageCalls, Tokens: res.Totals.TotalTokens, Wall: wall, Stages: res.Totals.StageTokens,
	}
	for _, e := range events {
		if e.Type == event.GuardTripped {
			out.Guards++
		}
	}
	switch {
	case res.Status != event.StatusFinished:
		out.Why = res.Status + ": " + res.Error
	default:
		if err := task.Check(h.Workspace, res.Answer); err != nil {
			out.Why = err.Error()
		}
	}
	out.Success = out.Why == ""
	return out
}

// Table prints the results per task and strategy, then the totals of
// each strategy.
func Table(results []Result) string {
	var b strings.Builder
	row := func(task, strategy, success string, r Result) {
		fmt.Fprintf(&b, "%-16s %-8s %-7s %5d %6d %7d %6d %9s\n", task, strategy, success, r.Iterations, r.StageCalls, r.Tokens, r.Guards, r.Wall.Round(100*time.Microsecond))
	}
	fmt.Fprintf(&b, "%-16s %-8s %-7s %5s %6s %7s %6s %9s\n", "task", "strategy", "success", "iter", "stage", "tokens", "guards", "wall")
	type total struct {
		Result
		tasks, passed int
	}
	totals := map[agent.Strategy]*total{}
	var order []agent.Strategy
	for _, r := range results {
		ok := "yes"
		if !r.Success {
			ok = "NO"
		}
		row(r.Task, string(r.Strategy), ok, r)
		t := totals[r.Strategy]
		if t == nil {
			t = &total{}
			totals[r.Strategy] = t
			order = append(order, r.Strategy)
		}
		t.tasks++
		if r.Success {
			t.passed++
		}
		t.Iterations += r.Iterations
		t.StageCalls += r.StageCalls
		t.Tokens += r.Tokens
		t.Guards += r.Guards
		t.Wall += r.Wall
		if t.Stages == nil {
			t.Stages = map[string]int{}
		}
		for k, n := range r.Stages {
			t.Stages[k] += n
		}
	}
	for _, s := range order {
		t := totals[s]
		row("total", string(s), fmt.Sprintf("%d/%d", t.passed, t.tasks), t.Result)
	}
	if p, r := totals[agent.StrategyPlan], totals[agent.StrategyReact]; p != nil && r != nil && r.Tokens > 0 {
		fmt.Fprintf(&b, "tokens, plan / react: %.3f\n", float64(p.Tokens)/float64(r.Tokens))
	}
	for _, s := range order {
		fmt.Fprintf(&b, "tokens by stage, %s:", s)
		for _, k := range event.SpentOrder {
			fmt.Fprintf(&b, " %s %d", k, totals[s].Stages[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}
