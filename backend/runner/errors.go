package runner

import "errors"

var (
	// ErrNoTask is returned by Start, and by an edit control, when the task
	// is empty.
	ErrNoTask = errors.New("no task")

	// ErrBadWorkspace is returned by Start when the workspace is not given
	// and none is configured, or is not a directory.
	ErrBadWorkspace = errors.New("bad workspace")

	// ErrInvalidSandbox is returned by Start for a sandbox mode other than
	// workspace, read-only or off.
	ErrInvalidSandbox = errors.New("invalid sandbox mode")

	// ErrInvalidMemory is returned by Start and Fork for a memory mode
	// other than on, read or off.
	ErrInvalidMemory = errors.New("invalid memory mode")

	// ErrNotLive is returned by Control and Approve for a run that this
	// process is not running.
	ErrNotLive = errors.New("run not live")

	// ErrLive is returned by Resume and Delete for a run that is running.
	ErrLive = errors.New("run is live")

	// ErrFinished is returned by Resume for a run that ended with its answer.
	ErrFinished = errors.New("run already finished")

	// ErrSample is returned for a change to the sample run, which ships
	// inside Hermes and is only for replaying.
	ErrSample = errors.New("sample run is read-only")

	// ErrBadControl is returned by Control for an unknown kind, or a control
	// that lacks what its kind needs.
	ErrBadControl = errors.New("bad control")

	// ErrBadDecision is returned by Approve for an unknown decision.
	ErrBadDecision = errors.New("bad approval decision")

	// ErrNoApproval is returned by Approve when the run is not waiting for
	// that approval: it was answered already, or never asked.
	ErrNoApproval = errors.New("no such pending approval")

	// ErrBadIteration is returned by Fork for an iteration the run has no
	// context of.
	ErrBadIteration = errors.New("no such iteration")

	// ErrBadTitle is returned by Rename for a title that is too long.
	ErrBadTitle = errors.New("bad title")

	// ErrClosed is returned for a run started after Shutdown.
	ErrClosed = errors.New("runner shut down")

	// ErrEndpointSecret is returned by a resume or fork of a run whose
	// endpoint URL held a secret (a password, a query value) that the log
	// masked and hermes.toml does not name: Hermes keeps it nowhere.
	ErrEndpointSecret = errors.New("endpoint URL secret not kept")

	// ErrNoCheckpoint is returned by ContextPreview for a run that is not
	// live and saved no checkpoint.
	ErrNoCheckpoint = errors.New("no checkpoint")

	// ErrNoVault is returned by the vault's routes (a run's edits and
	// notes) when no vault is set.
	ErrNoVault = errors.New("no vault set")
)
