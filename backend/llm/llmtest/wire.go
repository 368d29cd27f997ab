package llmtest

import (
	"encoding/json"
	"strings"

	"hermes/backend/llm"
)

// The OpenAI wire format, as much of it as the client sends and reads.

type wireRequest struct {
	Model     string        `json:"model"`
	Messages  []wireMessage `json:"messages"`
	Tools     []wireTool    `json:"tools"`
	Stream    bool          `json:"stream"`
	MaxTokens int           `json:"max_tokens"`
	// MaxCompletionTokens is what reasoning models take instead of MaxTokens.
	MaxCompletionTokens int `json:"max_completion_tokens"`
	// Temperature and TopP are nil when the request left them out.
	Temperature   *float64 `json:"temperature"`
	TopP          *float64 `json:"top_p"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireMessage struct {
	Role             string         `json:"role"`
	Content          wireContent    `json:"content"`
	ReasoningContent string         `json:"reasoning_content"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
	ToolCallID       string         `json:"tool_call_id"`
	Name             string         `json:"name"`
}

type wireTool struct {
	Type     string      `json:"type"`
	Function llm.ToolDef `json:"function"`
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// wireContent reads a message's content: a string, null, or an array of
// parts whose text is joined.
type wireContent string

func (c *wireContent) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*c = wireContent(s)
		return err
	case len(b) > 0 && b[0] == '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString(p.Text)
		}
		*c = wireContent(sb.String())
	}
	return nil
}

type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *wireUsage    `json:"usage,omitempty"`
}

// wireUsage is usage as the API reports it: the reasoning tokens are a
// detail of the completion tokens.
type wireUsage struct {
	PromptTokens            int `json:"prompt_tokens"`
	CompletionTokens        int `json:"completion_tokens"`
	TotalTokens             int `json:"total_tokens"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details,omitempty"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details,omitempty"`
}

func toWireUsage(u llm.Usage) wireUsage {
	w := wireUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if u.ReasoningTokens > 0 {
		w.CompletionTokensDetails = &struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		}{u.ReasoningTokens}
	}
	if u.CachedTokens > 0 {
		w.PromptTokensDetails = &struct {
			CachedTokens int `json:"cached_tokens"`
		}{u.CachedTokens}
	}
	return w
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Role             string         `json:"role,omitempty"`
	Content          string         `json:"content,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	Reasoning        string         `json:"reasoning,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   wireUsage          `json:"usage"`
}

type completionChoice struct {
	Index        int               `json:"index"`
	Message      completionMessage `json:"message"`
	FinishReason string            `json:"finish_reason"`
}

type completionMessage struct {
	Role             string         `json:"role"`
	Content          *string        `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	Reasoning        string         `json:"reasoning,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type errorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    string  `json:"code"`
	} `json:"error"`
}

// toRequest converts a decoded wire request to the llm types tests assert on.
func (w *wireRequest) toRequest() Request {
	r := Request{
		Model: w.Model, Stream: w.Stream, Messages: make([]llm.Message, len(w.Messages)),
		MaxTokens: w.MaxTokens, MaxCompletionTokens: w.MaxCompletionTokens,
		Temperature: w.Temperature, TopP: w.TopP,
	}
	for i, m := range w.Messages {
		msg := llm.Message{Role: m.Role, Content: string(m.Content), ToolCallID: m.ToolCallID, Name: m.Name, Reasoning: m.ReasoningContent}
		if len(m.ToolCalls) > 0 {
			msg.ToolCalls = make([]llm.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				msg.ToolCalls[j] = llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
			}
		}
		r.Messages[i] = msg
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Function)
	}
	return r
}
