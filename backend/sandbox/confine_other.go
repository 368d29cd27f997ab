//go:build !(linux && (amd64 || arm64)) && !darwin

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"

	"hermes/backend/i18n"
)

// Enforced is false: this system has no sandbox that Hermes can use yet.
func (p Policy) Enforced() bool { return false }

// Status says that this system has no sandbox that Hermes can use yet.
func (p Policy) Status() Status {
	s := Status{Mode: p.Mode, Network: p.Network}
	switch {
	case p.Mode == Off || p.Mode == "":
		s.Why = i18n.T("sandbox.why.off")
	case runtime.GOOS == "windows":
		s.Why = i18n.T("sandbox.why.windows")
	default:
		s.Why = i18n.T("sandbox.why.other", runtime.GOOS+"/"+runtime.GOARCH)
	}
	return s
}

type watcher struct{}

func (*watcher) stop()              {}
func (*watcher) recorded() []Denial { return nil }

func confine(*exec.Cmd, Policy, string, string) (*watcher, error) {
	return nil, errors.New("no sandbox on this system")
}

// guardHermes does nothing here: no command is confined.
func guardHermes() {}
