package toolbox

import (
	"os/exec"
	"testing"
)

// requireNode skips tests whose real scripts and servers run on Node, which
// scripts/setup.sh installs.
func requireNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; scripts/setup.sh installs it")
	}
}
