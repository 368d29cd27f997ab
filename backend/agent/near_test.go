package agent_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/agent"
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

// The files people bring, 2,000 lines each: short lines (counted lines,
// hashes, base64, Chinese without spaces) and long ones (minified code,
// prose), each line different from the others.
func nearFiles() map[string]string {
	files := map[string]func(i int) string{
		"counted": func(i int) string { return fmt.Sprintf("line %d", i) },
		"hashes": func(i int) string {
			sum := sha256.Sum256([]byte(strconv.Itoa(i)))
			return hex.EncodeToString(sum[:])
		},
		"base64": func(i int) string {
			var b []byte
			for j := range 2 {
				sum := sha256.Sum256([]byte(fmt.Sprintf("%d/%d", i, j)))
				b = append(b, sum[:]...)
			}
			return base64.StdEncoding.EncodeToString(b[:57]) // 76 characters, as MIME wraps it
		},
		"chinese": func(i int) string {
			sum := sha256.Sum256([]byte(strconv.Itoa(i)))
			var b strings.Builder
			fmt.Fprintf(&b, "第%d行：", i)
			for _, c := range sum {
				b.WriteRune(0x4E00 + rune(c)*37) // CJK ideographs, no spaces
			}
			return b.String()
		},
		"minified": func(i int) string {
			var b strings.Builder
			for j := range 60 {
				fmt.Fprintf(&b, "function f%d_%d(a,b){return a*%d+b.map(x=>x^%d)};", i, j, i*j%97, j)
			}
			return b.String()
		},
		"prose": func(i int) string {
			words := strings.Fields("ledger depot shipment carrier invoice pallet route harbour customs manifest freight warehouse")
			var b strings.Builder
			for j := range 300 {
				b.WriteString(words[(i*7+j*j)%len(words)])
				fmt.Fprintf(&b, "%d ", (i*31+j)%1000)
			}
			return b.String()
		},
	}
	out := map[string]string{}
	for name, line := range files {
		var b strings.Builder
		for i := 1; i <= 2000; i++ {
			b.WriteString(line(i))
			b.WriteByte('\n')
		}
		out[name+".txt"] = b.String()
	}
	return out
}

// readRun scripts the model to call read_file on path with args(i) for
// i = 1…8, then to answer, and runs it over a workspace with content there.
func readRun(t *testing.T, path, content string, args func(i int) map[string]any) (*harness, agent.Result, []event.Event) {
	t.Helper()
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		i := int(n.Add(1))
		if i > 8 {
			return llmtest.Step{Content: "done reading."}
		}
		a := args(i)
		a["path"] = path
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "read_file", a)}}
	})
	h := newHarness(t, srv)
	h.write(path, content)
	res, events := h.run("read " + path)
	return h, res, events
}

// A file of short lines read one line more each time: Hermes's own note of
// what was shown ("[lines 1-12 of 400; call read_file with offset_line=13
// to read on]") changes with each call, and must not count as something
// new. The guard warns at the third such call and stops at the fourth.
func TestLoop_NearDuplicateReadsOfShortLines(t *testing.T) {
	files := nearFiles()
	var counted strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&counted, "line %d\n", i)
	}
	files["counted.txt"] = counted.String()
	for _, name := range []string{"counted.txt", "hashes.txt", "base64.txt", "chinese.txt"} {
		t.Run(name, func(t *testing.T) {
			h, res, events := readRun(t, name, files[name], func(i int) map[string]any {
				return map[string]any{"limit_lines": 10 + i} // 11…18
			})
			if res.Status != event.StatusGuard || len(h.server.Requests()) != 4 {
				t.Fatalf("status %s after %d requests; want the guard to stop the fourth read of 8", res.Status, len(h.server.Requests()))
			}
			if g := guards(t, events); len(g) != 2 || g[0].Guard != event.GuardNearDuplicate || g[1].Action != event.ActionStop {
				t.Fatalf("guards = %+v", g)
			}
		})
	}
}

// Reading a large file page by page brings something new every time, in
// every kind of content, whether the pages are shown whole or cut to
// their head and tail.
func TestLoop_PagingThroughLargeFilesIsNoLoop(t *testing.T) {
	for name, content := range nearFiles() {
		for _, page := range []int{11, 200} {
			t.Run(fmt.Sprintf("%s/%d lines", name, page), func(t *testing.T) {
				_, res, events := readRun(t, name, content, func(i int) map[string]any {
					return map[string]any{"offset_line": 1 + (i-1)*page, "limit_lines": page}
				})
				if res.Status != event.StatusFinished {
					t.Fatalf("status %s: %s", res.Status, res.Error)
				}
				if g := guards(t, events); len(g) != 0 {
					t.Errorf("guards = %+v; every page is new", g)
				}
			})
		}
	}
}
