package api

import "encoding/json"

// Error is how the local API shows an error, over HTTP and in the window
// alike: a code for programs and the message in both languages for people
// (the UI shows the one it is set to). The HTTP status of each code is the
// server's (backend/server).
type Error struct {
	Code    string            `json:"code"`
	Message map[string]string `json:"message"`
}

// ErrorBody is the body of every failed request: {"error": {"code", "message"}}.
type ErrorBody struct {
	Error Error `json:"error"`
}

// JSON is the error's body.
func (e Error) JSON() []byte {
	b, _ := json.Marshal(ErrorBody{e}) // strings only: it always encodes
	return b
}

func (e Error) Error() string { return string(e.JSON()) }

// ModelCheck is the answer to a model check. A failed check is an answer,
// not a failed request: Error says what to fix.
type ModelCheck struct {
	OK    bool   `json:"ok"`
	Error *Error `json:"error,omitempty"`
	// KeySent says whether the check sent an API key: the configured one to
	// [model] base_url, an [[model.endpoints]] entry's own to its endpoint;
	// another endpoint is sent none.
	KeySent bool `json:"key_sent"`
}
