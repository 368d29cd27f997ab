package agent

import "sync"

// ControlKind names a request from a person to a running run.
type ControlKind string

const (
	ControlStop   ControlKind = "stop"
	ControlPause  ControlKind = "pause"
	ControlResume ControlKind = "resume"
	ControlInject ControlKind = "inject"
	ControlEdit   ControlKind = "edit"
)

// Control is one request. Text is the instruction of an inject; Task and
// Instructions are the new values of an edit.
type Control struct {
	Kind         ControlKind
	Text         string
	Task         string
	Instructions string
}

// Controls is a run's control queue. Requests take effect at the next
// iteration boundary, so a tool that is running is never interrupted; only a
// cancelled context (a second Ctrl-C) cuts an iteration short.
type Controls struct {
	mu      sync.Mutex
	queue   []Control
	stop    bool
	arrived chan struct{}
}

// NewControls returns an empty queue.
func NewControls() *Controls { return &Controls{arrived: make(chan struct{}, 1)} }

// Send queues c.
func (c *Controls) Send(ctl Control) {
	c.mu.Lock()
	c.queue = append(c.queue, ctl)
	if ctl.Kind == ControlStop {
		c.stop = true
	}
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
}

// Stop asks the run to stop at the next safe point.
func (c *Controls) Stop() { c.Send(Control{Kind: ControlStop}) }

// StopRequested reports whether a stop is queued or was taken.
func (c *Controls) StopRequested() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stop
}

// take removes and returns everything queued.
func (c *Controls) take() []Control {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	return q
}
