package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"hermes/backend/sandbox"
)

// mcpStartTimeout bounds starting a server and listing its tools, so that a
// server that hangs does not hold up loading the other toolbox.
const mcpStartTimeout = 30 * time.Second

// mcpServer is one MCP server over stdio. It is started on first use and
// started again on the next use after it dies.
type mcpServer struct {
	skill   string
	spec    MCPSpec
	environ *Environ
	asks    Asks
	home    string
	dir     string // the skill's folder, "" for [[tools.mcp]]

	mu      sync.Mutex
	session *mcpSession
	cmd     *exec.Cmd
	ended   chan struct{} // closed when the session's connection ends
	died    string        // why the last session ended, until it is reported
	stderr  *headTail
}

func newMCPServer(skill string, spec MCPSpec, environ *Environ, asks Asks, home, dir string) *mcpServer {
	return &mcpServer{skill: skill, spec: spec, environ: environ, asks: asks, home: home, dir: dir}
}

// policy is the server's sandbox: [tools]'s with no workspace (a server
// outlives runs), so it writes only its temp folder and what it asks for,
// and reads its skill's folder.
func (s *mcpServer) policy() sandbox.Policy {
	p := s.environ.Policy(Env{Home: s.home}, s.asks)
	if s.dir != "" {
		p.Readable = append(p.Readable, s.dir)
	}
	return p
}

// sessionLocked returns a live session, starting the server if there is none.
func (s *mcpServer) sessionLocked(ctx context.Context) (*mcpSession, error) {
	if s.session != nil {
		return s.session, nil
	}
	cmd := exec.Command(s.spec.Command, s.spec.Args...)
	// Hermes's environment less its secrets, then what the spec gives.
	cmd.Env = s.environ.For(s.spec.PassEnv)
	for k, v := range s.spec.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	s.stderr = newHeadTail(4096)
	cmd.Stderr = s.stderr
	ctx, cancel := context.WithTimeout(ctx, mcpStartTimeout)
	defer cancel()
	t := &sandboxedServer{cmd: cmd, policy: s.policy()}
	out, err := t.start()
	var session *mcpSession
	if err == nil {
		session, err = connectMCP(ctx, out, t)
	}
	if err != nil {
		return nil, fmt.Errorf("start MCP server %s (%s): %w%s", s.skill, s.spec.Command, err, s.stderrNote())
	}
	s.session, s.cmd, s.ended = session, cmd, make(chan struct{})
	ended := s.ended
	go func() {
		err := session.Wait()
		s.mu.Lock()
		if s.session == session {
			s.session = nil
			s.died = fmt.Sprintf("the MCP server %s stopped (%v)%s", s.skill, err, s.stderrNote())
		}
		s.mu.Unlock()
		close(ended)
	}()
	return session, nil
}

func (s *mcpServer) stderrNote() string {
	if s.stderr == nil || s.stderr.total == 0 {
		return ""
	}
	return ": " + lastLines(strings.TrimSpace(s.stderr.String()), 3)
}

// tools lists the server's tools, starting it if need be.
func (s *mcpServer) tools(ctx context.Context) ([]mcpTool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	session, err := s.sessionLocked(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, mcpStartTimeout)
	defer cancel()
	out, err := session.Tools(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the tools of MCP server %s: %w", s.skill, err)
	}
	return out, nil
}

// call calls one tool. A server that died is reported as a transient
// failure, so the loop's one retry finds it started again.
func (s *mcpServer) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	s.mu.Lock()
	restarted := ""
	if s.session == nil && s.died != "" {
		restarted, s.died = s.died, ""
	}
	session, err := s.sessionLocked(ctx)
	s.mu.Unlock()
	if err != nil {
		return "", Errorf("%v; the tool cannot run now, so use another way and mention it in your answer", err)
	}
	var arguments map[string]any
	if len(args) > 0 {
		if err := json.Unmarshal(args, &arguments); err != nil {
			return "", &CallError{Message: fmt.Sprintf("the arguments for %s must be a JSON object", tool)}
		}
	}
	res, err := session.CallTool(ctx, tool, arguments)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		s.mu.Lock()
		if s.session == session {
			s.session = nil
			s.died = fmt.Sprintf("the MCP server %s failed (%v)%s", s.skill, err, s.stderrNote())
			_ = session.Close()
		}
		died := s.died
		s.died = "" // reported here, not again on the restart
		s.mu.Unlock()
		return "", Transient(Errorf("%s; it is started again on the next call", died))
	}
	text := mcpText(res)
	if restarted != "" {
		text = "[" + restarted + "; it was started again for this call]\n" + text
	}
	if res.IsError {
		return "", Errorf("%s", text)
	}
	return text, nil
}

