package homelock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"time"

	"hermes/backend/i18n"
)

// probeTimeout bounds the question to the address in a lock: an owner
// answers at once, from loopback.
const probeTimeout = 2 * time.Second

// claimTries bounds the take-overs of one Claim; each is a lock that was
// found stale and removed, so more than a few means processes race for it.
const claimTries = 5

// Owner is this process's hold on the home it owns.
type Owner struct {
	home string
	raw  []byte
	// Lock is what this process wrote in hermes.lock.
	Lock Lock
}

// OwnedError is Claim's answer when a live Hermes process owns the home
// already: attach to Owner with Dial.
type OwnedError struct{ Owner Lock }

func (e *OwnedError) Error() string {
	return i18n.T("homelock.owned", e.Owner.Mode, e.Owner.PID)
}

// Is makes errors.Is(err, ErrOwned) true.
func (e *OwnedError) Is(target error) bool { return target == ErrOwned }

// Claim makes this process the owner of home, with its local API at me.Addr
// (on loopback, already listening) taking me.Token; it fills in the pid and
// the start time. A lock whose process is gone is taken over. When a live
// process owns the home, the error is an *OwnedError; when the lock names a
// live process that does not answer at its address with its token, the
// error is ErrLockHeld and the lock is left alone.
func Claim(ctx context.Context, home string, me Lock) (*Owner, error) {
	me.PID = os.Getpid()
	me.Started = time.Now().UTC().Round(time.Millisecond)
	raw := me.encode()
	for range claimTries {
		err := create(home, raw)
		if err == nil {
			return &Owner{home: home, raw: raw, Lock: me}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, i18n.Wrap(err, "homelock.lock_failed", LockPath(home), err)
		}
		held, cur, err := readLock(home)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // let go of since
		case errors.Is(err, errCorrupt):
			removeIf(home, held)
			continue
		case err != nil:
			return nil, i18n.Wrap(err, "homelock.lock_failed", LockPath(home), err)
		}
		switch {
		case identify(ctx, cur) == nil:
			return nil, &OwnedError{Owner: cur}
		case !processAlive(cur.PID):
			removeIf(home, held)
		default:
			return nil, i18n.Wrap(ErrLockHeld, "homelock.lock_held", cur.PID, cur.Addr, LockPath(home))
		}
	}
	return nil, i18n.Wrap(ErrLockHeld, "homelock.lock_contended", LockPath(home))
}

// Release removes the lock, if it is still this process's. It is compared
// and removed in place, not moved aside under a name of this process's own
// as a takeover moves a stale lock (removeIf): a lock is taken over only
// when its process is gone, so no other process replaces it meanwhile, and
// each name removed from the home stays a directory entry that watching the
// home then walks (atomicfile.tempNames).
func (o *Owner) Release() {
	path := LockPath(o.home)
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, o.raw) {
		_ = os.Remove(path)
	}
}

// Probe returns the lock of the live process that owns home, or
// ErrNotOwner when none does (no lock, a stale one, or one whose process
// does not answer). It changes nothing.
func Probe(ctx context.Context, home string) (Lock, error) {
	l, err := ReadLock(home)
	if err == nil {
		err = identify(ctx, l)
	}
	if err != nil {
		return Lock{}, fmt.Errorf("%w: %w", ErrNotOwner, err)
	}
	return l, nil
}

// identify asks the address in l, with l's token, who it is: nil when the
// process that wrote l answers.
func identify(ctx context.Context, l Lock) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+l.Addr+"/api/owner", nil)
	if err != nil {
		return fmt.Errorf("ask %s: %w", l.Addr, err)
	}
	req.Header.Set("Authorization", "Bearer "+l.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("ask %s: %w", l.Addr, err)
	}
	defer res.Body.Close()
	var id Identity
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("ask %s: %s", l.Addr, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(&id); err != nil {
		return fmt.Errorf("ask %s: %w", l.Addr, err)
	}
	if id.PID != l.PID || !id.Started.Equal(l.Started) {
		return fmt.Errorf("ask %s: answered by pid %d, not %d", l.Addr, id.PID, l.PID)
	}
	return nil
}
