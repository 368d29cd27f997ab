package update

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// State is where an update stands, as the desktop notice shows it.
type State string

// The states, in the order an update goes through them.
const (
	StateIdle        State = "idle"
	StateChecking    State = "checking"
	StateUpToDate    State = "up_to_date"
	StateDownloading State = "downloading"
	StateReady       State = "ready"    // downloaded and verified: offer the restart button
	StateApplying    State = "applying" // swapping the binary and checking its health
	StateApplied     State = "applied"  // the new binary is in place: relaunch
	StateFailed      State = "failed"
)

// Status is what the desktop notice shows; it crosses to the UI as JSON.
type Status struct {
	State     State  `json:"state"`
	Installed string `json:"installed"`
	Version   string `json:"version,omitempty"` // the release on offer
	Notes     string `json:"notes,omitempty"`
	NotesZH   string `json:"notes_zh,omitempty"`
	Done      int64  `json:"done,omitempty"`
	Total     int64  `json:"total,omitempty"`
	Error     string `json:"error,omitempty"`
	// Form is how this Hermes was installed, once a release is on offer.
	// For a package (FormPackage) nothing is installed here: when it is
	// ready, Package is the downloaded and verified package and Command
	// the command that installs it.
	Form    Form   `json:"form,omitempty"`
	Package string `json:"package,omitempty"`
	Command string `json:"command,omitempty"`
}

// Checker drives an update for a window: check, download in the
// background, then apply when the user presses restart. Every change of
// Status goes to notify; download progress at most once per percent.
type Checker struct {
	u      *Updater
	notify func(Status)

	mu     sync.Mutex
	status Status
	rel    Release
	path   string
}

// NewChecker returns an idle Checker that reports to notify.
func NewChecker(u *Updater, notify func(Status)) *Checker {
	c := &Checker{u: u, notify: notify}
	c.status = Status{State: StateIdle, Installed: u.Installed()}
	return c
}

// Status is the latest status.
func (c *Checker) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

func (c *Checker) set(change func(*Status)) {
	c.mu.Lock()
	change(&c.status)
	c.status.Installed = c.u.Installed()
	s := c.status
	c.mu.Unlock()
	if c.notify != nil {
		c.notify(s)
	}
}

func (c *Checker) fail(err error) error {
	c.set(func(s *Status) { s.State, s.Error = StateFailed, err.Error() })
	return err
}

// Run finishes an interrupted update, checks the feed and, if a newer
// release exists, downloads it; it returns once the release is ready, the
// install is up to date, or something failed (also reported as
// StateFailed). The app calls it in a goroutine at start.
func (c *Checker) Run(ctx context.Context) error {
	c.set(func(s *Status) { *s = Status{State: StateChecking} })
	if err := c.u.Recover(ctx); err != nil {
		return c.fail(err)
	}
	rel, newer, err := c.u.Check(ctx)
	if err != nil {
		return c.fail(err)
	}
	if !newer {
		c.set(func(s *Status) { s.State = StateUpToDate })
		return nil
	}
	art, err := c.u.artefact(rel)
	if err != nil {
		return c.fail(err)
	}
	form := c.u.Form()
	c.set(func(s *Status) {
		*s = Status{State: StateDownloading, Version: rel.Version, Notes: rel.Notes, NotesZH: rel.NotesZH, Total: art.Size, Form: form}
	})
	var lastPercent int64 = -1
	path, err := c.u.Download(ctx, rel, func(p Progress) {
		if p.Total <= 0 {
			return
		}
		if percent := p.Done * 100 / p.Total; percent != lastPercent {
			lastPercent = percent
			c.set(func(s *Status) { s.Done = p.Done })
		}
	})
	if err != nil {
		return c.fail(err)
	}
	c.mu.Lock()
	c.rel, c.path = rel, path
	c.mu.Unlock()
	c.set(func(s *Status) {
		s.State, s.Done = StateReady, art.Size
		if form == FormPackage {
			s.Package = path
			s.Command, _ = PackageCommands(path)
		}
	})
	return nil
}

// Apply installs the release Run downloaded. The app must close the store
// first (the new version's health check opens it), then Relaunch and quit
// when it succeeds; on failure the old binary is back and the app goes on.
// A package install is refused (ErrManaged) and its notice stays as it
// was: the package manager installs the package Run downloaded.
func (c *Checker) Apply(ctx context.Context) error {
	c.mu.Lock()
	rel, path := c.rel, c.path
	c.mu.Unlock()
	if path == "" {
		return ErrNotReady
	}
	if c.u.Form() == FormPackage {
		return fmt.Errorf("%s: %w", c.u.Exe(), ErrManaged)
	}
	c.set(func(s *Status) { s.State = StateApplying })
	if err := c.u.Apply(ctx, rel, path); err != nil {
		return c.fail(err)
	}
	c.set(func(s *Status) { s.State = StateApplied })
	return nil
}

// Relaunch starts the binary at exe with args as a process of its own, for
// the restart button; the caller quits right after.
func Relaunch(exe string, args []string) error {
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", exe, err)
	}
	return cmd.Process.Release()
}
