// Package api holds the wire shapes of the local API: the JSON that
// `hermes serve` answers and accepts, that the window's bound methods
// return, and that the remote client (backend/remote) decodes. Each shape
// is declared here, or, when a domain package owns it (the event payloads
// of backend/event, a run's context preview, a long-term memory entry), listed
// here by Shapes and Events; frontend/src/api/types.gen.ts is generated
// from those lists (`go test ./backend/api/tsgen -write`), so the UI's
// types follow the Go ones.
//
// The package holds plain structs and no behaviour: the runner, the
// server and the client build on it, never the other way.
package api

import (
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/update"
)

// Summary is a run as lists show it: the summary folded from its events,
// and what the runner knows besides.
type Summary struct {
	runlog.Summary
	Live   bool   `json:"live"`
	Title  string `json:"title"`
	Paused bool   `json:"paused"`
	// PendingApproval is the call the run waits for a person to allow.
	PendingApproval *event.ApprovalRequestedData `json:"pending_approval,omitempty"`
	ForkedFrom      *event.ForkRef               `json:"forked_from,omitempty"`
	// Sample marks the recorded run that ships inside Hermes.
	Sample bool `json:"sample"`
	// Replica names the `hermes bot` replica of the cluster that runs it
	// ([cluster] nats_url); "" for the runs of this home.
	Replica string `json:"replica,omitempty"`
}

// RunPage is one page of the runs list. Next is the Before of the page
// after it, "" when there is none.
type RunPage struct {
	Runs []Summary `json:"runs"`
	Next string    `json:"next,omitempty"`
}

// StartRequest is a new run, as the New-run form sends it.
type StartRequest struct {
	Task         string `json:"task"`
	Instructions string `json:"instructions,omitempty"`
	Workspace    string `json:"workspace,omitempty"`
	Model        string `json:"model,omitempty"`
	BaseURL      string `json:"base_url,omitempty"`
	// MaxIterations, when above 0, replaces [agent] max_iterations for the run.
	MaxIterations int `json:"max_iterations,omitempty"`
	// Strategy, when set ("plan" or "react"), replaces [agent] strategy for the run.
	Strategy string `json:"strategy,omitempty"`
	// Sandbox, when set ("workspace", "read-only" or "off"), replaces
	// [tools] sandbox for the run's commands.
	Sandbox string `json:"sandbox,omitempty"`
	// Memory, when set, replaces [context] memory for the run: "on"
	// (recall, and keep what the run verified), "read" (recall only) or
	// "off" (neither).
	Memory string `json:"memory,omitempty"`
}

// Overrides replace settings of the configuration or a run's recorded
// environment: the flags of `hermes run`, the New-run form, a resume, a
// model check. Zero values change nothing.
type Overrides struct {
	Model         string `json:"model,omitempty"`
	BaseURL       string `json:"base_url,omitempty"`
	MaxIterations int    `json:"max_iterations,omitempty"`
}

// ForkRequest starts a new run from the context iteration Iteration of a
// run was built from. Task, when not empty, replaces the task as it stood
// then; Instructions, when not nil, replaces the standing instructions (""
// removes them). Model and BaseURL, when given, are the model and endpoint
// the fork asks in place of the run's. Memory is what the fork does with
// long-term memory: "" and "off" neither recall nor write, so that a fork
// is the same experiment as its source; "read" and "on" recall the memory
// as it stood when the source started (what was written before, nothing
// the source or a later run wrote), and "on" keeps what the fork verifies.
// Workspace, when given, is the folder the fork works in instead of the
// run's (a copy of it, or another when the run's was removed).
type ForkRequest struct {
	Iteration    int     `json:"iteration"`
	Task         string  `json:"task,omitempty"`
	Instructions *string `json:"instructions,omitempty"`
	Model        string  `json:"model,omitempty"`
	BaseURL      string  `json:"base_url,omitempty"`
	Memory       string  `json:"memory,omitempty"`
	Workspace    string  `json:"workspace,omitempty"`
}

// RunRef names the run a request started, resumed or forked.
type RunRef struct {
	RunID string `json:"run_id"`
}

