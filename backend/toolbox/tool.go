// Package toolbox holds the tools an agent may call: the registry the loop
// draws from, the JSON Schema of each tool's parameters with the validation
// and coercion that turn a model's call into canonical arguments, the errors
// a tool returns to the model, and the built-in file tools.
//
// A tool is a Tool value. Built-in tools are Go functions wrapped by Func,
// whose parameter struct's tags give the schema, each registered once with
// Register (a .go file and its description in a .md beside it); skills
// loaded from manifests register Tool values of their own on the same
// Registry.
package toolbox

import (
	"context"
	"encoding/json"
	"time"

	"hermes/backend/sandbox"
)

// Risk says what a tool may do; approvals and concurrency are decided by it.
type Risk string

// The risks a tool can declare.
const (
	RiskRead    Risk = "read"
	RiskWrite   Risk = "write"
	RiskExec    Risk = "exec"
	RiskNetwork Risk = "network"
)

func (r Risk) valid() bool {
	switch r {
	case RiskRead, RiskWrite, RiskExec, RiskNetwork:
		return true
	}
	return false
}

// Confinement is where a tool's process runs.
type Confinement int

const (
	// Unconfined is no OS sandbox ([tools] sandbox = "off", or the OS has
	// none), so the process can do what the user can.
	Unconfined Confinement = iota
	// Confined is inside the OS sandbox, which stops writes outside the
	// workspace, reading the hidden paths and (by default) the network.
	Confined
	// Escaping is outside it: the model asked to run this one call outside
	// the sandbox; a person must always approve it.
	Escaping
)

// Env is what a tool call may know of its run.
type Env struct {
	Workspace string // absolute; file tools are confined to it
	Home      string // the Hermes home directory
	RunID     string
	CallID    string
	// Sandbox is what the run says of its processes' sandbox beyond
	// [tools]'s.
	Sandbox RunSandbox
	// Sandboxed, when set, learns how the process a call started ran.
	Sandboxed func(Sandboxing)
}

// RunSandbox is a run's own say in the sandbox of its processes.
type RunSandbox struct {
	// Mode replaces [tools] sandbox for the run (hermes run --sandbox);
	// "" keeps it.
	Mode sandbox.Mode
	// Hidden are more paths the run's processes and file tools may not
	// read: the bot hides the other chat users' workspaces.
	Hidden []string
	// Always is the bot's: its runs' processes are sandboxed whatever the
	// mode says, never leave the sandbox, and cannot list the folders that
	// hold hidden paths.
	Always bool
}

// Sandboxing is how a call's process ran.
type Sandboxing struct {
	// Confined: in the OS sandbox; Escaped: outside it, as the model asked
	// and a person approved; neither: the OS has no sandbox or it is off.
	Confined, Escaped bool
	// Why says why it was not confined, for a person.
	Why string
	// Blocked is what the sandbox stopped.
	Blocked []sandbox.Denial
}

// Tool is one function the model may call.
type Tool struct {
	Name string
	// Description is written for the model: when to use the tool, what it
	// returns, and the formats it expects.
	Description string
	// Parameters is a JSON Schema of type object.
	Parameters json.RawMessage
	Risk       Risk
	// Timeout bounds one call; 0 means the run's default.
	Timeout time.Duration
	// Confinement says where a call with these arguments, in the run that
	// env describes, would run its process; nil for a tool that starts none.
	Confinement func(env Env, args json.RawMessage) Confinement
	// Preview, when set, works out what a call with these arguments would
	// change, as JSON shown to the person asked to approve it beside the
	// arguments (a vault edit's vault.Change); an error shows none.
	Preview func(args json.RawMessage) (json.RawMessage, error)
	// Run performs the call with arguments that Registry.Prepare validated.
	// Errors meant for the model come from Errorf (or a *CallError);
	// Transient marks a failure worth one silent retry.
	Run func(ctx context.Context, env Env, args json.RawMessage) (string, error)

	// checked is the Parameters that Func built and checked, which Register
	// need not parse again while they are unchanged.
	checked json.RawMessage
	// skill is the built-in skill that offers a tool made from Register's
	// list; "" for any other.
	skill string
}

// ReadOnly reports whether the tool only reads, so that several of its calls
// may run concurrently.
func (t Tool) ReadOnly() bool { return t.Risk == RiskRead }
