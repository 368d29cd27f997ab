package bot

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// RunCopies keeps, for each task of the queue a replica runs, a copy of
// its run as of its last durable checkpoint ([cluster]): the replica that
// takes the task over when this one dies resumes the run from it instead
// of starting it again.
type RunCopies interface {
	// Save stores copy as task's, whole, in place of the one before.
	Save(task string, copy []byte) error
	// Load returns the copy stored as task's; nil when there is none.
	Load(task string) ([]byte, error)
	// Drop deletes task's copy.
	Drop(task string) error
}

// copies copies the durable checkpoints of the runs this replica runs for
// tasks of the queue, each run's on a goroutine of its own, so neither the
// loop nor the store's writer waits for JetStream. A copy is the run as
// the home holds it (runner.CopyRun): checkpoints redacted by the run's
// redactor, and its log, redacted as written.
type copies struct {
	b  *Bot
	to RunCopies

	mu   sync.Mutex
	runs map[string]*copying // by run id
	wg   sync.WaitGroup
}

// copying is the copying of one run, as one task's.
type copying struct {
	task   string
	run    string        // set by the run's first event
	wake   chan struct{} // a checkpoint of the run is durable
	ended  chan struct{} // the run's leg is over
	end    sync.Once
	kept   bool // the run's leg ended without its answer (it did not start)
	saved  bool // a copy of the run is stored, by this replica or another
	warned bool
	// finishing: the model has given its final answer, so no step follows
	// and a copy would be dropped unread.
	finishing atomic.Bool
}

func newCopies(b *Bot, to RunCopies) *copies {
	c := &copies{b: b, to: to, runs: map[string]*copying{}}
	b.store.OnCheckpoint(c.durable)
	return c
}

// durable hears from the store that a checkpoint of run is durable.
func (c *copies) durable(run string) {
	c.mu.Lock()
	cp := c.runs[run]
	c.mu.Unlock()
	if cp != nil {
		cp.poke()
	}
}

func (cp *copying) poke() {
	select {
	case cp.wake <- struct{}{}:
	default: // a copy is due already; it takes the latest checkpoint
	}
}

// taskKey names the task of in, "" for a message that did not come from
// the queue or has no id: its run is not copied. It is the id the task
// was queued under.
func taskKey(platform string, in inbound) string {
	if _, ok := in.r.(*leased); !ok || in.msg.ID == "" {
		return ""
	}
	return platform + "/" + in.msg.ID
}

// copied is start, with the run it starts copied as task's until its leg
// ends; saved says a copy is stored already (the run is taken over). The
// copy is dropped when the leg ends, its outcome being answered.
func (c *copies) copied(task string, saved bool, start func(runner.Hooks) (string, error)) func(runner.Hooks) (string, error) {
	if c == nil || task == "" {
		return start
	}
	return func(h runner.Hooks) (string, error) {
		cp := &copying{task: task, saved: saved, wake: make(chan struct{}, 1), ended: make(chan struct{})}
		c.wg.Add(1)
		go c.follow(cp)
		var first sync.Once
		inner, done := h.Sink, h.Done
		h.Sink = sinkFunc(func(e event.Event) error {
			first.Do(func() { c.track(e.RunID, cp) })
			cp.follow(e)
			return inner.Write(e)
		})
		h.Done = func(res agent.Result) {
			cp.end.Do(func() { close(cp.ended) })
			if done != nil {
				done(res)
			}
		}
		id, err := start(h)
		if err != nil {
			cp.kept = true // another try, here or elsewhere, may still take it up
			cp.end.Do(func() { close(cp.ended) })
		}
		return id, err
	}
}

// follow notes from the run's events whether it is finishing.
func (cp *copying) follow(e event.Event) {
	switch e.Type {
	case event.IterationStarted:
		cp.finishing.Store(false)
	case event.ModelDecided:
		if d, err := event.Decode[event.ModelDecidedData](e); err == nil {
			cp.finishing.Store(len(d.ToolCalls) == 0 && strings.TrimSpace(d.FinalAnswer) != "")
		}
	}
}

// track files cp under its run and has a first copy made, for a
// checkpoint made before the run was known.
func (c *copies) track(run string, cp *copying) {
	c.mu.Lock()
	cp.run = run
	c.runs[run] = cp
	c.mu.Unlock()
	cp.poke()
}

