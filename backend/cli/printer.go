package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"unicode"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// PrinterOptions shape the terminal view of a run.
type PrinterOptions struct {
	Color bool
	// Width is the number of columns to fit lines into; 0 means 100.
	Width int
	// Verbose prints full arguments and results instead of one-line previews.
	Verbose bool
}

const defaultWidth = 100

// Printer draws a run's events for a person, live or replayed from a log.
// It is a pure fold of the events it is given, so a replay prints exactly
// what the live run printed.
type Printer struct {
	mu sync.Mutex
	w  io.Writer
	o  PrinterOptions

	midLine bool // the last byte written was not a newline (streamed text)
	// An iteration's header waits for its context.built, to show its size.
	headerPending bool
	headerIter    int
	streamed      strings.Builder // text streamed by the current model attempt
	thought       strings.Builder // reasoning streamed by the current model attempt
	thinking      bool            // a reasoning line is open
	thoughtRoom   int             // columns left on the reasoning preview line
	thoughtSpace  bool            // the preview line ends in a space
	lastText      string          // the model text of the last decision, as shown
	refused       map[string]bool // this iteration's calls refused at model.decided
	repaired      map[string]bool
}

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer, o PrinterOptions) *Printer {
	if o.Width <= 0 {
		o.Width = defaultWidth
	}
	return &Printer{w: w, o: o, refused: map[string]bool{}, repaired: map[string]bool{}}
}

// Print draws one event. Events must come in seq order.
func (p *Printer) Print(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Type {
	case event.IterationStarted:
		p.printPendingHeader()
		p.headerPending, p.headerIter = true, e.Iteration
		p.streamed.Reset()
		p.thought.Reset()
		clear(p.refused)
		clear(p.repaired)
		return
	case event.ContextBuilt:
		if c, err := event.Decode[event.ContextBuiltData](e); err == nil && p.headerPending && p.headerIter == e.Iteration {
			p.header(e.Iteration, contextNote(c))
			return
		}
	}
	p.printPendingHeader()
	if !p.printKnown(e) {
		p.generic(e, string(e.Type))
	}
}

// Flush ends a pending streamed-text line (and a header still waiting for
// its context), so whatever is printed next starts on a fresh line.
func (p *Printer) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printPendingHeader()
	p.endLine()
}

