//go:build darwin

package sandbox

import (
	"os"
	"os/exec"

	"hermes/backend/i18n"
)

// sandboxExec is macOS's command that runs a program under a Seatbelt
// profile.
const sandboxExec = "/usr/bin/sandbox-exec"

// Enforced reports whether p's processes run confined on this Mac:
// Status's Enforced, without the rest of the status.
func (p Policy) Enforced() bool {
	if p.Mode == Off || p.Mode == "" {
		return false
	}
	_, err := os.Stat(sandboxExec)
	return err == nil
}

// Status says how p's processes run on this Mac.
func (p Policy) Status() Status {
	s := Status{Mode: p.Mode, Network: p.Network}
	if p.Mode == Off || p.Mode == "" {
		s.Why = i18n.T("sandbox.why.off")
		return s
	}
	if _, err := os.Stat(sandboxExec); err != nil {
		s.Why = i18n.T("sandbox.why.no_seatbelt")
		return s
	}
	s.Enforced, s.How = true, "Seatbelt (sandbox-exec)"
	s.Gaps = []string{i18n.T("sandbox.gap.session")}
	return s
}

type watcher struct{}

func (*watcher) stop()              {}
func (*watcher) recorded() []Denial { return nil }

// confine runs the command through sandbox-exec with p's profile.
func confine(cmd *exec.Cmd, p Policy, tmp, cache string) (*watcher, error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	profile := seatbeltProfile(p, tmp, cache)
	cmd.Args = append([]string{"sandbox-exec", "-p", profile, cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Err = sandboxExec, nil
	return nil, cmd.Start()
}

// guardHermes does nothing on macOS, where reading another process's
// memory takes the debugger's entitlement; the Seatbelt profile decides
// what else a command may learn of other processes.
func guardHermes() {}
