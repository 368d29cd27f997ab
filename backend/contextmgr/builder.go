package contextmgr

import (
	"fmt"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// Input is what one request is built from, layer by layer.
type Input struct {
	System string
	// Anchor is the pinned layer after the system prompt: the task, the
	// standing instructions, the progress note and whatever a person pinned.
	Anchor string
	// Summary is the rolling summary of the folded turns with its entity
	// list; Memory is the recalled long-term memory. Either may be empty.
	Summary string
	Memory  string
	// Turns is the conversation after the folded turns: assistant turns,
	// tool results and injected instructions.
	Turns []llm.Message
	// Folded is how many turns of the conversation the summary covers; when
	// it changes the request is rebuilt instead of appended to.
	Folded int
	Tools  []llm.ToolDef
	// ResultLimit, when above 0, cuts each tool result among the turns to
	// about that many characters in this request (the conversation keeps
	// them whole): the last resort when folding cannot bring a request
	// under the threshold.
	ResultLimit int
}

// Built is one request's context and its accounting.
type Built struct {
	Messages []llm.Message
	Layers   event.Layers
	Tokens   int
	Window   int
	Share    float64 // Tokens / Window
	// Header is how many messages come before the turns (system, anchor,
	// summary, memory).
	Header int
	// Rebuilt says the request was laid out anew instead of appended to the
	// last one: the first build, and any after the context was rewritten.
	Rebuilt bool
}

// Builder assembles requests. Turns are only appended between compressions,
// so it keeps the request and the per-layer sums from the last build and adds
// just the new turns: building costs the same late in a run as early.
type Builder struct {
	window int
	// msgs is the last request: header messages, then turnsIn turns.
	msgs        []llm.Message
	header      int
	folded      int
	limit       int
	turnsIn     int
	recent      int
	toolResults int
	// counted are the estimates of the conversation's turns, by index.
	counted []counted
	// ratio corrects estimates by what the provider last reported.
	ratio        float64
	observed     bool
	lastEstimate int
}

// NewBuilder returns a builder for a model with the given context window.
func NewBuilder(window int) *Builder {
	return &Builder{window: window, ratio: 1}
}

// Window is the model's context window in tokens.
func (b *Builder) Window() int { return b.window }

// Reset forgets the last request, so the next build lays it out anew.
func (b *Builder) Reset() { b.msgs = nil }

// Build lays out the request: the system prompt, the anchor as the first user
// message, the summary and the memory as user messages when there are any,
// then the turns in order. The returned messages must not be changed; they
// share storage with later builds.
func (b *Builder) Build(in Input) Built {
	header := 2
	if in.Summary != "" {
		header++
	}
	if in.Memory != "" {
		header++
	}
	rebuilt := b.msgs == nil || header != b.header || in.Folded != b.folded || in.ResultLimit != b.limit || len(in.Turns) < b.turnsIn
	if rebuilt {
		b.msgs = make([]llm.Message, header, header+len(in.Turns)+8)
		b.header, b.folded, b.limit = header, in.Folded, in.ResultLimit
		b.turnsIn, b.recent, b.toolResults = 0, 0, 0
	}
	for i, m := range in.Turns[b.turnsIn:] {
		m = CutResult(m, in.ResultLimit)
		n := b.estimate(in.Folded+b.turnsIn+i, m, in.ResultLimit == 0)
		if m.Role == llm.RoleTool {
			b.toolResults += n
		} else {
			b.recent += n
		}
		b.msgs = append(b.msgs, m)
	}
	b.turnsIn = len(in.Turns)
	b.msgs[0] = llm.Message{Role: llm.RoleSystem, Content: in.System}
	b.msgs[1] = llm.Message{Role: llm.RoleUser, Content: in.Anchor}
	l := event.Layers{
		System:      Estimate(in.System) + messageOverhead,
		TaskAnchor:  Estimate(in.Anchor) + messageOverhead,
		ToolSchemas: EstimateTools(in.Tools),
		Recent:      b.recent,
		ToolResults: b.toolResults,
	}
	i := 2
	if in.Summary != "" {
		b.msgs[i] = llm.Message{Role: llm.RoleUser, Content: in.Summary}
		l.Summary = Estimate(in.Summary) + messageOverhead
		i++
	}
	if in.Memory != "" {
		b.msgs[i] = llm.Message{Role: llm.RoleUser, Content: in.Memory}
		l.Memory = Estimate(in.Memory) + messageOverhead
	}
	b.lastEstimate = l.Total()
	l = b.scale(l)

	built := Built{Messages: b.msgs, Layers: l, Tokens: l.Total(), Window: b.window, Header: header, Rebuilt: rebuilt}
	if b.window > 0 {
		built.Share = float64(built.Tokens) / float64(b.window)
	}
	return built
}

// Observe corrects later estimates with the prompt tokens the provider
// reported for the request last built.
func (b *Builder) Observe(promptTokens int) {
	if promptTokens <= 0 || b.lastEstimate <= 0 {
		return
	}
	b.ratio = float64(promptTokens) / float64(b.lastEstimate)
	b.observed = true
}

// Restore takes up a ratio saved from an earlier leg of the run, until the
// provider reports on a request of this one.
func (b *Builder) Restore(ratio float64) {
	if !b.observed && ratio > 0 {
		b.ratio = ratio
	}
}

// Ratio is the provider's tokens per estimated token, from its last report.
func (b *Builder) Ratio() float64 { return b.ratio }

// Scale turns a raw estimate into the provider's tokens, as corrected by the
// last usage it reported.
func (b *Builder) Scale(estimate int) int { return int(float64(estimate)*b.ratio + 0.5) }

func (b *Builder) scale(l event.Layers) event.Layers {
	if b.ratio == 1 {
		return l
	}
	return event.Layers{
		System: b.Scale(l.System), TaskAnchor: b.Scale(l.TaskAnchor), Summary: b.Scale(l.Summary), Memory: b.Scale(l.Memory),
		Recent: b.Scale(l.Recent), ToolResults: b.Scale(l.ToolResults), ToolSchemas: b.Scale(l.ToolSchemas),
	}
}

// estimate is EstimateMessage of turn i of the conversation, taken from
// the last count of it when its size has not changed: the conversation is
// only appended to, so laying a request out anew after a compression
// counts only the turns it has not seen.
func (b *Builder) estimate(i int, m llm.Message, whole bool) int {
	size := len(m.Content) + len(m.Reasoning) + len(m.ToolCalls)
	for _, c := range m.ToolCalls {
		size += len(c.Arguments)
	}
	if whole && i < len(b.counted) && b.counted[i].tokens > 0 && b.counted[i].size == size {
		return b.counted[i].tokens
	}
	n := EstimateMessage(m)
	if whole {
		if i >= len(b.counted) {
			b.counted = append(b.counted, make([]counted, i+1-len(b.counted))...)
		}
		b.counted[i] = counted{size: size, tokens: n}
	}
	return n
}

type counted struct{ size, tokens int }

// CutResult shortens a tool result to about limit characters (0: none), its
// head and tail around a note for the model, so the request fits.
func CutResult(m llm.Message, limit int) llm.Message {
	if limit <= 0 || len(m.Content) <= limit {
		return m
	}
	runes := []rune(m.Content)
	if len(runes) <= limit {
		return m
	}
	head, tail := limit*2/3, limit/3
	m.Content = fmt.Sprintf("%s\n\n[... %d of %d characters left out of this request so that it fits the context window; ask for a smaller part if you need them ...]\n\n%s",
		string(runes[:head]), len(runes)-head-tail, len(runes), string(runes[len(runes)-tail:]))
	return m
}
