package toolbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/i18n"
)

// Runners: how a skill's tools run.
const (
	RunnerBuiltin = "builtin" // Go functions compiled into Hermes
	RunnerCommand = "command" // a process: the call as JSON on stdin, the result as JSON on stdout
	RunnerMCP     = "mcp"     // an MCP server over stdio
)

// Manifest is a skill's skill.json.
type Manifest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Runner is builtin, command or mcp; "" means command.
	Runner string `json:"runner,omitempty"`
	// Command is the process of a command skill, argv style; an argument that
	// starts with "./" is a file in the skill's folder.
	Command []string `json:"command,omitempty"`
	// Timeout bounds one call, as "20s"; "" means the configured default.
	Timeout string `json:"timeout,omitempty"`
	// MCP starts the server of an mcp skill.
	MCP *MCPSpec `json:"mcp,omitempty"`
	// Platforms lists the GOOS values the skill runs on; empty means all.
	Platforms []string `json:"platforms,omitempty"`
	// PassEnv names variables holding secrets that the skill's processes
	// (its command, its MCP server) are given nonetheless, such as
	// ["GITHUB_TOKEN"]. Every other secret Hermes holds (OPENAI_API_KEY, the
	// variables hermes.toml's X_env keys name, any variable whose value is
	// one of its secrets) is left out of their environment.
	PassEnv []string       `json:"pass_env,omitempty"`
	Tools   []ManifestTool `json:"tools,omitempty"`
	// Offer is when a run is offered the skill's tools: "always" (""), or
	// OfferRelevant.
	Offer string `json:"offer,omitempty"`
	// Keywords are words, in any language, that make a skill offered
	// "relevant" part of a task's tools, besides its name.
	Keywords []string `json:"keywords,omitempty"`
	// Sandbox is what the skill's processes (its command, its MCP server)
	// may do beyond the sandbox every command runs in: reach the network,
	// write more folders. It is shown where the skill is listed.
	Sandbox *Asks `json:"sandbox,omitempty"`
}

// Offers: when a run is offered a skill's tools.
const (
	OfferAlways = "always"
	// OfferRelevant: only to a run whose task (or standing instructions)
	// names the skill or one of its keywords; any other run gets them once
	// the model loads the skill with load_skill or calls one of its tools.
	// Their schemas, which every request carries, cost nothing until then.
	OfferRelevant = "relevant"
)

// ManifestTool is one tool of a manifest. A builtin skill names Go tools and
// may leave the rest out; an mcp skill may list tools to override what the
// server says of them.
type ManifestTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Risk        Risk            `json:"risk,omitempty"`
	Platforms   []string        `json:"platforms,omitempty"`
	// Command overrides the skill's command for this tool.
	Command []string `json:"command,omitempty"`
	Timeout string   `json:"timeout,omitempty"`
}

// MCPSpec is how to start an MCP server over stdio.
type MCPSpec struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// PassEnv is the manifest's pass_env, or [[tools.mcp]]'s.
	PassEnv []string `json:"-"`
	// Risk is the risk level of the server's tools; "" means write.
	Risk Risk `json:"risk,omitempty"`
}

// ParseManifest decodes and checks a skill.json. Unknown fields are
// refused, so that a misspelt key is reported rather than ignored.
func ParseManifest(data []byte) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, decodeError(data, err)
	}
	if m.Runner == "" {
		m.Runner = RunnerCommand
	}
	return m, m.check()
}

