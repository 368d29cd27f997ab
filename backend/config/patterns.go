package config

import (
	"strings"

	"hermes/backend/i18n"
)

// CommandPatterns reads the command patterns that text holds, for [tools]
// allow_commands and the "always" answers of execute_command: patterns are
// separated by ";" or a new line, a pattern's words by spaces, and '…' or
// "…" keep spaces in a word. Nothing else is special, so a pattern cannot
// hold what a shell would expand ($, `), nor join commands (|, &, <, >,
// parentheses): a pattern matches one simple command, word by word.
func CommandPatterns(text string) ([][]string, error) {
	bad := func() error { return i18n.Wrap(ErrInvalid, "config.tools.command_pattern", text) }
	var out [][]string
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endPattern := func() {
		endWord()
		if len(words) > 0 {
			out = append(out, words)
			words = nil
		}
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ' ', '\t', '\r':
			endWord()
		case ';', '\n':
			endPattern()
		case '\'', '"':
			end := strings.IndexByte(text[i+1:], c)
			if end < 0 {
				return nil, bad()
			}
			quoted := text[i+1 : i+1+end]
			if c == '"' && strings.ContainsAny(quoted, "$`") {
				return nil, bad()
			}
			word.WriteString(quoted)
			inWord = true
			i += end + 1
		case '$', '`', '|', '&', '<', '>', '(', ')':
			return nil, bad()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endPattern()
	if len(out) == 0 {
		return nil, bad()
	}
	return out, nil
}
