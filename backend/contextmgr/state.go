package contextmgr

import (
	"fmt"
	"slices"
	"strings"

	"hermes/backend/llm"
)

// Options are the context manager's settings.
type Options struct {
	Window int // the model's context window, in tokens
	// CompressAt is the share of Window a request may reach before the
	// oldest turns are folded into the summary; 1 or more never compresses.
	CompressAt float64
	// RecentTurns is how many of the latest turns are always sent whole.
	RecentTurns int
}

// Threshold is the most tokens a request may hold before it is compressed,
// or 0 when compression is off.
func (o Options) Threshold() int {
	if o.CompressAt <= 0 || o.CompressAt >= 1 || o.Window <= 0 {
		return 0
	}
	return int(o.CompressAt * float64(o.Window))
}

// Trigger is the size past which a request is compressed: the threshold,
// less a margin for the error of an estimate that the provider's count only
// corrects after the fact.
func (o Options) Trigger() int {
	t := o.Threshold()
	return t - t/50
}

// summaryBudget is the size, in tokens, a summary is asked to stay within:
// a tenth of what a request may hold, within sensible bounds.
func (o Options) summaryBudget() int {
	return min(max(o.Threshold()/10, 200), 2000)
}

// EntityBudget is the most tokens the values kept verbatim beside the
// summary may take: a twentieth of the window (1,600 of 32,000), so that
// with the summary they stay a small part of every request whatever the
// tools returned.
func (o Options) EntityBudget() int { return o.Window / 20 }

// State is the part of a run's context that lives across requests and is
// saved with every checkpoint: the rolling summary and what it covers, what a
// person pinned, and the long-term memory recalled for the task. The
// conversation itself is never rewritten: the summary covers its first
// Folded messages, and the requests carry the rest.
type State struct {
	Summary  string `json:"summary,omitempty"`
	Progress string `json:"progress,omitempty"`
	// Entities are values from folded turns that the summary lost, kept
	// verbatim beside it.
	Entities []string `json:"entities,omitempty"`
	Folded   int      `json:"folded,omitempty"`
	// Facts are pinned text; Pinned are pinned messages, by index in the
	// conversation. Neither is ever folded.
	Facts  []string `json:"facts,omitempty"`
	Pinned []int    `json:"pinned,omitempty"`
	// Memory is the recalled long-term memory as it is sent; MemoryIDs are
	// its entries.
	Memory    string   `json:"memory,omitempty"`
	MemoryIDs []uint64 `json:"memory_ids,omitempty"`
	// RetryAt is the iteration from which a summary that failed is tried
	// again.
	RetryAt int `json:"retry_at,omitempty"`
	// Ratio is the provider's tokens per estimated token, from its last
	// report, so a resumed run or a preview counts as the provider does.
	Ratio float64 `json:"ratio,omitempty"`
}

// Clone returns a copy that shares nothing mutable with s.
func (s State) Clone() State {
	s.Entities = slices.Clone(s.Entities)
	s.Facts = slices.Clone(s.Facts)
	s.Pinned = slices.Clone(s.Pinned)
	s.MemoryIDs = slices.Clone(s.MemoryIDs)
	return s
}

// IsPinned reports whether message i of the conversation is pinned.
func (s *State) IsPinned(i int) bool { return slices.Contains(s.Pinned, i) }

// Pin adds message i of the conversation to the pinned layer; it reports
// false when it already was there.
func (s *State) Pin(i int) bool {
	if s.IsPinned(i) {
		return false
	}
	s.Pinned = append(s.Pinned, i)
	slices.Sort(s.Pinned)
	return true
}

// SummaryText is the summary layer as the model reads it, or "" before the
// first compression.
func (s *State) SummaryText() string {
	if s.Summary == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Summary of the earlier part of this run (its first %d messages, folded to save room):\n", s.Folded)
	b.WriteString(s.Summary)
	if len(s.Entities) > 0 {
		b.WriteString("\n\nExact values from the folded messages, kept verbatim:\n")
		b.WriteString(strings.Join(s.Entities, "\n"))
	}
	return b.String()
}

// PinnedText is what a person pinned, as the model reads it in the anchor:
// the facts, and the pinned messages that the summary covers (the others are
// still sent whole among the turns).
func (s *State) PinnedText(turns []llm.Message) string {
	var b strings.Builder
	if len(s.Facts) > 0 {
		b.WriteString("Pinned facts:")
		for _, f := range s.Facts {
			b.WriteString("\n- ")
			b.WriteString(f)
		}
	}
	for _, i := range s.Pinned {
		if i >= s.Folded || i >= len(turns) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "Pinned message %d (%s):\n%s", i, describe(turns[i]), render(turns[i]))
	}
	return b.String()
}

// describe names a message's role, and its tool for a tool result.
func describe(m llm.Message) string {
	switch {
	case m.Role == llm.RoleTool:
		return fmt.Sprintf("result of %s call %s", m.Name, m.ToolCallID)
	case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
		return "your tool calls"
	case m.Role == llm.RoleAssistant:
		return "your reply"
	}
	return m.Role + " message"
}

// render is a message as text: its content and the calls it made.
func render(m llm.Message) string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, c := range m.ToolCalls {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "called %s %s", c.Name, c.Arguments)
	}
	return b.String()
}

