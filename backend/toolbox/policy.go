package toolbox

import (
	"encoding/json"

	"hermes/backend/i18n"
)

// Action is what a policy says of a call.
type Action string

// The actions; the first three do what their name says.
const (
	Allow Action = "allow"
	Ask   Action = "ask"
	Deny  Action = "deny"
	// Sandbox allows a call whose process runs inside the OS sandbox and
	// asks about one that would run outside it ([tools.risk] exec).
	Sandbox Action = "sandbox"
)

// Verdict is a policy's answer for one call; Reason says why in words a
// person (and, for a denial, the model) can act on: in English, as the
// model reads it, and, when it is a message of the catalog, as Why, which a
// person reads in their language (Shown).
type Verdict struct {
	Action Action
	Reason string
	Why    i18n.Text
	// Sensitive marks an ask caused by a sensitive pattern in the
	// arguments: it is asked even for a tool allowed for the rest of the run.
	Sensitive bool
	// Escaping marks a call the model asked to run outside the OS sandbox:
	// a person approves it each time, and nothing else may (no rule, no
	// "allow for this run", no --yes, no allow list).
	Escaping bool
	// Commands are the simple commands of an execute_command line as
	// written, Risky what in it is asked about whatever the rules say, and
	// Patterns the "always" patterns offered, one per command no rule
	// covers; all empty for other tools.
	Commands, Risky, Patterns []string
}

// Because is v with its reason: why, in English as Reason.
func (v Verdict) Because(why i18n.Text) Verdict {
	v.Reason, v.Why = why.In(i18n.EN), why
	return v
}

// Shown is the reason as a person reads it: Why in their language, or
// Reason when the policy gave no message.
func (v Verdict) Shown() string {
	if v.Why.IsZero() {
		return v.Reason
	}
	return v.Why.String()
}

// Policy decides which calls run without asking. The loop asks it before
// every call; nil means every call is allowed.
type Policy interface {
	// Check decides on a call of t with args in env's workspace.
	Check(t Tool, args json.RawMessage, env Env) Verdict
	// AllowAlways remembers a person's "always allow" for the tool, for
	// arguments matching pattern ("" = any arguments; for execute_command,
	// command patterns separated by ";", each remembered as a rule).
	AllowAlways(t Tool, pattern string) error
}
