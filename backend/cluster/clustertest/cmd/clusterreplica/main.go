// Command clusterreplica is a NATS server with JetStream and one bot
// replica serving its runs (clustertest.StartRunReplica), for the
// frontend's end-to-end test of a `hermes serve` attached to a cluster. It
// prints the NATS URL on the first line of stdout, then starts a run for
// each line `start TASK` read on stdin and prints `run RUN_ID`.
//
//	go run ./backend/cluster/clustertest/cmd/clusterreplica --model URL [--name NAME]
//
// The replica's runs ask the scripted model at URL (cmd/scriptmodel's).
// SIGTERM or the end of stdin stops the replica and the server.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/runner"
)

func main() {
	model := flag.String("model", "", "the scripted model's base URL")
	name := flag.String("name", "replica-e2e", "the replica's name")
	flag.Parse()
	log.SetPrefix("clusterreplica: ")
	log.SetFlags(0)
	if *model == "" {
		log.Fatal("--model URL is required")
	}
	tb := &processTB{}
	defer tb.cleanup()
	nats := clustertest.Start(tb)
	r := clustertest.StartRunReplica(tb, nats.URL, *name, *model, nil)
	fmt.Println(nats.URL)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case line, ok := <-lines:
			if !ok {
				return
			}
			task, found := strings.CutPrefix(line, "start ")
			if !found {
				log.Printf("unknown command %q", line)
				continue
			}
			id, err := r.Runs.Start(ctx, runner.StartRequest{Task: task})
			if err != nil {
				log.Printf("start: %v", err)
				continue
			}
			fmt.Println("run " + id)
		}
	}
}

// processTB is the part of testing.TB that clustertest uses, so that its
// server and replica can run in this program.
type processTB struct {
	testing.TB
	cleanups []func()
}

func (t *processTB) Helper()                           {}
func (t *processTB) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *processTB) Errorf(format string, args ...any) { log.Printf(format, args...) }
func (t *processTB) Fatal(args ...any)                 { t.cleanup(); log.Fatal(args...) }
func (t *processTB) Fatalf(format string, args ...any) { t.cleanup(); log.Fatalf(format, args...) }

func (t *processTB) TempDir() string {
	dir, err := os.MkdirTemp("", "clusterreplica-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func (t *processTB) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = nil
}
