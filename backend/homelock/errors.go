package homelock

import "errors"

var (
	// ErrOwned is returned by Claim when a live Hermes process owns the
	// home; the error is an *OwnedError that names it.
	ErrOwned = errors.New("home owned by another process")

	// ErrLockHeld is returned by Claim when hermes.lock names a process that
	// is alive but does not answer at the lock's address with its token: it
	// cannot be attached to, and it is not safe to take over.
	ErrLockHeld = errors.New("hermes.lock held by a process that does not answer")

	// ErrNotOwner is returned by Probe when no live process owns the home.
	ErrNotOwner = errors.New("no live owner")
)
