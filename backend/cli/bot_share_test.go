package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/homelock"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// startBotProcess runs `hermes bot` on home, its callback on a free
// loopback port, and waits for the line that says where it listens; it
// returns the process and the callback's URL.
func startBotProcess(t *testing.T, home string) (*process, string) {
	t.Helper()
	cmd := hermes(t, "bot", "--home", home, "--listen", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, "BOT_TEST_MODEL_KEY=sk-bot-cli-test", "BOT_TEST_WECOM_SECRET="+botSecret)
	p, m := startProcess(t, cmd, botURL)
	return p, m[0]
}

// The bot owns its home; `hermes serve` started on the same home (as the
// window does) attaches to it, lists the run a WeCom message started, follows
// it live and stops it, and the sender hears where the run stood.
func TestBot_AnAttachedProcessSeesAndStopsTheBotsRun(t *testing.T) {
	asked, hold := make(chan struct{}), make(chan struct{})
	var once sync.Once
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				return llmtest.Step{Content: "Wrote it."}
			}
		}
		// The first decision waits until the stop is queued.
		once.Do(func() { close(asked) })
		return llmtest.Step{Content: "Writing.", Wait: hold, ToolCalls: []llm.ToolCall{{
			ID: "w0", Name: "write_file", Arguments: `{"path":"step0.txt","content":"0"}`,
		}}}
	})
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	home, ws := t.TempDir(), t.TempDir()
	// No routing or planning call: the first request is the decision the
	// stop cuts off.
	writeBotConfig(t, home, model.URL, wecom.URL, fmt.Sprintf("workspace = %q\n\n[agent]\nstrategy = \"react\"\nroute = false\n", ws))

	bot, callback := startBotProcess(t, home)
	lock, err := homelock.ReadLock(home)
	if err != nil || lock.PID != bot.cmd.Process.Pid || lock.Mode != homelock.ModeBot {
		t.Fatalf("the bot's lock: %+v, %v", lock, err)
	}
	cb, err := wecomtest.NewCallbacks(callback, botToken, botAESKey, botCorpID)
	if err != nil {
		t.Fatal(err)
	}
	if status, _, err := cb.Text("alice", "msg-1", "write step0.txt"); err != nil || status != http.StatusOK {
		t.Fatalf("callback: %d, %v", status, err)
	}
	select {
	case <-asked:
	case <-t.Context().Done():
		t.Fatal("the bot's run never asked the model")
	}

	window := startServeProcess(t, home)
	if said := strings.Join(window.said, "\n"); !strings.Contains(said, fmt.Sprintf("attached to hermes bot (pid %d)", lock.PID)) {
		t.Errorf("serve does not say it attached to the bot: %q", said)
	}
	res := window.authed(t, "GET", "api/runs", "")
	var runs []struct {
		RunID  string `json:"run_id"`
		Live   bool   `json:"live"`
		Task   string `json:"task"`
		Origin string `json:"origin"`
		Sample bool   `json:"sample"`
	}
	decodeErr := json.NewDecoder(res.Body).Decode(&runs)
	res.Body.Close()
	if decodeErr != nil {
		t.Fatal(decodeErr)
	}
	// The sample run ends every list.
	if len(runs) != 2 || !runs[1].Sample || !runs[0].Live || runs[0].Task != "write step0.txt" || runs[0].Origin != "wecom/alice" {
		t.Fatalf("the attached process lists %+v, want the bot's run for wecom/alice, live", runs)
	}
	id := runs[0].RunID
	events := sse(t, window.served, id)
	if e := <-events; e.Type != event.RunStarted {
		t.Fatalf("the attached process streams %s first", e.Type)
	}
	stopThrough(t, window.served, id, events, func() { close(hold) })
	wait, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	err = wecom.WaitFor(wait, func(m map[string][]string) bool {
		return slices.ContainsFunc(m["alice"], func(text string) bool { return strings.HasPrefix(text, "Stopped at step 1") })
	})
	if err != nil {
		t.Fatalf("alice never heard where the run stopped: %v; got %q", err, wecom.Messages("alice"))
	}
	// Any user folder: its name carries a hash of the id.
	if ran, _ := filepath.Glob(filepath.Join(ws, "wecom", "*", "step0.txt")); len(ran) > 0 {
		t.Error("the call decided before the stop ran")
	}
	if got := runStatus(t, home, id); got != event.StatusStopped {
		t.Errorf("the bot logged the run as %q", got)
	}

	if code := window.stop(t); code != cli.ExitOK {
		t.Errorf("serve exited %d", code)
	}
	if code := bot.stop(t); code != cli.ExitOK {
		t.Errorf("the bot exited %d: %s", code, bot.stderr)
	}
	if _, err := os.Stat(homelock.LockPath(home)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the bot left its lock: %v", err)
	}
}

// A bot serves only a home it owns: with the window or `hermes serve` open
// on it, it says what to do and starts nothing.
func TestBot_RefusesAHomeAnotherProcessOwns(t *testing.T) {
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "hi"} })
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	home := t.TempDir()
	writeBotConfig(t, home, model.URL, wecom.URL, "")
	owner := startServeProcess(t, home)
	defer owner.stop(t)

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	errOut := &botOutput{}
	code := cli.Main(ctx, botEnv(&botOutput{}, errOut), []string{"bot", "--home", home, "--listen", "127.0.0.1:0"})
	if code != cli.ExitFailed {
		t.Errorf("exit %d, want %d", code, cli.ExitFailed)
	}
	for _, want := range []string{fmt.Sprintf("hermes serve (pid %d)", owner.cmd.Process.Pid), "--home"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("the bot's error lacks %q: %s", want, errOut)
		}
	}
	if st := wecom.Stats(); st.GetToken+st.Send != 0 {
		t.Errorf("the refused bot called WeCom: %+v", st)
	}
}
