package homelock

import (
	"crypto/rand"
	"encoding/hex"
)

// Modes of the processes that own a home, as hermes.lock names them.
const (
	ModeServe   = "serve"
	ModeDesktop = "desktop"
	ModeBot     = "bot"
	// ModeRun is a `hermes run` or `hermes resume` that found no owner: it
	// owns the home for as long as its run goes on.
	ModeRun = "run"
)

// NewToken is a secret for a local API: 128 random bits.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}
