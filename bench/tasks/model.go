package tasks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Move is what the model does in a turn: calls, or a final answer.
type Move struct {
	Calls  []Call
	Answer string
}

// Call is one tool call. Under a plan the model also says which step it
// serves (0: the current one), whether that step is finished with it
// (Continue: not yet), how it serves the goal ("": the task itself) and
// where its path or ID came from (From: argument → user, tool or inferred).
type Call struct {
	Tool     string
	Args     map[string]any
	Step     int
	Continue bool
	Serves   string
	From     map[string]string
}

// Do is a move of one or more calls.
func Do(calls ...Call) Move { return Move{Calls: calls} }

// Say is a final answer.
func Say(answer string) Move { return Move{Answer: answer} }

// C is a call of tool with args given as name, value pairs.
func C(tool string, kv ...any) Call {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return Call{Tool: tool, Args: args}
}

// Going marks a call that does not finish its step.
func (c Call) Going() Call { c.Continue = true; return c }

// Because sets the call's one line on how it serves the goal.
func (c Call) Because(why string) Call { c.Serves = why; return c }

// Guessed marks an argument as the model's own inference.
func (c Call) Guessed(arg string) Call { return c.from(arg, "inferred") }

// Given marks an argument as the user's.
func (c Call) Given(arg string) Call { return c.from(arg, "user") }

// Found marks an argument as a tool result's.
func (c Call) Found(arg string) Call { return c.from(arg, "tool") }

func (c Call) from(arg, origin string) Call {
	m := map[string]string{}
	for k, v := range c.From {
		m[k] = v
	}
	m[arg] = origin
	c.From = m
	return c
}

func (c Call) key() string {
	b, _ := json.Marshal(c.Args)
	return c.Tool + " " + string(b)
}

// Seen is a call the model made earlier in the run, with its result.
type Seen struct {
	Call
	Result string
	OK     bool
}

// Situation is what the model sees in a request.
type Situation struct {
	Calls   []Seen
	Notes   []string // messages from Hermes or the person after the task: checks, warnings, answers
	Planned bool     // the task anchor holds a plan
	Current int      // the plan's current step; 0 when every step passed
	Tools   []string // the current step's tools
	// Checking is the step the model finished in its last turn, whose
	// verdict the plan asks of its next call; 0 when none is due.
	Checking int
	steps    map[int]anchorStep // the plan's steps as the anchor shows them
	since    int                // the first call of the current step's evidence
	Offered  bool               // tools are offered (not a message routed to a direct answer)
	Turns    int                // the model's turns so far
}

// Done reports whether c already ran successfully, with the same arguments.
func (s *Situation) Done(c Call) bool {
	for _, seen := range s.Calls {
		if seen.OK && seen.key() == c.key() {
			return true
		}
	}
	return false
}

// Next is the first of work that has not run successfully, and false when
// all of it has.
func (s *Situation) Next(work ...Call) (Call, bool) {
	for _, c := range work {
		if !s.Done(c) {
			return c, true
		}
	}
	return Call{}, false
}

// Count is how many times tool was called with these arguments (args nil:
// any), whatever the outcome.
func (s *Situation) Count(c Call) int {
	n := 0
	for _, seen := range s.Calls {
		if seen.key() == c.key() {
			n++
		}
	}
	return n
}

// Told reports whether a note holds text.
func (s *Situation) Told(text string) bool {
	return slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, text) })
}

// Last is the model's last call, zero before any.
func (s *Situation) Last() Seen {
	if len(s.Calls) == 0 {
		return Seen{}
	}
	return s.Calls[len(s.Calls)-1]
}

// StepUses reports whether the current plan step uses tool.
func (s *Situation) StepUses(tool string) bool { return slices.Contains(s.Tools, tool) }

// The stages' requests, told apart by their system prompts as a model
// reads its instructions.
const (
	routeCall      = "You route messages"
	planCall       = "You are the planner"
	evaluateCall   = "You check one step"
	confidenceCall = "You rate how sure"
)

var (
	stepLine    = regexp.MustCompile(`(?m)^(\d+)\. \[(passed|current[^\]]*|pending|finished[^\]]*)\] (.*?)(?: \(optional\))? \((?:tools: ([^;]*); )?done when`)
	checkedStep = regexp.MustCompile(`(?m)^Step \d+: (.*)$`)
)

