package telemetry

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// Attributes of Hermes's own, beside the GenAI semantic conventions.
const (
	keyRunID            = "hermes.run.id"
	keyIteration        = "hermes.iteration"
	keyMaxIterations    = "hermes.max_iterations"
	keyTools            = "hermes.tools"
	keyOrigin           = "hermes.origin"
	keyTask             = "hermes.task"
	keyInstructions     = "hermes.instructions"
	keyForkedFrom       = "hermes.forked_from.run_id"
	keyForkedAt         = "hermes.forked_from.iteration"
	keyLinkKind         = "hermes.link"
	keyResumedAt        = "hermes.resumed.iteration"
	keyResumedFromModel = "hermes.resumed.from_model"
	keyStage            = "hermes.stage"
	keyAttempts         = "hermes.model.attempts"
	keyAttempt          = "hermes.attempt"
	keyToolAttempt      = "hermes.tool.attempt"
	keyWaitMS           = "hermes.wait_ms"
	keyRetries          = "hermes.tool.retries"
	keyToolStatus       = "hermes.tool.status"
	keyDurationMS       = "hermes.tool.duration_ms"
	keyResultSize       = "hermes.tool.result_size"
	keyGuard            = "hermes.guard"
	keyGuardAction      = "hermes.guard.action"
	keyMessage          = "hermes.message"
	keyRisk             = "hermes.approval.risk"
	keyReason           = "hermes.approval.reason"
	keyDecision         = "hermes.approval.decision"
	keyBy               = "hermes.approval.by"
	keyTurnsFolded      = "hermes.summary.turns_folded"
	keyTokensBefore     = "hermes.summary.tokens_before"
	keyTokensAfter      = "hermes.summary.tokens_after"
	keySummary          = "hermes.summary.text"
	keyStatus           = "hermes.status"
	keyVerified         = "hermes.verified"
	keyBestEffort       = "hermes.best_effort"
	keyIterations       = "hermes.iterations"
	keyToolCalls        = "hermes.tool_calls"
	keyAnswer           = "hermes.answer"
	// keyReasoningTokens is the semantic conventions' name for the part of
	// the output tokens spent thinking (open-telemetry/semantic-conventions
	// #3383), newer than the conventions the SDK ships.
	keyReasoningTokens = "gen_ai.usage.reasoning.output_tokens"
	// keySystem is gen_ai.provider.name's older name, which some backends
	// still read.
	keySystem = "gen_ai.system"
)

// providers names the providers the GenAI conventions know, by the host of
// their API; another host is named by itself.
var providers = map[string]string{
	"api.openai.com":                    "openai",
	"api.deepseek.com":                  "deepseek",
	"api.anthropic.com":                 "anthropic",
	"api.mistral.ai":                    "mistral_ai",
	"api.groq.com":                      "groq",
	"api.x.ai":                          "x_ai",
	"api.perplexity.ai":                 "perplexity",
	"generativelanguage.googleapis.com": "gcp.gemini",
}

// providerOf names the provider of the endpoint at baseURL (as run.started
// shows it, masked).
func providerOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return "openai" // the protocol Hermes speaks
	}
	host := strings.ToLower(u.Hostname())
	if p, ok := providers[host]; ok {
		return p
	}
	return host
}

func providerAttrs(p string) []attribute.KeyValue {
	return []attribute.KeyValue{semconv.GenAIProviderNameKey.String(p), attribute.String(keySystem, p)}
}

// A message as the GenAI conventions write gen_ai.input.messages and
// gen_ai.output.messages: a role and its parts.
type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

type part struct {
	Type      string `json:"type"` // text, reasoning, tool_call, tool_call_response
	Content   string `json:"content,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Response  string `json:"response,omitempty"`
}

// inputMessages are the messages a request added to the conversation.
func inputMessages(msgs []llm.Message) []message {
	out := make([]message, 0, len(msgs))
	for _, m := range msgs {
		var parts []part
		if m.Reasoning != "" {
			parts = append(parts, part{Type: "reasoning", Content: m.Reasoning})
		}
		switch {
		case m.Role == llm.RoleTool:
			parts = append(parts, part{Type: "tool_call_response", ID: m.ToolCallID, Response: m.Content})
		case m.Content != "":
			parts = append(parts, part{Type: "text", Content: m.Content})
		}
		for _, c := range m.ToolCalls {
			parts = append(parts, part{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		out = append(out, message{Role: m.Role, Parts: parts})
	}
	return out
}

// outputMessages is a decision as the model's reply.
func outputMessages(d event.ModelDecidedData) []message {
	m := message{Role: llm.RoleAssistant, FinishReason: d.FinishReason}
	if d.Reasoning != "" {
		m.Parts = append(m.Parts, part{Type: "reasoning", Content: d.Reasoning})
	}
	for _, text := range []string{d.Thought, d.FinalAnswer} {
		if text != "" {
			m.Parts = append(m.Parts, part{Type: "text", Content: text})
		}
	}
	for _, c := range d.ToolCalls {
		m.Parts = append(m.Parts, part{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return []message{m}
}

// json encodes v for an attribute, scrubbed like every exported text.
func (t *Trace) json(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if t.redact != nil {
		b = t.redact(b)
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }
