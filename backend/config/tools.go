package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/i18n"
)

// Tools configures approvals, the skills that are on, and the MCP servers to
// start. Empty settings take the defaults of the accessors below, so a file
// that says nothing gets read=allow, exec=sandbox, write/network=ask and the
// default sensitive patterns.
type Tools struct {
	// Risk is the policy of each risk level: "allow", "ask" or "deny", and
	// for exec also "sandbox".
	Risk RiskPolicy `toml:"risk"`
	// Allow, Ask and Deny name tools whose policy overrides their risk level.
	Allow []string `toml:"allow"`
	Ask   []string `toml:"ask"`
	Deny  []string `toml:"deny"`
	// AllowCommands are command patterns (CommandPatterns, one each) that
	// execute_command runs without asking when every command of its line
	// matches one.
	AllowCommands []string `toml:"allow_commands"`
	// Sensitive are phrases that make a call always asked, whatever the
	// policy says; nil means DefaultSensitive, [] means none.
	Sensitive []string `toml:"sensitive"`
	// Enabled, when not empty, names the only skills that are on; Disabled
	// names skills that are off.
	Enabled  []string `toml:"enabled"`
	Disabled []string `toml:"disabled"`
	// CommandTimeout bounds one call of a command skill or execute_command;
	// 0 means the run's tool_timeout.
	CommandTimeout Duration `toml:"command_timeout"`
	// OutputLimit is how many bytes of a command's output are kept (its head
	// and tail); 0 means DefaultOutputLimit.
	OutputLimit int `toml:"output_limit"`
	// SelectAbove is the number of tools above which only the skills relevant
	// to the task are sent to the model; 0 means DefaultSelectAbove.
	SelectAbove int `toml:"select_above"`
	// MCP are the MCP servers to start over stdio.
	MCP []MCPServer `toml:"mcp"`
	// Sandbox is the OS sandbox every command and MCP server runs in:
	// SandboxWorkspace, SandboxReadOnly or SandboxOff; "" means workspace.
	Sandbox string `toml:"sandbox"`
	// SandboxNetwork lets sandboxed commands reach the network.
	SandboxNetwork bool `toml:"sandbox_network"`
	// SandboxWritable are folders sandboxed commands may write besides the
	// workspace and their private temp folder.
	SandboxWritable []string `toml:"sandbox_writable"`
	// SandboxHidden are paths sandboxed commands and the file tools may not
	// read, besides the Hermes home and the usual places of credentials.
	SandboxHidden []string `toml:"sandbox_hidden"`
}

// The sandbox modes of [tools] sandbox.
const (
	SandboxWorkspace = "workspace"
	SandboxReadOnly  = "read-only"
	SandboxOff       = "off"
)

// SandboxMode is Sandbox or its default.
func (t Tools) SandboxMode() string {
	if t.Sandbox == "" {
		return SandboxWorkspace
	}
	return t.Sandbox
}

// RiskPolicy is the policy of each risk level.
type RiskPolicy struct {
	Read    string `toml:"read"`
	Write   string `toml:"write"`
	Exec    string `toml:"exec"`
	Network string `toml:"network"`
}

// MCPServer is one MCP server started over stdio, as [[tools.mcp]].
type MCPServer struct {
	Name    string            `toml:"name"`
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	// PassEnv names variables holding secrets that the server is given
	// nonetheless; every other secret Hermes holds is left out of its
	// environment.
	PassEnv []string `toml:"pass_env"`
	// Risk is the risk level of the server's tools; "" means "write".
	Risk string `toml:"risk"`
	// Network lets the sandboxed server reach the network.
	Network bool `toml:"network"`
	// Writable are folders the sandboxed server may write besides its
	// private temp folder.
	Writable []string `toml:"writable"`
}

// Defaults of the [tools] section.
const (
	DefaultOutputLimit = 64 * 1024
	DefaultSelectAbove = 20
)

// DefaultSensitive are the phrases that make a call always asked.
var DefaultSensitive = []string{"rm -rf", "drop table", "delete", "overwrite", "删除", "覆盖", "转账"}

// ActionSandbox is for exec only: a call runs without asking when its
// process runs inside the OS sandbox, and is asked when it would run
// outside it.
const ActionSandbox = "sandbox"

var defaultRisk = RiskPolicy{Read: "allow", Write: "ask", Exec: ActionSandbox, Network: "ask"}

// Action is the policy of risk level risk ("read", "write", "exec" or
// "network"), its default when the file says nothing.
func (t Tools) Action(risk string) string {
	pick := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	switch risk {
	case "read":
		return pick(t.Risk.Read, defaultRisk.Read)
	case "write":
		return pick(t.Risk.Write, defaultRisk.Write)
	case "exec":
		return pick(t.Risk.Exec, defaultRisk.Exec)
	case "network":
		return pick(t.Risk.Network, defaultRisk.Network)
	}
	return "ask"
}

