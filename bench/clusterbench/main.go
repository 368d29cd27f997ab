// Command clusterbench is the load of bench/cluster.sh: REPLICAS `hermes
// bot` replicas in this process (each with its own home and NATS
// connection) share one NATS server with JetStream, started in-process on
// loopback; USERS users send 5 messages each at once, spread across the
// replicas, through WeCom's signed, encrypted callback; the scripted model
// holds every answer until every callback is acknowledged; then one
// replica dies (its NATS connection is cut without a word) with the tasks
// it holds, which the others take over after the ack wait. It prints the
// figures and ends with the line
//
//	cluster: N messages, L lost, D answered twice, ack p95 X ms, K tasks taken over
//
// and exits 1 if a message was lost or answered twice.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

func main() {
	users := flag.Int("users", 200, "users, each sending 5 messages")
	replicas := flag.Int("replicas", 3, "bot replicas")
	limit := flag.Int("limit", 500, "WeCom API calls a second the stand-in allows (the company's limit)")
	ackWait := flag.Duration("ack-wait", 2*time.Second, "how long a silent replica keeps its tasks")
	kill := flag.Bool("kill", true, "cut one replica off NATS once every callback is acknowledged")
	flag.Parse()

	tb := &bench{}
	code := 0
	func() {
		defer tb.cleanup()
		srv := clustertest.Start(tb)
		wecom := wecomtest.NewServer(tb, clustertest.CorpID, clustertest.Secret, *limit)
		release := make(chan struct{})
		model := llmtest.NewFuncServer(tb, func(req llmtest.Request) llmtest.Step {
			return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
		})
		cfg := clustertest.BotConfig(wecom)
		cfg.RateLimit = *limit * 9 / 10 / *replicas // each replica keeps to its share
		rs := make([]*clustertest.Replica, *replicas)
		for i := range rs {
			rs[i] = clustertest.StartReplica(tb, clustertest.ReplicaOptions{
				Name: fmt.Sprintf("replica-%d", i), NATSURL: srv.URL, Model: model.URL, Bot: cfg, AckWait: *ackWait,
			})
		}
		var die func()
		if *kill {
			die = rs[0].Die
		}
		res := clustertest.Load(tb, wecom, rs, wecomtest.Load{Users: *users, PerUser: 5}, release, die)
		st := wecom.Stats()
		fmt.Printf("  %d replicas (in one process), %d users x 5 messages, ack wait %v, one replica cut off: %v\n", *replicas, *users, *ackWait, *kill)
		fmt.Printf("  all answered in %v\n", res.Elapsed.Round(time.Millisecond))
		fmt.Printf("  WeCom API: gettoken %d, conversions %d, message/send %d, limit %d/s, most in one second %d, over the limit %d\n",
			st.GetToken, st.Convert, st.Send, *limit, st.MaxPerSecond, st.OverLimit)
		fmt.Println(res)
		if res.Lost != 0 || res.Twice != 0 || tb.Failed() {
			code = 1
		}
	}()
	os.Exit(code)
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
	b.Cleanup(func() { os.RemoveAll(dir) })
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
