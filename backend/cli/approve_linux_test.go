package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

// openPTY returns a pseudo-terminal: the master end the test types into,
// and the slave end a process takes as its terminal stdin.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		m.Close()
	})
	// The terminal echoes what is typed back to the master; drain it so a
	// full buffer never blocks the typing.
	go func() {
		buf := make([]byte, 1024)
		for {
			if _, err := m.Read(buf); err != nil {
				return
			}
		}
	}()
	return m, s
}

func TestToolsCall_TerminalPromptRemembersAlways(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	master, slave := openPTY(t)
	cmd := hermes(t, "tools", "call", "--home", home, "--workspace", ws, "write_file", `{"path":"notes/a.md","content":"one"}`)
	cmd.Stdin = slave
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// "always", for paths under notes/ only; the terminal holds the lines
	// until the prompt reads them.
	if _, err := master.WriteString("a\nnotes/*\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"write_file (write) wants to run", `"path":"notes/a.md"`, "[a] always"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("prompt lacks %q:\n%s", want, stderr.String())
		}
	}
	if b, err := os.ReadFile(filepath.Join(ws, "notes", "a.md")); err != nil || string(b) != "one" {
		t.Fatalf("notes/a.md = %q, %v", b, err)
	}

	// Remembered: the next matching call runs with no terminal at all; one
	// outside the pattern is still asked.
	if out := runHermes(t, "tools", "call", "--home", home, "--workspace", ws, "write_file", `{"path":"notes/b.md","content":"two"}`); out.code != cli.ExitOK {
		t.Fatalf("remembered rule: exit %d\n%s", out.code, out.stderr)
	}
	if out := runHermes(t, "tools", "call", "--home", home, "--workspace", ws, "write_file", `{"path":"c.md","content":"x"}`); out.code != cli.ExitFailed {
		t.Fatalf("outside the pattern: exit %d", out.code)
	}
	out := runHermes(t, "tools", "rules", "--home", home)
	if !strings.Contains(out.stdout, "write_file") || !strings.Contains(out.stdout, "notes/*") {
		t.Fatalf("rules:\n%s", out.stdout)
	}
	if out := runHermes(t, "tools", "revoke", "--home", home, "1"); out.code != cli.ExitOK {
		t.Fatalf("revoke: exit %d\n%s", out.code, out.stderr)
	}
	if out := runHermes(t, "tools", "call", "--home", home, "--workspace", ws, "write_file", `{"path":"notes/c.md","content":"x"}`); out.code != cli.ExitFailed {
		t.Fatalf("after revoke: exit %d, want the call asked (and denied)", out.code)
	}
}

// TestRun_TerminalApprovals drives `hermes run` through a terminal: the
// first write is denied with a reason the model reads, the second allowed
// for the rest of the run, so the third is not asked.
func TestRun_TerminalApprovals(t *testing.T) {
	write := func(id, path string) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: id, Name: "write_file", Arguments: `{"path":"` + path + `","content":"x"}`}}}
	}
	srv := llmtest.NewServer(t, write("w1", "secret.txt"), write("w2", "a.txt"), write("w3", "b.txt"), llmtest.Step{Content: "done"})
	home, ws := reactHome(t), t.TempDir()
	master, slave := openPTY(t)
	cmd := hermes(t, "run", "--json", "--home", home, "--base-url", srv.URL, "--workspace", ws, "write files")
	cmd.Stdin = slave
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString("d\nnot that one\nr\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var decisions []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e event.Event
		if json.Unmarshal([]byte(line), &e) != nil || e.Type != event.ApprovalResolved {
			continue
		}
		var d event.ApprovalResolvedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		decisions = append(decisions, d.Decision+":"+d.Reason)
	}
	if strings.Join(decisions, ",") != "deny:not that one,allow_run:" {
		t.Fatalf("decisions %v\n%s", decisions, stderr.String())
	}
	reqs := srv.Requests()
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Content, "not that one") {
		t.Errorf("the model did not read the reason: %q", last.Content)
	}
	for file, want := range map[string]bool{"secret.txt": false, "a.txt": true, "b.txt": true} {
		if _, err := os.Stat(filepath.Join(ws, file)); (err == nil) != want {
			t.Errorf("%s written: %v, want %v", file, err == nil, want)
		}
	}
	if runs, _ := runlog.List(home); len(runs) != 1 || runs[0].Status != event.StatusFinished {
		t.Errorf("runs %+v", runs)
	}
}

// hermes tools call execute_command at a terminal: the prompt lists the
// line's commands, Enter at "always" remembers one pattern per command,
// and a later line of those commands runs without asking while one with
// another command is still asked. allow_commands covers a command too.
func TestToolsCall_CommandPatternsPerCommand(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	toml := "[tools]\nallow_commands = [\"wc *\"]\n\n[tools.risk]\nexec = \"ask\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	master, slave := openPTY(t)
	cmd := hermes(t, "tools", "call", "--home", home, "--workspace", ws, "execute_command", `{"command":"cat a.txt | head -n 1 && wc -l a.txt"}`)
	cmd.Stdin = slave
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString("a\n\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"$ cat a.txt\n", "$ head -n 1\n", "$ wc -l a.txt\n", "Enter for cat *; head *"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("prompt lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "one\n2 a.txt") {
		t.Errorf("output %q", stdout.String())
	}
	out := runHermes(t, "tools", "rules", "--home", home)
	if !strings.Contains(out.stdout, "cat *") || !strings.Contains(out.stdout, "head *") || strings.Contains(out.stdout, "wc") {
		t.Fatalf("rules:\n%s", out.stdout)
	}
	if out := runHermes(t, "tools", "call", "--home", home, "--workspace", ws, "execute_command", `{"command":"cat a.txt | head -n 2; wc -c a.txt"}`); out.code != cli.ExitOK {
		t.Fatalf("covered by the rules: exit %d\n%s", out.code, out.stderr)
	}
	out = runHermes(t, "tools", "call", "--home", home, "--workspace", ws, "execute_command", `{"command":"cat a.txt | sort"}`)
	if out.code != cli.ExitFailed || !strings.Contains(out.stderr, "execute_command") {
		t.Fatalf("sort is not covered: exit %d\n%s", out.code, out.stderr)
	}
}