// Answer is a person's answer to an approval: Decision is one of
// event.Approve*.
type Answer struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	Pattern  string `json:"pattern,omitempty"`
}

// Control is a person's request to a live run (POST
// /api/runs/{id}/control); approvals have their own endpoint (Answer).
type Control = agent.Control

// ControlCancel cuts a live run short at once, as a second Ctrl-C does;
// the other kinds are agent's, and take effect at the run's next safe point.
const ControlCancel agent.ControlKind = "cancel"

// Owner is what GET /api/owner answers: who owns the home (hermes.lock
// without its token), so that a reader of the lock can tell that the
// address is its owner's.
type Owner struct {
	PID     int       `json:"pid"`
	Mode    string    `json:"mode"`
	Started time.Time `json:"started"`
}

// RenameRequest is the body of PATCH /api/runs/{id}: "" removes the title.
type RenameRequest struct {
	Title string `json:"title"`
}

// PinRequest is the body of POST /api/memory/{id}/pin.
type PinRequest struct {
	Pinned bool `json:"pinned"`
}

// Settings are what the New-run form shows and prefills. The API key itself
// never leaves the backend: only whether there is one, and where it is read.
type Settings struct {
	Model   string `json:"model"`
	BaseURL string `json:"base_url"`
	HasKey  bool   `json:"has_key"`
	// KeyEnv is the environment variable the key is read from
	// ([model] api_key_env, else OPENAI_API_KEY).
	KeyEnv string `json:"key_env"`
	// Workspace is where a new run works unless the form says otherwise; ""
	// when the form must ask.
	Workspace  string `json:"workspace"`
	Language   string `json:"language"`
	Home       string `json:"home"`
	ConfigPath string `json:"config_path"`
	// Sandbox is how a new run's commands are confined as [tools] says.
	Sandbox *event.SandboxData `json:"sandbox,omitempty"`
	// Endpoints are the base URLs of [[model.endpoints]], each sent its own
	// key (as logs show URLs: a password or secret query value masked).
	Endpoints []string `json:"endpoints,omitempty"`
	// Tools are the vault, skills and MCP servers a new run gets; absent
	// where the process offers no toolkit.
	Tools *Toolset `json:"tools,omitempty"`
}

// VaultRequest is the body of PUT /api/settings/vault: the vault's folder
// to write into hermes.toml as [obsidian] vault, "" to remove it.
type VaultRequest struct {
	Vault string `json:"vault"`
}

// Kinds of notices.
const (
	// NoticeConfigError: hermes.toml has a mistake; the last good config
	// stays in force until it is fixed.
	NoticeConfigError = "config_error"
	// NoticeConfigReloaded: a good edit of hermes.toml applies to the runs
	// started from now on. It is only told, never listed.
	NoticeConfigReloaded = "config_reloaded"
	// NoticeUpdate: where the check for a new version of Hermes stands.
	NoticeUpdate = "update"
)

// Notice is something the window or the browser shows outside any run: a
// broken or reloaded hermes.toml, an update on offer. A notice replaces the
// earlier one with the same ID ("config", "update").
type Notice struct {
	ID   string    `json:"id"`
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// Message is the notice in both languages ("en", "zh-CN").
	Message map[string]string `json:"message,omitempty"`
	// Problems are the mistakes of a broken config, each with its place.
	Problems []ConfigProblem `json:"problems,omitempty"`
	// Path is the config file a config notice is about.
	Path string `json:"path,omitempty"`
	// Update is the update's state, for an update notice.
	Update *update.Status `json:"update,omitempty"`
	// Restart says this process can install the update and restart (the
	// window); otherwise the notice says to run `hermes update`.
	Restart bool `json:"restart,omitempty"`
}

// ConfigProblem is one mistake in hermes.toml: where it is (0 when the
// mistake has no place, as a file that cannot be read) and what to do, in
// both languages.
type ConfigProblem struct {
	Line    int               `json:"line,omitempty"`
	Column  int               `json:"column,omitempty"`
	Message map[string]string `json:"message"`
}
