//go:build !windows

package skills

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the command in a process group of its own and makes a
// cancelled context kill the whole group, so a shell's children do not
// outlive a timeout.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
