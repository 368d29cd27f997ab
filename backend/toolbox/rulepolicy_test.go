package toolbox

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// memRules is a RuleStore in memory that counts what was saved.
type memRules struct {
	mu    sync.Mutex
	rules []Rule
	reads int
	fail  error // what Rules returns, when set
}

func (m *memRules) Rules() ([]Rule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	if m.fail != nil {
		return nil, m.fail
	}
	return slices.Clone(m.rules), nil
}

func (m *memRules) AddRule(tool, pattern string, now time.Time) (Rule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := Rule{ID: uint64(len(m.rules) + 1), Tool: tool, Pattern: pattern, Created: now}
	m.rules = append(m.rules, r)
	return r, nil
}

func defaultPolicy() PolicyConfig {
	return PolicyConfig{
		Risk:      map[Risk]Action{RiskRead: Allow, RiskWrite: Ask, RiskExec: Ask, RiskNetwork: Ask},
		Tools:     map[string]Action{"fetch_url": Allow, "execute_command": Ask, "drop_db": Deny},
		Sensitive: config.DefaultSensitive,
	}
}

func TestPolicy_Matrix(t *testing.T) {
	tool := func(name string, risk Risk) Tool { return Tool{Name: name, Risk: risk} }
	tests := []struct {
		name string
		tool Tool
		args string
		want Action
	}{
		{"read allowed", tool("read_file", RiskRead), `{"path":"a.md"}`, Allow},
		{"write asked", tool("write_file", RiskWrite), `{"path":"a.md","content":"hi"}`, Ask},
		{"exec asked", tool("execute_command", RiskExec), `{"command":"ls"}`, Ask},
		{"network asked", tool("search_web", RiskNetwork), `{"q":"go"}`, Ask},
		{"tool allowed over its risk", tool("fetch_url", RiskNetwork), `{"url":"https://example.org"}`, Allow},
		{"tool denied", tool("drop_db", RiskRead), `{}`, Deny},
		{"sensitive read is asked", tool("read_file", RiskRead), `{"path":"to-DELETE.md"}`, Ask},
		{"sensitive allowed tool is asked", tool("fetch_url", RiskNetwork), `{"url":"x?q=drop  table users"}`, Ask},
		{"sensitive nested value", tool("read_file", RiskRead), `{"opts":{"mode":["rm -rf /"]}}`, Ask},
		{"sensitive Chinese", tool("read_file", RiskRead), `{"path":"请删除这个文件"}`, Ask},
		{"sensitive does not beat deny", tool("drop_db", RiskRead), `{"x":"delete"}`, Deny},
		{"unknown risk level asked", tool("odd", Risk("")), `{}`, Ask},
	}
	p := NewPolicy(defaultPolicy(), nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := p.Check(tt.tool, json.RawMessage(tt.args), Env{})
			if v.Action != tt.want || v.Reason == "" {
				t.Fatalf("got %+v, want %s with a reason", v, tt.want)
			}
		})
	}
}

func TestPolicy_AlwaysRulesWithPatterns(t *testing.T) {
	store := &memRules{}
	p := NewPolicy(defaultPolicy(), store)
	exec := Tool{Name: "execute_command", Risk: RiskExec}
	write := Tool{Name: "write_file", Risk: RiskWrite}
	check := func(tool Tool, args string) Action { return p.Check(tool, json.RawMessage(args), Env{}).Action }

	if err := p.AllowAlways(exec, "git *"); err != nil {
		t.Fatal(err)
	}
	if err := p.AllowAlways(write, "notes/*"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool Tool
		args string
		want Action
	}{
		{exec, `{"command":"git status"}`, Allow},
		{exec, `{"command":"git log --oneline"}`, Allow},
		{exec, `{"command":"go test ./..."}`, Ask},
		{exec, `{"command":"git rm -rf ."}`, Ask}, // sensitive beats a rule
		{write, `{"path":"notes/2026/a.md","content":"x"}`, Allow},
		{write, `{"path":"todo.md","content":"x"}`, Ask},
	}
	for _, tt := range tests {
		if got := check(tt.tool, tt.args); got != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.tool.Name, tt.args, got, tt.want)
		}
	}

	// A new policy over the same store remembers; a rule for any arguments
	// covers every call.
	again := NewPolicy(defaultPolicy(), store)
	if got := again.Check(exec, json.RawMessage(`{"command":"git diff"}`), Env{}).Action; got != Allow {
		t.Errorf("after restart: %s, want allow", got)
	}
	if err := again.AllowAlways(write, ""); err != nil {
		t.Fatal(err)
	}
	if got := again.Check(write, json.RawMessage(`{"path":"todo.md","content":"x"}`), Env{}).Action; got != Allow {
		t.Errorf("any-arguments rule: %s, want allow", got)
	}
	if len(store.rules) != 3 {
		t.Errorf("%d rules stored, want 3", len(store.rules))
	}
}

