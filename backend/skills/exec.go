package skills

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

type executeArgs struct {
	Command string `json:"command" minLength:"1" description:"The command line to run, as you would type it in the shell, such as \"go test ./...\" or \"ls -la docs\"."`
	Dir     string `json:"dir,omitempty" description:"Directory to run in, relative to the workspace root; default the workspace root."`
}

// ExecuteCommand returns the execute_command tool: a command line run by the
// platform's shell (bash, or PowerShell on Windows) in the workspace, cut
// off after timeout (0 = the run's tool timeout), with at most limit bytes
// of its output kept, head and tail. The shell starts with environ's
// environment, which leaves out the secrets Hermes holds (nil: Hermes's own).
func ExecuteCommand(timeout time.Duration, limit int, environ *Environ) Tool {
	shell, shellName := shellFor(runtime.GOOS)
	t := Func("execute_command",
		"Run a command line with "+shellName+" in the workspace and return its exit code and its output (stdout and "+
			"stderr together). Use it to build, test, search or inspect things no other tool covers; prefer "+
			"read_file, list_files and write_file for files. The command runs non-interactively: it cannot ask "+
			"questions or read input, and it is stopped after its timeout. Long output keeps its beginning and its "+
			"end with a note of what was cut, so ask for less (grep, head, a narrower path) when you need the middle.",
		RiskExec, func(ctx context.Context, env Env, a executeArgs) (string, error) {
			return execute(ctx, env, shell, a, limit, environ)
		})
	t.Timeout = timeout
	return t
}

// shellFor is the shell command line prefix of an OS and its name for the
// model.
func shellFor(goos string) ([]string, string) {
	if goos == "windows" {
		return []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-Command"}, "PowerShell (Windows; use PowerShell syntax, not bash)"
	}
	return []string{"bash", "-c"}, "bash"
}

func execute(ctx context.Context, env Env, shell []string, a executeArgs, limit int, environ *Environ) (string, error) {
	w, err := openWorkspace(env)
	if err != nil {
		return "", err
	}
	dir := w.real
	if a.Dir != "" {
		rel, err := w.resolve(a.Dir)
		if err != nil {
			w.Close()
			return "", fsError(a.Dir, "directory", err)
		}
		if fi, err := w.root.Stat(rel); err != nil || !fi.IsDir() {
			w.Close()
			return "", Errorf("%s is not a directory in the workspace; call list_files to see what exists, or leave dir out", a.Dir)
		}
		dir = filepath.Join(w.real, rel)
	}
	w.Close()

	cmd := exec.CommandContext(ctx, shell[0], append(shell[1:], a.Command)...)
	cmd.Dir = dir
	cmd.Env = environ.For(nil)
	out := newHeadTail(limit)
	cmd.Stdout, cmd.Stderr = out, out
	ownGroup(cmd)
	cmd.WaitDelay = time.Second
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return "", Errorf("the shell could not be started (%v); commands cannot run on this machine, so use the other tools", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exit code %d after %s\n", code, time.Since(start).Round(time.Millisecond))
	if text := out.String(); text != "" {
		b.WriteString(text)
	} else {
		b.WriteString("(no output)")
	}
	return b.String(), nil
}
