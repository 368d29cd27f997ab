package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"

	"hermes/backend/i18n"
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

// Share makes this process the owner of home, its local API at me.Addr
// (listening already) taking me.Token, or, when a live process owns the
// home, attaches to that process. Exactly one of the two results is set:
// serve the home's runs and Release the Owner on exit, or use the Client.
func Share(ctx context.Context, home string, me Lock) (*Owner, *Client, error) {
	own, err := Claim(ctx, home, me)
	var owned *OwnedError
	if !errors.As(err, &owned) {
		return own, nil, err
	}
	c, err := Dial(ctx, owned.Owner)
	if err != nil {
		return nil, nil, err
	}
	return nil, c, nil
}

// NewToken is a secret for a local API: 128 random bits.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// Attached says, for a person, which process this one is attached to.
func (c *Client) Attached() string {
	return i18n.T("remote.attached", c.owner.Mode, c.owner.PID)
}
