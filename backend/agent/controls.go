package agent

import "sync"

// ControlKind names a request from a person to a running run.
type ControlKind string

// The controls a person can send; the ones without a comment do what
// their name says to the run.
const (
	ControlStop   ControlKind = "stop"
	ControlPause  ControlKind = "pause"
	ControlResume ControlKind = "resume"
	ControlInject ControlKind = "inject"
	ControlEdit   ControlKind = "edit"
	// ControlEditCall changes the arguments of a decided call that has not
	// run yet; it takes effect while the run is paused after a decision.
	ControlEditCall ControlKind = "edit_call"
	ControlApprove  ControlKind = "approve"
	// ControlPin pins a fact (Text) or a message of the conversation
	// (Message, its index) into the context's pinned layer, where it is
	// never folded into the summary.
	ControlPin ControlKind = "pin"
	// ControlAnswer answers a question the run asked (QuestionID, or the
	// open question when empty) with Text; an empty Text says no one can
	// answer, and the model is told not to guess.
	ControlAnswer ControlKind = "answer"
)

// Control is one request. Text is the instruction of an inject; Task and
// Instructions are the new values of an edit; CallID and Arguments name a
// call and its new arguments; ApprovalID, Decision (event.Approve*), Reason
// and Pattern answer an approval; Text or Message is what a pin pins;
// QuestionID and Text answer a question.
type Control struct {
	Kind         ControlKind `json:"kind"`
	Text         string      `json:"text,omitempty"`
	Task         string      `json:"task,omitempty"`
	Instructions string      `json:"instructions,omitempty"`
	CallID       string      `json:"call_id,omitempty"`
	Arguments    string      `json:"arguments,omitempty"`
	ApprovalID   string      `json:"approval_id,omitempty"`
	Decision     string      `json:"decision,omitempty"`
	Reason       string      `json:"reason,omitempty"`
	Pattern      string      `json:"pattern,omitempty"`
	Message      *int        `json:"message,omitempty"`
	QuestionID   string      `json:"question_id,omitempty"`
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

// take removes and returns the queued controls for which keep is true,
// leaving the others queued in order.
func (c *Controls) take(keep func(Control) bool) []Control {
	c.mu.Lock()
	defer c.mu.Unlock()
	var taken, left []Control
	for _, ctl := range c.queue {
		if keep(ctl) {
			taken = append(taken, ctl)
		} else {
			left = append(left, ctl)
		}
	}
	c.queue = left
	return taken
}
