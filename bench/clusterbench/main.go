// Command clusterbench is the load of bench/cluster.sh: REPLICAS `hermes
// bot` processes (the binary given by -bin), each with its own home and
// the same [bot] and [cluster] config, share one NATS server with
// JetStream (this program, from the server module, in a process of its
// own on loopback); the scripted model and the WeCom API stand-in run in
// this one. USERS users send 5 messages each through
// WeCom's signed, encrypted callback, spread across the replicas, open
// loop at RATE messages a second (a company's users write when they
// write, not when the bot is done with the last message); a callback a
// replica does not acknowledge goes to the next, as a balancer does. Once
// -kill-at of the messages are sent, the first replica is killed with
// SIGKILL, and started again on its home -down later. It waits until every
// message is answered, stops the replicas with Ctrl-C, prints the figures
// and ends with the line
//
//	cluster: N messages, L lost, D answered twice, ack p95 X ms, K tasks taken over
//
// and exits 1 if a message was lost or answered twice, or a task the
// killed replica held was never finished.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

func main() {
	bin := flag.String("bin", "", "the hermes binary the replicas run")
	users := flag.Int("users", 2000, "users, each sending 5 messages")
	rate := flag.Float64("rate", 500, "messages a second, open loop (0: all at once)")
	replicas := flag.Int("replicas", 3, "hermes bot processes")
	limit := flag.Int("limit", 500, "WeCom API calls a second the stand-in allows (the company's limit)")
	ackWait := flag.Duration("ack-wait", 3*time.Second, "[cluster] ack_wait: how long a silent replica keeps its tasks")
	modelDelay := flag.Duration("model-delay", time.Second, "how long the scripted model takes to answer")
	killAt := flag.Float64("kill-at", 0.4, "share of the messages sent when the first replica is killed (0: never)")
	down := flag.Duration("down", 2*time.Second, "how long the killed replica stays down before it is started again")
	memory := flag.String("memory", "on", `[context] memory of the replicas: "on", "read" or "off"`)
	natsDir := flag.String("nats-server", "", "run as the NATS server with its store in this folder (the bench starts itself so)")
	flag.Parse()
	if *natsDir != "" {
		serveNATS(*natsDir)
		return
	}
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "clusterbench: give the hermes binary with -bin (bench/cluster.sh builds one)")
		os.Exit(2)
	}

	tb := &bench{}
	code := 0
	func() {
		defer tb.cleanup()
		loadStart := loadavg()
		natsURL := startNATS(tb)
		wecom := wecomtest.NewServer(tb, clustertest.CorpID, clustertest.Secret, *limit)
		model := llmtest.NewFuncServer(tb, func(req llmtest.Request) llmtest.Step {
			return llmtest.Step{Content: wecomtest.Answer(req), Delay: *modelDelay}
		})
		cfg := clustertest.ProcConfig{
			Bin: *bin, NATSURL: natsURL, Model: model.URL, WeCom: wecom,
			RateLimit: *limit * 9 / 10, // the company's, held across the replicas
			AckWait:   *ackWait, Memory: *memory,
		}
		procs := make([]*clustertest.Proc, *replicas)
		for i := range procs {
			procs[i] = cfg.StartProc(tb, fmt.Sprintf("replica-%d", i))
		}
		watch := clustertest.WatchCluster(tb, natsURL)
		load := wecomtest.Load{Users: *users, PerUser: 5}
		n := load.Users * load.PerUser
		victim := procs[0]
		killAfter := -1
		if *killAt > 0 {
			killAfter = int(*killAt * float64(n))
		}
		var interrupted []uint64
		restarted := make(chan struct{})
		start := time.Now()
		sent := clustertest.Drive{Load: load, Rate: *rate, At: func(i int) {
			if i != killAfter {
				return
			}
			interrupted = watch.Held(victim.PID())
			victim.Kill()
			go func() {
				defer close(restarted)
				time.Sleep(*down) // the replica is down this long, as after a crash
				victim.Start()
			}()
		}}.Run(tb, procs)
		// Every task is acknowledged just before its answer goes out.
		watch.WaitAcked(tb, n)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := wecom.WaitFor(ctx, load.Answered); err != nil {
			tb.Error(err)
		}
		answered := time.Since(start)
		if killAfter >= 0 {
			<-restarted
		}
		for _, p := range procs {
			p.Stop() // every reply still queued goes out, or none would
			p.CheckLogs()
		}
		loadEnd := loadavg()
		lost, twice := clustertest.Count(wecom, load)
		_, over := watch.Acked()
		byAnother, before, never := watch.Finished(interrupted)
		q := wecomtest.Percentiles(sent.Acks)
		st := wecom.Stats()

		fmt.Printf("  %d hermes bot processes on one NATS server, %d users x 5 messages at %s (open loop), model answers in %v, ack_wait %v, long-term memory %s\n",
			*replicas, *users, rateText(*rate), *modelDelay, *ackWait, *memory)
		if killAfter >= 0 {
			fmt.Printf("  %s killed with SIGKILL after message %d, holding %d tasks by its last announcement; started again %v later\n",
				victim.Name, killAfter, len(interrupted), *down)
		}
		fmt.Printf("  sent in %v; callbacks sent again to another replica: %d%s\n", sent.Sending.Round(time.Millisecond), sent.Resent, refusals(sent.Refusals))
		fmt.Printf("  ack p50 %v, p95 %v, p99 %v, max %v\n", q(0.5), q(0.95), q(0.99), q(1))
		fmt.Printf("  all answered %v after the first message\n", answered.Round(time.Millisecond))
		fmt.Printf("  WeCom API: gettoken %d, conversions %d, message/send %d, limit %d/s, most in one second %d, over the limit %d\n",
			st.GetToken, st.Convert, st.Send, *limit, st.MaxPerSecond, st.OverLimit)
		fmt.Printf("  other messages the users were sent: %s\n", others(wecom, load))
		fmt.Printf("  of the killed replica's tasks: %d finished by another replica, %d by it before it died, %d never\n", byAnother, before, never)
		fmt.Printf("  load average: %s at the start, %s at the end\n", loadStart, loadEnd)
		fmt.Printf("cluster: %d messages, %d lost, %d answered twice, ack p95 %d ms, %d tasks taken over\n",
			n, lost, twice, q(0.95).Milliseconds(), over)
		if lost != 0 || twice != 0 || never != 0 || tb.Failed() {
			code = 1
		}
	}()
	os.Exit(code)
}