// anchorStep is a plan step as the anchor shows it.
type anchorStep struct {
	desc  string
	tools []string
}

// model answers every request of one task's run.
type model struct{ task *Task }

func (m *model) answer(req llmtest.Request) llmtest.Step {
	sys := req.Messages[0].Content
	user := ""
	if len(req.Messages) > 1 {
		user = req.Messages[1].Content
	}
	switch {
	case strings.HasPrefix(sys, routeCall):
		if m.task.Direct {
			return llmtest.Step{Content: `{"route": "direct", "reason": "general knowledge"}`}
		}
		return llmtest.Step{Content: `{"route": "loop", "reason": "it needs the workspace"}`}
	case strings.HasPrefix(sys, planCall):
		steps := m.task.Plan
		if strings.Contains(user, "A result contradicted the plan") {
			steps = m.task.Replan
		}
		return llmtest.Step{Content: planJSON(steps)}
	case strings.HasPrefix(sys, evaluateCall):
		return llmtest.Step{Content: m.judge(user)}
	case strings.HasPrefix(sys, confidenceCall) && strings.Contains(user, "Calls and results:"):
		// The rating comes with the check of the step the answer followed.
		v := m.judgeStep(checkedStep.FindStringSubmatch(user)[1], user[strings.Index(user, "Calls and results:"):strings.Index(user, "\nOf the plan's")]).wire()
		v["confidence"], v["confidence_reason"] = 0.9, "the work is done"
		b, _ := json.Marshal(v)
		return llmtest.Step{Content: string(b)}
	case strings.HasPrefix(sys, confidenceCall):
		return llmtest.Step{Content: `{"confidence": 0.9, "reason": "the work is done"}`}
	}
	s := situation(req)
	// A verdict due is given first, as the plan asks, and what it finds
	// shapes the turn: a step that did not pass is still the one to do.
	var check *Verdict
	if s.Checking > 0 {
		v := m.judgeStep(s.steps[s.Checking].desc, s.evidence())
		check = &v
		if !v.Passed {
			s.Current, s.Tools = s.Checking, s.steps[s.Checking].tools
			s.Notes = append(s.Notes, v.Reason)
		}
	}
	return m.render(m.task.Act(s), s, offersMeta(req.Tools), check)
}