func (m Manifest) check() error {
	switch {
	case !validName(m.Name):
		return i18n.Errorf("toolbox.manifest.name", m.Name)
	case strings.TrimSpace(m.Description) == "":
		return i18n.Errorf("toolbox.manifest.no_description")
	case !slices.Contains([]string{RunnerBuiltin, RunnerCommand, RunnerMCP}, m.Runner):
		return i18n.Errorf("toolbox.manifest.runner", m.Runner)
	case !slices.Contains([]string{"", OfferAlways, OfferRelevant}, m.Offer):
		return i18n.Errorf("toolbox.manifest.offer", m.Offer)
	case slices.ContainsFunc(m.Keywords, func(k string) bool { return strings.TrimSpace(k) == "" }):
		return i18n.Errorf("toolbox.manifest.empty_keyword")
	}
	if err := checkTimeout(m.Timeout); err != nil {
		return err
	}
	if m.Sandbox != nil {
		for _, w := range m.Sandbox.Writable {
			if !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
				return i18n.Errorf("toolbox.manifest.writable", w)
			}
		}
	}
	for i, name := range m.PassEnv {
		if !isEnvVarName(name) {
			// Not repeated: it may be the secret itself, pasted.
			return i18n.Errorf("toolbox.manifest.pass_env", i)
		}
	}
	switch m.Runner {
	case RunnerCommand:
		if len(m.Tools) == 0 {
			return i18n.Errorf("toolbox.manifest.no_tools")
		}
	case RunnerMCP:
		if m.MCP == nil || m.MCP.Command == "" {
			return i18n.Errorf("toolbox.manifest.no_mcp")
		}
		if m.MCP.Risk != "" && !m.MCP.Risk.valid() {
			return i18n.Errorf("toolbox.manifest.mcp_risk", m.MCP.Risk)
		}
	}
	seen := map[string]bool{}
	for i, t := range m.Tools {
		if seen[t.Name] {
			return i18n.Errorf("toolbox.manifest.tool_twice", t.Name)
		}
		seen[t.Name] = true
		if err := m.checkTool(t); err != nil {
			return i18n.Wrap(err, "toolbox.manifest.tool", i, t.Name, err)
		}
	}
	return nil
}

func (m Manifest) checkTool(t ManifestTool) error {
	if !validName(t.Name) {
		return i18n.Errorf("toolbox.manifest.tool_name")
	}
	if t.Risk != "" && !t.Risk.valid() {
		return i18n.Errorf("toolbox.manifest.risk", t.Risk)
	}
	if err := checkTimeout(t.Timeout); err != nil {
		return err
	}
	if len(t.Parameters) > 0 {
		if _, err := parseSchema(t.Parameters); err != nil {
			return err
		}
	}
	if m.Runner != RunnerCommand {
		return nil
	}
	switch {
	case strings.TrimSpace(t.Description) == "":
		return i18n.Errorf("toolbox.manifest.tool_no_description")
	case t.Risk == "":
		return i18n.Errorf("toolbox.manifest.no_risk")
	case len(m.Command) == 0 && len(t.Command) == 0:
		return i18n.Errorf("toolbox.manifest.no_command")
	}
	return nil
}

func checkTimeout(s string) error {
	if s == "" {
		return nil
	}
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return i18n.Errorf("toolbox.manifest.timeout", s)
	}
	return nil
}

// timeoutOf is the first timeout given, or 0.
func timeoutOf(values ...string) time.Duration {
	for _, v := range values {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
	}
	return 0
}

// Instructions is a SKILL.md in the Agent Skills format: YAML front matter
// with name and description, then the instructions in Markdown.
type Instructions struct {
	Name        string
	Description string
	Body        string
}

// ParseInstructions reads a SKILL.md. Only the front matter's top-level
// name and description are read; other keys are left for other tools.
func ParseInstructions(data []byte) (Instructions, error) {
	text := strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\ufeff")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return Instructions{}, i18n.Errorf("toolbox.manifest.md_no_front")
	}
	front, body, ok := strings.Cut(rest, "\n---")
	if !ok {
		return Instructions{}, i18n.Errorf("toolbox.manifest.md_not_closed")
	}
	var in Instructions
	sc := bufio.NewScanner(strings.NewReader(front))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = unquote(strings.TrimSpace(value))
		switch strings.TrimSpace(key) {
		case "name":
			in.Name = value
		case "description":
			in.Description = value
		}
	}
	_, body, _ = strings.Cut(body, "\n") // the rest of the closing --- line
	in.Body = strings.TrimSpace(body)
	switch {
	case in.Name == "":
		return Instructions{}, i18n.Errorf("toolbox.manifest.md_no_name")
	case in.Description == "":
		return Instructions{}, i18n.Errorf("toolbox.manifest.md_no_description")
	case in.Body == "":
		return Instructions{}, i18n.Errorf("toolbox.manifest.md_no_body")
	}
	return in, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		if s[0] == '"' {
			var out string
			if json.Unmarshal([]byte(s), &out) == nil {
				return out
			}
		}
		return s[1 : len(s)-1]
	}
	return s
}