// printKnown draws the event types it knows and reports whether it did; a
// payload that does not decode falls back to the generic line.
func (p *Printer) printKnown(e event.Event) bool {
	switch e.Type {
	case event.RunStarted:
		return with(e, func(d event.RunStartedData) { p.runStarted(e.RunID, d) })
	case event.ContextBuilt:
		return with(e, func(c event.ContextBuiltData) { p.line(p.paint("· "+contextNote(c), dim)) })
	case event.ModelDelta:
		return with(e, p.delta)
	case event.ModelReasoning:
		return with(e, p.reasoning)
	case event.ModelRetried:
		return with(e, p.modelRetried)
	case event.ModelDecided:
		return with(e, p.decided)
	case event.ToolStarted:
		return with(e, p.toolStarted)
	case event.ToolFinished:
		return with(e, p.toolFinished)
	case event.GuardTripped:
		return with(e, p.guard)
	case event.LimitNear:
		return with(e, func(d event.LimitNearData) {
			p.line(p.paint("⏳ "+i18n.T("cli.print.limit_near", d.Left, d.Max), yellow))
		})
	case event.ApprovalRequested:
		label := "? " + i18n.T("cli.print.approval_requested")
		p.line(p.paint(label, yellow, bold) + p.dataPreview(e, width(label)))
		return true
	case event.ApprovalResolved:
		p.generic(e, i18n.T("cli.print.approval_resolved"))
		return true
	case event.RunPaused:
		return with(e, func(d event.RunPausedData) {
			p.line(p.paint("⏸ "+i18n.T("cli.print.paused"), yellow))
			for _, c := range d.PendingCalls {
				p.line(p.paint("  ⋯ "+c.Name+" ", dim) + p.preview(c.Arguments, p.o.Width-width(c.Name)-4))
			}
		})
	case event.RunResumed:
		return with(e, p.resumed)
	case event.InstructionInjected:
		return with(e, func(d event.InstructionInjectedData) {
			label := "✎ " + i18n.T("cli.print.injected") + " "
			p.line(p.paint(label, cyan) + p.preview(d.Text, p.o.Width-width(label)))
		})
	case event.TaskEdited:
		return with(e, p.taskEdited)
	case event.SummaryUpdated:
		return with(e, func(d event.SummaryUpdatedData) {
			p.line(p.paint("⇲ "+i18n.T("cli.print.folded", d.TurnsFolded, humanTokens(d.TokensBefore), humanTokens(d.TokensAfter)), cyan))
			if line := entitiesLine(d); line != "" {
				p.line(p.paint("  "+line, dim))
			}
		})
	case event.ContextPinned:
		return with(e, func(d event.ContextPinnedData) {
			what := d.Fact
			if what == "" {
				what = d.Preview
			}
			label := "📌 " + i18n.T("cli.print.pinned") + " "
			p.line(p.paint(label, cyan) + p.preview(what, p.o.Width-width(label)))
		})
	case event.MemoryWritten:
		return with(e, func(d event.MemoryWrittenData) {
			p.line(p.paint("✎ "+i18n.T("cli.print.memory_written_n", len(d.Entries)), dim))
			for _, m := range d.Entries {
				label := "  " + m.Kind + ": "
				p.line(p.paint(label, dim) + p.preview(m.Text, p.o.Width-width(label)))
			}
		})
	case event.MemoryRecalled:
		return with(e, func(d event.MemoryRecalledData) {
			p.line(p.paint("⟲ "+i18n.T("cli.print.memory_recalled_n", len(d.Entries)), dim))
			for _, m := range d.Entries {
				label := "  " + m.Kind + " (" + recallReason(m) + "): "
				p.line(p.paint(label, dim) + p.preview(m.Text, p.o.Width-width(label)))
			}
		})
	case event.RouteDecided:
		return with(e, func(d event.RouteDecidedData) {
			label := "↳ " + i18n.T("cli.print.route_"+d.Route) + " "
			p.line(p.paint(label, dim) + p.preview(d.Reason, p.o.Width-width(label)))
		})
	case event.PlanCreated:
		return with(e, func(d event.PlanCreatedData) { p.plan(i18n.T("cli.print.plan", len(d.Steps)), d.Steps) })
	case event.PlanRevised:
		return with(e, func(d event.PlanRevisedData) {
			p.plan(i18n.T("cli.print.replan", d.Reason), d.Steps)
		})
	case event.StepEvaluated:
		return with(e, func(d event.StepEvaluatedData) {
			mark, colour := "✓", green
			if !d.Passed {
				mark, colour = "✗", red
			}
			label := fmt.Sprintf("  %s %s ", mark, i18n.T("cli.print.step", d.Step))
			p.line(p.paint(label, colour) + p.preview(d.Reason, p.o.Width-width(label)))
		})
	case event.CompletionChecked:
		return with(e, func(d event.CompletionCheckedData) {
			// Counted from the required steps missing: logs written before
			// steps_passed counted the required steps only counted every
			// step passed, optional ones too ("3 of 2").
			note := i18n.T("cli.print.completion_no_plan", int(d.Confidence*100), int(d.Threshold*100))
			if d.StepsRequired > 0 {
				passed := max(0, d.StepsRequired-len(d.Missing))
				note = i18n.T("cli.print.completion", passed, d.StepsRequired, int(d.Confidence*100), int(d.Threshold*100))
			}
			colour := green
			if !d.Passed {
				colour = yellow
			}
			p.line(p.paint("◎ "+note, colour))
		})
	case event.QuestionAsked:
		return with(e, func(d event.QuestionAskedData) {
			p.line(p.paint("? "+d.Question, yellow, bold))
		})
	case event.QuestionAnswered:
		return with(e, func(d event.QuestionAnsweredData) {
			label := "  " + i18n.T("cli.print.answered_"+d.By) + " "
			p.line(p.paint(label, dim) + p.preview(d.Answer, p.o.Width-width(label)))
		})
	case event.CheckpointSaved:
		return with(e, func(d event.CheckpointSavedData) {
			p.line(p.paint("· "+i18n.T("cli.print.checkpoint", d.Messages), dim))
		})
	case event.RunFinished:
		return with(e, p.finished)
	}
	return false
}

