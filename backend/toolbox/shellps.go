package toolbox

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// parsePowerShell reads a PowerShell line conservatively: plain words and
// quoted text, commands joined by ;, |, &&, || or new lines. Whatever else
// PowerShell would evaluate ($, (…), {…}, @…, redirections, backticks…)
// is Risky, so such a line is always asked.
func parsePowerShell(line string, out *ParsedCommand) {
	var words []Word
	var word strings.Builder
	inWord, quotedName, start := false, false, -1
	endWord := func() {
		if inWord {
			words = append(words, Word{Text: word.String()})
			word.Reset()
			inWord = false
		}
	}
	endCommand := func(at int) {
		endWord()
		if len(words) > 0 {
			psCommand(words, quotedName, shorten(line[start:at]), out)
		}
		words, quotedName, start = nil, false, -1
	}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		next := byte(0)
		if i+size < len(line) {
			next = line[i+size]
		}
		if start < 0 && !strings.ContainsRune(" \t\r\n;", r) {
			start = i
		}
		atStart := !inWord
		switch {
		case r == ' ' || r == '\t' || r == '\r':
			endWord()
		case r == '\n' || r == ';':
			endCommand(i)
		case r == '|' || r == '&' && next == '&':
			endCommand(i)
			if next == byte(r) {
				size++
			}
		case r == '\'' || r == '"':
			text, n, ok := psQuoted(line[i:], byte(r))
			switch {
			case !ok:
				out.risky("an unclosed quote")
			case r == '"' && strings.ContainsAny(text, "$`"):
				out.risky("a double-quoted string with $ or `, which PowerShell expands")
			}
			if atStart && len(words) == 0 {
				quotedName = true
			}
			word.WriteString(text)
			inWord = true
			size = n
		default:
			if why := psSpecial(r, atStart); why != "" {
				out.risky(why)
			}
			word.WriteRune(r)
			inWord = true
		}
		i += size
	}
	endCommand(len(line))
}

// psQuoted reads the quoted text at the start of s: its value, the bytes
// it takes, and false when it is not closed. A doubled quote stands for
// itself.
func psQuoted(s string, q byte) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return b.String(), len(s), false
}

// psSpecial says why PowerShell would not take r as part of a plain word.
func psSpecial(r rune, atStart bool) string {
	switch {
	case r == '$':
		return "a variable or $(…) expression"
	case r == '`':
		return "a backtick escape"
	case r == '&':
		return "& (the call operator, or a background job)"
	case r == '@' && atStart:
		return "@(…), @{…} or splatting"
	case strings.ContainsRune("(){}[]", r):
		return "a ( ), { } or [ ] expression"
	case r == '<' || r == '>':
		return "a redirection"
	case r == '#' && atStart:
		return "a comment, which hides the rest of the line"
	case strings.ContainsRune("‘’‚‛“”„", r):
		return "a typographic quote, which PowerShell reads as a quote"
	case atStart && strings.ContainsRune("–—―", r):
		return "a typographic dash, which PowerShell reads as -"
	}
	return ""
}

// PowerShell commands that run code they are given, or as another user.
var riskyPowerShell = []string{
	"iex", "invoke-expression", "invoke-command", "icm", "start-process", "saps", "start", "start-job", "sajb",
	"start-threadjob", "invoke-item", "ii", "powershell", "pwsh", "cmd", "wsl", "set-alias", "sal", "new-alias", "nal",
	"add-type", "set-executionpolicy", "sudo", "runas",
}

var inertPowerShell = []string{
	"cd", "chdir", "sl", "set-location", "pushd", "push-location", "popd", "pop-location",
	"echo", "write-output", "write", "write-host", "pwd", "get-location",
}

func psCommand(words []Word, quotedName bool, text string, out *ParsedCommand) {
	name := words[0].Text
	base := strings.ToLower(name[strings.LastIndexAny(name, `/\`)+1:])
	base = strings.TrimSuffix(base, ".exe")
	sc := SimpleCommand{Text: text, Words: words, Inert: slices.Contains(inertPowerShell, base), risky: true}
	switch {
	case quotedName:
		out.risky("a quoted command name, which PowerShell reads as text")
	case base == ".":
		out.risky("dot-sourcing, which runs a script in this shell")
	case slices.Contains(riskyPowerShell, base):
		out.risky(name + ", which runs a command line of its own or as another user")
	case slices.Contains(shells, base) && shellReads(words[1:]) != "":
		out.risky(base + " " + shellReads(words[1:]))
	default:
		sc.risky = false
	}
	for _, w := range words {
		lower := strings.ToLower(w.Text)
		switch {
		case w.Text == "--%":
			out.risky("--%, which passes the rest of the line unread")
		case strings.HasPrefix(lower, "-enc") || lower == "-ec":
			out.risky("-EncodedCommand, which runs hidden code")
		case strings.HasPrefix(lower, "env:") || strings.HasPrefix(lower, "function:") ||
			strings.HasPrefix(lower, "alias:") || strings.HasPrefix(lower, "variable:"):
			out.risky("the " + lower[:strings.IndexByte(lower, ':')+1] + " drive, which changes what programs run")
		}
	}
	out.Simple = append(out.Simple, sc)
}
