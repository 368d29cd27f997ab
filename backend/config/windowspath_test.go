package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// A Windows path in double quotes is refused wherever a path can be
// written (a list of folders, an MCP server's command or its arguments, an
// inline table), at the string itself, with the advice to write it in
// single quotes or with forward slashes: never read as a silently
// different path.
func TestLoad_WindowsPathInDoubleQuotes(t *testing.T) {
	tests := []struct {
		name, config string
		is           error
		at           string // "line N, column M" of the string
		key          string
	}{
		{"a path key's value, a valid escape", "[agent]\nworkspace = \"C:\\notes\"\n", ErrEscapedPath, "line 2, column 13", "[agent] workspace"},
		{"a path key's value, an invalid escape", "[agent]\nworkspace = \"C:\\Users\\me\\Notes\"\n", ErrSyntax, "line 2, column 16", ""},
		{"a list of folders", "[tools]\nsandbox_writable = [\"D:/cache\", \"C:\\temp\\new\"]\n", ErrEscapedPath, "line 2, column 33", "[tools] sandbox_writable"},
		{"a list of folders, an invalid escape", "[tools]\nsandbox_writable = [\"D:/cache\", \"C:\\temp\\out\"]\n", ErrSyntax, "line 2, column 41", ""},
		{"a list on several lines", "[tools]\nsandbox_hidden = [\n  'C:\\secrets',\n  \"C:\\backup\",\n]\n", ErrEscapedPath, "line 4, column 3", "[tools] sandbox_hidden"},
		{"the second MCP server's command", "[[tools.mcp]]\nname = \"a\"\ncommand = \"node\"\n\n[[tools.mcp]]\nname = \"b\"\ncommand = \"C:\\tools\\node.exe\"\n", ErrEscapedPath, "line 7, column 11", "[tools.mcp] command"},
		{"an MCP server's argument", "[[tools.mcp]]\nname = \"a\"\ncommand = \"node\"\nargs = [\"C:\\tools\\bridge.js\"]\n", ErrEscapedPath, "line 4, column 9", "[tools.mcp] args"},
		{"an inline table", "obsidian = { vault = \"C:\\notes\" }\n", ErrEscapedPath, "line 1, column 22", "[obsidian] vault"},
		{"a folder to write, in an inline MCP server", "[tools]\nmcp = [{ name = \"a\", command = \"node\", writable = [\"E:\\backups\"] }]\n", ErrEscapedPath, "line 2, column 52", "[tools.mcp] writable"},
	}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		for _, tt := range tests {
			t.Run(string(lang)+"/"+tt.name, func(t *testing.T) {
				i18n.SetLang(lang)
				defer i18n.SetLang(i18n.EN)
				path := writeConfig(t, tt.config)
				_, err := Load(path)
				if !errors.Is(err, tt.is) {
					t.Fatalf("err = %v, want %v", err, tt.is)
				}
				msg := err.Error()
				want := []string{path, tt.key, "'C:\\Users\\me'", "\"C:/Users/me\""}
				if lang == i18n.EN {
					want = append(want, tt.at, "single quotes", "forward slashes")
				} else {
					var line, col int
					if _, err := fmt.Sscanf(tt.at, "line %d, column %d", &line, &col); err != nil {
						t.Fatal(err)
					}
					want = append(want, i18n.T("config.pos", line, col), "单引号", "正斜杠")
				}
				for _, w := range want {
					if !strings.Contains(msg, w) {
						t.Errorf("message %q lacks %q", msg, w)
					}
				}
			})
		}
	}
}

// Control characters a person means stay allowed: a newline in a
// multi-line string or in an argument that is not a path, and a path
// written the right ways.
func TestLoad_ControlCharactersMeant(t *testing.T) {
	i18n.SetLang(i18n.EN)
	for _, config := range []string{
		"[agent]\nworkspace = 'C:\\notes'\n",
		"[agent]\nworkspace = \"C:/notes\"\n",
		"[agent]\nworkspace = \"C:\\\\notes\"\n",
		"[tools]\nsandbox_writable = ['C:\\temp\\out', \"D:/cache\"]\n",
		"[[tools.mcp]]\nname = \"a\"\ncommand = 'C:\\tools\\server.exe'\nargs = [\"-e\", \"print(1)\\nprint(2)\"]\n",
		"[[tools.mcp]]\nname = \"a\"\ncommand = \"node\"\nargs = [\"\"\"\nline one\nline two\"\"\"]\n",
	} {
		if _, err := Load(writeConfig(t, config)); err != nil {
			t.Errorf("Load(%q) = %v, want no error", config, err)
		}
	}
}
