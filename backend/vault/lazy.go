package vault

import (
	"sync"

	"hermes/backend/toolbox"
)

// Lazy is a vault that is opened when a tool first needs it, so that a
// process that never calls a vault tool never reads the index or looks at
// the notes. It is safe for concurrent use.
type Lazy struct {
	dir  string
	opts Options

	mu     sync.Mutex
	v      *Vault
	closed bool
}

// Prepare checks that dir is a folder and the exclude patterns are well
// formed, as Open does, but opens nothing.
func Prepare(dir string, opts Options) (*Lazy, error) {
	abs, _, err := check(dir, opts)
	if err != nil {
		return nil, err
	}
	return &Lazy{dir: abs, opts: opts}, nil
}

// Vault opens the vault the first time it is called and returns it after;
// a failed open is tried again on the next call.
func (l *Lazy) Vault() (*Vault, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	if l.v == nil {
		v, err := Open(l.dir, l.opts)
		if err != nil {
			return nil, err
		}
		l.v = v
	}
	return l.v, nil
}

// Dir is the vault's folder.
func (l *Lazy) Dir() string { return l.dir }

// Opened reports whether the vault has been opened.
func (l *Lazy) Opened() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v != nil
}

// Tools are the vault tools (see Tools), opening the vault on first call.
func (l *Lazy) Tools() []toolbox.Tool { return tools(l.Vault) }

// Close closes the vault if it was opened; tools called after fail.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.v == nil {
		return nil
	}
	return l.v.Close()
}
