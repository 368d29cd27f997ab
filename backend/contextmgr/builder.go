package contextmgr

import (
	"hermes/backend/event"
	"hermes/backend/llm"
)

// Input is what one request is built from. Turns is the run's conversation
// after the task: assistant turns, tool results and injected instructions.
type Input struct {
	System string
	Anchor string
	Turns  []llm.Message
	Tools  []llm.ToolDef
}

// Built is one request's context and its accounting.
type Built struct {
	Messages []llm.Message
	Layers   event.Layers
	Tokens   int
	Window   int
	Share    float64 // Tokens / Window
}

// Builder assembles requests. Turns are only appended between compressions,
// so it keeps the request and the per-layer sums from the last build and adds
// just the new turns: building costs the same late in a run as early.
type Builder struct {
	window int
	// msgs is the last request: system, anchor, then turnsIn turns.
	msgs        []llm.Message
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

// Build lays out the request: the system prompt, the task anchor as the first
// user message, then the turns in order. The returned messages must not be
// changed; they share storage with later builds.
func (b *Builder) Build(in Input) Built {
	if len(in.Turns) < b.turnsIn || b.msgs == nil {
		b.msgs = make([]llm.Message, 2, len(in.Turns)+2)
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
	b.lastEstimate = l.Total()
	l = b.scale(l)

	built := Built{Messages: b.msgs, Layers: l, Tokens: l.Total(), Window: b.window}
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

func (b *Builder) scale(l event.Layers) event.Layers {
	if b.ratio == 1 {
		return l
	}
	s := func(n int) int { return int(float64(n)*b.ratio + 0.5) }
	return event.Layers{
		System: s(l.System), TaskAnchor: s(l.TaskAnchor), Summary: s(l.Summary), Memory: s(l.Memory),
		Recent: s(l.Recent), ToolResults: s(l.ToolResults), ToolSchemas: s(l.ToolSchemas),
	}
}
