package event

import "errors"

// ErrFinished is returned by Emit for an event after run.finished, which
// closes a leg of a run: only run.resumed may follow it, or viewers and the
// run list would take the leg for one still going.
var ErrFinished = errors.New("event after run.finished")