func (c *copies) follow(cp *copying) {
	defer c.wg.Done()
	for {
		select {
		case <-cp.wake:
			c.copy(cp)
		case <-cp.ended:
			c.mu.Lock()
			if c.runs[cp.run] == cp {
				delete(c.runs, cp.run)
			}
			c.mu.Unlock()
			if cp.saved && !cp.kept {
				if err := c.to.Drop(cp.task); err != nil {
					// It ages out of the bucket.
					c.b.log.Warn("copy of an answered task's run not deleted", "run", cp.run, "err", c.b.scrub(err.Error(), nil))
				}
			}
			return
		}
	}
}

// copy stores the run's last durable checkpoint as its task's. A copy that
// fails is logged once for the run, which goes on: a replica taking the
// task over then resumes from an older copy, or starts the task again.
func (c *copies) copy(cp *copying) {
	c.mu.Lock()
	run := cp.run
	c.mu.Unlock()
	if cp.finishing.Load() {
		return // its answer is on its way
	}
	rc, err := c.b.runs.CopyRun(run)
	switch {
	case errors.Is(err, store.ErrNoCheckpoint):
		return
	case err == nil && !rc.Running:
		return // it has ended: its outcome is being answered
	case err == nil && rc.Iteration == 0:
		return // no step done: a replica taking the task over loses nothing starting it again
	case err == nil:
		var data []byte
		if data, err = json.Marshal(rc); err == nil {
			err = c.to.Save(cp.task, data)
		}
	}
	if err != nil {
		if !cp.warned {
			cp.warned = true
			c.b.log.Warn("run's checkpoint not copied to the cluster; the run goes on, but a replica taking its task over would start it again",
				"run", run, "err", c.b.scrub(err.Error(), nil))
		}
		return
	}
	cp.saved = true
}

// wait returns once every run's copying is over.
func (c *copies) wait() {
	if c != nil {
		c.wg.Wait()
	}
}

type sinkFunc func(event.Event) error

func (f sinkFunc) Write(e event.Event) error { return f(e) }

// takeOver resumes the run of a task another replica took and did not
// answer (it died mid-run), from the copy of its run that replica stored:
// the copy is written into this home as if the run had run here, and the
// run goes on from its last checkpoint (run.resumed), so the steps done
// are not asked of the model again. It reports false, and the task starts
// afresh, where there is no copy or it cannot be taken up here (the copy
// is then dropped, lest a later takeover go back to it).
func (s *session) takeOver(in inbound, task string) bool {
	c := s.b.copies
	key := taskKey(s.platform, in)
	if c == nil || key == "" {
		return false
	}
	data, err := c.to.Load(key)
	if err != nil {
		s.b.log.Warn("no copy of the task's run could be read; it starts afresh", "session", s.key, "err", s.b.scrub(err.Error(), nil))
		return false
	}
	if data == nil {
		return false
	}
	var rc runner.RunCopy
	if err := json.Unmarshal(data, &rc); err != nil {
		s.b.log.Warn("the copy of the task's run is unreadable; it starts afresh", "session", s.key, "err", err)
		_ = c.to.Drop(key) // the run started afresh is the task's now
		return false
	}
	s.mu.Lock()
	setup := s.setup()
	s.mu.Unlock()
	lr := s.newLive(in, task, setup)
	s.b.startOne(func() {
		if s.ws == "" {
			if s.ws, err = s.b.makeWorkspace(s.platform, s.user); err != nil {
				return
			}
		}
		if err = s.b.runs.Adopt(rc, s.ws); err != nil {
			return
		}
		lr.started = s.startedBefore(rc.RunID)
		err = s.launch(lr, c.copied(key, true, func(h runner.Hooks) (string, error) {
			return rc.RunID, s.b.runs.ResumeSetup(setup, rc.RunID, s.b.sharingMemory(setup, h))
		}))
	})
	if err != nil {
		s.b.log.Warn("the task's run could not be resumed from its copy; it starts afresh", "session", s.key, "run", rc.RunID,
			"err", s.b.scrub(err.Error(), setup.Redactor))
		_ = c.to.Drop(key) // the run started afresh is the task's now
		return false
	}
	s.b.log.Info("task taken over: its run resumed from the copy of its last checkpoint", "session", s.key, "run", rc.RunID, "iteration", rc.Iteration)
	return true
}
