// Package homelock is which process owns a home directory, and how
// another reaches it. The first process that serves runs (hermes serve, the
// window, the bot, a hermes run that finds no owner) claims the home: it
// writes HOME/hermes.lock with its pid and the address and token of its
// local API, and removes it on exit. Another process reads the lock and
// attaches to the owner at that address (backend/remote's Client); the token
// of the home's API is kept in HOME/hermes.token.
package homelock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"hermes/backend/api"
	"hermes/backend/atomicfile"
)

// LockName is the lock's file name in the home directory.
const LockName = "hermes.lock"

// Lock is what hermes.lock says of the process that owns the home.
type Lock struct {
	PID int `json:"pid"`
	// Addr is host:port of the owner's local API, on loopback.
	Addr string `json:"addr"`
	// Token is the secret every request to Addr carries; the file is 0600.
	Token string `json:"token"`
	// Mode is what the owner is: "serve", "desktop", "bot" or "run".
	Mode    string    `json:"mode"`
	Started time.Time `json:"started"`
}

// Identity is what GET /api/owner answers (api.Owner): the lock without
// its token, so that a reader of the lock can tell that the address is its
// owner's.
type Identity = api.Owner

// Identity is the lock's owner as GET /api/owner shows it.
func (l Lock) Identity() Identity { return Identity{PID: l.PID, Mode: l.Mode, Started: l.Started} }

// encode is l as json.Marshal writes it, without the reflection Marshal
// takes on its first use: a lock is written at the start of every process
// that owns a home.
func (l Lock) encode() []byte {
	b := append(make([]byte, 0, 160), `{"pid":`...)
	b = strconv.AppendInt(b, int64(l.PID), 10)
	b = appendJSONString(append(b, `,"addr":`...), l.Addr)
	b = appendJSONString(append(b, `,"token":`...), l.Token)
	b = appendJSONString(append(b, `,"mode":`...), l.Mode)
	b = append(b, `,"started":"`...)
	b = l.Started.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...)
}

// appendJSONString appends s quoted as json.Marshal quotes it: as it is
// when it holds nothing Marshal escapes (an address, a hex token, a mode).
func appendJSONString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// LockPath is where home's lock is.
func LockPath(home string) string { return filepath.Join(home, LockName) }

// ReadLock reads home's lock; fs.ErrNotExist when there is none.
func ReadLock(home string) (Lock, error) {
	_, l, err := readLock(home)
	return l, err
}

// readLock also returns the lock's bytes, which a take-over compares.
func readLock(home string) ([]byte, Lock, error) {
	var l Lock
	b, err := os.ReadFile(LockPath(home))
	if err != nil {
		return nil, l, fmt.Errorf("read %s: %w", LockPath(home), err)
	}
	if err := json.Unmarshal(b, &l); err != nil || l.PID <= 0 || l.Addr == "" {
		return b, l, fmt.Errorf("read %s: %w", LockPath(home), errCorrupt)
	}
	return b, l, nil
}

// errCorrupt marks a lock that does not say who holds it; no process can be
// attached through it, so it is taken over like a stale one.
var errCorrupt = errors.New("not a Hermes lock")

// create writes b as home's lock unless there is one: the lock appears
// whole or not at all (atomicfile's NoReplace links a finished file, which
// never replaces another), so a reader never sees half of it. It is not
// synced: a crash ends the process it names, and a lock a crash left empty
// or cut short is taken over as a stale one. fs.ErrExist when there is one.
func create(home string, b []byte) error {
	err := atomicfile.WriteFile(LockPath(home), b, 0o600, atomicfile.NoReplace(), atomicfile.NoSync())
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	return err
}

// removeIf takes home's lock away if it still holds judged. It is moved
// aside first and compared there, so that a lock another process wrote in
// the meantime goes back rather than being lost: two processes that both
// found one stale lock never both take it over. It reports whether judged
// was removed.
func removeIf(home string, judged []byte) bool {
	aside := LockPath(home) + "." + strconv.Itoa(os.Getpid()) + ".old"
	if err := os.Rename(LockPath(home), aside); err != nil {
		return false
	}
	b, err := os.ReadFile(aside)
	same := err == nil && bytes.Equal(b, judged)
	if !same {
		// Another process took the lock over first: theirs goes back, unless
		// a third wrote one since, which then stands.
		_ = os.Link(aside, LockPath(home))
	}
	_ = os.Remove(aside)
	return same
}
