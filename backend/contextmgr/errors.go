package contextmgr

import "errors"

// ErrEmptySummary is returned by Summarize when the model answered without a
// summary (no text, or tool calls instead); the messages stay unfolded.
var ErrEmptySummary = errors.New("the model answered without a summary")

// ErrOverWindow is returned by Summarize, without asking the model, when
// the summary request would not fit the context window.
var ErrOverWindow = errors.New("the messages to fold do not fit the context window")