// with decodes e's payload and hands it to draw; false if it did not decode.
func with[T any](e event.Event, draw func(T)) bool {
	v, err := event.Decode[T](e)
	if err != nil {
		return false
	}
	draw(v)
	return true
}

func (p *Printer) runStarted(runID string, d event.RunStartedData) {
	p.line(p.paint("▶ "+i18n.T("cli.print.run_started", runID), bold))
	fields := [][2]string{
		{i18n.T("cli.print.task"), d.Task},
		{i18n.T("cli.print.instructions"), d.Instructions},
		{i18n.T("cli.print.model"), d.Model},
		{i18n.T("cli.print.workspace"), d.Workspace},
		{i18n.T("cli.print.tools"), strings.Join(d.Tools, ", ")},
	}
	limits := []string{}
	if d.MaxIterations > 0 {
		limits = append(limits, i18n.T("cli.print.max_iterations", d.MaxIterations))
	}
	if d.TokenBudget > 0 {
		limits = append(limits, i18n.T("cli.print.token_budget", humanTokens(d.TokenBudget)))
	}
	fields = append(fields, [2]string{i18n.T("cli.print.limits"), strings.Join(limits, " · ")},
		[2]string{i18n.T("cli.print.sandbox"), sandboxLine(d.Sandbox)},
		[2]string{i18n.T("cli.print.memory"), memoryLine(d.Memory)})
	labelWidth := 0
	for _, f := range fields {
		labelWidth = max(labelWidth, width(f[0]))
	}
	for _, f := range fields {
		if f[1] == "" {
			continue
		}
		label := "  " + padRight(f[0], labelWidth) + "  "
		value := f[1]
		if !p.o.Verbose {
			value = truncate(oneLine(value), p.o.Width-width(label))
		}
		p.line(p.paint(label, dim) + value)
	}
}

func contextNote(c event.ContextBuiltData) string {
	note := i18n.T("cli.print.context", humanTokens(c.Tokens))
	if c.Window > 0 {
		note = i18n.T("cli.print.context_window", humanTokens(c.Tokens), humanTokens(c.Window))
	}
	if c.BudgetShare > 0 {
		note += fmt.Sprintf(" · %.0f%%", c.BudgetShare*100)
	}
	if c.Compressed {
		note += " · " + i18n.T("cli.print.compressed")
	}
	return note
}

func (p *Printer) printPendingHeader() {
	if p.headerPending {
		p.header(p.headerIter, "")
	}
}

// header draws "── iteration 3 · note ─────" across the width.
func (p *Printer) header(iteration int, note string) {
	p.headerPending = false
	p.endLine()
	title := "── " + i18n.T("cli.print.iteration", iteration) + " "
	if note != "" {
		note = "· " + note + " "
	}
	fill := strings.Repeat("─", max(3, p.o.Width-width(title+note)))
	p.line("\n" + p.paint(title, bold, cyan) + p.paint(note, dim) + p.paint(fill, cyan, dim))
}

func (p *Printer) delta(d event.ModelDeltaData) {
	p.endThinking()
	p.streamed.WriteString(d.Text)
	p.raw(d.Text)
}