// startNATS runs the NATS server in a process of its own, as it runs on
// machines of its own in a company: this one's load generator, model and
// WeCom stand-in do not take its turns on the cores. It is stopped at the
// end (or when this process dies: it exits when its stdin closes).
func startNATS(tb *bench) string {
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(self, "-nats-server", tb.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = stdin.Close() // the server's signal to stop
		_ = cmd.Wait()    // it stops with the bench; how is not measured
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		tb.Fatalf("the NATS server did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

// serveNATS runs a NATS server with JetStream on a loopback port, storing
// in dir; it prints its URL and serves until stdin closes.
func serveNATS(dir string) {
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: dir,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		fmt.Fprintln(os.Stderr, "clusterbench: the NATS server did not start")
		os.Exit(1)
	}
	fmt.Println(srv.ClientURL())
	_, _ = io.Copy(io.Discard, os.Stdin) // until the bench closes it, or fails
	srv.Shutdown()
	srv.WaitForShutdown()
}

func rateText(rate float64) string {
	if rate <= 0 {
		return "once"
	}
	return fmt.Sprintf("%g/s", rate)
}

func refusals(m map[string]int) string {
	var parts []string
	for why, k := range m {
		parts = append(parts, fmt.Sprintf("%s: %d", why, k))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// others counts the messages to the load's users that are not an answer,
// by their first words.
func others(wecom *wecomtest.Server, load wecomtest.Load) string {
	byText := map[string]int{}
	total := 0
	for u := range load.Users {
		for _, text := range wecom.Messages(load.User(u)) {
			if !strings.HasPrefix(text, "done:") {
				if r := []rune(text); len(r) > 60 {
					text = string(r[:60]) + "…"
				}
				byText[text]++
				total++
			}
		}
	}
	if total == 0 {
		return "none"
	}
	var parts []string
	for text, k := range byText {
		parts = append(parts, fmt.Sprintf("%d × %q", k, text))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d: %s", total, strings.Join(parts, "; "))
}

// loadavg is the machine's load average over the last minute.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}

// bench is the testing.TB the test servers and replicas are started with,
// outside a test: failures are printed, cleanups run at the end.
type bench struct {
	testing.TB // only the methods below are called

	mu       sync.Mutex
	cleanups []func()
	failed   bool
}

func (b *bench) Helper()          {}
func (b *bench) Name() string     { return "clusterbench" }
func (b *bench) Cleanup(f func()) { b.mu.Lock(); b.cleanups = append(b.cleanups, f); b.mu.Unlock() }
func (b *bench) Context() context.Context {
	return context.Background()
}

func (b *bench) TempDir() string {
	dir, err := os.MkdirTemp("", "hermes-clusterbench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.RemoveAll(dir) }) // a temporary folder
	return dir
}

func (b *bench) Failed() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.failed }
func (b *bench) Error(args ...any) {
	b.mu.Lock()
	b.failed = true
	b.mu.Unlock()
	fmt.Fprintln(os.Stderr, args...)
}
func (b *bench) Errorf(format string, args ...any) { b.Error(fmt.Sprintf(format, args...)) }
func (b *bench) Fatal(args ...any)                 { b.Error(args...); b.cleanup(); os.Exit(1) }
func (b *bench) Fatalf(format string, args ...any) { b.Fatal(fmt.Sprintf(format, args...)) }
func (b *bench) Log(args ...any)                   { fmt.Fprintln(os.Stderr, args...) }
func (b *bench) Logf(format string, args ...any)   { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// cleanup runs the cleanups, last first, as a test does.
func (b *bench) cleanup() {
	b.mu.Lock()
	fs := b.cleanups
	b.cleanups = nil
	b.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
