package bot

import (
	"encoding/json"

	"hermes/backend/agent"
	"hermes/backend/i18n"
)

// Steering carries a user's run commands to the replica where the user's
// run is live: any replica may take the message that holds them.
type Steering interface {
	// Serve answers the requests for session key with handle until stop.
	Serve(key string, handle func(req []byte) []byte) (stop func(), err error)
	// Ask sends req to the replica serving session key; served is false
	// when none does.
	Ask(key string, req []byte) (reply []byte, served bool, err error)
}

type steerRequest struct {
	Command command `json:"command,omitempty"` // "": a message, not a command
	Text    string  `json:"text,omitempty"`
}

type steerReply struct {
	// Key is the reply's i18n key, worded by the replica that took the
	// message in its sender's language; "" when the run is not live there.
	Key string `json:"key,omitempty"`
}

// steering is the cluster's seam to other replicas' runs; nil for one
// process.
func (s *session) steering() Steering {
	if s.b.shared == nil {
		return nil
	}
	return s.b.shared.Steer
}

// serveSteer makes the session's live run steerable by the commands the
// other replicas take, until the returned func is called.
func (s *session) serveSteer() (stop func()) {
	st := s.steering()
	if st == nil {
		return func() {}
	}
	stop, err := st.Serve(s.key, s.steered)
	if err != nil {
		s.b.log.Error("run not steerable from the other replicas", "session", s.key, "err", err)
		return func() {}
	}
	return stop
}

// steered applies a command another replica took to the session's live
// run here.
func (s *session) steered(data []byte) []byte {
	var req steerRequest
	var reply steerReply
	s.mu.Lock()
	live := s.live
	s.mu.Unlock()
	if live != nil && json.Unmarshal(data, &req) == nil {
		reply.Key = live.steer(req)
	}
	out, _ := json.Marshal(reply)
	return out
}

// steer applies a command to the run as session.handle does for one taken
// here, and returns the key of the reply; "" once the run has ended.
func (lr *liveRun) steer(req steerRequest) string {
	lr.mu.Lock()
	done := lr.done
	lr.mu.Unlock()
	if done {
		return ""
	}
	switch req.Command {
	case cmdStop:
		lr.control(agent.Control{Kind: agent.ControlStop})
		return "bot.stopping"
	case cmdPause:
		lr.control(agent.Control{Kind: agent.ControlPause})
		return "bot.pausing"
	case cmdResume:
		if !lr.isPaused() {
			return "bot.not_paused"
		}
		lr.control(agent.Control{Kind: agent.ControlResume})
		return "bot.resuming"
	case cmdPin:
		fact := commandArg(req.Text)
		if fact == "" {
			return "bot.pin_usage"
		}
		lr.control(agent.Control{Kind: agent.ControlPin, Text: fact})
		return "bot.pinned"
	case "":
		// Only the answer to an open question: an instruction taken on
		// another replica stays a task there, held by its lease until
		// answered. Added to this run, it would be settled on the word of
		// a replica that may die before its next checkpoint is copied, and
		// the run taken over would never have heard it.
		return lr.answerFrom(req.Text)
	}
	return ""
}

// answerFrom sends a message another replica took as the answer to the
// question the run waits on, as answer does, and returns the key of the
// reply; "" when no question is open (the message is then a task of its
// own there: an instruction is added to the run only by its replica). The
// sender hears the run's outcome from the task's answer.
func (lr *liveRun) answerFrom(text string) string {
	lr.mu.Lock()
	question := lr.question
	if lr.done || question == "" {
		lr.mu.Unlock()
		return ""
	}
	lr.question = ""
	lr.mu.Unlock()
	lr.control(agent.Control{Kind: agent.ControlAnswer, QuestionID: question, Text: text})
	return "bot.answered"
}

// steerElsewhere sends a run command, or a message that may answer the
// run's question (cmd ""), that the session has no live run here for to
// the replica where its run is live, and tells the sender what came of it,
// as handle does; false when no replica has the session's run live or
// took it (it is then handled here: /resume resumes the last run, a
// message starts a task).
func (s *session) steerElsewhere(in inbound, cmd command, lang i18n.Lang) bool {
	st := s.steering()
	ask := cmd
	switch cmd {
	case cmdStop, cmdPause, cmdResume, cmdPin, "":
	case cmdNew:
		ask = cmdStop // the fresh conversation is started here
	default:
		return false
	}
	if st == nil {
		return false
	}
	data, err := json.Marshal(steerRequest{Command: ask, Text: in.msg.Text})
	if err != nil {
		return false
	}
	out, served, err := st.Ask(s.key, data)
	if err != nil {
		s.b.log.Error("command not sent to the replica running the task", "session", s.key, "err", err)
		return false
	}
	var reply steerReply
	if !served || json.Unmarshal(out, &reply) != nil || reply.Key == "" {
		return false
	}
	if cmd == cmdNew {
		// As handle's /new; the run stopped there belongs to the old
		// conversation, and its end is recorded in it no more.
		s.save(func(r *record) {
			r.Generation++
			r.History, r.LastRun, r.LastTask, r.LastStatus, r.LastError = nil, "", "", "", ""
		})
		reply.Key = "bot.new_stopped"
	}
	s.say(in.r, lang, reply.Key)
	return true
}
