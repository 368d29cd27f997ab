package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// defaultWaitDelay is how long Wait waits for the output of processes
// that kept it open after the command and its session were killed.
const defaultWaitDelay = time.Second

// Process is a command started by Start.
type Process struct {
	cmd    *exec.Cmd
	policy Policy
	status Status
	// tmp is the private temp folder, removed by Wait; "" when unconfined.
	tmp string
	// outputs are the read ends of the pipes Start put between the command
	// and the writers it was given, each copied by a goroutine of copies.
	outputs   []*os.File
	originals []io.Writer // where each of outputs goes
	copies    sync.WaitGroup
	// watch records what the seccomp filter stopped; nil when unconfined.
	watch *watcher
}

// Start starts cmd under p. The command gets a session of its own, which
// Wait and the cancelling of cmd's context kill whole; when p confines it
// (Status().Enforced), it also gets a private temp folder (TMPDIR) and the
// sandbox's build cache (XDG_CACHE_HOME, GOCACHE). cmd's Stdout and
// Stderr may be any writers, nil Stdin reads nothing; cmd.Env nil means
// Hermes's environment. Each Process must be waited for.
func (p Policy) Start(cmd *exec.Cmd) (*Process, error) {
	guardHermes()
	pr := &Process{cmd: cmd, policy: p, status: p.Status()}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = defaultWaitDelay
	}
	ownSession(cmd)
	var cache string
	if pr.status.Enforced {
		if err := os.MkdirAll(tempRoot(), 0o700); err != nil {
			return nil, fmt.Errorf("make the sandbox's temp folder: %w", err)
		}
		tmp, err := os.MkdirTemp(tempRoot(), "")
		if err != nil {
			return nil, fmt.Errorf("make the sandbox's temp folder: %w", err)
		}
		pr.tmp = tmp
		cache = cacheFor(p)
		if err := os.MkdirAll(cache, 0o700); err != nil {
			_ = os.RemoveAll(tmp)
			return nil, fmt.Errorf("make the sandbox's cache: %w", err)
		}
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
		cmd.Env = append(cmd.Env, p.cacheEnv(cmd.Env, cache)...)
	}
	writers, err := pr.pipeOutputs()
	if err != nil {
		pr.cleanup()
		return nil, err
	}
	if pr.status.Enforced {
		pr.watch, err = confine(cmd, p, pr.tmp, cache)
	} else {
		err = cmd.Start()
	}
	for _, w := range writers {
		_ = w.Close() // the command holds its copies
	}
	if err != nil {
		for _, r := range pr.outputs {
			_ = r.Close()
		}
		pr.cleanup()
		return nil, err
	}
	for i, r := range pr.outputs {
		dst := pr.destination(i)
		// A destination that fails loses the output, not the command.
		pr.copies.Go(func() { _, _ = io.Copy(dst, r) })
	}
	return pr, nil
}

// pipeOutputs puts a pipe between the command and each output writer that
// is not a file, so that Wait, not exec, decides when the output ends: the
// command's session is killed as soon as the command ends, and a process
// it left behind holding the output no longer holds up the result.
func (pr *Process) pipeOutputs() (writers []*os.File, err error) {
	cmd := pr.cmd
	same := cmd.Stdout != nil && sameWriter(cmd.Stdout, cmd.Stderr)
	for _, out := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		if *out == nil {
			continue
		}
		if _, isFile := (*out).(*os.File); isFile {
			continue
		}
		if out == &cmd.Stderr && same {
			cmd.Stderr = cmd.Stdout
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			for _, f := range append(writers, pr.outputs...) {
				_ = f.Close()
			}
			return nil, err
		}
		pr.outputs = append(pr.outputs, r)
		writers = append(writers, w)
		pr.originals = append(pr.originals, *out)
		*out = w
	}
	return writers, nil
}

func (pr *Process) destination(i int) io.Writer { return pr.originals[i] }

// sameWriter reports whether a and b are the same writer, as exec decides
// to give stdout and stderr one pipe.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() { _ = recover() }() // writers of uncomparable types differ
	return a == b
}

// Pid is the command's process id, which is also its session's.
func (pr *Process) Pid() int { return pr.cmd.Process.Pid }

// Signal sends sig to the command.
func (pr *Process) Signal(sig os.Signal) error { return pr.cmd.Process.Signal(sig) }

// Kill kills the command and every process of its session.
func (pr *Process) Kill() { killSession(pr.cmd.Process.Pid) }

// Status is how the process runs.
func (pr *Process) Status() Status { return pr.status }

// Wait waits for the command to end, kills every process it left running,
// waits for its output, removes its temp folder, and returns the
// command's error as exec.Cmd.Wait does.
func (pr *Process) Wait() error {
	err := pr.cmd.Wait()
	killSession(pr.cmd.Process.Pid)
	drained := make(chan struct{})
	go func() {
		pr.copies.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(pr.cmd.WaitDelay):
		// A process outside the session holds the output (only an
		// unconfined one can leave it): stop reading.
		for _, r := range pr.outputs {
			_ = r.Close()
		}
		<-drained
		if err == nil {
			err = exec.ErrWaitDelay
		}
	}
	for _, r := range pr.outputs {
		_ = r.Close()
	}
	if pr.watch != nil {
		pr.watch.stop()
	}
	pr.cleanup()
	return err
}

// cacheEnv points the caches that p's processes could not write at cache:
// XDG_CACHE_HOME unless the user's cache folder is writable, GOCACHE unless
// the Go build cache is (listed in sandbox_writable, say, by a user who
// trusts the commands to keep it sound).
func (p Policy) cacheEnv(env []string, cache string) []string {
	get := func(name string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v
			}
		}
		return ""
	}
	writable := p.granted()
	if p.Mode != Workspace {
		writable = nil
		for _, w := range p.Writable {
			writable = append(writable, filepath.Clean(expandHome(w)))
		}
	}
	var out []string
	userCache := get("XDG_CACHE_HOME")
	if userCache == "" && userHome() != "" {
		userCache = filepath.Join(userHome(), ".cache")
	}
	if userCache == "" || nearest(writable, filepath.Clean(userCache)) < 0 {
		out = append(out, "XDG_CACHE_HOME="+cache)
	}
	goCache := get("GOCACHE")
	derived := goCache == ""
	if derived && userCache != "" {
		goCache = filepath.Join(userCache, "go-build")
	}
	switch {
	case goCache == "" || nearest(writable, filepath.Clean(goCache)) < 0:
		out = append(out, "GOCACHE="+filepath.Join(cache, "go-build"))
	case derived && len(out) > 0:
		// Go would follow XDG_CACHE_HOME to the sandbox's.
		out = append(out, "GOCACHE="+goCache)
	}
	return out
}

func (pr *Process) cleanup() {
	if pr.tmp != "" {
		_ = os.RemoveAll(pr.tmp) // what is left is in the system's temp folder
	}
}