// Fold is the part of the conversation one compression folds: messages From
// to To-1, of which Messages are summarised and the pinned ones kept whole.
type Fold struct {
	From, To int
	Turns    int // whole turns folded
	Tokens   int // what they take in the request, estimated
	Messages []llm.Message
	Pinned   []int
}

// Empty reports whether there is nothing to fold.
func (f Fold) Empty() bool { return f.To <= f.From }

// turnStarts returns where each turn begins in msgs: a turn opens with an
// assistant message and holds the tool results and user messages after it,
// so a call is never parted from its result. Messages before the first
// assistant message are a turn of their own.
func turnStarts(msgs []llm.Message) []int {
	var starts []int
	for i, m := range msgs {
		if i == 0 || m.Role == llm.RoleAssistant {
			starts = append(starts, i)
		}
	}
	return starts
}

// Plan chooses what the next compression folds, for a request of tokens (as
// the provider counts them; scale turns estimates into those): every turn
// older than the recent window, and more of the oldest while the request
// would still pass the threshold, always leaving the latest turn whole. One
// fold holds at most half the window, so the summary request fits.
func (s *State) Plan(turns []llm.Message, opt Options, tokens int, scale func(int) int) Fold {
	if scale == nil {
		scale = func(n int) int { return n }
	}
	msgs := turns[min(s.Folded, len(turns)):]
	starts := turnStarts(msgs)
	if len(starts) < 2 {
		return Fold{From: s.Folded, To: s.Folded}
	}
	sizes := make([]int, len(starts))
	for i, start := range starts {
		end := len(msgs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		for _, m := range msgs[start:end] {
			sizes[i] += EstimateMessage(m)
		}
	}
	base := max(len(starts)-max(opt.RecentTurns, 1), 0)
	limit := opt.Trigger()
	projected := tokens - scale(Estimate(s.SummaryText())) + scale(opt.summaryBudget())
	n, folded := 0, 0
	// more reports whether the next turn may and should be folded too.
	more := func(goal int) bool {
		if n >= len(starts)-1 || n > 0 && scale(folded+sizes[n]) > opt.Window/2 {
			return false
		}
		return n < base || limit > 0 && projected-scale(folded) > goal
	}
	goal := limit
	if limit > 0 && projected-scale(sum(sizes[:base])) > limit {
		// Even the recent window does not fit: fold to a sixth below the
		// threshold, so that the next turn does not bring the next fold.
		goal = limit - limit/6
	}
	for more(goal) {
		folded += sizes[n]
		n++
	}
	f := Fold{From: s.Folded, To: s.Folded, Turns: n, Tokens: scale(folded)}
	if n == 0 {
		return f
	}
	end := len(msgs)
	if n < len(starts) {
		end = starts[n]
	}
	f.To = s.Folded + end
	for i := f.From; i < f.To; i++ {
		if s.IsPinned(i) {
			f.Pinned = append(f.Pinned, i)
			continue
		}
		f.Messages = append(f.Messages, turns[i])
	}
	return f
}

// Preview shows a person what the next compression will fold, before it
// happens.
type Preview struct {
	// Tokens is the size of the latest request; Threshold the share of the
	// window set by compress_at (0: never compressed); Due says the next
	// request will be compressed.
	Tokens    int  `json:"tokens"`
	Threshold int  `json:"threshold"`
	Window    int  `json:"window"`
	Due       bool `json:"due"`
	// Folded is how many messages the summary covers already.
	Folded int           `json:"folded"`
	Turns  []PreviewTurn `json:"turns"` // the messages the next compression folds, oldest first
	Pinned []int         `json:"pinned"`
	Facts  []string      `json:"facts"`
}

// PreviewTurn is one message a compression would fold.
type PreviewTurn struct {
	Index  int    `json:"index"`
	Role   string `json:"role"`
	Name   string `json:"name,omitempty"` // the tool of a result, or the tools called
	CallID string `json:"call_id,omitempty"`
	Text   string `json:"text"` // the start of its content
	Tokens int    `json:"tokens"`
	Pinned bool   `json:"pinned,omitempty"`
}

const previewChars = 160

// Preview lists what Plan would fold now, for a request of tokens.
func (s *State) Preview(turns []llm.Message, opt Options, tokens int, scale func(int) int) Preview {
	threshold := opt.Threshold()
	p := Preview{
		Tokens: tokens, Threshold: threshold, Window: opt.Window, Due: threshold > 0 && tokens > opt.Trigger(),
		Folded: s.Folded, Pinned: slices.Clone(s.Pinned), Facts: slices.Clone(s.Facts), Turns: []PreviewTurn{},
	}
	if p.Pinned == nil {
		p.Pinned = []int{}
	}
	if p.Facts == nil {
		p.Facts = []string{}
	}
	f := s.Plan(turns, opt, tokens, scale)
	for i := f.From; i < f.To; i++ {
		m := turns[i]
		t := PreviewTurn{Index: i, Role: m.Role, Name: m.Name, CallID: m.ToolCallID, Tokens: EstimateMessage(m), Pinned: s.IsPinned(i)}
		if scale != nil {
			t.Tokens = scale(t.Tokens)
		}
		if m.Role == llm.RoleAssistant {
			names := make([]string, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				names[j] = c.Name
			}
			t.Name = strings.Join(names, ", ")
		}
		t.Text = cut(render(m), previewChars)
		p.Turns = append(p.Turns, t)
	}
	return p
}

// cut shortens text to about n characters at a character boundary.
func cut(text string, n int) string {
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	return string(r[:n]) + "…"
}

func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}