// reasoning streams the model's thinking dimmed on a line of its own: in
// full with --verbose, else as much as fits on that one line.
func (p *Printer) reasoning(d event.ModelReasoningData) {
	if !p.thinking {
		label := "  ✻ " + i18n.T("cli.print.thinking") + " "
		p.endLine()
		p.raw(p.paint(label, dim))
		p.thinking, p.thoughtRoom, p.thoughtSpace = true, p.o.Width-width(label), true
	}
	text := d.Text
	if !p.o.Verbose {
		text, p.thoughtSpace = foldSpace(text, p.thoughtSpace)
		switch {
		case p.thoughtRoom <= 0:
			text = ""
		case width(text) > p.thoughtRoom:
			text = truncate(text, p.thoughtRoom)
			p.thoughtRoom = 0
		default:
			p.thoughtRoom -= width(text)
		}
	}
	p.thought.WriteString(d.Text)
	p.raw(p.paint(text, dim))
}

// foldSpace folds the whitespace runs of s into single spaces; lastSpace
// says the text before s ended in one, and the result says whether s does.
func foldSpace(s string, lastSpace bool) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsSpace(r) {
			if lastSpace {
				continue
			}
			r = ' '
		}
		lastSpace = r == ' '
		b.WriteRune(r)
	}
	return b.String(), lastSpace
}

// endThinking closes the reasoning line, so the answer starts on its own.
func (p *Printer) endThinking() {
	if p.thinking {
		p.thinking = false
		p.endLine()
	}
}

func (p *Printer) modelRetried(d event.ModelRetriedData) {
	// The next attempt streams its text and its thinking from the start.
	p.endThinking()
	p.streamed.Reset()
	p.thought.Reset()
	msg := "↻ " + i18n.T("cli.print.model_retry", d.Attempt, humanDuration(d.WaitMS)) + " "
	p.line(p.paint(msg+p.preview(d.Error, p.o.Width-width(msg)), dim))
}

// decided prints only the text that was not already streamed, then the
// turn's usage and the calls that were refused before they could start.
func (p *Printer) decided(d event.ModelDecidedData) {
	// Thinking that was not streamed (a plain request, a replay that lost
	// the deltas) is shown as it would have been.
	if d.Reasoning != "" && p.thought.Len() == 0 {
		p.reasoning(event.ModelReasoningData{Text: d.Reasoning})
	}
	p.endThinking()
	p.thought.Reset()
	text := strings.Join(nonEmpty(d.Thought, d.FinalAnswer), "\n\n")
	streamed := p.streamed.String()
	p.streamed.Reset()
	switch {
	case streamed == "":
		p.raw(text)
	case strings.HasPrefix(text, streamed):
		p.raw(text[len(streamed):])
	}
	p.lastText = text
	if text == "" {
		p.lastText = streamed
	}
	p.endLine()
	usage := i18n.T("cli.print.usage", humanTokens(d.Usage.PromptTokens), humanTokens(d.Usage.CompletionTokens), humanDuration(d.LatencyMS))
	if d.Usage.ReasoningTokens > 0 {
		usage += " · " + i18n.T("cli.print.reasoning_tokens", humanTokens(d.Usage.ReasoningTokens))
	}
	if d.Attempts > 1 {
		usage += " · " + i18n.T("cli.print.attempts", d.Attempts)
	}
	p.line(p.paint("  "+usage, dim))
	for _, c := range d.ToolCalls {
		if c.Repaired {
			p.repaired[c.ID] = true
		}
		if c.Valid {
			continue
		}
		p.refused[c.ID] = true
		prefix := "  ✗ " + c.Name + " "
		p.line(p.paint("  ✗ ", red) + p.paint(c.Name, bold) + " " + p.args(c.Arguments, p.o.Width-width(prefix)))
		room := p.o.Width - width("    "+i18n.T("cli.print.refused", ""))
		p.line(p.paint("    "+i18n.T("cli.print.refused", p.preview(c.Error, room)), red))
	}
}

func (p *Printer) args(a string, room int) string {
	if p.o.Verbose {
		return a
	}
	return truncate(oneLine(a), room)
}

