package contextmgr

import "errors"

// ErrEmptySummary is returned by Summarize when the model answered without a
// summary (no text, or tool calls instead); the messages stay unfolded.
var ErrEmptySummary = errors.New("the model answered without a summary")
