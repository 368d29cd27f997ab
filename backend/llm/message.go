package llm

import (
	"encoding/json"
	"time"
)

// Roles of a chat message, as the OpenAI API spells them.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat message as it is sent to the model. It is also the unit
// of a run's conversation in checkpoints and in context.built events, so its
// JSON form is the OpenAI wire form.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
	// Reasoning is the thinking an assistant message came with
	// (reasoning_content). It is kept with the message; whether it goes
	// back to the provider is Config.SendReasoning's to say.
	Reasoning string `json:"reasoning_content,omitempty"`
}

// ToolCall is a call the model asked for. Arguments is the raw JSON text as
// the model wrote it (possibly malformed); the id ties the call to its result.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolDef describes a tool to the model; Parameters is a JSON Schema object.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Usage is the token count the provider reported for one request.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// ReasoningTokens is the part of CompletionTokens the model spent
	// thinking (completion_tokens_details.reasoning_tokens), when the
	// provider says.
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
	// CachedTokens is the part of PromptTokens the provider read from its
	// prompt cache (prompt_tokens_details.cached_tokens), billed at a
	// lower rate, when the provider says.
	CachedTokens int `json:"cached_tokens,omitempty"`
}

// Request is one chat completion request.
type Request struct {
	Model       string
	Messages    []Message
	Tools       []ToolDef
	Temperature *float32
	// TopP is the nucleus sampling cutoff; nil sends none, so the
	// provider's default applies.
	TopP *float32
	// OnDelta receives streamed text as it arrives; nil means no streaming
	// callback (the request may still be streamed).
	OnDelta func(text string)
	// OnReasoning receives the model's streamed thinking (reasoning_content,
	// or reasoning as some servers name it), which comes before the text
	// and the tool calls; nil means no callback.
	OnReasoning func(text string)
	// OnRetry is told of every transient failure that will be retried, so
	// the retry can be shown in the events without reaching the model.
	OnRetry func(r Retry)
}

// Retry describes one transient failure that is about to be retried.
type Retry struct {
	Attempt int           `json:"attempt"` // the attempt that failed, from 1
	Wait    time.Duration `json:"wait"`
	Err     string        `json:"error"`
}

// Response is the model's complete answer to a Request.
type Response struct {
	Content string
	// Reasoning is the model's thinking before the answer, if it sent any.
	Reasoning    string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        Usage
	Latency      time.Duration
	// FirstToken is the time from the call's start (as Latency counts it)
	// to the first text, reasoning or tool call of the streamed answer; 0
	// when the answer was not streamed.
	FirstToken time.Duration
	Attempts   int
	firstAt    time.Time // when the streamed answer's first piece came
}
