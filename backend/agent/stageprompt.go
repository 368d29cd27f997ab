package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// The stages' prompts are written for the model, so they stay in English
// whatever the UI language.

func routePrompt(tools []string) string {
	return fmt.Sprintf(`You route messages for Hermes, an agent with tools (%s). Decide whether the user's message needs those tools (files or notes in the workspace, commands, anything to look up or change) or can be answered directly from general knowledge, like a greeting or a plain question.
Reply with one JSON object and nothing else: {"route": "direct" or "loop", "reason": "one line", "calls": for "loop", how many tool calls the task needs}. When in doubt, choose "loop".`, strings.Join(tools, ", "))
}

// taskMessage states the task for a stage's call.
func taskMessage(task, instructions, memory string) string {
	var b strings.Builder
	b.WriteString("Task:\n" + task)
	if instructions != "" {
		b.WriteString("\n\nStanding instructions:\n" + instructions)
	}
	if memory != "" {
		b.WriteString("\n\n" + memory)
	}
	return b.String()
}

func planPrompt(tools string) string {
	return `You are the planner of Hermes, an agent that completes tasks by calling tools.
Reply with one JSON object and nothing else:
{"assumptions": ["what the plan takes for granted"], "steps": [{"description": "what to do", "tools": ["tools it uses"], "acceptance": "what in the tool results shows it is done", "required": true}]}
Rules: 3 to 6 steps, fewer for a smaller task; each step uses the tools below; no step for the final answer; "required": false only for a step the task can do without.
Tools:
` + tools
}

func replanMessage(task, instructions string, p *planState, reason, evidence string) string {
	var b strings.Builder
	b.WriteString(taskMessage(task, instructions, ""))
	b.WriteString("\n\nThe plan so far:")
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "\n%d. [%s] %s (tools: %s; done when: %s)", s.ID, s.Status, s.Description, strings.Join(s.Tools, ", "), s.Acceptance)
	}
	if len(p.Assumptions) > 0 {
		b.WriteString("\nAssumptions: " + strings.Join(p.Assumptions, "; "))
	}
	fmt.Fprintf(&b, "\n\nA result contradicted the plan: %s\n\nWhat was done for the current step:\n%s\n", reason, evidence)
	b.WriteString("\nThe passed steps stay as they are. Write the steps that replace all the others, in the same JSON object; its \"steps\" are the new remaining steps only, and its \"assumptions\" what you now take for granted.")
	return b.String()
}

const evaluatePrompt = `You check one step of an agent's plan against the step's acceptance criteria, using only the tool calls and results shown.
Reply with one JSON object and nothing else: {"passed": true or false, "reason": "one line: what in the results shows it", "contradicts_plan": true or false}
A step passes only when the results show its acceptance criteria are met; a claim is not a result. Set "contradicts_plan" when the results show that an assumption of the plan is wrong (something it expects does not exist or is not where it thought), so the remaining steps need a new plan.`

func evaluateMessage(task string, p *planState, s *event.PlanStep, evidence string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task:\n%s\n\n", task)
	if len(p.Assumptions) > 0 {
		fmt.Fprintf(&b, "Plan assumptions: %s\n\n", strings.Join(p.Assumptions, "; "))
	}
	fmt.Fprintf(&b, "Step %d: %s\nAcceptance criteria: %s\n", s.ID, s.Description, s.Acceptance)
	fmt.Fprintf(&b, "\nCalls and results:\n%s", evidence)
	return b.String()
}

const confidencePrompt = `You rate how sure an agent can be that its answer completes the task, from the work shown.
Reply with one JSON object and nothing else: {"confidence": a number from 0 to 1, "reason": "one line"}`

func confidenceMessage(task string, p *planState, answer string) string {
	var b strings.Builder
	if task != "" {
		fmt.Fprintf(&b, "Task:\n%s\n\n", task)
	}
	if p != nil {
		b.WriteString("Plan:")
		for _, s := range p.Steps {
			fmt.Fprintf(&b, "\n%d. [%s] %s — %s", s.ID, s.Status, s.Description, s.Reason)
		}
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "The agent's answer:\n%s", answer)
	return b.String()
}

// metaProtocol says, once in the plan, what each call tells about itself;
// the tools' schemas only name the fields.
const metaProtocol = `Each call's "_meta": {"step": n, "step_status": "finished" if it completes the step, else "continue", "serves_goal": "one line: how", "provenance": {"<ID, path or time argument>": "user", "tool" or "inferred"}}`

// checkDue is the plan's mark on a step finished by the last decision:
// its verdict goes in the next call.
const checkDue = `[finished: check it in the next call's _meta, "check": {"passed", "reason", "contradicts_plan"}]`

