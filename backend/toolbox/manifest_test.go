package toolbox

import (
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"command skill", `{"name":"weather","description":"Weather. Use it when asked about weather.","command":["node","./w.js"],
			"tools":[{"name":"get_weather","description":"Use it to get the weather.","risk":"network",
			"parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name."}},"required":["city"]}}]}`, ""},
		{"builtin skill names Go tools", `{"name":"files","description":"Files.","runner":"builtin","tools":[{"name":"read_file"}]}`, ""},
		{"mcp skill", `{"name":"fs","description":"Files over MCP.","runner":"mcp","mcp":{"command":"npx","args":["x"]}}`, ""},
		{"not JSON", `{"name":`, "not a valid skill.json"},
		{"misspelt key", `{"name":"a","descripton":"x"}`, `unknown field "descripton"`},
		{"bad name", `{"name":"a b","description":"x","runner":"builtin"}`, "name"},
		{"no description", `{"name":"a","runner":"builtin"}`, "description is empty"},
		{"unknown runner", `{"name":"a","description":"x","runner":"python"}`, "runner"},
		{"command tool without risk", `{"name":"a","description":"x","command":["x"],"tools":[{"name":"t","description":"Use it."}]}`, "no risk"},
		{"command tool without command", `{"name":"a","description":"x","tools":[{"name":"t","description":"Use it.","risk":"read"}]}`, "no command"},
		{"command skill without tools", `{"name":"a","description":"x","command":["x"]}`, "at least one tool"},
		{"bad risk", `{"name":"a","description":"x","command":["x"],"tools":[{"name":"t","description":"d","risk":"root"}]}`, "risk"},
		{"bad schema", `{"name":"a","description":"x","command":["x"],"tools":[{"name":"t","description":"d","risk":"read","parameters":{"type":"string"}}]}`, "object"},
		{"tool twice", `{"name":"a","description":"x","runner":"builtin","tools":[{"name":"t"},{"name":"t"}]}`, "twice"},
		{"mcp without command", `{"name":"a","description":"x","runner":"mcp"}`, "mcp"},
		{"bad timeout", `{"name":"a","description":"x","runner":"builtin","timeout":"soon"}`, "timeout"},
		{"pass_env", `{"name":"gh","description":"x","runner":"mcp","pass_env":["GITHUB_TOKEN"],"mcp":{"command":"gh-mcp"}}`, ""},
		{"pass_env with a value", `{"name":"gh","description":"x","runner":"mcp","pass_env":["ghp-123 secret"],"mcp":{"command":"gh-mcp"}}`, "pass_env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseManifest([]byte(tt.json))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseInstructions(t *testing.T) {
	good := "\ufeff---\r\nname: obsidian\r\ndescription: \"How to keep links: [[Note]]\"\r\nmetadata:\r\n  version: 2\r\n---\r\n# Steps\r\n\r\nSearch first.\r\n"
	in, err := ParseInstructions([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if in.Name != "obsidian" || in.Description != "How to keep links: [[Note]]" || in.Body != "# Steps\n\nSearch first." {
		t.Fatalf("got %+v", in)
	}
	for name, text := range map[string]string{
		"no front matter": "# Steps\n",
		"not closed":      "---\nname: a\n",
		"no name":         "---\ndescription: d\n---\nbody\n",
		"no description":  "---\nname: a\n---\nbody\n",
		"no body":         "---\nname: a\ndescription: d\n---\n",
	} {
		if _, err := ParseInstructions([]byte(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestParseManifest_SaysWhereAndWhat: a skill.json that does not decode is
// told in the user's language, where (line and column, in characters) and
// what (the key meant by a misspelt one, the type a value must have).
func TestParseManifest_SaysWhereAndWhat(t *testing.T) {
	cases := []struct {
		name, json string
		en, zh     string
	}{
		{"syntax", "{\n  \"name\": \"天气\",\n  \"description\": \"x\",,\n}", "line 3, column 22", "第 3 行第 22 列"},
		{"syntax after Chinese", `{"name": "天气",,}`, "line 1, column 15", "第 1 行第 15 列"},
		{"cut short", `{"name": "a", "tools": [`, "look for a missing } or ]", "缺少 } 或 ]"},
		{"empty", ``, "it ends before its JSON does", "结束之前就结束了"},
		{"misspelt", `{"name": "a", "descripton": "x"}`, `unknown field "descripton" (did you mean "description"?)`, `未知字段 "descripton"（是否想写 "description"？）`},
		{"misspelt in a tool", `{"name": "a", "tools": [{"name": "t", "rsik": "read"}]}`, `(did you mean "risk"?)`, `（是否想写 "risk"？）`},
		{"unknown", `{"name": "a", "colour": "red"}`, `unknown field "colour"; docs/tools.md lists the keys`, `未知字段 "colour"；skill.json 可用的键见 docs/tools.md`},
		{"wrong type", `{"name": "a", "command": "node w.js"}`, `"command" must be a list, not a string`, `"command" 应为列表，而不是字符串`},
		{"wrong type in a tool", `{"name": "a", "tools": [{"name": "t", "platforms": "linux"}]}`, `"tools.platforms" must be a list, not a string`, `"tools.platforms" 应为列表，而不是字符串`},
		{"object expected", `{"name": "a", "mcp": ["npx"]}`, `"mcp" must be an object, not a list`, `"mcp" 应为对象，而不是列表`},
		{"a check", `{"name": "a", "description": "x", "runner": "python"}`, `runner "python" is not builtin, command or mcp`, `runner "python" 不是 builtin、command 或 mcp`},
		{"a tool's schema", `{"name": "a", "description": "x", "runner": "builtin", "tools": [{"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}}}]}`,
			`tools[0] (t): parameters.n: minimum is greater than maximum`, `tools[0]（t）：parameters.n：minimum 大于 maximum`},
		{"a tool's check", `{"name": "a", "description": "x", "command": ["x"], "tools": [{"name": "t", "description": "d"}]}`, `tools[0] (t): no risk`, `tools[0]（t）：没有 risk`},
	}
	defer i18n.SetLang(i18n.Current())
	for _, c := range cases {
		_, err := ParseManifest([]byte(c.json))
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		if en := i18n.MessageIn(i18n.EN, err); !strings.Contains(en, c.en) {
			t.Errorf("%s: %q lacks %q", c.name, en, c.en)
		}
		if zh := i18n.MessageIn(i18n.ZH, err); !strings.Contains(zh, c.zh) {
			t.Errorf("%s: %q lacks %q", c.name, zh, c.zh)
		}
		i18n.SetLang(i18n.ZH)
		if zh := err.Error(); !strings.Contains(zh, c.zh) {
			t.Errorf("%s: Error() in Chinese %q lacks %q", c.name, zh, c.zh)
		}
		i18n.SetLang(i18n.EN)
	}
	if _, err := ParseInstructions([]byte("# no front matter\n")); err == nil || !strings.Contains(i18n.MessageIn(i18n.ZH, err), "SKILL.md 必须以") {
		t.Errorf("SKILL.md in Chinese: %v", err)
	}
}
