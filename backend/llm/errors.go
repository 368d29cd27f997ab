package llm

import "errors"

// The errors of a model request. Chat and Check return them wrapped in an
// i18n.Error whose text names the setting to fix; test with errors.Is.
var (
	// ErrUnreachable is returned when the model endpoint cannot be reached:
	// the connection is refused, reset or times out, or the base URL is invalid.
	ErrUnreachable = errors.New("llm: model endpoint unreachable")

	// ErrUnauthorized is returned when the endpoint refuses the API key (HTTP 401 or 403).
	ErrUnauthorized = errors.New("llm: api key refused")

	// ErrModelNotFound is returned when the endpoint does not know the model (HTTP 404).
	ErrModelNotFound = errors.New("llm: model not found")

	// ErrBadRequest is returned when the endpoint rejects the request itself (another HTTP 4xx).
	ErrBadRequest = errors.New("llm: request rejected")

	// ErrRateLimited is returned when the endpoint still answers HTTP 429 after every retry,
	// or asks for a longer wait than a run should block for.
	ErrRateLimited = errors.New("llm: rate limited")

	// ErrServer is returned when the endpoint still fails (HTTP 5xx, a broken
	// stream) after every retry, or answers with something that is not a chat
	// completion at all.
	ErrServer = errors.New("llm: model server error")

	// ErrReplyTooLong is returned when a reply goes past ReplyCap of the
	// output cap: a server that ignores max_tokens, or a model that will
	// not stop. The reply is dropped and not retried.
	ErrReplyTooLong = errors.New("llm: reply too long")

	// ErrMissingKey is returned by Check when no API key is set for an endpoint
	// that is not on this machine.
	ErrMissingKey = errors.New("llm: no api key")

	// ErrUnrepairable is returned by RepairJSON when the text holds no JSON
	// value it can recover.
	ErrUnrepairable = errors.New("llm: json cannot be repaired")
)
