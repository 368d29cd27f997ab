package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
	"hermes/backend/wecom/wecomtest"
)

func TestBot_WeComWholePath(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	wecom.MapOpenID("woOPEN-zhang", "zhangsan")
	model := echoModel(t)
	h := newHarness(t, "", model, botConfig(wecom))

	status, body, err := h.cb.VerifyURL("1616140317555161061")
	if err != nil || status != 200 || body != "1616140317555161061" {
		t.Fatalf("URL verification: %d %q %v", status, body, err)
	}

	h.send("woOPEN-zhang", "msg-1", "summarise the notes")
	waitMessage(t, wecom, "zhangsan", "answer to: summarise the notes")

	// WeCom resends a callback it thinks was missed: no second run.
	h.send("woOPEN-zhang", "msg-1", "summarise the notes")
	h.send("woOPEN-zhang", "msg-2", "and then?")
	got := waitMessage(t, wecom, "zhangsan", "answer to: and then?")
	if len(got) != 2 || len(model.Requests()) != 2 {
		t.Fatalf("after a resend: messages %q and %d model requests; want 2 and 2", got, len(model.Requests()))
	}
	if st := wecom.Stats(); st.GetToken != 1 || st.Convert != 1 {
		t.Fatalf("stats %+v: want one token and one conversion for the whole conversation", st)
	}
}

func TestBot_RefusesBadCallbacks(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model := echoModel(t)
	cfg := botConfig(wecom)
	cfg.MaxBody = 4096
	h := newHarness(t, "", model, cfg)
	plain := h.cb.TextXML("lisi", "m1", "hello")
	signed := func(ts time.Time, nonce string) *http.Request {
		req, err := h.cb.Request(plain, ts, nonce)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	withQuery := func(req *http.Request, key, value string) *http.Request {
		q := req.URL.Query()
		q.Set(key, value)
		req.URL.RawQuery = q.Encode()
		return req
	}
	withBody := func(req *http.Request, body string) *http.Request {
		r, _ := http.NewRequest(req.Method, req.URL.String(), strings.NewReader(body))
		return r
	}
	replayed := signed(time.Now(), "nonce-replayed")
	if status, _, _ := h.cb.Do(replayed); status != 200 {
		t.Fatalf("first delivery: %d", status)
	}
	get, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/callback?"+url.Values{"msg_signature": {"x"}, "timestamp": {"1"}, "nonce": {"n"}, "echostr": {"abc"}}.Encode(), nil)
	cases := []struct {
		name string
		req  *http.Request
		want int
	}{
		{"bad signature", withQuery(signed(time.Now(), wecomtest.Nonce()), "msg_signature", strings.Repeat("0", 40)), http.StatusForbidden},
		{"no signature", withQuery(signed(time.Now(), wecomtest.Nonce()), "msg_signature", ""), http.StatusBadRequest},
		{"stale timestamp", signed(time.Now().Add(-6*time.Minute), wecomtest.Nonce()), http.StatusForbidden},
		{"timestamp from the future", signed(time.Now().Add(6*time.Minute), wecomtest.Nonce()), http.StatusForbidden},
		{"replayed nonce", withBody(replayed, readBody(t, replayed)), http.StatusConflict},
		{"malformed XML", withBody(signed(time.Now(), wecomtest.Nonce()), "<xml><Encrypt>"), http.StatusBadRequest},
		{"no Encrypt element", withBody(signed(time.Now(), wecomtest.Nonce()), "<xml><ToUserName>x</ToUserName></xml>"), http.StatusBadRequest},
		{"oversized body", withBody(signed(time.Now(), wecomtest.Nonce()), "<xml>"+strings.Repeat("a", 5000)+"</xml>"), http.StatusRequestEntityTooLarge},
		{"URL verification with a bad signature", get, http.StatusForbidden},
		{"wrong method", mustRequest(t, http.MethodPut, h.srv.URL+"/callback"), http.StatusMethodNotAllowed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, _, err := h.cb.Do(tc.req)
			if err != nil || status != tc.want {
				t.Fatalf("status %d (%v), want %d", status, err, tc.want)
			}
		})
	}
	// Only the one good message ran.
	waitMessage(t, wecom, "lisi", "answer to: hello")
	h.close()
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
	if !strings.Contains(h.logs.String(), "callback refused") {
		t.Fatalf("refusals not logged:\n%s", h.logs.String())
	}
}

