package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// testRun is one run written as a real log through runlog.
type testRun struct {
	id      string
	task    string
	status  string // "" leaves the log without run.finished, as a crash does
	started time.Time
	origin  string // the bot's chat user who asked, if any
}

func writeRunLog(t *testing.T, home string, r testRun) string {
	t.Helper()
	w, err := runlog.Create(home, r.id, r.started)
	if err != nil {
		t.Fatal(err)
	}
	clock := r.started
	em := event.NewEmitter(r.id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: func() time.Time {
		clock = clock.Add(time.Second)
		return clock
	}})
	emit := func(typ event.Type, iteration int, payload any) {
		t.Helper()
		if _, err := em.Emit(typ, iteration, payload); err != nil {
			t.Fatal(err)
		}
	}
	emit(event.RunStarted, 0, event.RunStartedData{Task: r.task, Model: "gpt-4o-mini", Workspace: "ws", MaxIterations: 25, Origin: r.origin})
	emit(event.IterationStarted, 1, event.IterationStartedData{})
	emit(event.ModelDecided, 1, event.ModelDecidedData{FinalAnswer: "answer to " + r.task,
		Usage: llm.Usage{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200}})
	if r.status != "" {
		emit(event.RunFinished, 1, event.RunFinishedData{Status: r.status, Answer: "answer to " + r.task, Verified: true,
			Totals: event.Totals{Iterations: 1, PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

var day = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// threeRuns writes runs started at 09:00, 10:00 and 11:00; the two later ids
// share the prefix "20261130-1", and the last is a chat user's in the bot.
func threeRuns(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for _, r := range []testRun{
		{"20261130-090000-aaaaaa", "Summarise a.txt", event.StatusFinished, day.Add(9 * time.Hour), ""},
		{"20261130-100000-bbbbbb", "整理本周的会议笔记并写出摘要", event.StatusGuard, day.Add(10 * time.Hour), ""},
		{"20261130-110000-cccccc", "Rename the drafts", "", day.Add(11 * time.Hour), "wecom/zhangsan"},
	} {
		writeRunLog(t, home, r)
	}
	return home
}

// runCLI runs `hermes args...` and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	code := Main(t.Context(), env, args)
	return code, stdout.String(), stderr.String()
}

func TestRuns_EmptyHome(t *testing.T) {
	useLang(t, i18n.EN)
	home := t.TempDir()
	code, out, _ := runCLI(t, "runs", "--home", home)
	if code != ExitOK || !strings.Contains(out, "No runs yet in "+home) || !strings.Contains(out, `hermes run "your task"`) {
		t.Errorf("exit %d, output %q; want a hint to start a first run", code, out)
	}
	code, out, _ = runCLI(t, "runs", "--home", home, "--json")
	if code != ExitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("--json on an empty home: exit %d, output %q; want []", code, out)
	}
}

func TestRuns_Table(t *testing.T) {
	useLang(t, i18n.EN)
	home := threeRuns(t)
	cases := []struct {
		name    string
		args    []string
		ids     []string // in the order they must appear
		absent  []string
		stderr  string
		contain []string
	}{
		{"all, newest first", nil,
			[]string{"20261130-110000-cccccc", "20261130-100000-bbbbbb", "20261130-090000-aaaaaa"}, nil,
			"hermes runs show", []string{"RUN ID", "running", "guard", "finished", "1.2k", "整理本周的会议笔记并写出摘要", "[wecom/zhangsan] Rename the drafts"}},
		{"by status", []string{"--status", "finished"},
			[]string{"20261130-090000-aaaaaa"}, []string{"bbbbbb", "cccccc"}, "", []string{"Summarise a.txt"}},
		{"limited", []string{"--limit", "1"},
			[]string{"20261130-110000-cccccc"}, []string{"bbbbbb", "aaaaaa"}, "showing the newest 1 run;", nil},
		{"flags after nothing else", []string{"--limit=2", "--status=guard"},
			[]string{"20261130-100000-bbbbbb"}, []string{"aaaaaa", "cccccc"}, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"runs", "--home", home}, c.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if strings.Contains(out, "\x1b") {
				t.Errorf("colour codes in a pipe:\n%q", out)
			}
			last := -1
			for _, id := range c.ids {
				i := strings.Index(out, id)
				if i <= last {
					t.Errorf("%s missing or out of order in:\n%s", id, out)
				}
				last = i
			}
			for _, s := range c.absent {
				if strings.Contains(out, s) {
					t.Errorf("%s listed but filtered out:\n%s", s, out)
				}
			}
			for _, s := range c.contain {
				if !strings.Contains(out, s) {
					t.Errorf("missing %q in:\n%s", s, out)
				}
			}
			if !strings.Contains(errOut, c.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, c.stderr)
			}
		})
	}
}

