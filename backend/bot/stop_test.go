package bot_test

import (
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// The report of a stopped task counts the tool calls that ran, over every
// leg of the run: not a call the model decided that the stop kept from
// running.
func TestBot_StopReportCountsCallsThatRan(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	list := func(id, path string) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: id, Name: "list_files", Arguments: `{"path":"` + path + `"}`}}}
	}
	arrived, release := make(chan int, 4), []chan struct{}{make(chan struct{}), make(chan struct{})}
	n := 0
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		n++
		switch n {
		case 1:
			return list("call_1", ".") // runs
		case 2, 3: // decided, then stopped before they run
			step := list("call_"+string(rune('0'+n)), "sub"+string(rune('0'+n)))
			step.Wait = release[n-2]
			arrived <- n
			return step
		}
		return llmtest.Step{Content: "done"}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("wangwu", "m1", "列出我的文件")
	<-arrived
	h.send("wangwu", "m2", "/停止")
	waitMessage(t, wecom, "wangwu", "将在下一个安全点停止")
	close(release[0])
	got := waitMessage(t, wecom, "wangwu", "已在第 2 步停止")
	if last := got[len(got)-1]; !strings.Contains(last, "调用工具 1 次") {
		t.Fatalf("first stop: %q, want one tool call (the second was decided, never run)", last)
	}

	h.send("wangwu", "m3", "/继续")
	<-arrived
	h.send("wangwu", "m4", "/停止")
	// The second notice that the stop is queued, before the call is let go.
	err := wecom.WaitFor(t.Context(), func(m map[string][]string) bool {
		n := 0
		for _, text := range m["wangwu"] {
			if strings.Contains(text, "将在下一个安全点停止") {
				n++
			}
		}
		return n == 2
	})
	if err != nil {
		t.Fatal(err)
	}
	close(release[1])
	got = waitMessage(t, wecom, "wangwu", "已在第 3 步停止")
	if last := got[len(got)-1]; !strings.Contains(last, "调用工具 1 次") {
		t.Fatalf("second stop: %q, want one tool call over both legs", last)
	}
}