func (p *Printer) toolStarted(d event.ToolStartedData) {
	if p.refused[d.CallID] {
		return
	}
	note := ""
	if p.repaired[d.CallID] {
		note = " (" + i18n.T("cli.print.repaired") + ")"
	}
	if d.Attempt > 1 {
		note += " · " + i18n.T("cli.print.tool_attempt", d.Attempt)
		prefix := "  ↻ " + d.Name + " "
		p.line(p.paint(prefix+p.args(d.Arguments, p.o.Width-width(prefix)-width(note))+note, dim))
		return
	}
	prefix := "  → " + d.Name + " "
	p.line(p.paint("  → ", cyan) + p.paint(d.Name, bold) + " " + p.args(d.Arguments, p.o.Width-width(prefix)-width(note)) + p.paint(note, dim))
}

func (p *Printer) toolFinished(d event.ToolFinishedData) {
	if p.refused[d.CallID] {
		return
	}
	mark, markStyle, stats, text, textStyle := "  ✓ ", green, "  "+humanSize(d.Size)+"  "+humanDuration(d.DurationMS), d.Result, dim
	if !d.OK {
		mark, markStyle, stats, text, textStyle = "  ✗ ", red, "  "+humanDuration(d.DurationMS), d.Error, red
		if text == "" {
			text = d.Result
		}
	}
	preview := p.firstLine(text, p.o.Width-width(mark+d.Name+stats+"  "))
	if preview != "" {
		preview = "  " + preview
	}
	p.line(p.paint(mark, markStyle) + p.paint(d.Name, bold) + p.paint(stats, dim) + p.paint(preview, textStyle))
	p.detail(text, textStyle)
	if sb := d.Sandbox; sb != nil {
		switch {
		case len(sb.Blocked) > 0:
			parts := make([]string, len(sb.Blocked))
			for i, b := range sb.Blocked {
				parts[i] = blockedText(b)
			}
			p.line(p.paint("    ⛔ "+i18n.T("cli.print.blocked", strings.Join(parts, "; ")), yellow))
		case sb.Escaped:
			p.line(p.paint("    "+i18n.T("cli.print.escaped"), yellow))
		case !sb.Confined:
			p.line(p.paint("    "+i18n.T("cli.print.unconfined", sb.Why), yellow))
		}
	}
	if p.o.Verbose && d.Artifact != "" {
		p.line(p.paint("    "+i18n.T("cli.print.artifact", d.Artifact), dim))
	}
}

// firstLine previews a result on one line; in verbose mode the whole text
// follows below instead, so the line stays empty.
func (p *Printer) firstLine(s string, room int) string {
	if p.o.Verbose {
		return ""
	}
	first, rest, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if cut && strings.TrimSpace(rest) != "" {
		first += " …"
	}
	return truncate(oneLine(first), room)
}

// detail prints a full result or error, indented, in verbose mode.
func (p *Printer) detail(s string, st style) {
	if !p.o.Verbose || strings.TrimSpace(s) == "" {
		return
	}
	for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
		p.line(p.paint("    "+l, st))
	}
}

func (p *Printer) guard(d event.GuardTrippedData) {
	mark, st := "⚠ ", yellow
	if d.Action == event.ActionStop {
		mark, st = "■ ", red
	}
	tag := " [" + i18n.T("cli.print.guard", d.Guard) + "]"
	p.line(p.paint(mark+p.preview(d.Message, p.o.Width-width(mark+tag)), st, bold) + p.paint(tag, dim))
	for _, l := range d.Details {
		p.line(p.paint("    · "+p.preview(l, p.o.Width-6), st))
	}
}

func (p *Printer) resumed(d event.RunResumedData) {
	msg := i18n.T("cli.print.resumed")
	if d.FromCheckpoint {
		msg = i18n.T("cli.print.resumed_checkpoint", d.Iteration)
	}
	p.line(p.paint("▶ "+msg, cyan))
	if d.Switched() {
		p.line(p.paint("  "+i18n.T("cli.print.model_switched", modelAt(d.FromModel, d.FromBaseURL), modelAt(d.Model, d.BaseURL)), yellow))
	}
}

// modelAt names a model and the endpoint (masked) it is asked at.
func modelAt(model, baseURL string) string {
	if baseURL == "" {
		return model
	}
	return model + " @ " + baseURL
}

