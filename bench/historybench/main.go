// Command historybench is bench/history.sh's helper.
//
//	historybench gen -home DIR -runs N     write N run logs, as an older Hermes did (no summaries)
//	historybench time -n N -- CMD...       median wall time and bytes read of N runs of CMD
//	historybench get -url URL -n N         GET URL once on a new connection (cold), then N times (warm)
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: historybench gen|time|get ...")
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "time":
		err = timeCmd(os.Args[2:])
	case "get":
		err = get(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "historybench:", msg)
	os.Exit(1)
}

// gen writes runs a few minutes apart over the last days, each about 190 KB
// (the 2,000 runs held 375 MB): iterations of a context, a decision
// with a call, and the call's result.
func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	home := fs.String("home", "", "home directory")
	runs := fs.Int("runs", 2000, "runs to write")
	iterations := fs.Int("iterations", 16, "iterations per run")
	_ = fs.Parse(args)
	start := time.Now().Add(-time.Duration(*runs) * 7 * time.Minute).UTC().Truncate(time.Second)
	page := strings.Repeat("a line of a file the model read, 逐行读取的文件内容\n", 80)
	for i := range *runs {
		started := start.Add(time.Duration(i) * 7 * time.Minute)
		id := runlog.NewRunID(started)
		w, err := runlog.Create(*home, id, started)
		if err != nil {
			return err
		}
		clock := started
		em := event.NewEmitter(id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: func() time.Time {
			clock = clock.Add(100 * time.Millisecond)
			return clock
		}})
		emit := func(t event.Type, it int, payload any) {
			if err == nil {
				_, err = em.Emit(t, it, payload)
			}
		}
		emit(event.RunStarted, 0, event.RunStartedData{Task: fmt.Sprintf("summarise report %d", i), Model: "bench", Workspace: "/ws", MaxIterations: 25})
		for it := 1; it <= *iterations; it++ {
			emit(event.IterationStarted, it, event.IterationStartedData{})
			emit(event.ContextBuilt, it, event.ContextBuiltData{Tokens: 1200, Window: 128000, MessageCount: 2 * it,
				Messages: []llm.Message{{Role: llm.RoleTool, ToolCallID: "c", Content: page}}})
			emit(event.ModelDecided, it, event.ModelDecidedData{Thought: "Read the next part.",
				ToolCalls: []event.DecidedCall{{ID: "c", Name: "read_file", Arguments: `{"path":"r.txt"}`, Valid: true}},
				Usage:     llm.Usage{PromptTokens: 1100, CompletionTokens: 100, TotalTokens: 1200}})
			emit(event.ToolStarted, it, event.ToolStartedData{CallID: "c", Name: "read_file", Arguments: `{"path":"r.txt"}`, Attempt: 1})
			emit(event.ToolFinished, it, event.ToolFinishedData{CallID: "c", Name: "read_file", OK: true, Result: page, Size: len(page), Attempt: 1})
			emit(event.CheckpointSaved, it, event.CheckpointSavedData{Messages: 2 * it})
		}
		status := event.StatusFinished
		if i%5 == 0 {
			status = event.StatusStopped
		}
		emit(event.RunFinished, *iterations, event.RunFinishedData{Status: status, Answer: "done", Verified: true,
			Totals: event.Totals{Iterations: *iterations, TotalTokens: 1200 * *iterations}})
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// timeCmd runs a command n times and prints its median wall time in
// milliseconds and the bytes it read (rchar: every read system call, from
// the page cache or the disk), which the kernel adds to this process's
// /proc/self/io when it reaps the child.
func timeCmd(args []string) error {
	fs := flag.NewFlagSet("time", flag.ExitOnError)
	n := fs.Int("n", 11, "runs")
	_ = fs.Parse(args)
	cmd := fs.Args()
	if len(cmd) == 0 {
		return fmt.Errorf("no command")
	}
	var times []time.Duration
	var read int64
	for range *n {
		before, err := rchar()
		if err != nil {
			return err
		}
		c := exec.Command(cmd[0], cmd[1:]...)
		start := time.Now()
		out, err := c.CombinedOutput()
		times = append(times, time.Since(start))
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
		}
		after, err := rchar()
		if err != nil {
			return err
		}
		read = after - before
	}
	slices.Sort(times)
	fmt.Printf("%.1f ms %.2f MB\n", float64(times[len(times)/2].Microseconds())/1000, float64(read)/1e6)
	return nil
}

func rchar() (int64, error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, fmt.Errorf("bytes read need Linux's /proc/self/io: %w", err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("no rchar in /proc/self/io")
}

// get prints the first request's time (a new process's first answer, on a
// new connection), the median of n more, and the answer's size.
func get(args []string) error {
	fs := flag.NewFlagSet("get", flag.ExitOnError)
	url := fs.String("url", "", "URL with ?token=")
	n := fs.Int("n", 21, "warm requests")
	_ = fs.Parse(args)
	token := ""
	if i := strings.Index(*url, "token="); i >= 0 {
		token = (*url)[i+len("token="):]
	}
	base := (*url)[:strings.Index(*url, "/?")]
	path := fs.Arg(0)
	one := func() (time.Duration, int, error) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, 0, err
		}
		b, err := io.ReadAll(res.Body)
		_ = res.Body.Close() // read
		if res.StatusCode != http.StatusOK {
			return 0, 0, fmt.Errorf("GET %s: %s %s", path, res.Status, b)
		}
		return time.Since(start), len(b), err
	}
	cold, size, err := one()
	if err != nil {
		return err
	}
	var warm []time.Duration
	for range *n {
		d, _, err := one()
		if err != nil {
			return err
		}
		warm = append(warm, d)
	}
	slices.Sort(warm)
	fmt.Printf("%.1f ms %.1f ms %.1f KB\n", float64(cold.Microseconds())/1000, float64(warm[len(warm)/2].Microseconds())/1000, float64(size)/1e3)
	return nil
}
