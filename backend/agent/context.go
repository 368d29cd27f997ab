package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/store"
)

// maxFoldRounds bounds the summaries one request may wait for: a fold holds
// at most half the window, so a run resumed with a long conversation and no
// summary may need more than one.
const maxFoldRounds = 3

func (r *Run) contextOptions() contextmgr.Options {
	return contextmgr.Options{Window: r.limits.ContextWindow, CompressAt: r.limits.CompressAt, RecentTurns: r.limits.RecentTurns}
}

// contextInput lays out the layers of the next request from the run's state.
func (r *Run) contextInput(defs []llm.ToolDef) contextmgr.Input {
	c := &r.st.Context
	folded := min(c.Folded, len(r.turns))
	system := systemPrompt(r.st.Workspace)
	if r.jsonProtocol() {
		// A model without tool calls reads the tools in its instructions.
		system += jsonProtocolPrompt(defs, r.planned())
		defs = nil
	}
	pinned := c.PinnedText(r.turns)
	if r.planned() {
		pinned = strings.TrimSpace(planText(r.st.Plan) + "\n\n" + pinned)
	}
	return contextmgr.Input{
		System:  system,
		Anchor:  anchor(r.st.Task, r.st.Instr, c.Progress, pinned),
		Summary: c.SummaryText(),
		Memory:  c.Memory,
		Turns:   r.turns[folded:],
		Folded:  folded,
		Tools:   defs,
	}
}

// resultLimits are the sizes, in characters, that the tool results of a
// request are cut to, one after the other, when folding cannot bring it
// under the threshold: the latest turn is never folded, and it alone may
// not fit.
var resultLimits = []int{2000, 500, 100}

// buildContext builds the next request and, when it would pass the
// compression threshold, first folds the oldest turns into the summary,
// then, if that is not enough, cuts the tool results the request carries
// (the conversation keeps them whole). A summary that fails drops nothing:
// the request goes out as it is if it fits the window, a guard says why,
// and the next iteration tries again. It reports whether it compressed.
func (r *Run) buildContext(ctx context.Context, defs []llm.ToolDef) (contextmgr.Built, contextmgr.Input, bool) {
	r.builder.Restore(r.st.Context.Ratio)
	r.st.Context.Ratio = r.builder.Ratio()
	in := r.contextInput(defs)
	built := r.builder.Build(in)
	opts := r.contextOptions()
	threshold := opts.Trigger()
	if threshold == 0 || built.Tokens <= threshold {
		return built, in, false
	}
	compressed, failed := false, r.st.Iteration < r.st.Context.RetryAt
	for round := 0; !failed && round < maxFoldRounds && built.Tokens > threshold; round++ {
		c := &r.st.Context
		fold := c.Plan(r.turns, opts, built.Tokens, r.builder.Scale)
		if fold.Empty() {
			break
		}
		sum, err := contextmgr.Summarize(ctx, r.summarizer(), r.setup.SummaryModel, r.focus(), c, opts, fold)
		r.addUsage(sum.Usage)
		if err != nil {
			if ctx.Err() == nil {
				c.RetryAt = r.st.Iteration + 1
				r.guard(event.GuardSummary, event.ActionWarn, i18n.T("agent.guard.summary_failed", i18n.Clause(err.Error())))
			}
			failed = true
			break
		}
		previous, before := c.Summary, built.Tokens
		c.Apply(fold, sum)
		in = r.contextInput(defs)
		built = r.builder.Build(in)
		compressed = true
		model := r.setup.SummaryModel
		if model == "" {
			model = r.setup.ModelName
		}
		r.publish(event.SummaryUpdated, event.SummaryUpdatedData{
			Summary: sum.Text, Previous: previous, Progress: sum.Progress,
			From: fold.From, To: fold.To, TurnsFolded: fold.Turns,
			Entities: sum.Entities, EntitiesAdded: sum.Added,
			TokensBefore: before, TokensAfter: built.Tokens, Model: model, Usage: sum.Usage,
		})
	}
	// After a failed summary nothing is dropped that fits the window.
	target := threshold
	if failed {
		target = r.limits.ContextWindow
	}
	for _, limit := range resultLimits {
		if built.Tokens <= target {
			break
		}
		in.ResultLimit = limit
		built = r.builder.Build(in)
	}
	return built, in, compressed
}

// focus is what the summary is written for: the task and, under a plan,
// the plan.
func (r *Run) focus() string {
	if r.planned() {
		return r.st.Task + "\n\n" + planText(r.st.Plan)
	}
	return r.st.Task
}

// fits refuses a request of tokens (as the provider counts them) that is
// over the model's context window: sent, it would be rejected or cut by
// the provider after the whole of it went over the wire.
func (r *Run) fits(tokens int) error {
	if w := r.limits.ContextWindow; tokens > w {
		return i18n.Wrap(ErrOverWindow, "agent.over_window", tokens, w)
	}
	return nil
}

func (r *Run) summarizer() Model {
	if r.setup.Summarizer != nil {
		return r.setup.Summarizer
	}
	return r.setup.Model
}

