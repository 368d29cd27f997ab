package agent

import "errors"

// ErrUnreadableReply is returned when a stage's model call (routing,
// planning, evaluating, the completion check) gave no usable JSON, even
// after being told what was wrong with its first reply.
var ErrUnreadableReply = errors.New("the model's reply could not be read")

// ErrOverWindow is returned instead of sending a request that would not fit
// the model's context window, even after the old turns were folded.
var ErrOverWindow = errors.New("the request does not fit the model's context window")
