package cluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// Tasks is the work queue of chat tasks (bot.TaskQueue): a task published
// by the replica whose callback took the message is handed to exactly one
// replica's consumer at a time.
type Tasks struct {
	cl *Cluster

	mu      sync.Mutex
	taken   int // tasks handed to this replica
	retaken int // of those, tasks another replica had taken first
}

// Tasks returns the work queue, the same for every call.
func (cl *Cluster) Tasks() *Tasks { return cl.queue }

// Publish queues task and reports whether it is the first of message id
// (the platform's) within SeenFor: each id has its own subject, and the
// publish expects it empty, so of the replicas queuing one id (resends) one
// is told true, in the one round trip to JetStream the callback waits for.
// A task without an id is always queued. An error wrote nothing, or wrote
// the task and lost the answer: the resend finds it queued then.
func (t *Tasks) Publish(ctx context.Context, id string, task []byte) (bool, error) {
	subject := subjectTasks + "." + nuid.Next()
	var opts []jetstream.PublishOpt
	if id != "" {
		subject = subjectTasks + "." + keyOf(id)
		opts = append(opts, jetstream.WithExpectLastSequencePerSubject(0))
	}
	_, err := t.cl.js.Publish(ctx, subject, task, opts...)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyExists): // the subject has its task
		return false, nil
	}
	return false, fmt.Errorf("%w: %v", ErrUnavailable, err)
}

// Consume hands each task this replica takes to take, with settle: the
// task stays this replica's (word is sent every third of the ack wait)
// until settle(true) acknowledges it, before its answer goes out, or
// settle(false) hands it back for another replica. settle(true) fails with
// ErrLeaseLost when the task is no longer this replica's: the answer must
// not go out, since another replica gives it. stop ends the taking; tasks
// taken and not settled go to another replica after the ack wait.
// While it takes tasks the replica announces itself and the tasks it runs
// (ReadStatus); stop withdraws the announcement.
func (t *Tasks) Consume(take func(task []byte, settle func(done bool) error)) (stop func(), err error) {
	return t.Take(func(task []byte, _ func() error, settle func(bool) error) { take(task, settle) })
}

// Take is Consume that hands take, beside settle, check: it makes sure the
// task is still this replica's and keeps it so (a lease written afresh),
// or fails with ErrLeaseLost, and then no settle is needed. A replica
// answering several tasks at once checks them all before it settles any.
func (t *Tasks) Take(take func(task []byte, check func() error, settle func(done bool) error)) (stop func(), err error) {
	a := t.cl.newAnnouncer()
	cc, err := t.cl.tasks.Consume(func(m jetstream.Msg) {
		md, err := m.Metadata()
		if err != nil {
			_ = m.Nak() // or it comes back after the ack wait
			return
		}
		seq := md.Sequence.Stream
		if md.NumDelivered == 1 {
			t.give(m, seq, 0, take, a)
			return
		}
		// Claiming takes JetStream round trips: off the loop, where the
		// tasks fetched behind this one wait unheard of.
		go func() {
			lease, finished, err := t.claim(seq)
			switch {
			case err != nil:
				_ = m.Nak() // it comes back, to this replica or another
			case finished: // by the replica that had it, whose ack is late
				_ = m.Ack() // lost, it comes back and is found finished again
			default:
				t.mu.Lock()
				t.retaken++
				t.mu.Unlock()
				t.give(m, seq, lease, take, a)
			}
		}()
	}, jetstream.PullMaxMessages(500))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go a.run(quit, done)
	var once sync.Once
	return func() {
		once.Do(func() {
			cc.Stop()
			close(quit)
			<-done
		})
	}, nil
}

// give hands m, the task at seq under the lease of revision lease, to take.
func (t *Tasks) give(m jetstream.Msg, seq, lease uint64, take func([]byte, func() error, func(bool) error), a *announcer) {
	t.mu.Lock()
	t.taken++
	t.mu.Unlock()
	check, settle := t.hold(m, seq, lease, a.took(seq, m.Data()))
	take(m.Data(), check, settle)
}

// Counts are the tasks handed to this replica so far, and how many of them
// another replica had taken first (taken over).
func (t *Tasks) Counts() (taken, takenOver int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.taken, t.retaken
}

