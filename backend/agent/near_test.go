package agent_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// fortyLines is a file whose every line says something different.
func fortyLines() string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "line %d: the %s entry of the ledger records %d units shipped to depot %c\n", i, ordinal(i), i*37%101, 'A'+rune(i%26))
	}
	return b.String()
}

func ordinal(i int) string {
	return []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"}[i%8]
}

func TestLoop_NearDuplicateCallsAreWarnedThenStopped(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		// limit_lines 11, 12, 13…: each read brings one line more at most.
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "read_file", map[string]any{"path": "ledger.txt", "limit_lines": 10 + n.Add(1)})}}
	})
	h := newHarness(t, srv)
	h.write("ledger.txt", fortyLines())
	res, events := h.run("find the units shipped to depot C")
	if res.Status != event.StatusGuard || len(srv.Requests()) != 4 {
		t.Fatalf("status %s after %d requests; want guard after 4", res.Status, len(srv.Requests()))
	}
	g := guards(t, events)
	if len(g) != 2 || g[0].Guard != event.GuardNearDuplicate || g[0].Action != event.ActionWarn ||
		g[1].Guard != event.GuardNearDuplicate || g[1].Action != event.ActionStop {
		t.Fatalf("guards = %+v", g)
	}
	if !contains(h.request(3), llm.RoleUser, "change approach") {
		t.Error("the fourth request did not tell the model to change approach")
	}
	if contains(h.request(2), llm.RoleUser, "change approach") {
		t.Error("the model was warned before its third near-identical call")
	}
}

func TestLoop_PagingThroughAFileIsNoLoop(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		i := n.Add(1)
		if i > 4 {
			return llmtest.Step{Content: "depot C got 74 units."}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "read_file", map[string]any{"path": "ledger.txt", "offset_line": 1 + (i-1)*10, "limit_lines": 10})}}
	})
	h := newHarness(t, srv)
	h.write("ledger.txt", fortyLines())
	res, events := h.run("find the units shipped to depot C")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if g := guards(t, events); len(g) != 0 {
		t.Errorf("guards = %+v; reading on brings new lines every time", g)
	}
}
