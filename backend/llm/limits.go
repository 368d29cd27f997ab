package llm

import "errors"

// DefaultMaxOutputTokens is the output cap of a client whose Config names
// none; [model] max_output_tokens defaults to the same.
const DefaultMaxOutputTokens = 8192

// replyFloor is the least ReplyCap, so a small max_output_tokens never cuts
// a reply that a server honouring it would send.
const replyFloor = 256 << 10

// errReplyTooLong stops reading a reply that went past its cap.
var errReplyTooLong = errors.New("the reply went past its cap")

// ReplyCap is how many bytes of one reply a client reads (its text,
// reasoning and tool-call arguments together; a stream's chunks count at
// least one byte each) before it closes the stream and fails the call with
// ErrReplyTooLong: 8 bytes a token of maxOutputTokens, twice what a token
// takes in English or Chinese text, and at least 256 KiB. A server that
// honours max_tokens never comes near it; one that ignores it, or a model
// that repeats itself without end, is stopped there.
func ReplyCap(maxOutputTokens int) int {
	if maxOutputTokens <= 0 {
		maxOutputTokens = DefaultMaxOutputTokens
	}
	return max(8*maxOutputTokens, replyFloor)
}

// bodyLimit bounds the bytes of one response body, which go-openai would
// otherwise read whole into memory (a plain answer, an error body, a model
// list, one endless stream line). A stream spends a hundred-odd bytes of
// JSON around each piece of text, so the bound is far above the reply cap.
func (c *Client) bodyLimit() int64 {
	return 64 * int64(ReplyCap(c.cfg.MaxOutputTokens))
}

// replyMeter counts a reply's bytes against its cap.
type replyMeter struct {
	left int
}

// add counts n bytes (at least one: a chunk without text still costs) and
// reports false once the cap is passed.
func (m *replyMeter) add(n int) bool {
	m.left -= max(n, 1)
	return m.left >= 0
}
