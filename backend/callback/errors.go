package callback

import "errors"

var (
	// ErrSignature is returned when a callback's signature does not match
	// its content: it was not sent by the platform, or the token is wrong.
	ErrSignature = errors.New("bad callback signature")
	// ErrReceiver is returned for a callback that checks out but is
	// addressed to another receiver (another company, another bot).
	ErrReceiver = errors.New("callback for another receiver")
	// ErrStale is returned for a callback whose timestamp is more than five
	// minutes away from this machine's clock.
	ErrStale = errors.New("stale callback timestamp")
	// ErrReplay is returned for a callback whose nonce was already used.
	ErrReplay = errors.New("replayed callback nonce")
	// ErrMalformed is returned for a callback body or ciphertext that cannot
	// be parsed.
	ErrMalformed = errors.New("malformed callback")
	// ErrTooLarge is returned for a callback body over the size limit.
	ErrTooLarge = errors.New("callback body too large")
)