// A task's lease, in the bucket of leases under its stream sequence, says
// which delivery of it may answer: JetStream takes an acknowledgement from
// any delivery of a task still pending, so a replica too slow to say it
// still works (a busy machine) would answer beside the one that took the
// task over. The first delivery writes nothing until it is done; a later
// one claims the lease; each finishes by changing the lease it knows to
// leaseDone, which fails once another has claimed it.
const leaseDone = "done"

// claim makes the task at seq this delivery's, and returns the lease's
// revision, or finished when the task was done already.
func (t *Tasks) claim(seq uint64) (rev uint64, finished bool, err error) {
	ctx, cancel := opCtx()
	defer cancel()
	key := strconv.FormatUint(seq, 10)
	for {
		e, err := t.cl.leases.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			rev, err = t.cl.leases.Create(ctx, key, []byte("taken"))
		case err != nil:
			return 0, false, err
		case string(e.Value()) == leaseDone:
			return 0, true, nil
		default:
			rev, err = t.cl.leases.Update(ctx, key, []byte("taken"), e.Revision())
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return rev, false, err
		}
		// Another delivery changed it meanwhile: read it again.
	}
}

// finish marks the task at seq done under the lease of revision rev (0:
// the first delivery's, none written), and fails when another delivery
// has claimed it since.
func (t *Tasks) finish(ctx context.Context, seq, rev uint64) error {
	key := strconv.FormatUint(seq, 10)
	var err error
	if rev == 0 {
		_, err = t.cl.leases.Create(ctx, key, []byte(leaseDone))
	} else {
		_, err = t.cl.leases.Update(ctx, key, []byte(leaseDone), rev)
	}
	return err
}

// hold keeps m (the task at seq, under the lease of revision lease) this
// replica's until the returned settle is called, or check finds it lost,
// which then calls dropped.
func (t *Tasks) hold(m jetstream.Msg, seq, lease uint64, dropped func()) (check func() error, settle func(done bool) error) {
	stopBeat := make(chan struct{})
	go func() {
		tick := time.NewTicker(t.cl.ackWait / 3)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				if m.InProgress() != nil {
					return // the connection is gone: the task goes to another replica
				}
			case <-stopBeat:
				return
			}
		}
	}()
	var once sync.Once
	var result error
	var mu sync.Mutex // lease, written afresh by check
	settle = func(done bool) error {
		once.Do(func() {
			close(stopBeat)
			defer dropped()
			if !done {
				result = m.Nak()
				return
			}
			ctx, cancel := opCtx()
			defer cancel()
			mu.Lock()
			rev := lease
			mu.Unlock()
			if err := t.finish(ctx, seq, rev); err != nil {
				result = errors.Join(ErrLeaseLost, err)
				return
			}
			// The lease says who answers: should this acknowledgement be
			// lost, the replica the task goes to next finds it done and
			// acknowledges it.
			_ = m.DoubleAck(ctx)
		})
		return result
	}
	check = func() error {
		ctx, cancel := opCtx()
		defer cancel()
		mu.Lock()
		rev, err := t.keep(ctx, seq, lease)
		if err == nil {
			lease = rev
		}
		mu.Unlock()
		if err != nil {
			// Another replica answers it: neither handed back nor done.
			once.Do(func() {
				close(stopBeat)
				dropped()
				result = errors.Join(ErrLeaseLost, err)
			})
			return result
		}
		// A full ack wait from now before JetStream hands it on again.
		_ = m.InProgress() // missed, JetStream may hand it on, and the lease says who answers
		return nil
	}
	return check, settle
}

// keep writes the lease of the task at seq afresh, from revision rev (0:
// the first delivery's, none written), and returns its new revision; it
// fails when another delivery has claimed it since, or it is done.
func (t *Tasks) keep(ctx context.Context, seq, rev uint64) (uint64, error) {
	key := strconv.FormatUint(seq, 10)
	if rev == 0 {
		return t.cl.leases.Create(ctx, key, []byte("taken"))
	}
	return t.cl.leases.Update(ctx, key, []byte("taken"), rev)
}
