package toolbox

import (
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"hermes/backend/config"
	"hermes/backend/sandbox"
)

// Secrets are what the processes tools start (command skills,
// execute_command, MCP servers) must not inherit from Hermes.
type Secrets struct {
	// Vars name variables that hold secrets: OPENAI_API_KEY and every
	// variable an X_env reference in hermes.toml names.
	Vars []string
	// Values are the secrets themselves: a variable whose value is one, or
	// holds one (a URL with a password), is left out whatever its name.
	Values []string
}

// SecretsOf are the secrets cfg holds, with the environment read through
// getenv.
func SecretsOf(cfg config.Config, getenv func(string) string) Secrets {
	return Secrets{Vars: cfg.SecretVars(), Values: cfg.Secrets(getenv)}
}

// minContained is the shortest secret looked for inside a longer value;
// shorter ones are matched whole only.
const minContained = 8

// holds reports whether the variable name=value carries a secret.
func (s Secrets) holds(name, value string) bool {
	for _, v := range s.Vars {
		if strings.EqualFold(v, name) { // Windows reads names in any case
			return true
		}
	}
	value = strings.TrimSpace(value)
	for _, v := range s.Values {
		if v != "" && (value == v || len(v) >= minContained && strings.Contains(value, v)) {
			return true
		}
	}
	return false
}

// scrub is environ less every variable that carries a secret, except those
// pass names.
func (s Secrets) scrub(environ, pass []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if s.holds(name, value) && !containsFold(pass, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func containsFold(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// Environ makes the environment of the processes tools start: Hermes's own
// less the secrets it holds, and the OS sandbox they run in. Both may
// change while tools run (an edit of hermes.toml); a process gets those
// known when it starts. It is safe for concurrent use; a nil Environ knows
// no secret and sandboxes as [tools]'s defaults say.
type Environ struct {
	secrets atomic.Pointer[Secrets]
	sandbox atomic.Pointer[SandboxConfig]
}

// SandboxConfig is [tools]'s sandbox.
type SandboxConfig struct {
	Mode     sandbox.Mode
	Network  bool
	Writable []string
	Hidden   []string
}

// SandboxOf is the sandbox [tools] configures.
func SandboxOf(t config.Tools) SandboxConfig {
	return SandboxConfig{Mode: sandbox.Mode(t.SandboxMode()), Network: t.SandboxNetwork, Writable: t.SandboxWritable, Hidden: t.SandboxHidden}
}

// Status is how the processes of a run that says rs are confined under c.
func (c SandboxConfig) Status(rs RunSandbox) sandbox.Status {
	e := &Environ{}
	e.SetSandbox(c)
	return e.Policy(Env{Sandbox: rs}, Asks{}).Status()
}

// SetSandbox replaces the sandbox of the processes started from now on.
func (e *Environ) SetSandbox(c SandboxConfig) { e.sandbox.Store(&c) }

// Asks are what a skill's processes may do beyond the run's sandbox: a
// manifest's "sandbox", or [[tools.mcp]]'s network and writable.
type Asks struct {
	Network  bool     `json:"network,omitempty"`
	Writable []string `json:"writable,omitempty"`
}

// Policy is the sandbox of a process a tool starts for the run env
// describes, with what its skill asks beyond it.
func (e *Environ) Policy(env Env, asks Asks) sandbox.Policy {
	c := SandboxConfig{Mode: sandbox.Workspace}
	if e != nil {
		if p := e.sandbox.Load(); p != nil {
			c = *p
		}
	}
	mode := c.Mode
	if env.Sandbox.Mode != "" {
		mode = env.Sandbox.Mode
	}
	if env.Sandbox.Always && mode == sandbox.Off {
		mode = sandbox.Workspace
	}
	return sandbox.Policy{
		Mode:      mode,
		Network:   c.Network || asks.Network,
		Workspace: env.Workspace,
		Writable:  append(slices.Clone(c.Writable), asks.Writable...),
		Home:      env.Home,
		Hidden:    append(slices.Clone(c.Hidden), env.Sandbox.Hidden...),
		Isolated:  env.Sandbox.Always,
	}
}

// NewEnviron returns an Environ that leaves out s.
func NewEnviron(s Secrets) *Environ {
	e := &Environ{}
	e.Set(s)
	return e
}

// Set replaces the secrets left out of processes started from now on.
func (e *Environ) Set(s Secrets) { e.secrets.Store(&s) }

// For is the environment of a process that asked for the variables pass
// names (a manifest's or [[tools.mcp]]'s pass_env).
func (e *Environ) For(pass []string) []string {
	var s Secrets
	if e != nil {
		if p := e.secrets.Load(); p != nil {
			s = *p
		}
	}
	return s.scrub(os.Environ(), pass)
}
