package cluster

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// bucketRuns is the object store of the runs' copies, one object per task.
const bucketRuns = "hermes_bot_runs"

// RunsKeptFor is how long a run's copy outlives its last write: the
// replica that answers a task drops it at once; this is for the tasks no
// replica answered.
const RunsKeptFor = 24 * time.Hour

// Runs keeps, for each task a replica runs, a copy of its run as of its
// last durable checkpoint (bot.RunCopies): a replica that takes the task
// over resumes the run from it. A copy is one object, named for the task
// and replaced whole at each write, so a reader gets one copy or another,
// never half of one. What it holds is the bot's to say (checkpoints
// redacted by the run's redactor, and the run's log).
type Runs struct{ cl *Cluster }

// Runs returns the runs' copies.
func (cl *Cluster) Runs() *Runs { return &Runs{cl} }

// Save stores copy as task's, in place of the one before.
func (r *Runs) Save(task string, copy []byte) error {
	ctx, cancel := opCtx()
	defer cancel()
	if _, err := r.cl.runs.PutBytes(ctx, keyOf(task), copy); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

// Load returns the copy stored as task's, nil when there is none.
func (r *Runs) Load(task string) ([]byte, error) {
	ctx, cancel := opCtx()
	defer cancel()
	data, err := r.cl.runs.GetBytes(ctx, keyOf(task))
	switch {
	case errors.Is(err, jetstream.ErrObjectNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return data, nil
}

// Drop deletes task's copy; one already gone is no error.
func (r *Runs) Drop(task string) error {
	ctx, cancel := opCtx()
	defer cancel()
	if err := r.cl.runs.Delete(ctx, keyOf(task)); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}
