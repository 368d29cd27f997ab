//go:build !windows

package sandbox

import (
	"os/exec"
	"syscall"
)

// ownSession starts the command as the leader of a session of its own, so
// that killing the session reaches every process it starts, and so that it
// has no terminal to read from or inject into; the cancelling of a
// CommandContext's context kills the whole session.
func ownSession(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	if cmd.Cancel != nil { // made by CommandContext
		cmd.Cancel = func() error {
			killSession(cmd.Process.Pid)
			return nil
		}
	}
}

// killSession kills every process of the session (its process group: the
// sandbox keeps its processes from leaving it) that pid leads.
func killSession(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL) // a session that has ended has nothing to kill
}
