// Command sandboxbench is bench/sandbox.sh's helper: it runs one command
// through the real execute_command tool, in turns inside the OS sandbox
// ([tools] sandbox = "workspace") and outside it ("off"), and prints each
// side's minimum, median, p95 and maximum, and the sandbox's overhead: the
// difference of each pair of runs made one after the other.
//
//	sandboxbench -n 200 -command 'true'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/sandbox"
	"hermes/backend/toolbox"
)

func main() {
	n := flag.Int("n", 200, "runs on each side")
	command := flag.String("command", "true", "the command line to run")
	flag.Parse()
	home, err := os.MkdirTemp("", "sandboxbench-")
	if err != nil {
		fail(err)
	}
	defer func() { _ = os.RemoveAll(home) }() // a temporary folder
	ws := filepath.Join(home, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		fail(err)
	}
	// The user's own home, as a person runs Hermes: its credentials are
	// what the sandbox carves out.
	env := toolbox.Env{Workspace: ws, Home: filepath.Join(home, ".hermes")}
	args, _ := json.Marshal(map[string]string{"command": *command})
	tools := map[sandbox.Mode]toolbox.Tool{}
	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.Workspace} {
		environ := toolbox.NewEnviron(toolbox.Secrets{})
		environ.SetSandbox(toolbox.SandboxConfig{Mode: mode})
		tools[mode] = toolbox.ExecuteCommand(time.Minute, 64*1024, environ)
	}
	st := (sandbox.Policy{Mode: sandbox.Workspace}).Status()
	if !st.Enforced {
		fail(fmt.Errorf("not sandboxed: %s", st.Why))
	}
	run := func(mode sandbox.Mode) time.Duration {
		start := time.Now()
		out, err := tools[mode].Run(context.Background(), env, args)
		d := time.Since(start)
		if err != nil || !strings.HasPrefix(out, "exit code 0") {
			fail(fmt.Errorf("%s: %v %s", mode, err, out))
		}
		return d
	}
	run(sandbox.Off) // warm both paths once
	run(sandbox.Workspace)
	var off, on, extra []time.Duration
	for i := range *n {
		// Alternate which side goes first, so neither gains from the other.
		var a, b time.Duration
		if i%2 == 0 {
			a, b = run(sandbox.Off), run(sandbox.Workspace)
		} else {
			b, a = run(sandbox.Workspace), run(sandbox.Off)
		}
		off, on, extra = append(off, a), append(on, b), append(extra, b-a)
	}
	fmt.Printf("command %q, %d runs each, %s\n", *command, *n, st.How)
	fmt.Printf("  unsandboxed          %s\n", spread(off))
	fmt.Printf("  sandboxed            %s\n", spread(on))
	fmt.Printf("  overhead (pairwise)  %s  (goal: median ≤ 5 ms)\n", spread(extra))
}

// spread is min, p50, p95 and max of ds, in milliseconds.
func spread(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) float64 { return float64(s[int(q*float64(len(s)-1))].Microseconds()) / 1000 }
	return fmt.Sprintf("min %6.2f  p50 %6.2f  p95 %6.2f  max %6.2f ms", at(0), at(0.5), at(0.95), at(1))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sandboxbench:", err)
	os.Exit(1)
}
