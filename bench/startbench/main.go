// Command startbench is bench/start.sh's helper: the CPU time a process takes
// to start, from the rusage of the child (user + sys, every thread), which
// is steadier than wall time on a busy machine.
//
//	startbench -n ROUNDS -base NAME [-lock FILE]... < CASES
//
// CASES has one case a line, its fields separated by tabs:
//
//	NAME	UNTIL	[VAR=VALUE]... COMMAND AND ITS ARGUMENTS, separated by spaces
//
// UNTIL is when the start is over:
//
//	exit          the process exits by itself
//	out:TEXT      TEXT appears on its stdout or stderr; the process is then killed
//	request       the first HTTP request reaches startbench's own server; the
//	              process is then killed
//
// {url} in a case's line is the base URL (ending in /v1) of that server,
// which answers GET /v1/models with 404, as a model server that lists no
// models (Hermes checks an endpoint so before it uses it), and leaves every
// other request waiting.

// A killed process is killed with SIGKILL, so nothing of its shutdown is
// counted; the files named by -lock (a home's hermes.lock) are removed after
// it, as a process that stopped would have. The cases run in turns, one
// round after another, so a change in the machine's load falls on all of
// them alike, each round in an order of its own, so that each case follows
// each other one as often. Each binary is first put in the page cache as a
// read from the disk puts it (readFromDisk). Each case's line gives min, median and max in
// milliseconds and its median over the median of the case named by -base.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type startCase struct {
	name  string
	until string
	env   []string
	argv  []string
	cpu   []time.Duration
}

type lockFlags []string

func (l *lockFlags) String() string     { return strings.Join(*l, ",") }
func (l *lockFlags) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	rounds := flag.Int("n", 200, "rounds: each case runs once per round")
	base := flag.String("base", "hello", "the case the others are divided by")
	var locks lockFlags
	flag.Var(&locks, "lock", "a file to remove after a killed process (repeatable)")
	flag.Parse()
	if err := run(os.Stdin, *rounds, *base, locks); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, rounds int, base string, locks []string) error {
	requests := make(chan struct{}, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	// The first request ends the start of a request case: the process is
	// killed while the request waits, so the answer never matters.
	answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case requests <- struct{}{}:
		default:
		}
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			http.NotFound(w, r)
			return
		}
		<-r.Context().Done()
	})
	go func() { _ = http.Serve(ln, answer) }() // until the listener closes
	url := "http://" + ln.Addr().String() + "/v1"

	cases, err := parse(in, url)
	if err != nil {
		return err
	}
	for _, c := range cases {
		bin, err := exec.LookPath(c.argv[0])
		if err == nil {
			err = readFromDisk(bin)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	// Each round runs the cases in an order of its own (the same for the
	// same cases and rounds), so that each case follows each other one as
	// often: a case measures slower after some than after others (after a
	// killed one, whose files the kernel is still writing back, by up to
	// 0.5 ms).
	order := rand.New(rand.NewPCG(1, 2))
	for range rounds {
		for _, i := range order.Perm(len(cases)) {
			c := cases[i]
			d, err := measure(c, requests)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			for _, l := range locks {
				_ = os.Remove(l)
			}
			c.cpu = append(c.cpu, d)
		}
	}
	var baseMedian time.Duration
	for _, c := range cases {
		slices.Sort(c.cpu)
		if c.name == base {
			baseMedian = c.cpu[len(c.cpu)/2]
		}
	}
	fmt.Printf("%-22s %8s %8s %8s  %s\n", "CPU ms, "+fmt.Sprint(rounds)+" runs", "min", "median", "max", "median ÷ "+base)
	for _, c := range cases {
		med := c.cpu[len(c.cpu)/2]
		ratio := ""
		if baseMedian > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(med)/float64(baseMedian))
		}
		fmt.Printf("%-22s %8.2f %8.2f %8.2f  %s\n", c.name, ms(c.cpu[0]), ms(med), ms(c.cpu[len(c.cpu)-1]), ratio)
	}
	return nil
}

func parse(in io.Reader, url string) ([]*startCase, error) {
	var cases []*startCase
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("want NAME<tab>UNTIL<tab>COMMAND, got %q", line)
		}
		argv := strings.Fields(strings.ReplaceAll(f[2], "{url}", url))
		var env []string
		for len(argv) > 1 && strings.Contains(argv[0], "=") {
			env, argv = append(env, argv[0]), argv[1:]
		}
		until := f[1]
		if until != "exit" && until != "request" && !strings.HasPrefix(until, "out:") {
			return nil, fmt.Errorf("%s: UNTIL is exit, out:TEXT or request, got %q", f[0], until)
		}
		cases = append(cases, &startCase{name: f[0], until: until, env: env, argv: argv})
	}
	if len(cases) == 0 {
		return nil, errors.New("no cases on stdin")
	}
	return cases, sc.Err()
}

// measure starts c once and returns the CPU its process used until c.until.
func measure(c *startCase, requests chan struct{}) (time.Duration, error) {
	select {
	case <-requests: // a request of the case before
	default:
	}
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = append(os.Environ(), c.env...)
	out := &watcher{want: []byte(strings.TrimPrefix(c.until, "out:")), seen: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var werr error
	switch c.until {
	case "exit":
		werr = <-exited
	default:
		seen, requested := out.seen, requests
		if c.until == "request" {
			seen = nil
		} else {
			requested = nil
		}
		select {
		case <-seen:
		case <-requested:
		case err := <-exited:
			return 0, fmt.Errorf("exited before %s (%v): %s", c.until, err, out.buf.Bytes())
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-exited //nolint:errcheck // killed
			return 0, fmt.Errorf("no %s in 30 s: %s", c.until, out.buf.Bytes())
		}
		_ = cmd.Process.Kill()
		<-exited //nolint:errcheck // killed: what it timed has happened
	}
	if werr != nil {
		return 0, fmt.Errorf("%v: %s", werr, out.buf.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, errors.New("no rusage on this OS")
	}
	return time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime)), nil
}

// watcher keeps what a process writes and closes seen when want appears in it.
type watcher struct {
	buf  bytes.Buffer
	want []byte
	seen chan struct{}
	done bool
}

func (w *watcher) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if !w.done && len(w.want) > 0 && bytes.Contains(w.buf.Bytes(), w.want) {
		w.done = true
		close(w.seen)
	}
	return len(p), nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