// finalCheckPrompt checks the step an answer followed and rates the
// answer in one request. It opens as confidencePrompt does: it is the
// completion check.
const finalCheckPrompt = `You rate how sure an agent can be that its answer completes the task, after checking its last finished step against its acceptance criteria from the calls and results shown (a claim is not a result).
Reply with one JSON object and nothing else: {"passed": bool, "reason": "what the results show", "contradicts_plan": bool, "confidence": 0 to 1, "confidence_reason": "one line"}`

func finalCheckMessage(task string, p *planState, s *event.PlanStep, evidence, answer string) string {
	var b strings.Builder
	b.WriteString(evaluateMessage(task, p, s, evidence))
	fmt.Fprintf(&b, "\nOf the plan's %d steps, %d passed before this one.\n\nThe agent's answer:\n%s", len(p.Steps), p.passed(), answer)
	return b.String()
}

func stepFailedHint(s *event.PlanStep, reason string) string {
	return fmt.Sprintf("Step %d (%s) was checked against its acceptance criteria (%s) and did not pass: %s\nDecide how to make it pass before you go on.", s.ID, s.Description, s.Acceptance, reason)
}

func replannedHint(p *planState, reason string) string {
	next := "give your final answer"
	if cur := p.current(); cur != nil {
		next = fmt.Sprintf("continue with step %d: %s", cur.ID, cur.Description)
	}
	return fmt.Sprintf("The plan was revised (the task message shows it) because a result contradicted it: %s. Now %s.", reason, next)
}

func driftHint(reason, task string, cur *event.PlanStep) string {
	next := ""
	if cur != nil {
		next = fmt.Sprintf(" Return to step %d: %s.", cur.ID, cur.Description)
	}
	return fmt.Sprintf("Your last decision drifted from the goal: %s. The task is: %s.%s", reason, strings.TrimSuffix(task, "."), next)
}

func notDoneHint(missing []int, p *planState, failure string) string {
	var parts []string
	if len(missing) > 0 {
		var names []string
		for _, id := range missing {
			s := p.step(id)
			names = append(names, fmt.Sprintf("%d (%s)", id, s.Description))
		}
		parts = append(parts, "these required steps have not passed their check: "+strings.Join(names, ", "))
	}
	if failure != "" {
		parts = append(parts, "your last tool call failed and nothing has fixed it since ("+failure+")")
	}
	return "The task is not finished: " + strings.Join(parts, "; and ") + ". Continue the work with tool calls; answer again once it is done."
}

func lowConfidenceHint(confidence, threshold float64, reason string) string {
	return fmt.Sprintf("Before the run can end: your confidence in the answer is %.2f, below the %.2f it needs (%s). Check what is uncertain with a tool, then answer again.", confidence, threshold, reason)
}

func answeredHint(q event.QuestionAskedData, answer string) string {
	return fmt.Sprintf("You guessed %s = %q for %s, and the call failed. The user says: %s\nUse that instead of guessing.", q.Argument, q.Value, q.Tool, answer)
}

func noAnswerHint(q event.QuestionAskedData) string {
	return fmt.Sprintf("You guessed %s = %q for %s, and the call failed. No one can tell you the right value now. Do not guess again: find it with a tool, or say in your final answer what you need.", q.Argument, q.Value, q.Tool)
}

// jsonProtocolPrompt tells a model without tool calls how to call tools in
// its reply; withMeta adds the fields the plan strategy asks of decisions.
func jsonProtocolPrompt(defs []llm.ToolDef, withMeta bool) string {
	var b strings.Builder
	b.WriteString(`

You call tools by replying with one JSON object and nothing else:
{"thought": "what you think and why", "action": "the tool's name", "action_input": {the tool's arguments}, "finished": false}
When the task is done: {"thought": "...", "action": "final_answer", "action_input": "your final answer", "finished": true}
Each tool's result comes back to you in the next message.`)
	if withMeta {
		b.WriteString(`
Add to every object, beside "action", the fields the plan in the task message asks of each call: "step", "step_status", "serves_goal", "provenance" and, when due, "check".`)
	}
	b.WriteString("\n\nTools:")
	for _, d := range defs {
		params := d.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{}`)
		}
		fmt.Fprintf(&b, "\n- %s: %s\n  arguments (JSON Schema): %s", d.Name, d.Description, params)
	}
	return b.String()
}

const jsonInvalidHint = `Your reply was not the JSON object asked for (%s). Reply with one JSON object and nothing else: {"thought": "...", "action": "a tool's name", "action_input": {...}, "finished": false}, or {"thought": "...", "action": "final_answer", "action_input": "your answer", "finished": true}.`
