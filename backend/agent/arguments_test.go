package agent_test

import (
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// TestLoop_MalformedArgumentsReachTheTool sends each of the eleven forms of
// broken arguments real models emit through the client and the loop: every
// one must run read_file on a.txt, marked repaired.
func TestLoop_MalformedArgumentsReachTheTool(t *testing.T) {
	forms := []struct{ name, args string }{
		{"trailing commas", `{"path": "a.txt", "limit_lines": 5,}`},
		{"single quotes", `{'path': 'a.txt'}`},
		{"unquoted keys", `{path: "a.txt", limit_lines: 5}`},
		{"code fence", "```json\n{\"path\": \"a.txt\"}\n```"},
		{"line comments", "{\n  \"path\": \"a.txt\", // the file to read\n  \"limit_lines\": 5 // enough\n}"},
		{"block comments", `{/* read it */ "path": "a.txt"}`},
		{"typographic quotes", `{“path”: “a.txt”}`},
		{"python literals", `{"path": "a.txt", "limit_lines": None}`},
		{"a JSON string holding the JSON", `"{\"path\": \"a.txt\"}"`},
		{"truncated closing braces", `{"path": "a.txt", "limit_lines": 5`},
		{"leading prose", `Here are the arguments: {"path": "a.txt"}`},
		{"byte order mark", "\ufeff{\"path\": \"a.txt\"}"},
		{"non-breaking spaces", "{\"path\":\u00a0\"a.txt\",\u00a0\"limit_lines\": 5}"},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			srv := llmtest.NewServer(t,
				llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", f.args)}, Chunks: 3},
				llmtest.Step{Content: "a.txt says hello."},
			)
			h := newHarness(t, srv)
			h.write("a.txt", "hello from a\n")
			res, events := h.run("read a.txt")
			if res.Status != event.StatusFinished || !res.Verified {
				t.Fatalf("result %+v", res)
			}
			r := toolResults(t, events)
			if len(r) != 1 || !r[0].OK || !strings.Contains(r[0].Result, "hello from a") {
				t.Fatalf("tool results = %+v; %q must reach read_file", r, f.args)
			}
			d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
			if len(d.ToolCalls) != 1 || !d.ToolCalls[0].Valid || !d.ToolCalls[0].Repaired {
				t.Errorf("decided calls = %+v; want one valid call marked repaired", d.ToolCalls)
			}
		})
	}
}
