package config

import "strings"

// contextWindows are the windows of common models, by name prefix; the
// longest matching prefix wins. Local runtimes name models "family:size"
// ("llama3.1:8b"), which the prefixes cover.
var contextWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-4o", 128000},
	{"gpt-4.1", 1047576},
	{"gpt-4-turbo", 128000},
	{"gpt-4", 8192},
	{"gpt-3.5-turbo", 16385},
	{"o1", 200000},
	{"o1-mini", 128000},
	{"o3", 200000},
	{"o4", 200000},
	{"deepseek-chat", 128000}, // V3.1 and later; V3 had 64K
	{"deepseek-reasoner", 128000},
	{"qwen-max", 32768},
	{"qwen-plus", 131072},
	{"qwen-turbo", 131072},
	{"qwen-long", 1000000},
	{"qwen", 32768},
	{"llama3.1", 131072},
	{"llama3.2", 131072},
	{"llama3.3", 131072},
	{"llama3", 8192},
}

// The range of [model] max_output_tokens. Below a few hundred tokens no plan
// or tool call fits; above a million no model answers.
const (
	DefaultMaxOutputTokens = 8192
	minOutputTokens        = 256
	maxOutputTokens        = 1_000_000
)

// defaultContextWindow is assumed for a model Hermes does not know.
const defaultContextWindow = 128000

// ContextWindowFor is the context window of a model, in tokens: the known
// window of common models, else 128000. A provider prefix ("openai/gpt-4o")
// and letter case are ignored.
func ContextWindowFor(model string) int {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, tokens := 0, defaultContextWindow
	for _, w := range contextWindows {
		if strings.HasPrefix(name, w.prefix) && len(w.prefix) > best {
			best, tokens = len(w.prefix), w.tokens
		}
	}
	return tokens
}