func (p *Printer) taskEdited(d event.TaskEditedData) {
	if d.NewTask != d.OldTask {
		label := "✎ " + i18n.T("cli.print.task_edited") + " "
		p.line(p.paint(label, cyan) + p.preview(d.NewTask, p.o.Width-width(label)))
	}
	if d.NewInstructions != d.OldInstructions {
		label := "✎ " + i18n.T("cli.print.instructions_edited") + " "
		p.line(p.paint(label, cyan) + p.preview(d.NewInstructions, p.o.Width-width(label)))
	}
}

// generic draws an event this printer has no layout for: its label and a
// preview of its payload, so new event types still show up.
func (p *Printer) generic(e event.Event, label string) {
	p.line(p.paint("· "+label, dim) + p.dataPreview(e, width("· "+label)))
}

func (p *Printer) dataPreview(e event.Event, used int) string {
	var b bytes.Buffer
	if json.Compact(&b, e.Data) != nil || b.Len() == 0 || b.String() == "{}" || b.String() == "null" {
		return ""
	}
	return p.paint(" "+p.preview(b.String(), p.o.Width-used-1), dim)
}

func (p *Printer) preview(s string, room int) string {
	if p.o.Verbose {
		return s
	}
	return truncate(oneLine(s), room)
}

// finished closes the run with its outcome, the answer unless the last
// decision already showed it, the totals and how to resume.
func (p *Printer) finished(d event.RunFinishedData) {
	p.endLine()
	mark, label, st := statusLook(d.Status)
	if d.Status == event.StatusFinished && d.Answer != "" {
		if d.Verified {
			label += " · " + i18n.T("cli.print.verified")
		} else {
			mark, st = "⚠", yellow
			label += " · " + i18n.T("cli.print.unverified")
		}
	}
	title := "── " + mark + " " + label + " "
	p.line("\n" + p.paint(title, bold, st) + p.paint(strings.Repeat("─", max(3, p.o.Width-width(title))), st, dim))
	if d.Error != "" {
		p.line(p.paint(i18n.T("cli.print.error", d.Error), red))
	}
	answer := strings.TrimSpace(d.Answer)
	if answer != "" && !strings.Contains(p.lastText, answer) {
		p.line(p.paint(i18n.T("cli.print.answer"), bold))
		p.line(answer)
	}
	t := d.Totals
	totals := i18n.T("cli.print.totals", t.Iterations, humanTokens(t.TotalTokens), humanTokens(t.PromptTokens),
		humanTokens(t.CompletionTokens), t.ToolCalls, humanDuration(t.DurationMS))
	if t.ReasoningTokens > 0 {
		totals += " · " + i18n.T("cli.print.reasoning_tokens", humanTokens(t.ReasoningTokens))
	}
	p.line(p.paint(totals, dim))
	if by := stageTokens(t.StageTokens); by != "" {
		p.line(p.paint(i18n.T("cli.print.stage_tokens", by), dim))
	}
	if d.Resume != "" {
		p.line(p.paint(i18n.T("cli.print.resume", d.Resume), yellow))
	}
}

// stageTokens lists what each stage spent, in the stages' order, or ""
// when the turns spent it all.
func stageTokens(spent map[string]int) string {
	if len(spent) < 2 {
		return ""
	}
	var parts []string
	for _, k := range event.SpentOrder {
		if n := spent[k]; n > 0 {
			parts = append(parts, i18n.T("cli.print.spent."+k)+" "+humanTokens(n))
		}
	}
	return strings.Join(parts, " · ")
}

// statusLook gives a run status its mark, label and colour.
func statusLook(status string) (mark, label string, st style) {
	switch status {
	case event.StatusFinished:
		return "✓", i18n.T("cli.print.status.finished"), green
	case event.StatusFailed:
		return "✗", i18n.T("cli.print.status.failed"), red
	case event.StatusMaxIterations, event.StatusGuard, event.StatusBudget, event.StatusStopped:
		return "■", i18n.T("cli.print.status." + status), yellow
	case event.StatusRunning:
		return "…", i18n.T("cli.print.status.running"), cyan
	}
	return "·", status, dim
}

