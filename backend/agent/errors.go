package agent

import "errors"

// ErrUnreadableReply is returned when a stage's model call (routing,
// planning, evaluating, the completion check) gave no usable JSON, even
// after being told what was wrong with its first reply.
var ErrUnreadableReply = errors.New("the model's reply could not be read")
