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

// Builder assembles requests. It caches each turn's estimate, since turns are
// only appended, so building stays cheap as a run grows.
type Builder struct {
	window     int
	turnTokens []int
	// ratio corrects estimates by what the provider last reported.
	ratio        float64
	lastEstimate int
}

// NewBuilder returns a builder for a model with the given context window.
func NewBuilder(window int) *Builder {
	return &Builder{window: window, ratio: 1}
}

// Build lays out the request: the system prompt, the task anchor as the first
// user message, then the turns in order.
func (b *Builder) Build(in Input) Built {
	if len(in.Turns) < len(b.turnTokens) {
		b.turnTokens = b.turnTokens[:0] // the turns were rewritten
	}
	for _, m := range in.Turns[len(b.turnTokens):] {
		b.turnTokens = append(b.turnTokens, EstimateMessage(m))
	}

	var l event.Layers
	l.System = Estimate(in.System) + messageOverhead
	l.TaskAnchor = Estimate(in.Anchor) + messageOverhead
	l.ToolSchemas = EstimateTools(in.Tools)
	for i, m := range in.Turns {
		if m.Role == llm.RoleTool {
			l.ToolResults += b.turnTokens[i]
		} else {
			l.Recent += b.turnTokens[i]
		}
	}
	b.lastEstimate = l.Total()
	l = b.scale(l)

	msgs := make([]llm.Message, 0, len(in.Turns)+2)
	msgs = append(msgs,
		llm.Message{Role: llm.RoleSystem, Content: in.System},
		llm.Message{Role: llm.RoleUser, Content: in.Anchor})
	msgs = append(msgs, in.Turns...)

	built := Built{Messages: msgs, Layers: l, Tokens: l.Total(), Window: b.window}
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
