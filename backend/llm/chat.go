package llm

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// emptySchema stands in for a tool without parameters: servers reject a null schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// chatRequest maps a Request onto go-openai's types.
func (c *Client) chatRequest(req Request) openai.ChatCompletionRequest {
	// max_tokens is deprecated by OpenAI only for its reasoning models;
	// every other server knows it alone.
	out := openai.ChatCompletionRequest{Model: c.cfg.Model, MaxTokens: c.cfg.MaxOutputTokens} //nolint:staticcheck // see above
	if req.Model != "" {
		out.Model = req.Model
	}
	if errors.Is(openai.NewReasoningValidator().Validate(out), openai.ErrReasoningModelMaxTokensDeprecated) {
		// go-openai refuses max_tokens for the reasoning models it knows
		// (o1, o3, o4, gpt-5…), which take max_completion_tokens; every
		// other server, local ones included, knows max_tokens.
		out.MaxTokens, out.MaxCompletionTokens = 0, out.MaxTokens //nolint:staticcheck // see above
	}
	if req.Temperature != nil {
		out.Temperature = *req.Temperature
		if out.Temperature == 0 {
			// go-openai omits a zero temperature, which servers read as their default.
			out.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if req.TopP != nil {
		out.TopP = *req.TopP
	}
	out.Messages = make([]openai.ChatCompletionMessage, len(req.Messages))
	for i, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, Name: m.Name, ToolCallID: m.ToolCallID}
		if c.SendsReasoning(out.Model, m) {
			om.ReasoningContent = m.Reasoning
		}
		if len(m.ToolCalls) > 0 {
			om.ToolCalls = make([]openai.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				om.ToolCalls[j] = openai.ToolCall{
					ID:       tc.ID,
					Type:     openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
				}
			}
		}
		out.Messages[i] = om
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = emptySchema
		}
		out.Tools = append(out.Tools, openai.Tool{
			Type:     openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	return out
}

// plain makes one non-streamed request.
func (c *Client) plain(ctx context.Context, oreq openai.ChatCompletionRequest, req Request) (Response, error) {
	info, _ := ctx.Value(attemptKey{}).(*attemptInfo)
	if info != nil {
		info.keepBody = true
	}
	r, err := c.api.CreateChatCompletion(ctx, oreq)
	if err != nil {
		return Response{}, err
	}
	if len(r.Choices) == 0 {
		return Response{}, errNoChoices
	}
	choice := r.Choices[0]
	reasoning := choice.Message.ReasoningContent
	if reasoning == "" && info != nil {
		reasoning, _ = readExtras(info.body.Bytes(), false)
	}
	size := len(choice.Message.Content) + len(reasoning)
	for _, tc := range choice.Message.ToolCalls {
		size += len(tc.Function.Arguments)
	}
	if size > ReplyCap(c.cfg.MaxOutputTokens) {
		return Response{}, errReplyTooLong
	}
	out := Response{
		Content:      choice.Message.Content,
		Reasoning:    reasoning,
		FinishReason: string(choice.FinishReason),
		Usage:        usageOf(r.Usage),
	}
	var calls toolCallAssembler
	for i, tc := range choice.Message.ToolCalls {
		calls.add(i, tc)
	}
	out.ToolCalls = calls.result()
	if req.OnReasoning != nil && out.Reasoning != "" {
		req.OnReasoning(out.Reasoning)
	}
	if req.OnDelta != nil && out.Content != "" {
		req.OnDelta(out.Content)
	}
	return out, nil
}

// streamed makes one streamed request and assembles the answer from its chunks.
func (c *Client) streamed(ctx context.Context, oreq openai.ChatCompletionRequest, req Request, alive func()) (Response, error) {
	oreq.Stream = true
	oreq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := c.api.CreateChatCompletionStream(ctx, oreq)
	if err != nil {
		return Response{}, err
	}
	defer stream.Close()
	alive()
	info, _ := ctx.Value(attemptKey{}).(*attemptInfo)

	var out Response
	var text, thought strings.Builder
	var calls toolCallAssembler
	meter := replyMeter{left: ReplyCap(c.cfg.MaxOutputTokens)}
	received := 0
	for {
		raw, err := stream.RecvRaw()
		// A clean end of the body ([DONE] or not) ends the answer; a connection
		// dropped mid-body surfaces as io.ErrUnexpectedEOF and is retried.
		if errors.Is(err, io.EOF) && received > 0 {
			break
		}
		if errors.Is(err, io.EOF) {
			return Response{}, errEmptyStream
		}
		if err != nil {
			return Response{}, err
		}
		received++
		var chunk openai.ChatCompletionStreamResponse
		if err := json.Unmarshal(raw, &chunk); err != nil {
			return Response{}, err
		}
		alias, choiceUsage := readExtras(raw, chunk.Usage == nil)
		if u := chunk.Usage; u != nil {
			out.Usage = usageOf(*u)
		} else if choiceUsage != nil {
			out.Usage = usageOf(*choiceUsage)
		}
		// Past the cap the stream is closed (deferred above): the server
		// sees the client go, and nothing of the reply is kept.
		n := chunkText(chunk) + len(alias)
		if !meter.add(n) {
			return Response{}, errReplyTooLong
		}
		// Only a chunk that says something pushes the timeout back: a
		// server sending empty deltas without end is as silent as one
		// sending nothing, and the reply cap would take hours to stop it.
		if n > 0 {
			alive()
		}
		if info != nil {
			info.emptyChunks = n == 0
		}
		if n > 0 && out.firstAt.IsZero() {
			out.firstAt = time.Now()
		}
		for _, choice := range chunk.Choices {
			if choice.Index != 0 {
				continue
			}
			r := choice.Delta.ReasoningContent
			if r == "" {
				r = alias
			}
			if r != "" {
				thought.WriteString(r)
				if req.OnReasoning != nil {
					req.OnReasoning(r)
				}
			}
			if d := choice.Delta.Content; d != "" {
				text.WriteString(d)
				if req.OnDelta != nil {
					req.OnDelta(d)
				}
			}
			for _, tc := range choice.Delta.ToolCalls {
				calls.add(-1, tc)
			}
			if choice.FinishReason != "" {
				out.FinishReason = string(choice.FinishReason)
			}
		}
	}
	out.Content, out.Reasoning = text.String(), thought.String()
	out.ToolCalls = calls.result()
	return out, nil
}

// chunkText is how many bytes of text a stream chunk carries, in every
// choice: content, reasoning and tool calls (id, name and arguments).
func chunkText(chunk openai.ChatCompletionStreamResponse) int {
	n := 0
	for _, choice := range chunk.Choices {
		n += len(choice.Delta.Content) + len(choice.Delta.ReasoningContent)
		for _, tc := range choice.Delta.ToolCalls {
			n += len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	return n
}

// toolCallAssembler joins tool calls that arrive in pieces: the id and name in
// one chunk, the arguments in fragments after it, all tied by index.
type toolCallAssembler struct {
	calls []*partialCall
}

type partialCall struct {
	index int
	id    string
	name  string
	args  strings.Builder
}

// add merges one fragment. fallback is the index to use when the fragment
// carries none; -1 means "a new id starts a new call, anything else continues
// the last one", which is how servers without indexes behave.
func (a *toolCallAssembler) add(fallback int, tc openai.ToolCall) {
	var p *partialCall
	switch {
	case tc.Index != nil:
		p = a.at(*tc.Index)
	case fallback >= 0:
		p = a.at(fallback)
	case len(a.calls) == 0 || tc.ID != "" && tc.ID != a.calls[len(a.calls)-1].id:
		p = a.at(len(a.calls))
	default:
		p = a.calls[len(a.calls)-1]
	}
	if tc.ID != "" {
		p.id = tc.ID
	}
	if tc.Function.Name != "" {
		p.name = tc.Function.Name
	}
	p.args.WriteString(tc.Function.Arguments)
}

func (a *toolCallAssembler) at(index int) *partialCall {
	for _, p := range a.calls {
		if p.index == index {
			return p
		}
	}
	p := &partialCall{index: index}
	a.calls = append(a.calls, p)
	return p
}

// result returns the calls in index order. A call the server sent without an
// id gets one, since the loop ties each result to its call by id.
func (a *toolCallAssembler) result() []ToolCall {
	if len(a.calls) == 0 {
		return nil
	}
	sort.SliceStable(a.calls, func(i, j int) bool { return a.calls[i].index < a.calls[j].index })
	out := make([]ToolCall, len(a.calls))
	for i, p := range a.calls {
		id := p.id
		if id == "" {
			id = "call_" + rand.Text()[:12]
		}
		out[i] = ToolCall{ID: id, Name: p.name, Arguments: p.args.String()}
	}
	return out
}