func planJSON(steps []Step) string {
	type step struct {
		Description string   `json:"description"`
		Tools       []string `json:"tools"`
		Acceptance  string   `json:"acceptance"`
	}
	out := struct {
		Steps []step `json:"steps"`
	}{}
	for _, s := range steps {
		out.Steps = append(out.Steps, step{s.Desc, s.Tools, s.Accept})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// judge answers the evaluator's request: the step named in it, judged on
// the calls and results it shows.
func (m *model) judge(msg string) string {
	evidence := msg[strings.Index(msg, "Calls and results:")+1:]
	desc := ""
	if sub := checkedStep.FindStringSubmatch(msg); sub != nil {
		desc = sub[1]
	}
	b, _ := json.Marshal(m.judgeStep(desc, evidence).wire())
	return string(b)
}

// judgeStep checks a step as the task's Step says, found by its
// description: the same judgement whether the evaluator asks for it or
// the plan asks for it in the next call.
func (m *model) judgeStep(desc, evidence string) Verdict {
	all := append(slices.Clone(m.task.Plan), m.task.Replan...)
	if i := slices.IndexFunc(all, func(s Step) bool { return s.Desc == desc }); i >= 0 && all[i].Judge != nil {
		return all[i].Judge(evidence)
	}
	results := strings.Split(evidence, "result: ")
	if strings.HasPrefix(results[len(results)-1], "Error:") {
		return fail("the last call failed")
	}
	return pass("the last result shows it")
}

func (v Verdict) wire() map[string]any {
	return map[string]any{"passed": v.Passed, "reason": v.Reason, "contradicts_plan": v.Contradicts}
}

// evidence is what the model looks at to give a verdict: the calls since
// its last check, with their results, written as the evaluator is shown
// them.
func (s *Situation) evidence() string {
	var b strings.Builder
	for _, c := range s.Calls[min(s.since, len(s.Calls)):] {
		args, _ := json.Marshal(c.Args)
		fmt.Fprintf(&b, "- %s %s\n  result: %s\n", c.Tool, args, c.Result)
	}
	return b.String()
}

// situation reads a turn's request as the model sees it.
func situation(req llmtest.Request) *Situation {
	s := &Situation{Offered: len(req.Tools) > 0, steps: map[int]anchorStep{}}
	if len(req.Messages) > 1 {
		anchor := req.Messages[1].Content
		s.Planned = strings.Contains(anchor, "\nPlan (")
		for _, m := range stepLine.FindAllStringSubmatch(anchor, -1) {
			id, _ := strconv.Atoi(m[1]) // digits: stepLine matched them
			s.steps[id] = anchorStep{desc: m[3]}
			if m[4] != "" {
				s.steps[id] = anchorStep{desc: m[3], tools: strings.Split(m[4], ", ")}
			}
			switch {
			case strings.HasPrefix(m[2], "current"):
				s.Current, s.Tools = id, s.steps[id].tools
			case strings.HasPrefix(m[2], "finished"):
				s.Checking = id
			}
		}
	}
	byID := map[string]int{}
	for _, msg := range req.Messages[min(2, len(req.Messages)):] {
		switch msg.Role {
		case llm.RoleAssistant:
			s.Turns++
			for i, tc := range msg.ToolCalls {
				args := map[string]any{}
				_ = json.Unmarshal([]byte(tc.Arguments), &args)
				// A verdict given starts the evidence of the next step.
				if meta, ok := args["_meta"].(map[string]any); ok && meta["check"] != nil && i == 0 {
					s.since = len(s.Calls)
				}
				delete(args, "_meta")
				byID[tc.ID] = len(s.Calls)
				s.Calls = append(s.Calls, Seen{Call: Call{Tool: tc.Name, Args: args}})
			}
		case llm.RoleTool:
			if i, ok := byID[msg.ToolCallID]; ok {
				s.Calls[i].Result = msg.Content
				s.Calls[i].OK = !strings.HasPrefix(msg.Content, "Error:") && !strings.HasPrefix(msg.Content, "Not run")
			}
		case llm.RoleUser:
			s.Notes = append(s.Notes, msg.Content)
			if strings.Contains(msg.Content, "was checked against its acceptance criteria") || strings.Contains(msg.Content, "The plan was revised") {
				s.since = len(s.Calls)
			}
		}
	}
	// The anchor's note on a step whose check failed reads as the
	// evaluator's reason did.
	if m := failedMark.FindStringSubmatch(req.Messages[min(1, len(req.Messages)-1)].Content); m != nil {
		s.Notes = append(s.Notes, m[1])
	}
	return s
}

var failedMark = regexp.MustCompile(`\[current; its last check failed: ([^\]]*)\]`)

func offersMeta(tools []llm.ToolDef) bool {
	return len(tools) > 0 && strings.Contains(string(tools[0].Parameters), `"_meta"`)
}

// render writes a move as the model's reply: under a plan, each call's
// arguments carry its _meta, as the schema asks.
func (m *model) render(mv Move, s *Situation, meta bool, check *Verdict) llmtest.Step {
	if len(mv.Calls) == 0 {
		return llmtest.Step{Content: mv.Answer}
	}
	var calls []llm.ToolCall
	for i, c := range mv.Calls {
		args := map[string]any{}
		for k, v := range c.Args {
			args[k] = v
		}
		if meta {
			step, status, serves := c.Step, "finished", c.Serves
			if step == 0 {
				step = s.Current
			}
			if c.Continue || i < len(mv.Calls)-1 {
				status = "continue"
			}
			if serves == "" {
				serves = m.task.Prompt
			}
			mt := map[string]any{"step": step, "step_status": status, "serves_goal": serves}
			if c.From != nil {
				mt["provenance"] = c.From
			}
			if check != nil && i == 0 {
				mt["check"] = check.wire()
			}
			args["_meta"] = mt
		}
		b, _ := json.Marshal(args)
		calls = append(calls, llm.ToolCall{ID: fmt.Sprintf("t%d_%d", s.Turns+1, i+1), Name: c.Tool, Arguments: string(b)})
	}
	return llmtest.Step{ToolCalls: calls}
}
