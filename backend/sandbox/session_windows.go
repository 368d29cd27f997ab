//go:build windows

package sandbox

import "os/exec"

// ownSession makes a cancelled context kill the process; Windows has no
// sessions of processes to signal.
func ownSession(cmd *exec.Cmd) {
	if cmd.Cancel != nil {
		cmd.Cancel = func() error { return cmd.Process.Kill() }
	}
}

func killSession(int) {}
