package contextmgr

import (
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
	turnsIn     int
	recent      int
	toolResults int
	// ratio corrects estimates by what the provider last reported.
	ratio        float64
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
	rebuilt := b.msgs == nil || header != b.header || in.Folded != b.folded || len(in.Turns) < b.turnsIn
	if rebuilt {
		b.msgs = make([]llm.Message, header, header+len(in.Turns)+8)
		b.header, b.folded = header, in.Folded
		b.turnsIn, b.recent, b.toolResults = 0, 0, 0
	}
	for _, m := range in.Turns[b.turnsIn:] {
		if m.Role == llm.RoleTool {
			b.toolResults += EstimateMessage(m)
		} else {
			b.recent += EstimateMessage(m)
		}
	}
	b.msgs = append(b.msgs, in.Turns[b.turnsIn:]...)
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