// publishContext announces the request about to be sent: only the messages
// added since the last one, unless the layers before the turns changed or
// the request was laid out anew (then all of them, with full set).
func (r *Run) publishContext(b contextmgr.Built, in contextmgr.Input, defs []llm.ToolDef, compressed bool, saved int) {
	full := b.Rebuilt || r.sentAnchor == "" || in.Anchor != r.sentAnchor ||
		in.Summary != r.sentSummary || in.Memory != r.sentMemory || r.sentTurns > len(r.turns)
	// The messages as sent: tool results may be cut in the request.
	var msgs []llm.Message
	if full {
		msgs = b.Messages
	} else {
		msgs = b.Messages[b.Header+r.sentTurns-in.Folded:]
	}
	r.publish(event.ContextBuilt, event.ContextBuiltData{
		Layers: b.Layers, Tokens: b.Tokens, Window: b.Window, BudgetShare: b.Share, Compressed: compressed,
		MessageCount: len(b.Messages), Folded: in.Folded, Full: full, Messages: msgs,
		ToolNames: toolNames(defs), SchemasSaved: saved, Stage: r.stage, Ratio: r.reportedRatio(),
	})
	r.sentTurns, r.sentAnchor, r.sentSummary, r.sentMemory = len(r.turns), in.Anchor, in.Summary, in.Memory
	r.lastTokens = b.Tokens
}

// reportedRatio is the builder's correction rounded for the event, or 0
// while no provider has reported one (the estimate stands as counted).
func (r *Run) reportedRatio() float64 {
	ratio := r.builder.Ratio()
	if ratio == 1 {
		return 0
	}
	return math.Round(ratio*1000) / 1000
}

// pin applies a pin control: a fact, or a message of the conversation by
// its index, joins the pinned layer and is never folded.
func (r *Run) pin(c Control) {
	st := &r.st.Context
	switch {
	case c.Message != nil:
		i := *c.Message
		if i < 0 || i >= len(r.turns) {
			r.guard(event.GuardPin, event.ActionWarn, i18n.T("agent.pin.no_message", i, len(r.turns)))
			return
		}
		if st.Pin(i) {
			m := r.turns[i]
			r.publish(event.ContextPinned, event.ContextPinnedData{Message: &i, Role: m.Role, Preview: clip(m.Content, 200)})
		}
	case c.Text != "":
		if !slices.Contains(st.Facts, c.Text) {
			st.Facts = append(st.Facts, c.Text)
			r.publish(event.ContextPinned, event.ContextPinnedData{Fact: c.Text})
		}
	}
}

// previewSnapshot is the context as of the last checkpoint. The turns up to
// len(turns) are never changed once appended, so readers share them.
type previewSnapshot struct {
	state  contextmgr.State
	turns  []llm.Message
	tokens int
	ratio  float64
	opts   contextmgr.Options
}

func (r *Run) snapshot() {
	r.preview.Store(&previewSnapshot{
		state: r.st.Context.Clone(), turns: r.turns[:len(r.turns):len(r.turns)],
		tokens: r.lastTokens, ratio: r.builder.Ratio(), opts: r.contextOptions(),
	})
}

// ContextPreview shows which messages the next compression will fold, as of
// the last checkpoint, so a person can pin one before it is folded. It is
// safe to call while the run executes.
func (r *Run) ContextPreview() contextmgr.Preview {
	s := r.preview.Load()
	if s == nil {
		st := contextmgr.State{}
		return st.Preview(nil, r.contextOptions(), 0, nil)
	}
	scale := func(n int) int { return int(float64(n)*s.ratio + 0.5) }
	return s.state.Preview(s.turns, s.opts, s.tokens, scale)
}

// PreviewCheckpoint is ContextPreview for a run that is not live, read from
// its last checkpoint; the size of its next request is estimated afresh,
// corrected by the provider's last report.
func PreviewCheckpoint(s Setup, runID string) (contextmgr.Preview, error) {
	raw, stored, err := s.Store.LoadCheckpoint(runID)
	if errors.Is(err, store.ErrNoCheckpoint) {
		return contextmgr.Preview{}, i18n.Wrap(err, "agent.no_checkpoint", runID)
	}
	if err != nil {
		return contextmgr.Preview{}, err
	}
	r := newRun(s)
	if err := json.Unmarshal(raw, &r.st); err != nil {
		return contextmgr.Preview{}, fmt.Errorf("decode checkpoint of run %s: %w", runID, err)
	}
	if r.turns, err = decodeTurns(runID, stored, r.st.Turns); err != nil {
		return contextmgr.Preview{}, err
	}
	var defs []llm.ToolDef
	if s.Tools != nil {
		defs = s.Tools.Defs()
	}
	r.builder.Restore(r.st.Context.Ratio)
	built := r.builder.Build(r.contextInput(defs))
	return r.st.Context.Preview(r.turns, r.contextOptions(), built.Tokens, r.builder.Scale), nil
}

func toolNames(defs []llm.ToolDef) []string {
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	return names
}
