package toolbox

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"

	"hermes/backend/sandbox"
)

// startIn starts cmd, a process of a tool's call in the run env describes,
// in the OS sandbox that environ and the skill's asks give it, or outside
// any when the model asked for that and a person approved (escape). own
// is the skill's folder, which its process reads even in the hidden Hermes
// home; "" for none.
func startIn(env Env, environ *Environ, asks Asks, escape bool, cmd *exec.Cmd, own string) (*sandbox.Process, error) {
	p := environ.Policy(env, asks)
	if escape {
		p.Mode = sandbox.Off
	}
	if own != "" {
		p.Readable = append(p.Readable, own)
	}
	return p.Start(cmd)
}

// confinementOf is a Confinement for tools whose processes run under
// environ's sandbox, with escape saying whether the call's arguments ask
// to leave it.
func confinementOf(environ *Environ, asks Asks, escape func(env Env, args json.RawMessage) bool) func(Env, json.RawMessage) Confinement {
	return func(env Env, args json.RawMessage) Confinement {
		if !environ.Policy(env, asks).Enforced() {
			return Unconfined
		}
		if escape != nil && escape(env, args) {
			return Escaping
		}
		return Confined
	}
}

// sandboxNote tells env how pr ran, and returns what the model should be
// told of what the sandbox stopped ("" when nothing): which writes, reads
// and calls, and what it can do about them (next) when the process did not
// succeed.
func sandboxNote(env Env, pr *sandbox.Process, escaped bool, output string, succeeded bool, next string) string {
	st := pr.Status()
	s := Sandboxing{Confined: st.Enforced, Escaped: escaped}
	if !st.Enforced && !escaped {
		s.Why = st.Why
	}
	if st.Enforced {
		s.Blocked = pr.Blocked(output)
	}
	if env.Sandboxed != nil {
		env.Sandboxed(s)
	}
	if len(s.Blocked) == 0 {
		return ""
	}
	parts := make([]string, len(s.Blocked))
	kept := true // every one is a read of what the agent may never read
	for i, d := range s.Blocked {
		parts[i] = d.String()
		kept = kept && (d.Kind == sandbox.DenialRead || d.Kind == sandbox.DenialProcess)
	}
	switch {
	case succeeded:
		// Programs probe the network (an update check, IPv6) and go on.
		next = "The command succeeded all the same"
	case kept:
		next = "The agent may not read these, inside the sandbox or out; do the task without them"
	}
	return fmt.Sprintf("\n[blocked by the sandbox: %s. %s]", strings.Join(parts, "; "), next)
}
