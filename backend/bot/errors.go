package bot

import "errors"

var (
	// ErrSetup is returned by New when its options lack the store, the run
	// manager or a complete agent setup (a programming error, not a user's).
	ErrSetup = errors.New("bot options lack a store, a run manager or a complete agent setup")
	// errNoAlways is returned for an "always allow", which no one in a chat
	// can give: tools are allowed in the bot by [bot] allow_tools.
	errNoAlways = errors.New("the bot does not remember approvals; list the tool in [bot] allow_tools")
	// ErrWorkspace is returned when a user's workspace folder cannot be
	// made under [bot] workspace.
	ErrWorkspace = errors.New("workspace folder cannot be made")
	// ErrClosed is returned when a message arrives after the bot began to
	// shut down.
	ErrClosed = errors.New("bot is shutting down")
	// ErrClusterPlatform is returned by New for a replica ([cluster]) of a
	// platform whose replies the replicas were not given to share.
	ErrClusterPlatform = errors.New(`this platform's replies are not shared with the other replicas; set [cluster] nats_url = "" to run it as one process`)
	// ErrTaskTaken is returned for an answer not sent because another
	// replica took its message over (and answers it).
	ErrTaskTaken = errors.New("the task was taken over by another replica, which answers it")
)
