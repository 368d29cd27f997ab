package toolbox

import (
	"context"
	_ "embed"
	"encoding/json"
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
	// OutsideSandbox is the model's request to leave the sandbox for this
	// one call, which a person always approves.
	OutsideSandbox bool `json:"outside_sandbox,omitempty" description:"Run this one command outside the sandbox, with all of the user's rights. Only when a result said the sandbox blocked something the task cannot do without; the user is asked to approve it every time."`
}

// ExecuteCommandName is the tool that runs a command line.
const ExecuteCommandName = "execute_command"

//go:embed execute_command.md
var executeCommandMD string

// execute_command runs a command line with the platform's shell (bash, or
// PowerShell on Windows) in the workspace, cut off after With.Timeout (0 =
// the run's tool timeout), with at most With.OutputLimit bytes of its
// output kept, head and tail. The shell starts with the environment of
// With.Environ, which leaves out the secrets Hermes holds (nil: Hermes's
// own), in its OS sandbox.
func init() {
	Register(Builtin{Skill: "shell", Make: func(w With) (Tool, bool) {
		return executeCommandTool(w.Timeout, w.OutputLimit, w.Environ), true
	}})
}

func executeCommandTool(timeout time.Duration, limit int, environ *Environ) Tool {
	shell, shellName := shellFor(runtime.GOOS)
	t := Func(ExecuteCommandName, strings.Replace(executeCommandMD, "{shell}", shellName, 1),
		RiskExec, func(ctx context.Context, env Env, a executeArgs) (string, error) {
			return execute(ctx, env, shell, a, limit, environ)
		})
	t.Timeout = timeout
	t.Confinement = confinementOf(environ, Asks{}, func(_ Env, args json.RawMessage) bool {
		var a executeArgs
		return json.Unmarshal(args, &a) == nil && a.OutsideSandbox
	})
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
	if a.OutsideSandbox && env.Sandbox.Always {
		return "", Errorf("commands here never run outside the sandbox; do the task another way, or say in your answer what the sandbox blocked")
	}
	w, err := openWorkspace(env, environ)
	if err != nil {
		return "", err
	}
	dir := w.real
	if a.Dir != "" {
		rel, err := w.resolve(a.Dir)
		if err != nil {
			_ = w.Close()
			return "", fsError(a.Dir, "directory", err)
		}
		if fi, err := w.root.Stat(rel); err != nil || !fi.IsDir() {
			_ = w.Close()
			return "", Errorf("%s is not a directory in the workspace; call list_files to see what exists, or leave dir out", a.Dir)
		}
		dir = filepath.Join(w.real, rel)
	}
	_ = w.Close()

	cmd := exec.CommandContext(ctx, shell[0], append(shell[1:], a.Command)...)
	cmd.Dir = dir
	cmd.Env = environ.For(nil)
	out := newHeadTail(limit)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	pr, err := startIn(env, environ, Asks{}, a.OutsideSandbox, cmd, "")
	if err != nil {
		return "", Errorf("the shell could not be started (%v); commands cannot run on this machine, so use the other tools", err)
	}
	err = pr.Wait()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return "", Errorf("the shell could not be started (%v); commands cannot run on this machine, so use the other tools", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exit code %d after %s\n", code, time.Since(start).Round(time.Millisecond))
	text := out.String()
	if text != "" {
		b.WriteString(text)
	} else {
		b.WriteString("(no output)")
	}
	next := "If the task cannot be done without it, call execute_command again with outside_sandbox: true; the user is asked to approve it"
	if env.Sandbox.Always {
		next = "Commands here never leave the sandbox: do the task another way, or say in your answer what was blocked"
	}
	b.WriteString(sandboxNote(env, pr, a.OutsideSandbox, text, code == 0, next))
	return b.String(), nil
}
