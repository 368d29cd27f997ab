package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// answer writes one scripted step as a chat completion.
type answer struct {
	step    Step
	id      string
	model   string
	created int64
}

func (a *answer) finishReason() string {
	if len(a.step.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// repeated is text as the step sends it: Repeat times over.
func (a *answer) repeated(text string) string {
	if a.step.Repeat > 1 {
		return strings.Repeat(text, a.step.Repeat)
	}
	return text
}

func (a *answer) plain(w http.ResponseWriter) {
	msg := completionMessage{Role: "assistant"}
	if a.step.ReasoningAsAlias {
		msg.Reasoning = a.repeated(a.step.Reasoning)
	} else {
		msg.ReasoningContent = a.repeated(a.step.Reasoning)
	}
	if a.step.Content != "" {
		content := a.repeated(a.step.Content)
		msg.Content = &content
	}
	for i, tc := range a.step.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, wireToolCall{
			Index:    &i,
			ID:       tc.ID,
			Type:     "function",
			Function: wireFunction{Name: tc.Name, Arguments: a.repeated(tc.Arguments)},
		})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(completion{ // a client gone has no one to be told
		ID:      a.id,
		Object:  "chat.completion",
		Created: a.created,
		Model:   a.model,
		Choices: []completionChoice{{Message: msg, FinishReason: a.finishReason()}},
		Usage:   toWireUsage(a.step.Usage),
	})
}

// stream writes the step as server-sent events: the empty chunks, the
// reasoning and the text in pieces, each tool call's id and name then its
// argument fragments, the finish reason, the usage when asked for, and
// [DONE]. With CutAfter it
// drops the connection part-way, as a crashed proxy would. It stops as soon
// as ctx ends or a write fails (the client went away); written counts the
// chunks sent.
func (a *answer) stream(ctx context.Context, w http.ResponseWriter, includeUsage bool, written *atomic.Int64) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	bw := bufio.NewWriter(w)
	sent := 0
	send := func(c chunk) bool {
		if sent > 0 && a.step.ChunkDelay > 0 {
			select {
			case <-time.After(a.step.ChunkDelay):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			return false
		}
		c.ID, c.Object, c.Created, c.Model = a.id, "chat.completion.chunk", a.created, a.model
		if c.Choices == nil {
			c.Choices = []chunkChoice{}
		}
		b, _ := json.Marshal(c)
		// The writer keeps its first error for Flush.
		_, _ = bw.WriteString("data: ")
		_, _ = bw.Write(b)
		_, _ = bw.WriteString("\n\n")
		if bw.Flush() != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		written.Add(1)
		sent++
		if a.step.CutAfter > 0 && sent >= a.step.CutAfter {
			// Abort without the chunked body's terminator: the client sees
			// the connection break mid-answer.
			panic(http.ErrAbortHandler)
		}
		return true
	}
	// sendText sends a chunk that carries text, Repeat times over.
	sendText := func(c chunk) bool {
		for range max(a.step.Repeat, 1) {
			if !send(c) {
				return false
			}
		}
		return true
	}
	choice := func(d delta, finish *string) chunk {
		return chunk{Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
	}

	for range a.step.EmptyChunks {
		if !send(choice(delta{}, nil)) {
			return
		}
	}
	role := "assistant"
	for _, p := range split(a.step.Reasoning, a.step.Chunks) {
		d := delta{Role: role, ReasoningContent: p}
		if a.step.ReasoningAsAlias {
			d = delta{Role: role, Reasoning: p}
		}
		if !sendText(choice(d, nil)) {
			return
		}
		role = ""
	}
	pieces := split(a.step.Content, a.step.Chunks)
	if len(pieces) == 0 && len(a.step.ToolCalls) == 0 && role != "" {
		pieces = []string{""}
	}
	for _, p := range pieces {
		if !sendText(choice(delta{Role: role, Content: p}, nil)) {
			return
		}
		role = ""
	}
	for i, tc := range a.step.ToolCalls {
		head := wireToolCall{Index: &i, ID: tc.ID, Type: "function", Function: wireFunction{Name: tc.Name}}
		if a.step.Chunks <= 1 && a.step.Repeat <= 1 {
			head.Function.Arguments = tc.Arguments
			if !send(choice(delta{Role: role, ToolCalls: []wireToolCall{head}}, nil)) {
				return
			}
			role = ""
			continue
		}
		if !send(choice(delta{Role: role, ToolCalls: []wireToolCall{head}}, nil)) {
			return
		}
		role = ""
		for _, frag := range split(tc.Arguments, a.step.Chunks) {
			if !sendText(choice(delta{ToolCalls: []wireToolCall{{Index: &i, Function: wireFunction{Arguments: frag}}}}, nil)) {
				return
			}
		}
	}
	finish := a.finishReason()
	if !send(choice(delta{}, &finish)) {
		return
	}
	if includeUsage {
		usage := toWireUsage(a.step.Usage)
		if !send(chunk{Usage: &usage}) {
			return
		}
	}
	_, _ = bw.WriteString("data: [DONE]\n\n")
	_ = bw.Flush() // the stream's end: a client gone has no one to be told
}

// split cuts s into n pieces of nearly equal rune counts, on rune
// boundaries; pieces that would be empty (n above the rune count) are left out.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 1 {
		return []string{s}
	}
	runes := utf8.RuneCountInString(s)
	pieces := make([]string, 0, min(n, runes))
	taken := 0
	for i := 1; i <= n; i++ {
		want := runes*i/n - taken
		if want == 0 {
			continue
		}
		end := 0
		for range want {
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
		taken += want
	}
	return pieces
}
