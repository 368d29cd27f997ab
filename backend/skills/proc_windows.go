//go:build windows

package skills

import "os/exec"

// ownGroup kills the process when its context ends; Windows has no process
// groups to signal.
func ownGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
}
