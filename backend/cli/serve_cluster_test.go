package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/wecom/wecomtest"
)

// runsFeed follows GET /api/runs/stream of s: each run's summary as it changes.
func runsFeed(t *testing.T, s served) <-chan runner.Summary {
	t.Helper()
	res := s.authed(t, "GET", "api/runs/stream", "")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("runs stream: %d", res.StatusCode)
	}
	c := make(chan runner.Summary, 256)
	go func() {
		defer close(c)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var sum runner.Summary
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && json.Unmarshal([]byte(data), &sum) == nil {
				c <- sum
			}
		}
	}()
	return c
}

// nextSummary reads feed until a summary for which want is true.
func nextSummary(t *testing.T, feed <-chan runner.Summary, want func(runner.Summary) bool) runner.Summary {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case s, ok := <-feed:
			if !ok {
				t.Fatal("the runs stream closed")
			}
			if want(s) {
				return s
			}
		case <-deadline:
			t.Fatal("the summary waited for did not come in 30 s")
		}
	}
}

// TestServe_ShowsAndStopsAClusterChatTask: `hermes serve` on a home whose
// hermes.toml names the cluster of a `hermes bot` replica shows the chat
// task a WeCom user gave that replica, marked with the replica, and a stop
// sent to `hermes serve` stops it on the replica.
func TestServe_ShowsAndStopsAClusterChatTask(t *testing.T) {
	nats := clustertest.Start(t)
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		if asked.Add(1) == 1 {
			return llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{}`}}, Wait: hold}
		}
		return llmtest.Step{Content: "hello from the cluster"}
	})
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	botHome := t.TempDir()
	writeBotConfig(t, botHome, model.URL, wecom.URL, "\n[cluster]\nnats_url = \""+nats.URL+"\"\n")
	out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
	botCode := make(chan int, 1)
	go func() {
		botCode <- cli.Main(ctx, botEnv(out, errOut), []string{"bot", "--home", botHome, "--listen", "127.0.0.1:0"})
	}()
	var url string
	select {
	case url = <-out.ready:
	case c := <-botCode:
		t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
	}

	serveHome := t.TempDir()
	if err := os.WriteFile(filepath.Join(serveHome, "hermes.toml"), []byte("[cluster]\nnats_url = \""+nats.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, ctx, serveEnv(nil), serveHome)
	feed := runsFeed(t, s)

	cb, err := wecomtest.NewCallbacks(url, botToken, botAESKey, botCorpID)
	if err != nil {
		t.Fatal(err)
	}
	if status, _, err := cb.Text("lisi", "m1", "say hello"); err != nil || status != 200 {
		t.Fatalf("callback: %d %v", status, err)
	}
	task := nextSummary(t, feed, func(s runner.Summary) bool { return s.Live && s.Origin == "wecom/lisi" })
	if !strings.HasPrefix(task.Replica, "hermes-bot ") {
		t.Fatalf("the chat task's summary %+v does not name its replica", task)
	}
	res := s.authed(t, "GET", "api/runs", "")
	var runs []runner.Summary
	err = json.NewDecoder(res.Body).Decode(&runs)
	res.Body.Close()
	if err != nil || len(runs) == 0 || runs[0].RunID != task.RunID || runs[0].Replica != task.Replica {
		t.Fatalf("GET /api/runs: %v %+v; want %s first", err, runs, task.RunID)
	}

	res = s.authed(t, "POST", "api/runs/"+task.RunID+"/control", `{"kind":"stop"}`)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("stop: %d %s", res.StatusCode, body)
	}
	release()
	end := nextSummary(t, feed, func(s runner.Summary) bool { return s.RunID == task.RunID && !s.Live })
	if end.Status != event.StatusStopped || end.Replica != task.Replica {
		t.Fatalf("the chat task ended %+v; want stopped on %s", end, task.Replica)
	}

	cancel()
	if c := <-botCode; c != cli.ExitOK {
		t.Fatalf("hermes bot: exit code %d:\n%s", c, errOut)
	}
	if c := <-s.code; c != cli.ExitOK {
		t.Fatalf("hermes serve: exit code %d", c)
	}
}

// TestServe_UnreachableClusterServesTheHome: a nats_url no server answers
// leaves `hermes serve` serving its home, and says why the cluster is not
// there and what to check.
func TestServe_UnreachableClusterServesTheHome(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[cluster]\nnats_url = \"nats://127.0.0.1:9\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	env := serveEnv(nil)
	s := startServe(t, ctx, env, home)
	res := s.authed(t, "GET", "api/cluster", "")
	var st struct {
		Enabled bool `json:"enabled"`
	}
	err := json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || st.Enabled {
		t.Fatalf("GET /api/cluster: %d %+v %v", res.StatusCode, st, err)
	}
	cancel()
	if c := <-s.code; c != cli.ExitOK {
		t.Fatalf("hermes serve: exit code %d", c)
	}
	if msg := env.Stderr.(*bytes.Buffer).String(); !strings.Contains(msg, "[cluster] nats_url") || !strings.Contains(msg, "serving this home's runs only") {
		t.Fatalf("stderr does not say what happened: %q", msg)
	}
}
