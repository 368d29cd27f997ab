package wecom

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"hermes/backend/chat"
)

// draftEvery spaces the stores of a shared stream's draft: WeCom asks for
// more about once a second, so storing each chunk the model writes would
// only load JetStream.
const draftEvery = time.Second

// Share makes the bot keep its streams in s, for the bot's replicas; call
// it before the bot serves callbacks.
func (a *IntelligentBot) Share(s chat.Streams) { a.shared = s }

// newStreamID is the id of the stream that answers message msgID. Shared,
// it is the same on every replica, so a resend of the message to another
// replica is answered with the same stream.
func (a *IntelligentBot) newStreamID(msgID string) string {
	if a.shared != nil && msgID != "" {
		sum := sha256.Sum256([]byte("hermes stream " + msgID))
		return hex.EncodeToString(sum[:12])
	}
	raw := make([]byte, 12)
	rand.Read(raw)
	return hex.EncodeToString(raw)
}

// replierOf is the replier handed on with a message answered by stream
// id, st in this process.
func (a *IntelligentBot) replierOf(id string, st *stream) chat.Replier {
	if a.shared == nil {
		return st
	}
	return &sharedStream{a: a, id: id, st: st}
}

// find is the stream id, from the replicas' store when shared. There, a
// stream not stored yet is one whose task no replica has answered so far:
// it stays open.
func (a *IntelligentBot) find(id string) *stream {
	if a.shared != nil {
		data, err := a.shared.Load(id)
		switch {
		case err == nil && data != nil:
			return streamFrom(data)
		case err == nil:
			a.mu.Lock()
			st := a.streams[id]
			a.mu.Unlock()
			if st == nil {
				st = &stream{}
			}
			return st
		}
	}
	return a.lookup(id)
}

// ReplierTo is the replier of the message answered by stream addr (a
// replier's Address), for the replica that runs the message's task; nil
// unless the streams are shared.
func (a *IntelligentBot) ReplierTo(_, addr string) chat.Replier {
	if a.shared == nil || addr == "" {
		return nil
	}
	st := &stream{created: a.cb.Now()}
	// A task taken over goes on from what its stream said so far.
	if data, err := a.shared.Load(addr); err == nil && data != nil {
		st = streamFrom(data)
	}
	return &sharedStream{a: a, id: addr, st: st}
}

// sharedStream is a stream reply written through to the replicas' store.
type sharedStream struct {
	a  *IntelligentBot
	id string
	st *stream

	mu      sync.Mutex
	drafted time.Time
}

// Address is the stream's id, for ReplierTo on another replica.
func (s *sharedStream) Address() string { return s.id }

func (s *sharedStream) Reply(ctx context.Context, text string, final bool) error {
	if err := s.st.Reply(ctx, text, final); err != nil {
		return err
	}
	return s.a.shared.Store(s.id, s.st.state())
}

func (s *sharedStream) Draft(text string) {
	s.st.Draft(text)
	s.mu.Lock()
	now := s.a.cb.Now()
	due := now.Sub(s.drafted) >= draftEvery
	if due {
		s.drafted = now
	}
	s.mu.Unlock()
	if due {
		_ = s.a.shared.Store(s.id, s.st.state()) // a draft lost is replaced by the next
	}
}

// storedStream is a stream as the replicas store it.
type storedStream struct {
	Notices  []string `json:"notices,omitempty"`
	Draft    string   `json:"draft,omitempty"`
	Answer   string   `json:"answer,omitempty"`
	Finished bool     `json:"finished,omitempty"`
}

func (s *stream) state() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, _ := json.Marshal(storedStream{Notices: s.notices, Draft: s.draft, Answer: s.answer, Finished: s.finished})
	return data
}

func streamFrom(data []byte) *stream {
	var st storedStream
	// A stream no replica can read starts again empty.
	_ = json.Unmarshal(data, &st)
	return &stream{notices: st.Notices, draft: st.Draft, answer: st.Answer, finished: st.Finished}
}
