package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// step is one answer as the script file writes it.
type step struct {
	Content    string         `json:"content"`
	ToolCalls  []llm.ToolCall `json:"tool_calls"`
	Usage      llm.Usage      `json:"usage"`
	Chunks     int            `json:"chunks"`
	Status     int            `json:"status"`
	RetryAfter string         `json:"retry_after"`
	CutAfter   int            `json:"cut_after"`
	Reasoning  string         `json:"reasoning"`
	Repeat     int            `json:"repeat"`
	Hold       bool           `json:"hold"`
	// DelayMS and ChunkDelayMS: see llmtest.Step's Delay and ChunkDelay.
	DelayMS      int `json:"delay_ms"`
	ChunkDelayMS int `json:"chunk_delay_ms"`
}

// script hands out the steps in order; a held step's answer waits on its
// own channel, which release closes.
type script struct {
	mu       sync.Mutex
	steps    []llmtest.Step
	holds    []chan struct{} // of the held steps, in script order
	released int             // holds released, counted from the first
	handed   int             // held steps handed to a request
	next     int
	loads    int // scripts loaded: a pace started for one script stops at the next
}

// load replaces the script and starts it from its first step.
func (s *script) load(raw []byte) error {
	var steps []step
	if err := json.Unmarshal(raw, &steps); err != nil {
		return fmt.Errorf("the script is not a JSON list of steps: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Answers still held by the old script are let go.
	for _, c := range s.holds[s.released:] {
		close(c)
	}
	s.steps, s.holds, s.released, s.handed, s.next = nil, nil, 0, 0, 0
	s.loads++
	for _, st := range steps {
		ls := llmtest.Step{
			Content: st.Content, ToolCalls: st.ToolCalls, Usage: st.Usage, Chunks: st.Chunks,
			Status: st.Status, RetryAfter: st.RetryAfter, CutAfter: st.CutAfter,
			Reasoning: st.Reasoning, Repeat: st.Repeat,
			Delay:      time.Duration(st.DelayMS) * time.Millisecond,
			ChunkDelay: time.Duration(st.ChunkDelayMS) * time.Millisecond,
		}
		if st.Hold {
			c := make(chan struct{})
			s.holds = append(s.holds, c)
			ls.Wait = c
		}
		s.steps = append(s.steps, ls)
	}
	return nil
}

// answer is the step for the next request.
func (s *script) answer(llmtest.Request) llmtest.Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.steps) {
		msg := fmt.Sprintf("scriptmodel: request %d is past the end of the script (%d steps)", s.next+1, len(s.steps))
		s.next++
		return llmtest.Step{Status: http.StatusInternalServerError, Content: msg}
	}
	st := s.steps[s.next]
	s.next++
	if st.Wait != nil {
		s.handed++
	}
	return st
}

// release lets the next held step answer; it reports false when none is left.
func (s *script) release() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releaseNext()
}

// releaseNext is release with s.mu held.
func (s *script) releaseNext() bool {
	if s.released >= len(s.holds) {
		return false
	}
	close(s.holds[s.released])
	s.released++
	return true
}

// pace releases the held steps left, one every d, until none is left or
// another script is loaded. A bench paces the model on the model's own clock
// rather than with a request per turn: the test process's requests would
// take the cores from what it measures.
func (s *script) pace(d time.Duration) {
	s.mu.Lock()
	loads := s.loads
	s.mu.Unlock()
	tick := time.NewTicker(d)
	defer tick.Stop()
	for range tick.C {
		s.mu.Lock()
		more := s.loads == loads && s.releaseNext()
		s.mu.Unlock()
		if !more {
			return
		}
	}
}

// waiting is how many requests were given a held step not yet released.
func (s *script) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(0, s.handed-s.released)
}
