package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSkills_ListAndCheck(t *testing.T) {
	home := t.TempDir()
	out := runHermes(t, "skills", "check", "--home", home)
	if out.code != cli.ExitOK || !strings.Contains(out.stdout, "nothing found") {
		t.Fatalf("built-ins alone: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}

	writeFile(t, filepath.Join(home, "skills", "vague", "skill.json"), `{"name":"vague","description":"Stuff.","command":["true"],
		"tools":[{"name":"do_stuff","description":"Does stuff.","risk":"read","parameters":{"type":"object","properties":{"when":{"type":"string"}}}}]}`)
	writeFile(t, filepath.Join(home, "skills", "typo", "skill.json"), `{"name":"typo","descripton":"x"}`)
	out = runHermes(t, "skills", "check", "--home", home)
	for _, want := range []string{"do_stuff: the description never says when", "parameter when has no description", "typo", "descripton"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("check output lacks %q:\n%s", want, out.stdout)
		}
	}
	if out.code != cli.ExitFailed {
		t.Errorf("check with findings: exit %d, want %d", out.code, cli.ExitFailed)
	}

	out = runHermes(t, "skills", "list", "--json", "--home", home)
	var list []struct {
		Name, Status, Problem string
		Tools                 []string
	}
	if err := json.Unmarshal([]byte(out.stdout), &list); err != nil || out.code != cli.ExitOK {
		t.Fatalf("skills list --json: exit %d, %v\n%s", out.code, err, out.stdout)
	}
	status := map[string]string{}
	for _, s := range list {
		status[s.Name] = s.Status
	}
	if status["files"] != "loaded" || status["shell"] != "loaded" || status["vague"] != "loaded" || status["typo"] != "broken" {
		t.Errorf("statuses %v", status)
	}

	out = runHermes(t, "tools", "list", "--home", home)
	for _, want := range []string{"read_file", "execute_command", "exec", "ask", "do_stuff"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("tools list lacks %q:\n%s", want, out.stdout)
		}
	}
}

// TestSkills_ListInChinese: a new user reading the lists in Chinese reads
// the built-in skills and tools in Chinese, and what to do to set up the
// vault tools, once, not each tool that is missing.
func TestSkills_ListInChinese(t *testing.T) {
	home := t.TempDir()
	run := func(args ...string) string {
		cmd := hermes(t, append(args, "--home", home)...)
		cmd.Env = append(cmd.Env, "HERMES_LANG=zh-CN")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return string(out)
	}
	skills := run("skills", "list")
	for _, want := range []string{"列出、读取和写入本次运行工作区中的文件。", "技能 obsidian 尚未设置：尚未选择笔记库", "[obsidian]"} {
		if !strings.Contains(skills, want) {
			t.Errorf("skills list lacks %q:\n%s", want, skills)
		}
	}
	if strings.Count(skills, "search_notes") > 0 {
		t.Errorf("skills list names each missing vault tool:\n%s", skills)
	}
	if tools := run("tools", "list"); !strings.Contains(tools, "读取工作区中的文本文件。") || strings.Contains(tools, "Read a text file") {
		t.Errorf("tools list in Chinese:\n%s", tools)
	}
}

func TestToolsCall_PolicyWithoutATerminal(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, "a.txt"), "hello\n")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   string
		wantFile bool
	}{
		{"read is allowed", []string{"read_file", `{"path":"a.txt"}`}, cli.ExitOK, "hello", "", false},
		{"a repaired call is run", []string{"read_file", `{'path': 'a.txt',}`}, cli.ExitOK, "hello", "", false},
		{"confined to the workspace", []string{"read_file", `{"path":"../x"}`}, cli.ExitFailed, "", "outside", false},
		{"invalid arguments", []string{"read_file", `{"path":3,"bogus":1}`}, cli.ExitUsage, "", "invalid call", false},
		{"unknown tool", []string{"no_such_tool"}, cli.ExitUsage, "", "read_file", false},
		{"write is asked, no one to ask", []string{"write_file", `{"path":"b.txt","content":"x"}`}, cli.ExitFailed, "", "stdin is not a terminal", false},
		{"sensitive read is asked", []string{"read_file", `{"path":"delete-me.txt"}`}, cli.ExitFailed, "", "sensitive phrase", false},
		{"--yes allows", []string{"--yes", "write_file", `{"path":"b.txt","content":"x"}`}, cli.ExitOK, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runHermes(t, append([]string{"tools", "call", "--home", home, "--workspace", ws}, tt.args...)...)
			if out.code != tt.code || !strings.Contains(out.stdout, tt.stdout) || !strings.Contains(out.stderr, tt.stderr) {
				t.Fatalf("exit %d (want %d)\nstdout %q (want %q)\nstderr %q (want %q)", out.code, tt.code, out.stdout, tt.stdout, out.stderr, tt.stderr)
			}
			_, err := os.Stat(filepath.Join(ws, "b.txt"))
			if (err == nil) != tt.wantFile {
				t.Fatalf("b.txt exists: %v, want %v", err == nil, tt.wantFile)
			}
		})
	}
}

func TestRun_ApprovalsWithoutATerminal(t *testing.T) {
	step := llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}}}
	for _, tt := range []struct {
		name    string
		flags   []string
		written bool
		stderr  string
	}{
		{"denied with a message", nil, false, "stdin is not a terminal"},
		{"--yes allows", []string{"--yes"}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, step, llmtest.Step{Content: "done"})
			ws := t.TempDir()
			args := append([]string{"run", "--home", reactHome(t), "--base-url", srv.URL, "--workspace", ws}, tt.flags...)
			out := runHermes(t, append(args, "write a file")...)
			if out.code != cli.ExitOK || !strings.Contains(out.stderr, tt.stderr) {
				t.Fatalf("exit %d, stderr %q (want %q)", out.code, out.stderr, tt.stderr)
			}
			if _, err := os.Stat(filepath.Join(ws, "a.txt")); (err == nil) != tt.written {
				t.Fatalf("a.txt written: %v, want %v", err == nil, tt.written)
			}
		})
	}
}

// What a skill asks of the sandbox is shown where it is listed; its
// command runs with it, and a skill that asks for nothing has no network.
func TestSkills_ListShowsWhatTheSandboxGives(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "skills", "fetcher", "skill.json"), `{"name":"fetcher","description":"Fetches pages. Use it to read a web page.",
		"command":["true"],"sandbox":{"network":true,"writable":["~/.cache/fetcher"]},
		"tools":[{"name":"fetch_page","description":"Fetch a web page when the task needs one; returns its text.","risk":"network"}]}`)
	out := runHermes(t, "skills", "list", "--home", home)
	for _, want := range []string{"sandbox: may reach the network", "sandbox: may also write ~/.cache/fetcher"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("skills list lacks %q:\n%s", want, out.stdout)
		}
	}
	out = runHermes(t, "skills", "list", "--json", "--home", home)
	if !strings.Contains(strings.Join(strings.Fields(out.stdout), ""), `"sandbox":{"network":true,"writable":["~/.cache/fetcher"]}`) {
		t.Errorf("skills list --json:\n%s", out.stdout)
	}
	writeFile(t, filepath.Join(home, "skills", "bad", "skill.json"), `{"name":"bad","description":"Bad. Use it never.","command":["true"],
		"sandbox":{"writable":["relative/dir"]},"tools":[{"name":"bad_tool","description":"Never use it.","risk":"read"}]}`)
	if out := runHermes(t, "skills", "list", "--home", home); !strings.Contains(out.stdout, `sandbox writable "relative/dir"`) {
		t.Errorf("a relative writable folder is not refused:\n%s", out.stdout)
	}
}