// An edit of [tools] replaces the policy of the calls checked after it and
// keeps the remembered rules.
func TestPolicy_SetConfigKeepsTheRules(t *testing.T) {
	p := NewPolicy(defaultPolicy(), &memRules{})
	exec := Tool{Name: "execute_command", Risk: RiskExec}
	read := Tool{Name: "read_file", Risk: RiskRead}
	if err := p.AllowAlways(exec, "git *"); err != nil {
		t.Fatal(err)
	}
	edited := defaultPolicy()
	edited.Tools = map[string]Action{"read_file": Deny, "execute_command": Ask}
	edited.Sensitive = []string{"secret.txt"}
	p.SetConfig(edited)
	for _, tt := range []struct {
		tool Tool
		args string
		want Action
	}{
		{read, `{"path":"a.md"}`, Deny},
		{exec, `{"command":"git status"}`, Allow},
		{exec, `{"command":"cat secret.txt"}`, Ask},
		{exec, `{"command":"rm -rf /"}`, Ask}, // not a rule's
	} {
		if v := p.Check(tt.tool, json.RawMessage(tt.args), Env{}); v.Action != tt.want {
			t.Errorf("%s %s after the edit: %+v, want %s", tt.tool.Name, tt.args, v, tt.want)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	tests := []struct {
		pattern, args string
		want          bool
	}{
		{"", `{}`, true},
		{"git *", `{"command":"git push origin main"}`, true},
		{"git *", `{"command":"sudo git push"}`, false},
		{"*.md", `{"path":"a/b/c.md"}`, true},
		{"docs/*", `{"path":"docs/a/b.txt"}`, true},
		{"docs/*", `{"path":"src/docs/a"}`, false},
		{"ls", `{"command":"ls","dir":"x"}`, true},
	}
	for _, tt := range tests {
		if got := MatchPattern(tt.pattern, json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("MatchPattern(%q, %s) = %v, want %v", tt.pattern, tt.args, got, tt.want)
		}
	}
}

// A verdict's reason is English for the model (Reason) and the person's
// language where a person reads it (Shown), as the same words.
func TestPolicy_ReasonForThePersonAndTheModel(t *testing.T) {
	was := i18n.Current()
	i18n.SetLang(i18n.ZH)
	t.Cleanup(func() { i18n.SetLang(was) })
	p := NewPolicy(defaultPolicy(), &memRules{rules: []Rule{{ID: 4, Tool: "execute_command", Pattern: "ls *"}}})
	for _, c := range []struct {
		tool      Tool
		args      string
		model, zh string
	}{
		{Tool{Name: "write_file", Risk: RiskWrite}, `{"path":"a.md"}`, `write_file is a write tool and [tools.risk] write = "ask"`, `write_file 是 write 类工具，且 [tools.risk] write = "ask"`},
		{Tool{Name: "drop_db", Risk: RiskRead}, `{}`, "drop_db is listed in [tools] deny", "drop_db 列在 [tools] deny 中"},
		{Tool{Name: "read_file", Risk: RiskRead}, `{"path":"to-delete.md"}`, `the arguments contain the sensitive phrase "delete" ([tools] sensitive)`, `参数中含有敏感词 "delete"（[tools] sensitive）`},
		{Tool{Name: "execute_command", Risk: RiskExec}, `{"command":"ls -la"}`, "every command matches remembered rule 4 (hermes tools rules)", "每条命令都符合 已记住的规则 4（hermes tools rules）"},
	} {
		v := p.Check(c.tool, json.RawMessage(c.args), Env{})
		if v.Reason != c.model || v.Shown() != c.zh {
			t.Errorf("%s: Reason %q, Shown %q; want %q and %q", c.tool.Name, v.Reason, v.Shown(), c.model, c.zh)
		}
	}
}

// The remembered rules are read at the first check, not when the policy is
// made (a process's start), and once; a store that cannot be read then
// leaves what they allow asked, and is read again at the next check.
func TestPolicy_ReadsRulesAtTheFirstCheck(t *testing.T) {
	store := &memRules{rules: []Rule{{ID: 1, Tool: "execute_command", Pattern: "git *"}}, fail: errors.New("hermes.db: input/output error")}
	p := NewPolicy(defaultPolicy(), store)
	if store.reads != 0 {
		t.Fatalf("NewPolicy read the store %d times", store.reads)
	}
	exec := Tool{Name: "execute_command", Risk: RiskExec}
	gitStatus := json.RawMessage(`{"command":"git status"}`)
	if got := p.Check(exec, gitStatus, Env{}).Action; got != Ask {
		t.Errorf("with the store unreadable: %s, want ask", got)
	}
	store.mu.Lock()
	store.fail = nil
	store.mu.Unlock()
	for range 3 {
		if got := p.Check(exec, gitStatus, Env{}).Action; got != Allow {
			t.Errorf("with the store read: %s, want allow", got)
		}
	}
	if store.reads != 2 {
		t.Errorf("the store was read %d times, want 2 (the failed read, then once)", store.reads)
	}
}
