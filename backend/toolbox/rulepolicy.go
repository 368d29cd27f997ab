package toolbox

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"hermes/backend/config"
	"hermes/backend/i18n"
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
	// Commands are [tools] allow_commands: command patterns that
	// execute_command runs without asking when every command of its line
	// matches one (config.CommandPatterns).
	Commands []string
	// Shell is the shell execute_command's lines are read as, ShellBash or
	// ShellPowerShell; "" is this OS's (PowerShell on Windows).
	Shell string
}

// RulePolicy is the Policy of hermes.toml and of the remembered "always
// allow" rules. It is safe for concurrent use.
type RulePolicy struct {
	cfg   PolicyConfig
	store RuleStore
	now   func() time.Time

	mu     sync.RWMutex
	rules  []Rule
	loaded bool // rules holds store's
}

// NewPolicy returns the policy of cfg, with the rules store remembers. A nil
// store keeps "always" answers for the life of the policy only.
func NewPolicy(cfg PolicyConfig, store RuleStore) *RulePolicy {
	return &RulePolicy{cfg: cfg, store: store, now: time.Now, loaded: store == nil}
}

// current returns the policy's config and the remembered rules, read from
// the store by the first call that needs them: a process opens hermes.db
// for them at its first tool call, not at its start, and not at all when
// it calls none. A store that cannot be read gives none, so that what they
// would allow is asked, and is read again at the next call.
func (p *RulePolicy) current() (PolicyConfig, []Rule) {
	p.mu.RLock()
	cfg, rules, loaded := p.cfg, p.rules, p.loaded
	p.mu.RUnlock()
	if loaded {
		return cfg, rules
	}
	stored, err := p.store.Rules()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil && !p.loaded {
		p.rules, p.loaded = stored, true
	}
	return p.cfg, p.rules
}

// Check decides in this order: a denied tool or risk level is denied; a
// call escaping the OS sandbox is asked; a sensitive phrase in the
// arguments is asked; an allowed one is allowed, and under "sandbox" one
// whose process runs in the OS sandbox; else it is allowed when remembered
// rules (and for execute_command [tools] allow_commands) cover it, and
// asked when they do not. An execute_command call's verdict carries its
// parsed commands whatever it says.
func (p *RulePolicy) Check(t Tool, args json.RawMessage, env Env) Verdict {
	cfg, rules := p.current()
	action, why := cfg.base(t)
	if action == Deny {
		return Verdict{Action: Deny}.Because(why)
	}
	var v Verdict
	var line *commandLine
	if t.Name == shellTool {
		l := cfg.parseCall(args, env)
		line = &l
		v.Commands, v.Risky = l.texts(), l.Risky
	}
	where := Unconfined
	if t.Confinement != nil {
		where = t.Confinement(env, args)
	}
	if where == Escaping {
		v.Action, v.Escaping = Ask, true
		return v.Because(i18n.TextOf("skills.policy.escaping"))
	}
	if phrase := cfg.sensitive(args); phrase != "" {
		v.Action, v.Sensitive = Ask, true
		return v.Because(i18n.TextOf("skills.policy.sensitive", phrase))
	}
	switch {
	case action == Allow:
		return Verdict{Action: Allow}.Because(why)
	case action == Sandbox && where == Confined:
		return Verdict{Action: Allow}.Because(i18n.TextOf("skills.policy.sandboxed", why))
	case action == Sandbox:
		why = i18n.TextOf("skills.policy.unconfined", why)
	}
	v.Action = Ask
	v = v.Because(why)
	if line == nil {
		for _, r := range rules {
			if r.Tool == t.Name && MatchPattern(r.Pattern, args) {
				return Verdict{Action: Allow}.Because(i18n.TextOf("skills.policy.rule", r.ID))
			}
		}
		return v
	}
	cmdRules, anyArgs := cfg.commandRules(rules)
	if anyArgs != nil {
		return Verdict{Action: Allow}.Because(i18n.TextOf("skills.policy.rule", anyArgs.ID))
	}
	ok, reason, uncovered := line.allowed(cmdRules)
	if ok {
		return Verdict{Action: Allow}.Because(reason)
	}
	v.Patterns = line.patterns(uncovered)
	return v
}

// SetConfig replaces the [tools] policy, after an edit of hermes.toml; the
// remembered rules stay. Every call checked from then on follows it.
func (p *RulePolicy) SetConfig(cfg PolicyConfig) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg = cfg
}

func (cfg PolicyConfig) base(t Tool) (Action, i18n.Text) {
	if a, ok := cfg.Tools[t.Name]; ok {
		return a, i18n.TextOf("skills.policy.listed", t.Name, string(a))
	}
	a, ok := cfg.Risk[t.Risk]
	if !ok {
		a = Ask
	}
	return a, i18n.TextOf("skills.policy.risk", t.Name, string(t.Risk), string(t.Risk), string(a))
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
// match pattern ("" = any arguments). For execute_command, pattern holds
// command patterns separated by ";" (config.CommandPatterns), each
// remembered as a rule of its own.
func (p *RulePolicy) AllowAlways(t Tool, pattern string) error {
	patterns := []string{pattern}
	if t.Name == shellTool && pattern != "" {
		split, err := config.CommandPatterns(pattern)
		if err != nil {
			return err
		}
		patterns = patterns[:0]
		for _, words := range split {
			patterns = append(patterns, canonical(words))
		}
	}
	for _, pattern := range patterns {
		if err := p.remember(t, pattern); err != nil {
			return err
		}
	}
	return nil
}

func (p *RulePolicy) remember(t Tool, pattern string) error {
	_, rules := p.current()
	if slices.ContainsFunc(rules, func(r Rule) bool { return r.Tool == t.Name && r.Pattern == pattern }) {
		return nil
	}
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
