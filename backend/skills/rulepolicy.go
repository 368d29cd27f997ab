package skills

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"
)

// Rule is a remembered "always allow": the tool, and a pattern its
// arguments must match ("" = any arguments).
type Rule struct {
	ID      uint64
	Tool    string
	Pattern string
	Created time.Time
}

// RuleStore keeps the "always allow" answers where they survive a restart
// (the cli keeps them in hermes.db through backend/store).
type RuleStore interface {
	Rules() ([]Rule, error)
	AddRule(tool, pattern string, now time.Time) (Rule, error)
}

// PolicyConfig is the [tools] policy of hermes.toml.
type PolicyConfig struct {
	// Risk is the action for each risk level; a level left out is asked.
	Risk map[Risk]Action
	// Tools overrides Risk for the tools it names.
	Tools map[string]Action
	// Sensitive phrases make a call asked whatever Risk and Tools say, unless
	// the tool is denied.
	Sensitive []string
}

// RulePolicy is the Policy of hermes.toml and of the remembered "always
// allow" rules. It is safe for concurrent use.
type RulePolicy struct {
	cfg   PolicyConfig
	store RuleStore
	now   func() time.Time

	mu    sync.RWMutex
	rules []Rule
}

// NewPolicy returns the policy of cfg, with the rules store remembers. A nil
// store keeps "always" answers for the life of the policy only.
func NewPolicy(cfg PolicyConfig, store RuleStore) (*RulePolicy, error) {
	p := &RulePolicy{cfg: cfg, store: store, now: time.Now}
	if store != nil {
		rules, err := store.Rules()
		if err != nil {
			return nil, err
		}
		p.rules = rules
	}
	return p, nil
}

// Check decides in this order: a denied tool or risk level is denied; a
// sensitive phrase in the arguments is asked; an allowed one is allowed; an
// asked one is allowed when a remembered rule matches it, else asked.
func (p *RulePolicy) Check(t Tool, args json.RawMessage) Verdict {
	p.mu.RLock()
	cfg := p.cfg
	p.mu.RUnlock()
	action, why := cfg.base(t)
	if action == Deny {
		return Verdict{Action: Deny, Reason: why}
	}
	if phrase := cfg.sensitive(args); phrase != "" {
		return Verdict{Action: Ask, Sensitive: true, Reason: fmt.Sprintf("the arguments contain the sensitive phrase %q ([tools] sensitive)", phrase)}
	}
	if action == Allow {
		return Verdict{Action: Allow, Reason: why}
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	for _, r := range p.rules {
		if r.Tool == t.Name && MatchPattern(r.Pattern, args) {
			return Verdict{Action: Allow, Reason: fmt.Sprintf("remembered rule %d (hermes tools rules)", r.ID)}
		}
	}
	return Verdict{Action: Ask, Reason: why}
}

// SetConfig replaces the [tools] policy, after an edit of hermes.toml; the
// remembered rules stay. Every call checked from then on follows it.
func (p *RulePolicy) SetConfig(cfg PolicyConfig) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg = cfg
}

func (cfg PolicyConfig) base(t Tool) (Action, string) {
	if a, ok := cfg.Tools[t.Name]; ok {
		return a, fmt.Sprintf("%s is listed in [tools] %s", t.Name, a)
	}
	a, ok := cfg.Risk[t.Risk]
	if !ok {
		a = Ask
	}
	return a, fmt.Sprintf("%s is a %s tool and [tools.risk] %s = %q", t.Name, t.Risk, t.Risk, a)
}

// sensitive returns the first configured phrase found in the arguments'
// text, compared without case and with runs of spaces made one.
func (cfg PolicyConfig) sensitive(args json.RawMessage) string {
	text := normalize(strings.Join(argStrings(args), "\n"))
	for _, phrase := range cfg.Sensitive {
		if n := normalize(phrase); n != "" && strings.Contains(text, n) {
			return phrase
		}
	}
	return ""
}

func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// AllowAlways remembers that t may run without asking when its arguments
// match pattern ("" = any arguments).
func (p *RulePolicy) AllowAlways(t Tool, pattern string) error {
	rule := Rule{Tool: t.Name, Pattern: pattern, Created: p.now().UTC()}
	if p.store != nil {
		var err error
		if rule, err = p.store.AddRule(t.Name, pattern, p.now()); err != nil {
			return err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.rules {
		if r.Tool == rule.Tool && r.Pattern == rule.Pattern {
			return nil
		}
	}
	p.rules = append(p.rules, rule)
	return nil
}

// MatchPattern reports whether a call's arguments match an "always allow"
// pattern: a glob in which * stands for any text, / included, matched
// against each string value of the arguments (execute_command's command, a
// file's path). The empty pattern matches every call.
func MatchPattern(pattern string, args json.RawMessage) bool {
	if pattern == "" {
		return true
	}
	// path.Match treats / as a separator; replacing it lets * cross it.
	const slash = "\x00"
	glob := strings.ReplaceAll(pattern, "/", slash)
	for _, s := range argStrings(args) {
		if ok, err := path.Match(glob, strings.ReplaceAll(s, "/", slash)); err == nil && ok {
			return true
		}
	}
	return false
}

// argStrings are the string values in a call's arguments, nested ones too.
func argStrings(args json.RawMessage) []string {
	v, err := decodeJSON(args)
	if err != nil {
		return []string{string(args)}
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}
