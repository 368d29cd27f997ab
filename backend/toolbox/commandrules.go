package toolbox

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// shellTool is the tool whose argument is a command line: its "always"
// rules and [tools] allow_commands are matched against each simple command
// of the line, not against the line's text.
const shellTool = "execute_command"

// commandRule is a command pattern with where it comes from, for the
// verdict's reason.
type commandRule struct {
	words []string
	from  i18n.Text
}

// commandLine is what the policy reads of an execute_command call.
type commandLine struct {
	ParsedCommand
	fold bool // PowerShell: names and words are compared without case
}

// parseCall reads the command line of an execute_command call, in the
// directory it would run in.
func (cfg PolicyConfig) parseCall(args json.RawMessage, env Env) commandLine {
	var a executeArgs
	_ = json.Unmarshal(args, &a)
	shell := cfg.Shell
	if shell == "" {
		shell = ShellBash
		if runtime.GOOS == "windows" {
			shell = ShellPowerShell
		}
	}
	dir := env.Workspace
	if dir != "" && a.Dir != "" {
		if filepath.IsAbs(a.Dir) {
			dir = a.Dir
		} else {
			dir = env.Workspace + string(filepath.Separator) + a.Dir
		}
	}
	return commandLine{ParsedCommand: ParseCommand(a.Command, shell, env.Workspace, dir), fold: shell == ShellPowerShell}
}

// texts are the simple commands as a person reads them.
func (c commandLine) texts() []string {
	out := make([]string, len(c.Simple))
	for i, s := range c.Simple {
		out[i] = s.Text
	}
	return out
}

// commandRules are the patterns of allow_commands and of the remembered
// rules for execute_command; any reports a rule for any arguments.
func (cfg PolicyConfig) commandRules(rules []Rule) (out []commandRule, anyArgs *Rule) {
	for _, c := range cfg.Commands {
		if p, err := config.CommandPatterns(c); err == nil {
			for _, words := range p {
				out = append(out, commandRule{words, i18n.TextOf("skills.policy.allow_commands")})
			}
		}
	}
	for i, r := range rules {
		if r.Tool != shellTool {
			continue
		}
		if r.Pattern == "" {
			return nil, &rules[i]
		}
		// A pattern that no longer reads (saved by an older Hermes) matches nothing.
		p, _ := config.CommandPatterns(r.Pattern)
		for _, words := range p {
			out = append(out, commandRule{words, i18n.TextOf("skills.policy.rule_n", r.ID)})
		}
	}
	return out, nil
}

// allowed reports whether rules cover the line: nothing in it is risky,
// each simple command matches a rule or is inert, and one matched a rule
// (a line of only cd and echo is not covered by no rule). The reason names
// the rules; uncovered are the commands no rule matched.
func (c commandLine) allowed(rules []commandRule) (ok bool, reason i18n.Text, uncovered []SimpleCommand) {
	var from []i18n.Text
	for _, sc := range c.Simple {
		i := slices.IndexFunc(rules, func(r commandRule) bool { return matchCommand(r.words, sc, c.fold) })
		switch {
		case i >= 0:
			if !slices.ContainsFunc(from, func(t i18n.Text) bool { return t.In(i18n.EN) == rules[i].from.In(i18n.EN) }) {
				from = append(from, rules[i].from)
			}
		default:
			uncovered = append(uncovered, sc)
		}
	}
	if len(c.Risky) > 0 || len(from) == 0 || slices.ContainsFunc(uncovered, func(sc SimpleCommand) bool { return !sc.Inert }) {
		return false, i18n.Text{}, uncovered
	}
	return true, i18n.TextOf("skills.policy.commands", from), nil
}

// patterns are the "always" patterns offered for the commands no rule
// covers: the inert ones only when nothing else is left, none for a
// command that is itself always asked.
func (c commandLine) patterns(uncovered []SimpleCommand) []string {
	var out []string
	add := func(inert bool) {
		for _, sc := range uncovered {
			if p := suggest(sc); sc.Inert == inert && !sc.risky && p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	add(false)
	if len(out) == 0 {
		add(true)
	}
	return out
}

// matchCommand reports whether a pattern's words match a simple command
// word by word. A pattern word matches one word left as written, its *
// standing for any text (/ included); a last word "*" matches any further
// words, none too. Without it the command must have no more words. A word
// worked out at run time only matches a *.
func matchCommand(pattern []string, sc SimpleCommand, fold bool) bool {
	rest := len(pattern) > 0 && pattern[len(pattern)-1] == "*"
	if rest {
		pattern = pattern[:len(pattern)-1]
	}
	if len(sc.Words) < len(pattern) || !rest && (len(sc.Words) != len(pattern) || sc.More) {
		return false
	}
	for i, p := range pattern {
		w := sc.Words[i]
		switch {
		case w.split:
			return false
		case w.Dynamic:
			if p != "*" {
				return false
			}
		case fold && !wildcard(strings.ToLower(p), strings.ToLower(w.Text)), !fold && !wildcard(p, w.Text):
			return false
		}
	}
	return true
}

// wildcard matches s against p, in which only * is special: any text.
func wildcard(p, s string) bool {
	head, rest, star := strings.Cut(p, "*")
	if !star {
		return p == s
	}
	if !strings.HasPrefix(s, head) {
		return false
	}
	s = s[len(head):]
	for i := 0; i <= len(s); i++ {
		if wildcard(rest, s[i:]) {
			return true
		}
	}
	return false
}

// subcommands are programs whose first argument names what they do, so
// the pattern offered keeps it: "git status *", not "git *".
var subcommands = []string{
	"git", "go", "npm", "pnpm", "yarn", "bun", "deno", "npx", "cargo", "rustup", "docker", "podman", "kubectl", "helm",
	"pip", "pip3", "uv", "poetry", "dotnet", "gh", "make", "mvn", "gradle", "gradlew", "terraform", "systemctl",
	"apt", "apt-get", "brew", "conda", "composer", "mix", "bundle", "rake", "rails", "swift", "zig", "nix", "flutter", "dart", "hg", "svn",
}

// suggest is the pattern offered for a simple command: its name, with
// its subcommand for a program that has them, then *. "" when its name
// cannot be written as a pattern.
func suggest(sc SimpleCommand) string {
	words := sc.Words
	parts := []string{quotePattern(words[0].Text)}
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(filepath.ToSlash(words[0].Text)), ".exe"))
	if len(words) > 1 && slices.Contains(subcommands, base) && subcommand(words[1]) {
		parts = append(parts, words[1].Text)
	}
	if parts[0] == "" {
		return ""
	}
	return strings.Join(parts, " ") + " *"
}

func subcommand(w Word) bool {
	if w.Dynamic || w.Text == "" || !isAlpha(w.Text[0]) {
		return false
	}
	return strings.Trim(strings.ToLower(w.Text), "abcdefghijklmnopqrstuvwxyz0123456789:_-") == ""
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// quotePattern writes a word as config.CommandPatterns reads it back; ""
// when it cannot.
func quotePattern(w string) string {
	switch {
	case w != "" && !strings.ContainsAny(w, " \t\r\n;'\"$`|&<>()"):
		return w
	case !strings.Contains(w, "'"):
		return "'" + w + "'"
	case !strings.ContainsAny(w, "\"$`"):
		return `"` + w + `"`
	}
	return ""
}

// canonical writes patterns read by config.CommandPatterns one per rule.
func canonical(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quotePattern(w)
	}
	return strings.Join(out, " ")
}