func TestRuns_TableAlignsChinese(t *testing.T) {
	useLang(t, i18n.ZH)
	home := threeRuns(t)
	code, out, errOut := runCLI(t, "runs", "--home", home)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "运行 ID") {
		t.Fatalf("want a header and 3 rows, got:\n%s", out)
	}
	// Every task starts in the same column, counted in display width.
	head, _, found := strings.Cut(lines[0], "任务")
	if !found {
		t.Fatalf("no 任务 column in the header %q", lines[0])
	}
	col := width(head)
	for _, l := range lines[1:] {
		task := strings.LastIndex(l, "  ") + 2
		if got := width(l[:task]); got != col {
			t.Errorf("task column at %d, header at %d:\n%s", got, col, out)
		}
	}
}

func TestRuns_UnreadableLogIsReported(t *testing.T) {
	useLang(t, i18n.EN)
	home := threeRuns(t)
	bad := filepath.Join(home, "logs", "2026-11-30", "run_20261130-120000-dddddd.jsonl")
	if err := os.WriteFile(bad, []byte("not an event\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "runs", "--home", home)
	if code != ExitOK || strings.Count(out, "20261130-") != 3 {
		t.Errorf("exit %d; want the 3 readable runs listed:\n%s", code, out)
	}
	if !strings.Contains(errOut, "run_20261130-120000-dddddd.jsonl") {
		t.Errorf("stderr does not name the unreadable log:\n%s", errOut)
	}
}

func TestRuns_JSON(t *testing.T) {
	home := threeRuns(t)
	code, out, errOut := runCLI(t, "runs", "--home", home, "--json", "--limit", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got []runlog.Summary
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not a JSON array of summaries: %v\n%s", err, out)
	}
	if len(got) != 2 || got[0].RunID != "20261130-110000-cccccc" || got[1].Status != event.StatusGuard || got[1].Tokens != 1200 {
		t.Errorf("got %+v", got)
	}
	if !strings.Contains(out, `"run_id"`) {
		t.Errorf("keys are not snake_case:\n%s", out)
	}
}

func TestRuns_BadArguments(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{
		{"runs", "--home", home, "--status", "done"},
		{"runs", "--home", home, "--limit", "-1"},
		{"runs", "--home", home, "extra"},
		{"runs", "show", "--home", home},
		{"runs", "show", "--home", home, "a", "b"},
		{"runs", "--bogus"},
	} {
		if code, _, errOut := runCLI(t, args...); code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}

func TestRunsShow(t *testing.T) {
	useLang(t, i18n.EN)
	home := threeRuns(t)
	_, full, _ := runCLI(t, "runs", "show", "--home", home, "20261130-090000-aaaaaa")
	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   string // exact, when set
		contains []string
		stderr   []string
	}{
		{"exact id", []string{"20261130-090000-aaaaaa"}, ExitOK, "",
			[]string{"▶ run 20261130-090000-aaaaaa", "Summarise a.txt", "── iteration 1 ", "answer to Summarise a.txt", "── ✓ finished"}, nil},
		{"unique prefix", []string{"20261130-09"}, ExitOK, full, nil, nil},
		{"flags after the id", []string{"20261130-09", "--verbose"}, ExitOK, full, nil, nil},
		{"ambiguous prefix", []string{"20261130-1"}, ExitFailed, "", nil,
			[]string{`"20261130-1" matches 2 runs`, "20261130-100000-bbbbbb", "20261130-110000-cccccc", "give more of the run id"}},
		{"unknown id", []string{"20991231-000000-ffffff"}, ExitFailed, "", nil,
			[]string{"20991231-000000-ffffff", "hermes runs"}},
		{"unfinished run", []string{"20261130-110000-cccccc"}, ExitOK, "",
			[]string{"Rename the drafts"}, []string{"hermes resume 20261130-110000-cccccc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"runs", "show", "--home", home}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, errOut)
			}
			if c.stdout != "" && out != c.stdout {
				t.Errorf("output differs from the exact id's:\n%s\nwant:\n%s", out, c.stdout)
			}
			for _, s := range c.contains {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
		})
	}
}

func TestRunsShow_JSONIsTheLog(t *testing.T) {
	home := t.TempDir()
	path := writeRunLog(t, home, testRun{"20261130-090000-dddddd", "Compare <a> & <b>", event.StatusFinished, day.Add(9 * time.Hour), ""})
	code, out, errOut := runCLI(t, "runs", "show", "--home", home, "20261130-090000-dd", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	logged, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(logged) {
		t.Errorf("--json output is not the log:\n%s\nlog:\n%s", out, logged)
	}
}

// While another process holds hermes.db (the home's owner during a live
// run), hermes runs and runs show read the logs instead of waiting.
func TestRuns_OwnedHomeStillLists(t *testing.T) {
	useLang(t, i18n.EN)
	home := threeRuns(t)
	owner, err := store.Open(runner.StorePath(home))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close() })
	code, out, errOut := runCLI(t, "runs", "--home", home, "--limit", "2")
	if code != ExitOK || !strings.Contains(out, "20261130-110000-cccccc") || !strings.Contains(out, "20261130-100000-bbbbbb") ||
		strings.Contains(out, "aaaaaa") || !strings.Contains(errOut, "showing the newest 2 runs") {
		t.Fatalf("exit %d, out:\n%s\nerr:\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "runs", "show", "--home", home, "20261130-09")
	if code != ExitOK || !strings.Contains(out, "Summarise a.txt") {
		t.Fatalf("show by prefix: exit %d, out:\n%s\nerr:\n%s", code, out, errOut)
	}
}

// countingListener tells of every read the owner's local API makes from a
// connection: a request arrived (a kept-alive connection carries several).
type countingListener struct {
	net.Listener
	read chan struct{}
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, read: l.read}, nil
}

type countingConn struct {
	net.Conn
	read chan struct{}
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		select {
		case c.read <- struct{}{}:
		default:
		}
	}
	return n, err
}

// While a live process owns the home and holds hermes.db (the bot holds it
// for its life), hermes runs and runs show PREFIX ask that owner for a page
// over its local API instead of reading every log.
func TestRuns_AttachedAsksTheOwner(t *testing.T) {
	useLang(t, i18n.EN)
	home := threeRuns(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingListener{Listener: ln, read: make(chan struct{}, 64)}
	owner, err := host.Open(t.Context(), home, host.Bot, host.Options{MustOwn: true, HoldStore: true, Listener: counted})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close(context.Background()) })
	asked := func() int {
		n := len(counted.read)
		for range n {
			<-counted.read
		}
		return n
	}

	code, out, errOut := runCLI(t, "runs", "--home", home, "--limit", "2")
	if code != ExitOK || !strings.Contains(out, "20261130-110000-cccccc") || !strings.Contains(out, "20261130-100000-bbbbbb") ||
		strings.Contains(out, "aaaaaa") || !strings.Contains(errOut, "showing the newest 2 runs") {
		t.Fatalf("exit %d, out:\n%s\nerr:\n%s", code, out, errOut)
	}
	if asked() == 0 {
		t.Fatal("hermes runs did not ask the owner; it read the logs")
	}
	code, out, errOut = runCLI(t, "runs", "--home", home, "--status", event.StatusStopped)
	if code != ExitOK || !strings.Contains(out, "No run has status stopped") {
		t.Fatalf("--status: exit %d, out:\n%s\nerr:\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "runs", "show", "--home", home, "20261130-09")
	if code != ExitOK || !strings.Contains(out, "Summarise a.txt") {
		t.Fatalf("show by prefix: exit %d, out:\n%s\nerr:\n%s", code, out, errOut)
	}
	if asked() == 0 {
		t.Fatal("hermes runs show PREFIX did not ask the owner")
	}
	code, _, errOut = runCLI(t, "runs", "show", "--home", home, "20261130-1")
	if code == ExitOK || !strings.Contains(errOut, "20261130-100000-bbbbbb") || !strings.Contains(errOut, "20261130-110000-cccccc") {
		t.Fatalf("ambiguous prefix: exit %d, err:\n%s", code, errOut)
	}
}