// close stops the server.
func (s *mcpServer) close() {
	s.mu.Lock()
	session := s.session
	s.session = nil
	s.mu.Unlock()
	if session != nil {
		_ = session.Close()
	}
}

// mcpText is what the model reads of a result: its text, with a line for
// each piece it cannot read, or the structured content as JSON.
func mcpText(res *mcpResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image":
			parts = append(parts, fmt.Sprintf("[an image (%s) that you cannot see]", c.MIMEType))
		case "audio":
			parts = append(parts, fmt.Sprintf("[audio (%s) that you cannot hear]", c.MIMEType))
		case "resource_link":
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case "resource":
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource %s]", c.Resource.URI))
			}
		}
	}
	if len(parts) == 0 && len(res.StructuredContent) > 0 && string(res.StructuredContent) != "null" {
		var b bytes.Buffer
		if json.Compact(&b, res.StructuredContent) == nil {
			return b.String()
		}
	}
	return strings.Join(parts, "\n")
}

// mcpToolName is the name the model calls an MCP tool by: the skill's name,
// an underscore and the server's name for it, kept to what endpoints accept.
func mcpToolName(skill, tool string) string {
	name := strings.Map(safeNameRune, skill+"_"+tool)
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// mcpTools lists the server's tools as Tools. overrides are the manifest's
// entries by the server's tool name. A tool whose schema Hermes cannot use is
// left out and named in problems.
func (s *mcpServer) mcpTools(ctx context.Context, overrides map[string]ManifestTool) (tools []Tool, problems []string, err error) {
	listed, err := s.tools(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, mt := range listed {
		o := overrides[mt.Name]
		params := o.Parameters
		if len(params) == 0 {
			if params = mt.InputSchema; len(params) == 0 || string(params) == "null" {
				params = emptyParams
			}
		}
		if _, err := parseSchema(params); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", mt.Name, err))
			continue
		}
		desc := firstNonEmpty(o.Description, mt.Description, mt.Title)
		if desc == "" {
			desc = "The " + mt.Name + " tool of the " + s.skill + " MCP server."
		}
		risk := o.Risk
		if risk == "" {
			risk = s.spec.Risk
		}
		if risk == "" {
			risk = RiskWrite
		}
		remote := mt.Name
		tools = append(tools, Tool{
			Name: mcpToolName(s.skill, remote), Description: desc, Parameters: params, Risk: risk,
			Timeout:     timeoutOf(o.Timeout),
			Confinement: func(Env, json.RawMessage) Confinement { return s.confinement() },
			Run: func(ctx context.Context, _ Env, args json.RawMessage) (string, error) {
				return s.call(ctx, remote, args)
			},
		})
	}
	return tools, problems, nil
}

// confinement is where the server runs.
func (s *mcpServer) confinement() Confinement {
	if s.policy().Status().Enforced {
		return Confined
	}
	return Unconfined
}

// mcpTerminate is how long closing a server waits for it to exit after its
// stdin closes, and then after SIGTERM, before killing it.
const mcpTerminate = 2 * time.Second

// sandboxedServer is the transport of an MCP server over stdio, whose
// process runs in its sandbox. Closing it closes the server's stdin, waits
// for it to exit, asks it to with SIGTERM, and at last kills it with every
// process it started.
type sandboxedServer struct {
	cmd    *exec.Cmd
	policy sandbox.Policy

	proc   *sandbox.Process
	stdin  *os.File
	exited chan struct{}
}

// start starts the server and returns its output.
func (t *sandboxedServer) start() (io.Reader, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_ = inR.Close()
		_ = inW.Close()
		return nil, err
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	t.proc, err = t.policy.Start(t.cmd)
	_ = inR.Close()
	_ = outW.Close()
	if err != nil {
		_ = inW.Close()
		_ = outR.Close()
		return nil, err
	}
	t.stdin, t.exited = inW, make(chan struct{})
	// Waiting at once reaps a server that dies by itself; the output, on a
	// pipe of ours, is read to its end regardless.
	go func() {
		_ = t.proc.Wait() // how a server ended is not what its client asks
		close(t.exited)
	}()
	return outR, nil
}

func (t *sandboxedServer) Write(p []byte) (int, error) { return t.stdin.Write(p) }

func (t *sandboxedServer) Close() error {
	_ = t.stdin.Close()
	for _, step := range []func(){func() {}, func() { _ = t.proc.Signal(syscall.SIGTERM) }, t.proc.Kill} {
		step()
		select {
		case <-t.exited:
			return nil
		case <-time.After(mcpTerminate):
		}
	}
	<-t.exited
	return nil
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
