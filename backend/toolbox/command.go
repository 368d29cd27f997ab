package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"hermes/backend/sandbox"
)

// emptyParams is the schema of a tool that takes no arguments.
var emptyParams = json.RawMessage(`{"type":"object","properties":{}}`)

// commandRequest is what a command skill reads on stdin.
type commandRequest struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Workspace string          `json:"workspace"`
	RunID     string          `json:"run_id,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
}

// commandReply is what a command skill writes on stdout: a result (text, or
// any JSON, which the model then reads as JSON) or an error for the model.
type commandReply struct {
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

// commandTool makes a tool of a command skill's tool. argv's elements that
// start with "./" are files in the skill's folder. Its process starts with
// environ's environment, plus the variables that pass names, in environ's
// sandbox with what the skill asks beyond it.
func commandTool(dir string, argv []string, mt ManifestTool, timeout time.Duration, limit int, environ *Environ, pass []string, asks Asks) Tool {
	abs := make([]string, len(argv))
	for i, a := range argv {
		if strings.HasPrefix(a, "./") {
			a = filepath.Join(dir, filepath.FromSlash(a[2:]))
		}
		abs[i] = a
	}
	params := mt.Parameters
	if len(params) == 0 {
		params = emptyParams
	}
	name := mt.Name
	return Tool{
		Name: name, Description: mt.Description, Parameters: params, Risk: mt.Risk, Timeout: timeout,
		Confinement: confinementOf(environ, asks, nil),
		Run: func(ctx context.Context, env Env, args json.RawMessage) (string, error) {
			cmd := exec.CommandContext(ctx, abs[0], abs[1:]...)
			cmd.Env = environ.For(pass)
			return runCommand(ctx, cmd, dir, limit, commandRequest{
				Tool: name, Arguments: args, Workspace: env.Workspace, RunID: env.RunID, CallID: env.CallID,
			}, func(cmd *exec.Cmd) (*sandbox.Process, error) { return startIn(env, environ, asks, false, cmd, dir) },
				func(pr *sandbox.Process, output string) string {
					return sandboxNote(env, pr, false, output, false, "The skill's manifest can ask for the network or a folder (\"sandbox\"); tell the user what was blocked")
				})
		},
	}
}

// runCommand runs cmd, a command skill's process, through start, with the
// call as JSON on its stdin, and reads its reply; note says what the
// sandbox stopped, if anything, for a failure's message.
func runCommand(ctx context.Context, cmd *exec.Cmd, dir string, limit int, req commandRequest,
	start func(*exec.Cmd) (*sandbox.Process, error), note func(*sandbox.Process, string) string) (string, error) {
	if len(req.Arguments) == 0 {
		req.Arguments = json.RawMessage("{}")
	}
	in, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("encode call of %s: %w", req.Tool, err)
	}
	cmd.Dir = req.Workspace
	if cmd.Dir == "" {
		cmd.Dir = dir
	}
	cmd.Env = append(cmd.Env, "HERMES_SKILL_DIR="+dir, "HERMES_WORKSPACE="+req.Workspace)
	cmd.Stdin = bytes.NewReader(in)
	out, errOut := newHeadTail(limit), newHeadTail(4096)
	cmd.Stdout, cmd.Stderr = out, errOut
	pr, runErr := start(cmd)
	if runErr == nil {
		runErr = pr.Wait()
		if errors.Is(runErr, exec.ErrWaitDelay) {
			runErr = nil
		}
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	stderr := strings.TrimSpace(errOut.String())
	blocked := ""
	if pr != nil {
		blocked = note(pr, stderr)
	}
	if out.Cut() {
		return "", Errorf("the tool %s printed more than %d bytes, more than a result may hold; ask for less, such as a narrower query", req.Tool, limit)
	}
	var reply commandReply
	decodeErr := json.Unmarshal(bytes.TrimSpace([]byte(out.String())), &reply)
	switch {
	case decodeErr == nil && reply.Error != "":
		return "", Errorf("%s", reply.Error)
	case runErr != nil:
		var exit *exec.ExitError
		if !errors.As(runErr, &exit) {
			return "", Errorf("the tool %s could not be started (%v); it is broken, so use another way and mention it in your answer", req.Tool, runErr)
		}
		return "", Errorf("the tool %s failed (%v): %s%s", req.Tool, runErr, lastLines(stderr, 5), blocked)
	case decodeErr != nil || len(reply.Result) == 0:
		return "", Errorf("the tool %s did not answer with a JSON object holding \"result\" or \"error\"; it is broken, so use another way and mention it in your answer", req.Tool)
	}
	var text string
	if json.Unmarshal(reply.Result, &text) == nil {
		return text, nil
	}
	return string(reply.Result), nil
}

// lastLines is the end of s, at most n lines.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if s == "" {
		return "it printed no error"
	}
	return strings.Join(lines, "\n")
}
