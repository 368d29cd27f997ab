package config

import (
	"errors"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// Every position is exact: the line as an editor numbers it and the column
// in characters from 1, counting a tab as one and a Chinese character as
// one; a byte-order mark is not a column.
func TestLoad_ExactPositions(t *testing.T) {
	i18n.SetLang(i18n.EN)
	tests := []struct {
		name, config string
		is           error
		at           string // "line:column"
	}{
		{"unterminated table, end of file", "[agent", ErrSyntax, "1:7"},
		{"unterminated table", "[agent\n", ErrSyntax, "1:7"},
		{"unterminated table before a key", "[agent\nmax_iterations = 3\n", ErrSyntax, "1:7"},
		{"unterminated table after a comment", "# settings\n\n[model\nmodel = \"x\"\n", ErrSyntax, "3:7"},
		{"unterminated table, CRLF", "[agent\r\nmax_iterations = 3\r\n", ErrSyntax, "1:7"},
		{"unterminated table after a BOM", "\ufeff[agent\n", ErrSyntax, "1:7"},
		{"invalid UTF-8 after Chinese", "# 设置\n[agent]\nworkspace = \"日本語のノート\xff\"\n", ErrSyntax, "3:21"},
		{"invalid UTF-8 deep in a long string", "[agent]\ninstructions = \"answer in English, briefly and politely\xfe\"\n", ErrSyntax, "2:56"},
		{"invalid UTF-8 in a comment", "[agent]\n# the workspace of the café's notes \xff here\n", ErrSyntax, "2:37"},
		{"invalid UTF-8 in a multi-line string", "[agent]\ninstructions = \"\"\"\nbe brief, très\xc3\n\"\"\"\n", ErrSyntax, "3:15"},
		{"invalid UTF-8 as a key", "[agent]\n\xff = 1\n", ErrSyntax, "2:1"},
		{"invalid UTF-8 after a BOM", "\ufeffa = \"é\xff\"\n", ErrSyntax, "1:7"},
		{"two values", "[agent]\nmax_iterations = 25 30\n", ErrSyntax, "2:21"},
		{"text after a string", "[model]\nbase_url = \"http://例え.jp/v1\" x\n", ErrSyntax, "2:30"},
		{"unterminated string", "[agent]\nworkspace = \"abc\n", ErrSyntax, "2:17"},
		{"unterminated multi-line string", "[agent]\ninstructions = \"\"\"\nbe brief\n", ErrSyntax, "3:9"},
		{"windows path", "[agent]\nworkspace = \"C:\\Users\\me\"\n", ErrSyntax, "2:16"},
		{"unknown key indented by a tab", "[agent]\n\tcolour = 1\n", ErrUnknownKey, "2:2"},
		{"unknown key after a BOM", "\ufeffcolour = 1\n", ErrUnknownKey, "1:1"},
		{"unknown key after a multi-line string", "[agent]\nworkspace = \"\"\"\n[model]\nx = 1\n\"\"\"\n  colour = 1\n", ErrUnknownKey, "6:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.config)
			_, err := Load(path)
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			line, col, _ := strings.Cut(tt.at, ":")
			want := path + " line " + line + ", column " + col + ":"
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q\ndoes not start with %q", err, want)
			}
			if p := Check(path); len(p) == 0 || !strings.HasPrefix(p[0].Error(), want) {
				t.Errorf("Check gives %v, want a first problem at %s", p, tt.at)
			}
		})
	}
}
