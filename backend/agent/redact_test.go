package agent_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// TestLoop_ToolResultsReachTheModelRedacted: a tool's output or error that
// holds the API key, plain or encoded, reaches the model with it redacted,
// whole or cut (the cut part kept as an artifact), as it reaches the log,
// the events and hermes.db.
func TestLoop_ToolResultsReachTheModelRedacted(t *testing.T) {
	leaky := toolbox.Tool{
		Name: "login", Description: "Logs in. Use in tests.", Risk: toolbox.RiskRead,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Run: func(context.Context, toolbox.Env, json.RawMessage) (string, error) {
			return "", errors.New("401 for Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+testKey)))
		},
	}
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{
			call("c1", "login", map[string]any{}),
			call("c2", "read_file", map[string]any{"path": "dump.txt"}),
			call("c3", "read_file", map[string]any{"path": "long.txt"}),
		}},
		llmtest.Step{Content: "Done."},
	)
	h := newHarness(t, srv, leaky)
	h.setup.Limits.ObservationLimit = 2000
	h.write("dump.txt", agenttest.Encodings(testKey))
	h.write("long.txt", strings.Repeat("filler line\n", 200)+agenttest.Encodings(testKey))
	res, events := h.run("show me the environment")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var tools []llm.Message
	for _, m := range reqs[1].Messages {
		if m.Role == llm.RoleTool {
			tools = append(tools, m)
		}
	}
	if len(tools) != 3 {
		t.Fatalf("the second request has %d tool messages", len(tools))
	}
	for _, m := range tools {
		if !strings.Contains(m.Content, runlog.Redacted) {
			t.Errorf("%s's result was not redacted: %q", m.ToolCallID, m.Content)
		}
	}
	sent, _ := json.Marshal(reqs[1].Messages)
	if leaks := agenttest.Leaks(sent, testKey); len(leaks) > 0 {
		t.Errorf("the model was sent the key as %q", leaks)
	}
	var all []byte
	for _, e := range events {
		all = append(all, e.Data...)
	}
	if leaks := agenttest.Leaks(all, testKey); len(leaks) > 0 {
		t.Errorf("the events hold the key as %q", leaks)
	}
	err := filepath.WalkDir(h.home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if leaks := agenttest.Leaks(b, testKey); len(leaks) > 0 {
			t.Errorf("%s holds the key as %q", filepath.Base(path), leaks)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