func readBody(t *testing.T, req *http.Request) string {
	t.Helper()
	if req.GetBody == nil {
		t.Fatal("request body cannot be read again")
	}
	rc, err := req.GetBody()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(rc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mustRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// blockingModel holds its first answer until release is closed, and says
// on arrived when that request came.
func blockingModel(t *testing.T, first llmtest.Step, then func(llmtest.Request) llmtest.Step) (model *llmtest.Server, arrived chan struct{}, release chan struct{}) {
	arrived, release = make(chan struct{}, 1), make(chan struct{})
	n := 0
	model = llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		n++
		if n == 1 {
			arrived <- struct{}{}
			first.Wait = release
			return first
		}
		return then(req)
	})
	return model, arrived, release
}

func TestBot_StopMidRunThenResume(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	listCall := llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`}}}
	model, arrived, release := blockingModel(t, listCall, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "resumed and done"}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("wangwu", "m1", "list my files")
	<-arrived
	h.send("wangwu", "m2", "/stop")
	waitMessage(t, wecom, "wangwu", "Stopping at the next safe point")
	close(release)
	got := waitMessage(t, wecom, "wangwu", "Stopped at step 1")
	if !strings.Contains(got[len(got)-1], "/resume") {
		t.Fatalf("the stop report %q does not say how to go on", got[len(got)-1])
	}

	h.send("wangwu", "m3", "/继续")
	waitMessage(t, wecom, "wangwu", "resumed and done")
	reqs := model.Requests()
	if len(reqs) != 2 || taskOf(reqs[1]) != "list my files" {
		t.Fatalf("%d requests; the resumed one has the task %q", len(reqs), taskOf(reqs[len(reqs)-1]))
	}
	// The call decided before the stop was not run, and the model is told.
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != llm.RoleTool || !strings.Contains(last.Content, "Not run") {
		t.Fatalf("the resumed request ends with %s %q, want the unrun call", last.Role, last.Content)
	}
}

func TestBot_MessageDuringRunIsInjected(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	listCall := llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`}}}
	model, arrived, release := blockingModel(t, listCall, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "done, with: " + strings.Join(injectedOf(req), ",")}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("zhaoliu", "m1", "tidy the folder")
	<-arrived
	h.send("zhaoliu", "m2", "keep the PDFs")
	waitMessage(t, wecom, "zhaoliu", "Added to the task")
	close(release)
	got := waitMessage(t, wecom, "zhaoliu", "done, with: keep the PDFs")
	if len(got) != 2 {
		t.Fatalf("messages %q, want the notice and one answer", got)
	}
}

func TestBot_DeniesToolsThatNeedApproval(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	n := 0
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		n++
		if n == 1 {
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_w", Name: "write_file", Arguments: `{"path":"notes.txt","content":"x"}`}}}
		}
		return llmtest.Step{Content: "could not write the file"}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("sunqi", "m1", "写一个文件")
	got := waitMessage(t, wecom, "sunqi", "could not write the file")
	if len(got) != 2 || !strings.Contains(got[0], "write_file") || !strings.Contains(got[0], "allow_tools") {
		t.Fatalf("messages %q: want the denial naming the tool and the setting, then the answer", got)
	}
	if !strings.Contains(got[0], "我没有运行工具") {
		t.Fatalf("denial %q is not in the user's language", got[0])
	}
	matches, _ := filepath.Glob(filepath.Join(h.home, "bot", "workspaces", "*", "*", "notes.txt"))
	if len(matches) != 0 {
		t.Fatalf("the denied call wrote %v", matches)
	}
}

func TestBot_AllowToolsLetsACallRun(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	n := 0
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		n++
		if n == 1 {
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_w", Name: "write_file", Arguments: `{"path":"notes.txt","content":"x"}`}}}
		}
		return llmtest.Step{Content: "written"}
	})
	cfg := botConfig(wecom)
	cfg.AllowTools = []string{"write_file"}
	h := newHarness(t, "", model, cfg)
	h.send("sunqi", "m1", "write a file")
	waitMessage(t, wecom, "sunqi", "written")
	if _, err := os.Stat(filepath.Join(h.bot.Workspace("wecom", "sunqi"), "notes.txt")); err != nil {
		t.Fatalf("an allowed call did not write in the user's workspace: %v", err)
	}
}

// allow_tools does not let a call escape the OS sandbox: only a person
// may, and no one is in the chat, so it is denied and the user told why.
func TestBot_AllowToolsDoesNotCoverEscaping(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	n := 0
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		n++
		if n == 1 {
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_x", Name: "execute_command", Arguments: `{"command":"echo x > out.txt"}`}}}
		}
		return llmtest.Step{Content: "could not run it"}
	})
	cfg := botConfig(wecom)
	cfg.AllowTools = []string{"execute_command"}
	exec := toolbox.ExecuteCommand(0, 4096, nil)
	exec.Confinement = func(toolbox.Env, json.RawMessage) toolbox.Confinement { return toolbox.Escaping }
	h := newHarness(t, "", model, cfg, func(s *agent.Setup) {
		if err := s.Tools.Register(exec); err != nil {
			t.Fatal(err)
		}
	})
	h.send("sunqi", "m1", "run it outside")
	got := waitMessage(t, wecom, "sunqi", "could not run it")
	if len(got) != 2 || !strings.Contains(got[0], "outside the OS sandbox") || !strings.Contains(got[0], "execute_command") {
		t.Fatalf("messages %q: want the denial saying why, then the answer", got)
	}
	if _, err := os.Stat(filepath.Join(h.bot.Workspace("wecom", "sunqi"), "out.txt")); err == nil {
		t.Fatal("the escaping call ran")
	}
}

