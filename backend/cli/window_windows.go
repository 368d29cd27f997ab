package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// execWindow runs the window build and waits for it: Windows cannot
// replace a process's program, so the headless one stays until the window
// closes and passes on its exit code.
func execWindow(path string, argv []string) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("start the window %s: %w", path, err)
	}
	return nil
}
