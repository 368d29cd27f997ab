package api

// StreamOpened is the first message of GET /api/stream (`event: stream`):
// the id that POST /api/stream/{id} changes the stream by.
type StreamOpened struct {
	StreamID string `json:"stream_id"`
}

// Subscription is one run a page asks a stream for: its events after seq
// After.
type Subscription struct {
	RunID string `json:"run_id"`
	After int64  `json:"after"`
}

// StreamChange is the body of POST /api/stream/{id}.
type StreamChange struct {
	Subscribe   []Subscription `json:"subscribe"`
	Unsubscribe []string       `json:"unsubscribe"`
}

// StreamEnd (`event: end` of GET /api/stream) says a subscribed run's leg
// is over, or, with Error, that it could not be watched.
type StreamEnd struct {
	RunID string `json:"run_id"`
	Error *Error `json:"error,omitempty"`
}