func TestBot_RestartKeepsUserIDsAndSession(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	wecom.MapOpenID("woOPEN-qian", "qianba")
	model := echoModel(t)
	home := t.TempDir()
	h := newHarness(t, home, model, botConfig(wecom))
	h.send("woOPEN-qian", "m1", "my colour is blue")
	waitMessage(t, wecom, "qianba", "answer to: my colour is blue")
	h.close()

	h = newHarness(t, home, model, botConfig(wecom))
	h.send("woOPEN-qian", "m2", "what is my colour?")
	waitMessage(t, wecom, "qianba", "answer to: what is my colour?")
	if n := wecom.Stats().Convert; n != 1 {
		t.Fatalf("%d conversion calls, want 1: the restart must read the cache", n)
	}
	reqs := model.Requests()
	anchor := reqs[len(reqs)-1].Messages[1].Content
	if !strings.Contains(anchor, "my colour is blue") {
		t.Fatalf("the run after the restart does not see the session's history:\n%s", anchor)
	}
}

func TestBot_Commands(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model := echoModel(t)
	h := newHarness(t, "", model, botConfig(wecom))
	steps := []struct{ text, want string }{
		{"/help", "/stop"},
		{"／帮助", "/停止"},
		{"/status", "Nothing is running"},
		{"/pause", "Nothing is running"},
		{"/resume", "nothing to resume"},
		{"remember 42", "answer to: remember 42"},
		{"/状态", "已回答"},
		{"/新会话", "已开始新的对话"},
		{"/status", "0 earlier exchanges"},
	}
	for i, s := range steps {
		h.send("zhou", "cmd-"+string(rune('a'+i)), s.text)
		waitMessage(t, wecom, "zhou", s.want)
	}
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("commands reached the model: %d requests, want 1", n)
	}
}

func TestBot_ShutdownStopsRunsAtASafePoint(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	listCall := llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`}}}
	model, arrived, release := blockingModel(t, listCall, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "never"} })
	h := newHarness(t, "", model, botConfig(wecom))
	h.send("wu", "m1", "a long task")
	<-arrived
	done := make(chan error, 1)
	go func() { done <- h.bot.Shutdown(context.Background()) }()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := waitMessage(t, wecom, "wu", "Stopped at step 1")
	if status, _, _ := h.cb.Text("wu", "m2", "more"); status != http.StatusServiceUnavailable {
		t.Fatalf("a message after shutdown: %d, want 503; messages %q", status, got)
	}
}

func TestBot_ReconfigureAppliesAllowToolsToTheNextTask(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Step{Content: "result: " + last.Content}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_w", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}}}
	})
	cfg := botConfig(wecom)
	h := newHarness(t, "", model, cfg)
	h.send("li", "m1", "write a.txt")
	waitMessage(t, wecom, "li", "result: ")
	if _, err := os.Stat(filepath.Join(h.bot.Workspace("wecom", "li"), "a.txt")); err == nil {
		t.Fatal("write_file ran before it was allowed")
	}

	cfg.AllowTools = []string{"write_file"}
	cfg.Listen = "127.0.0.1:9999"
	restart, err := h.bot.Reconfigure(cfg)
	if err != nil || len(restart) != 1 || restart[0] != "listen" {
		t.Fatalf("Reconfigure: %v, restart %q; want only listen to need a restart", err, restart)
	}
	h.send("li", "m2", "write a.txt again")
	waitMessage(t, wecom, "li", "result: wrote")
	if _, err := os.Stat(filepath.Join(h.bot.Workspace("wecom", "li"), "a.txt")); err != nil {
		t.Fatalf("write_file did not run once allowed: %v", err)
	}
}

func TestBot_PinKeepsAFactInTheTask(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	listCall := llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`}}}
	model, arrived, release := blockingModel(t, listCall, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "anchor: " + req.Messages[1].Content}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("sunqi", "m1", "plan the offsite")
	<-arrived
	h.send("sunqi", "m2", "/固定 预算是 500 欧元")
	waitMessage(t, wecom, "sunqi", "已固定")
	close(release)
	waitMessage(t, wecom, "sunqi", "预算是 500 欧元")
}
