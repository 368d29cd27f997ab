// Package update keeps Hermes up to date without ever leaving a broken
// install: a signed feed, a download cache that resumes and detects
// corruption, verification before anything is applied, a health check of
// the new binary on a copy of the home before an atomic swap, automatic
// restore of the old one, and migrations of the config and store with a
// backup.
//
// Every step that changes the install is recorded in a journal first, so a
// process killed at any point leaves something Recover can finish or undo.
package update

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"aead.dev/minisign"
)

// Options configures an Updater.
type Options struct {
	Home      string // the Hermes home; the cache is Home/updates
	FeedURL   string
	PublicKey string // minisign public key; "" is the key built into Hermes
	Channel   string // ChannelStable ("" too) or ChannelBeta
	Version   string // the running version
	// Exe is the binary to replace; "" is the running executable.
	Exe string
	// Platform is "GOOS/GOARCH"; "" is this one.
	Platform string
	// Form is how Hermes was installed; "" detects it from Exe when an
	// update first needs it (DetectForm).
	Form Form
	// Root is the file system's root, under which the form's detection
	// reads the dpkg database; "" is "/". Tests point it at a fake root.
	Root   string
	Client *http.Client // nil is a client with sensible timeouts
	// HealthTimeout bounds each health check of a new binary; 0 is 60s.
	HealthTimeout time.Duration
	// RetryDelay is the pause before resuming download attempt n (1-based);
	// nil is n seconds.
	RetryDelay func(attempt int) time.Duration
	// OnStep is told each step of an update once it is durable; the desktop
	// uses it for its notice, tests to kill the process at that point.
	OnStep func(Step)
}

// Step names a durable point of an update.
type Step string

// The durable points, in the order an update reaches them.
const (
	StepDownloaded Step = "downloaded" // the artefact is in the cache, verified
	StepStaged     Step = "staged"     // the new binary is written beside the old one
	StepChecked    Step = "checked"    // it passed its health check on a copy of the home
	StepSwapped    Step = "swapped"    // the new binary has the old one's name
	StepHealthy    Step = "healthy"    // the new binary passed its health check
	StepRolledBack Step = "rolled_back"
)

// Updater checks for, downloads and applies updates for one home directory.
type Updater struct {
	opts Options
	key  minisign.PublicKey
	link string // the path Exe was given as, when that is a symlink to it

	formOnce sync.Once
	form     Form
}

// New checks the options and returns an Updater.
func New(opts Options) (*Updater, error) {
	keyText := opts.PublicKey
	if keyText == "" {
		keyText = builtinPublicKey
	}
	key, err := ParsePublicKey(keyText)
	if err != nil {
		return nil, err
	}
	if opts.Platform == "" {
		opts.Platform = runtime.GOOS + "/" + runtime.GOARCH
	}
	if opts.Client == nil {
		opts.Client = defaultClient()
	}
	if opts.HealthTimeout == 0 {
		opts.HealthTimeout = 60 * time.Second
	}
	if opts.RetryDelay == nil {
		opts.RetryDelay = func(n int) time.Duration { return time.Duration(n) * time.Second }
	}
	if opts.Form != "" {
		if _, ok := ParseForm(string(opts.Form)); !ok {
			return nil, fmt.Errorf("form %q: %w", opts.Form, ErrForm)
		}
	}
	exe, link, err := resolveExe(opts.Exe)
	if err != nil {
		return nil, err
	}
	opts.Exe = exe
	return &Updater{opts: opts, key: key, link: link}, nil
}

// resolveExe is the binary an update replaces for exe ("" is the running
// one): the file a symlink (such as /usr/local/bin/hermes) points to, not
// the link, which is returned as link.
func resolveExe(exe string) (resolved, link string, err error) {
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return "", "", fmt.Errorf("find the running binary: %w", err)
		}
	}
	if link, err = filepath.Abs(exe); err != nil {
		return "", "", fmt.Errorf("find the running binary: %w", err)
	}
	resolved = link
	if r, err := filepath.EvalSymlinks(link); err == nil {
		resolved = r
	}
	if resolved, err = filepath.Abs(resolved); err != nil {
		return "", "", fmt.Errorf("find the running binary: %w", err)
	}
	if link == resolved {
		link = ""
	}
	return resolved, link, nil
}

// defaultClient waits at most 30s for a server to answer; the body of a
// download has no deadline, only the stall timeout of the copy.
func defaultClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 30 * time.Second
	return &http.Client{Transport: t}
}

// Exe is the binary this Updater replaces.
func (u *Updater) Exe() string { return u.opts.Exe }

// Form is how Hermes was installed: Options.Form, or what DetectForm says,
// which reads the disk once (the dpkg database, on Linux).
func (u *Updater) Form() Form {
	u.formOnce.Do(func() {
		u.form = u.opts.Form
		if u.form == "" {
			u.form = DetectForm(u.opts.Exe, u.link, u.goos(), u.opts.Root)
			if u.form == FormBinary && headlessBuild {
				u.form = FormHeadless
			}
		}
	})
	return u.form
}

// Path is what an update replaces: the .app of a bundle, else the binary.
func (u *Updater) Path() string {
	if u.Form() == FormBundle {
		return bundleOf(u.opts.Exe)
	}
	return u.opts.Exe
}

func (u *Updater) goos() string {
	goos, _, _ := strings.Cut(u.opts.Platform, "/")
	return goos
}

// artefact is rel's artefact for this platform and install form.
func (u *Updater) artefact(rel Release) (Artefact, error) {
	form := u.Form().artefactForm()
	a, ok := rel.Artefact(u.opts.Platform, form)
	if !ok {
		return Artefact{}, noArtefact(rel, u.opts.Platform, form)
	}
	return a, nil
}

func (u *Updater) step(s Step) {
	if u.opts.OnStep != nil {
		u.opts.OnStep(s)
	}
}

// Check fetches the feed and returns the newest release for this platform
// and channel, and whether it is newer than the running version.
func (u *Updater) Check(ctx context.Context) (Release, bool, error) {
	if u.opts.FeedURL == "" {
		return Release{}, false, ErrNoFeed
	}
	if _, err := parseVersion(u.opts.Version); err != nil {
		return Release{}, false, err
	}
	feed, err := fetchFeed(ctx, u.opts.Client, u.opts.FeedURL, u.key)
	if err != nil {
		return Release{}, false, err
	}
	return feed.newest(u.opts.Version, u.opts.Channel, u.opts.Platform, u.Form().artefactForm())
}

// The cache and the records kept beside the install, all under Home/updates.
func (u *Updater) dir() string                { return filepath.Join(u.opts.Home, "updates") }
func (u *Updater) versionDir(v string) string { return filepath.Join(u.dir(), v) }
func (u *Updater) journalPath() string        { return filepath.Join(u.dir(), "apply.json") }
func (u *Updater) previousDir() string        { return filepath.Join(u.dir(), "previous") }
func (u *Updater) binaryName() string         { return filepath.Base(u.opts.Exe) }
func (u *Updater) stagedPath() string {
	return filepath.Join(filepath.Dir(u.opts.Exe), "."+u.binaryName()+".new")
}
