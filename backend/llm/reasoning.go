package llm

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// The values of Config.SendReasoning ([model] send_reasoning).
const (
	// SendReasoningAuto sends an assistant message's reasoning back only to
	// the providers whose API requires it with tool calls (DeepSeek, GLM,
	// Kimi), known by their endpoint or, elsewhere, by the model's name.
	SendReasoningAuto = "auto"
	// SendReasoningAlways sends the reasoning of every assistant message.
	SendReasoningAlways = "always"
	// SendReasoningNever never sends it.
	SendReasoningNever = "never"
)

// SendReasoningValues are the values [model] send_reasoning accepts.
var SendReasoningValues = []string{SendReasoningAuto, SendReasoningAlways, SendReasoningNever}

// Providers that say what happens to reasoning sent back, by API host.
// DeepSeek's thinking mode answers 400 when an assistant message with tool
// calls comes back without its reasoning_content (its older reasoner
// refused reasoning_content on messages without tool calls, which it
// never had). GLM's interleaved thinking and Kimi's thinking models ask
// for it with the tool results. Qwen (DashScope) does not ask for it, and
// OpenAI's API has no such field.
var (
	reasoningHosts   = []string{"api.deepseek.com", "api.moonshot.ai", "api.moonshot.cn", "api.z.ai", "open.bigmodel.cn"}
	noReasoningHosts = []string{"api.openai.com", "dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com"}
	// reasoningModels name the same families served elsewhere (a router, a
	// local server running their weights).
	reasoningModels = []string{"deepseek", "kimi", "glm"}
)

// sendReasoning is the send_reasoning setting in effect.
func (c *Client) sendReasoning() string {
	if c.cfg.SendReasoning == "" {
		return SendReasoningAuto
	}
	return c.cfg.SendReasoning
}

// SendsReasoning reports whether the reasoning of m goes into a request to
// model ("" means the client's): the agent keeps it in the conversation
// only then, so what it counts is what is sent.
func (c *Client) SendsReasoning(model string, m Message) bool {
	if m.Reasoning == "" || m.Role != RoleAssistant {
		return false
	}
	if model == "" {
		model = c.cfg.Model
	}
	switch c.cfg.SendReasoning {
	case SendReasoningAlways:
		return true
	case SendReasoningNever:
		return false
	}
	return len(m.ToolCalls) > 0 && RequiresReasoning(c.cfg.BaseURL, model)
}

// RequiresReasoning reports whether the provider at baseURL, or the model's
// family, requires the reasoning of an assistant message with tool calls
// back: what send_reasoning = "auto" goes by.
func RequiresReasoning(baseURL, model string) bool {
	host := ""
	if u, err := url.Parse(baseURL); err == nil {
		host = strings.ToLower(u.Hostname())
	}
	for _, h := range reasoningHosts {
		if host == h {
			return true
		}
	}
	for _, h := range noReasoningHosts {
		if host == h {
			return false
		}
	}
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	for _, family := range reasoningModels {
		if strings.HasPrefix(name, family) {
			return true
		}
	}
	return false
}

// usageOf converts the provider's usage.
func usageOf(u openai.Usage) Usage {
	out := Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = d.ReasoningTokens
	}
	if d := u.PromptTokensDetails; d != nil {
		out.CachedTokens = d.CachedTokens
	}
	return out
}

// extras is what go-openai does not read of a chunk or an answer: the
// reasoning some servers (OpenRouter, Ollama, newer vLLM) send as
// "reasoning" rather than "reasoning_content", and the usage Moonshot puts
// in the last choice of a stream instead of beside it.
type extras struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Reasoning any `json:"reasoning"`
		} `json:"delta"`
		Message struct {
			Reasoning any `json:"reasoning"`
		} `json:"message"`
		Usage *openai.Usage `json:"usage"`
	} `json:"choices"`
}

var (
	reasoningKey = []byte(`"reasoning"`)
	usageKey     = []byte(`"usage"`)
)

// readExtras reads choice 0's reasoning alias and usage from raw, which is
// only parsed again when it holds either.
func readExtras(raw []byte, wantUsage bool) (reasoning string, usage *openai.Usage) {
	if !bytes.Contains(raw, reasoningKey) && !(wantUsage && bytes.Contains(raw, usageKey)) {
		return "", nil
	}
	var x extras
	if json.Unmarshal(raw, &x) != nil {
		return "", nil
	}
	for _, ch := range x.Choices {
		if ch.Index != 0 {
			continue
		}
		// Only a string is reasoning text; other shapes are left alone.
		if s, ok := ch.Delta.Reasoning.(string); ok {
			reasoning = s
		}
		if s, ok := ch.Message.Reasoning.(string); ok && reasoning == "" {
			reasoning = s
		}
		if wantUsage {
			usage = ch.Usage
		}
	}
	return reasoning, usage
}
