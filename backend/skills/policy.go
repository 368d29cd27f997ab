package skills

import "encoding/json"

// Action is what a policy says of a call.
type Action string

const (
	Allow Action = "allow"
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Verdict is a policy's answer for one call; Reason says why in words a
// person (and, for a denial, the model) can act on.
type Verdict struct {
	Action Action
	Reason string
	// Sensitive marks an ask caused by a sensitive pattern in the
	// arguments: it is asked even for a tool allowed for the rest of the run.
	Sensitive bool
}

// Policy decides which calls run without asking. The loop asks it before
// every call; nil means every call is allowed.
type Policy interface {
	Check(t Tool, args json.RawMessage) Verdict
	// AllowAlways remembers a person's "always allow" for the tool, for
	// arguments matching pattern ("" = any arguments).
	AllowAlways(t Tool, pattern string) error
}
