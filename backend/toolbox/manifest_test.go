package toolbox

import (
	"strings"
	"testing"
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