// line writes one full line, ending any streamed text first. The printer
// writes to the terminal, where a write that fails has no one to tell.
func (p *Printer) line(s string) {
	p.endLine()
	_, _ = io.WriteString(p.w, s+"\n")
}

// raw writes streamed model text as it is.
func (p *Printer) raw(s string) {
	if s == "" {
		return
	}
	_, _ = io.WriteString(p.w, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

func (p *Printer) endLine() {
	if p.midLine {
		_, _ = io.WriteString(p.w, "\n")
		p.midLine = false
	}
}

// JSONPrinter writes each event as one JSON line, byte for byte the line the
// run log holds for it. It is an event.Sink.
type JSONPrinter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// NewJSONPrinter returns a JSONPrinter writing to w.
func NewJSONPrinter(w io.Writer) *JSONPrinter {
	enc := json.NewEncoder(w)
	// As in the run log: payloads are raw JSON already, and escaping HTML
	// would rewrite their bytes.
	enc.SetEscapeHTML(false)
	return &JSONPrinter{enc: enc}
}

// Write writes e as one line of JSON.
func (j *JSONPrinter) Write(e event.Event) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.enc.Encode(e); err != nil {
		return fmt.Errorf("write event %d as JSON: %w", e.Seq, err)
	}
	return nil
}

// plan prints a plan as a checklist under its heading.
func (p *Printer) plan(heading string, steps []event.PlanStep) {
	p.line(p.paint("☰ "+heading, cyan))
	for _, st := range steps {
		box := "[ ]"
		switch st.Status {
		case event.StepPassed:
			box = "[x]"
		case event.StepFailed:
			box = "[!]"
		}
		label := fmt.Sprintf("  %s %d. ", box, st.ID)
		p.line(p.paint(label, dim) + p.preview(st.Description, p.o.Width-width(label)))
	}
}

// recallReason says in a few words why a memory was recalled.
func recallReason(m event.MemoryRef) string {
	switch m.Reason {
	case "pinned", "preference":
		return i18n.T("cli.print.recalled_" + m.Reason)
	case "match":
		if m.Relevance > 0 {
			return i18n.T("cli.print.recalled_relevant", strings.Join(m.Terms, ", "), int(math.Round(m.Relevance*100)))
		}
		return i18n.T("cli.print.recalled_match", strings.Join(m.Terms, ", "))
	}
	return m.Reason
}

// memoryLine says what a run does with long-term memory when it is not
// what a run does by default (recall, and keep what it verified).
func memoryLine(m *event.MemoryUse) string {
	if m == nil || m.Mode == "on" && m.AsOf.IsZero() {
		return ""
	}
	line := i18n.T("cli.print.memory_" + m.Mode)
	if !m.AsOf.IsZero() {
		line = i18n.T("cli.print.memory_as_of", line, m.AsOf.Local().Format("2006-01-02 15:04:05"))
	}
	return line
}

// sandboxLine says how a run's commands are confined: the mode and the
// network, or "not sandboxed" and why.
func sandboxLine(sb *event.SandboxData) string {
	switch {
	case sb == nil:
		return ""
	case !sb.Enforced:
		return i18n.T("cli.print.not_sandboxed", sb.Why)
	}
	network := i18n.T("cli.print.sandbox_offline")
	if sb.Network {
		network = i18n.T("cli.print.sandbox_online")
	}
	line := i18n.T("cli.print.sandboxed", sb.Mode, network, sb.How)
	for _, g := range sb.Gaps {
		line += "; " + g
	}
	return line
}

// blockedText is one thing the sandbox stopped, for a person.
func blockedText(b event.Blocked) string {
	key := "cli.print.blocked_call"
	switch b.Kind {
	case "write", "read", "link", "process", "network":
		key = "cli.print.blocked_" + b.Kind
	}
	s := i18n.T(key, b.What)
	if b.By != "" {
		s += " (" + b.By + ")"
	}
	return s
}