// SensitivePatterns are the configured sensitive phrases, or the defaults.
func (t Tools) SensitivePatterns() []string {
	if t.Sensitive == nil {
		return DefaultSensitive
	}
	return t.Sensitive
}

// Output is OutputLimit or its default.
func (t Tools) Output() int {
	if t.OutputLimit > 0 {
		return t.OutputLimit
	}
	return DefaultOutputLimit
}

// Timeout is CommandTimeout, or fallback when it is not set.
func (t Tools) Timeout(fallback time.Duration) time.Duration {
	if t.CommandTimeout.Duration > 0 {
		return t.CommandTimeout.Duration
	}
	return fallback
}

// Threshold is SelectAbove or its default.
func (t Tools) Threshold() int {
	if t.SelectAbove > 0 {
		return t.SelectAbove
	}
	return DefaultSelectAbove
}

// SkillOn reports whether the skill named name is enabled.
func (t Tools) SkillOn(name string) bool {
	if len(t.Enabled) > 0 && !slices.Contains(t.Enabled, name) {
		return false
	}
	return !slices.Contains(t.Disabled, name)
}

func (t Tools) validate() error {
	var errs []error
	actions := []string{"allow", "ask", "deny"}
	for _, r := range []struct{ key, v string }{
		{"read", t.Risk.Read}, {"write", t.Risk.Write}, {"exec", t.Risk.Exec}, {"network", t.Risk.Network},
	} {
		switch {
		case r.v == ActionSandbox && r.key != "exec":
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.sandbox_action", r.key))
		case r.v == ActionSandbox, r.v == "", slices.Contains(actions, r.v):
		case r.key == "exec":
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.exec_action", r.v))
		default:
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.action", "[tools.risk] "+r.key, r.v))
		}
	}
	for _, c := range t.AllowCommands {
		switch p, err := CommandPatterns(c); {
		case err != nil:
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.allow_command", c))
		case len(p) > 1:
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.allow_commands_one", c))
		}
	}
	seen := map[string]string{}
	for _, l := range []struct {
		key   string
		names []string
	}{{"allow", t.Allow}, {"ask", t.Ask}, {"deny", t.Deny}} {
		for _, name := range l.names {
			if other, dup := seen[name]; dup && other != l.key {
				errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.twice", name, other, l.key))
			}
			seen[name] = l.key
		}
	}
	for _, p := range t.Sensitive {
		if p == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.empty_pattern"))
		}
	}
	if t.OutputLimit < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", "[tools] output_limit", t.OutputLimit, 0))
	}
	if t.SelectAbove < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", "[tools] select_above", t.SelectAbove, 0))
	}
	if t.CommandTimeout.Duration < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.duration", "[tools] command_timeout", t.CommandTimeout.String()))
	}
	switch t.Sandbox {
	case "", SandboxWorkspace, SandboxReadOnly, SandboxOff:
	default:
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.sandbox", t.Sandbox))
	}
	for _, l := range []struct {
		key   string
		paths []string
	}{{"sandbox_writable", t.SandboxWritable}, {"sandbox_hidden", t.SandboxHidden}} {
		for _, p := range l.paths {
			if !absOrHome(p) {
				errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.sandbox_path", l.key, p))
			}
		}
	}
	names := map[string]bool{}
	for i, s := range t.MCP {
		switch {
		case !isMCPName(s.Name):
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.mcp_name", i+1, s.Name))
		case names[s.Name]:
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.mcp_dup", s.Name))
		}
		names[s.Name] = true
		if s.Command == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.mcp_command", s.Name))
		}
		for i, name := range s.PassEnv {
			if !isEnvName(name) {
				// Not repeated: it may be the secret itself, pasted.
				errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.pass_env", s.Name, i+1))
			}
		}
		if s.Risk != "" && !slices.Contains([]string{"read", "write", "exec", "network"}, s.Risk) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.mcp_risk", s.Name, s.Risk))
		}
		for _, p := range s.Writable {
			if !absOrHome(p) {
				errs = append(errs, i18n.Wrap(ErrInvalid, "config.tools.sandbox_path", "[[tools.mcp]] "+s.Name+" writable", p))
			}
		}
	}
	return errors.Join(errs...)
}

// absOrHome reports whether p names a folder without depending on the
// directory Hermes was started in: an absolute path or one under "~/".
func absOrHome(p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "~/") || p == "~"
}
