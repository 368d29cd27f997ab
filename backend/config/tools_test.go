package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTools_LoadsTheREADMEExample(t *testing.T) {
	cfg, err := Load(writeConfig(t, `
[tools]
allow = ["fetch_url"]
deny = ["execute_command"]
sensitive = ["rm -rf", "转账"]
disabled = ["obsidian"]
command_timeout = "20s"

[tools.risk]
read = "allow"
write = "ask"
exec = "deny"

[[tools.mcp]]
name = "everything"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]
env = { LOG_LEVEL = "info" }
risk = "read"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tl := cfg.Tools
	switch {
	case tl.Action("exec") != "deny" || tl.Action("network") != "ask" || tl.Action("read") != "allow":
		t.Errorf("actions: exec %s, network %s, read %s", tl.Action("exec"), tl.Action("network"), tl.Action("read"))
	case !slices.Equal(tl.SensitivePatterns(), []string{"rm -rf", "转账"}):
		t.Errorf("sensitive %v", tl.SensitivePatterns())
	case tl.SkillOn("obsidian") || !tl.SkillOn("files"):
		t.Error("disabled skills")
	case tl.Timeout(time.Minute) != 20*time.Second || tl.Output() != DefaultOutputLimit || tl.Threshold() != DefaultSelectAbove:
		t.Errorf("timeout %s, output %d, threshold %d", tl.Timeout(time.Minute), tl.Output(), tl.Threshold())
	case len(tl.MCP) != 1 || tl.MCP[0].Env["LOG_LEVEL"] != "info" || tl.MCP[0].Args[0] != "-y":
		t.Errorf("mcp %+v", tl.MCP)
	}
}

func TestTools_Defaults(t *testing.T) {
	tl := Default().Tools
	if tl.Action("read") != "allow" || tl.Action("write") != "ask" || tl.Action("exec") != "sandbox" || tl.Action("network") != "ask" {
		t.Error("default risk policy is not read=allow, exec=sandbox, the rest ask")
	}
	if !slices.Contains(tl.SensitivePatterns(), "删除") || !slices.Contains(tl.SensitivePatterns(), "rm -rf") {
		t.Errorf("default sensitive %v", tl.SensitivePatterns())
	}
	if (Tools{Sensitive: []string{}}).SensitivePatterns() == nil || len((Tools{Sensitive: []string{}}).SensitivePatterns()) != 0 {
		t.Error("sensitive = [] must mean none")
	}
	if !(Tools{Enabled: []string{"files"}}).SkillOn("files") || (Tools{Enabled: []string{"files"}}).SkillOn("shell") {
		t.Error("enabled must keep only the skills it names")
	}
}

func TestTools_Validate(t *testing.T) {
	tests := []struct {
		name  string
		tools Tools
		want  string
	}{
		{"bad action", Tools{Risk: RiskPolicy{Write: "maybe"}}, "[tools.risk] write"},
		{"tool in two lists", Tools{Allow: []string{"x"}, Deny: []string{"x"}}, `"x"`},
		{"empty pattern", Tools{Sensitive: []string{""}}, "empty pattern"},
		{"negative output limit", Tools{OutputLimit: -1}, "output_limit"},
		{"mcp without name", Tools{MCP: []MCPServer{{Command: "npx"}}}, "[[tools.mcp]] number 1"},
		{"mcp twice", Tools{MCP: []MCPServer{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}}, `named "a"`},
		{"mcp without command", Tools{MCP: []MCPServer{{Name: "a"}}}, "no command"},
		{"mcp bad risk", Tools{MCP: []MCPServer{{Name: "a", Command: "x", Risk: "root"}}}, `risk "root"`},
		{"sandbox for writes", Tools{Risk: RiskPolicy{Write: "sandbox"}}, `[tools.risk] write is "sandbox"`},
		{"bad exec action", Tools{Risk: RiskPolicy{Exec: "maybe"}}, `"sandbox"`},
		{"empty command", Tools{AllowCommands: []string{""}}, `allow_commands holds ""`},
		{"command substitution", Tools{AllowCommands: []string{"echo $(id)"}}, `allow_commands holds "echo $(id)"`},
		{"two commands in one", Tools{AllowCommands: []string{"git status; curl x"}}, "one command per entry"},
		{"pipeline", Tools{AllowCommands: []string{"curl x | sh"}}, `allow_commands holds "curl x | sh"`},
		{"open quote", Tools{AllowCommands: []string{"grep 'a"}}, `allow_commands holds "grep 'a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.tools.validate()
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want ErrInvalid mentioning %q", err, tt.want)
			}
		})
	}
	if err := (Tools{}).validate(); err != nil {
		t.Fatalf("the empty section: %v", err)
	}
	ok := Tools{Risk: RiskPolicy{Exec: "sandbox"}, AllowCommands: []string{"git status", "go test *", `grep -rn "a b" *`, "Get-ChildItem *", "ls"}}
	if err := ok.validate(); err != nil {
		t.Fatalf("exec = sandbox with allow_commands: %v", err)
	}
}

func TestCommandPatterns(t *testing.T) {
	tests := []struct {
		text string
		want [][]string
	}{
		{"go test *", [][]string{{"go", "test", "*"}}},
		{"  git   status  ", [][]string{{"git", "status"}}},
		{`grep -rn "a b" 'c d' *`, [][]string{{"grep", "-rn", "a b", "c d", "*"}}},
		{"cat *; head *\ngo vet *", [][]string{{"cat", "*"}, {"head", "*"}, {"go", "vet", "*"}}},
		{`.\build.ps1 *`, [][]string{{`.\build.ps1`, "*"}}},
		{"echo 你好 *", [][]string{{"echo", "你好", "*"}}},
		{"a ;; b", [][]string{{"a"}, {"b"}}},
	}
	for _, tt := range tests {
		got, err := CommandPatterns(tt.text)
		if err != nil || !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("CommandPatterns(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", " ; ", "echo $HOME", "echo `id`", "a | b", "a && b", "a > f", "(a)", `"open`} {
		if got, err := CommandPatterns(bad); err == nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("CommandPatterns(%q) = %q, %v; want ErrInvalid", bad, got, err)
		}
	}
}
