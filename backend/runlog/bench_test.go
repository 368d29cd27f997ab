package runlog

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
)

// BenchmarkWriter measures appending a realistic mix of events, flushed at
// every iteration boundary as the loop does.
func BenchmarkWriter(b *testing.B) {
	w, err := Create(b.TempDir(), "bench", t0)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	rec := &recorder{}
	emitIteration(b, event.NewEmitter("bench", event.EmitterOptions{Sinks: []event.Sink{rec}}), 1, 100)
	events := rec.events
	n := 0
	for b.Loop() {
		for _, e := range events {
			if err := w.Write(e); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		n += len(events)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkList lists 200 runs of 500 events each: cold folds every log,
// warm finds them unchanged since the last listing.
func BenchmarkList(b *testing.B) {
	home := b.TempDir()
	for r := range 200 {
		started := t0.Add(time.Duration(r) * time.Minute)
		logRun(b, home, fmt.Sprintf("%s-%06x", started.Format("20060102-150405"), r), started, func(em *event.Emitter) {
			emitStart(b, em, fmt.Sprintf("task %d", r))
			for i := 1; i <= 71; i++ { // 7 events an iteration
				emitIteration(b, em, i, 100)
			}
			emitFinish(b, em, 71, event.StatusFinished, "answer")
		})
	}
	for _, cold := range []bool{true, false} {
		b.Run(map[bool]string{true: "cold", false: "warm"}[cold], func(b *testing.B) {
			for b.Loop() {
				if cold {
					summaries.reset()
				}
				sums, err := List(home)
				if err != nil || len(sums) != 200 {
					b.Fatalf("List: %d runs, %v", len(sums), err)
				}
			}
		})
	}
}

// BenchmarkRedact scrubs what the emitter hands the redactor with the
// secrets of a configured bot (a model key, a WeCom secret, an AES key, a
// webhook secret): an iteration's events, which hold none (the common
// case, it runs on every event); the same with an 8-character secret too,
// whose short forms make the redactor read the text at its finest stride;
// a 64 KB base64 blob wrapped at 76 columns without one; and an environment
// file, base64-encoded and wrapped, that holds the model key.
func BenchmarkRedact(b *testing.B) {
	r := NewRedactor(benchSecrets...)
	short := NewRedactor(append(benchSecrets, "Pa55w0rd")...)
	rec := &recorder{}
	em := event.NewEmitter("bench", event.EmitterOptions{Sinks: []event.Sink{rec}})
	emitIteration(b, em, 1, 100)
	mustEmit(b, em, event.ToolFinished, 1, event.ToolFinishedData{CallID: "c1", Name: "read_file", OK: true, Result: benchSource})
	var events [][]byte
	size := 0
	for _, e := range rec.events {
		events = append(events, e.Data)
		size += len(e.Data)
	}
	blob := wrap(base64.StdEncoding.EncodeToString(pseudoRandom(48<<10)), 76, "\n")
	hit := wrap(base64.StdEncoding.EncodeToString([]byte("HOME=/root\nOPENAI_API_KEY="+benchSecrets[0]+"\nPATH=/usr/bin\n")), 76, "\n")
	cases := []struct {
		name string
		r    *Redactor
		in   [][]byte
		size int
	}{
		{"events", r, events, size},
		{"events-short-secret", short, events, size},
		{"blob", r, [][]byte{[]byte(blob)}, len(blob)},
		{"hit", r, [][]byte{[]byte(hit)}, len(hit)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.size))
			for b.Loop() {
				for _, in := range c.in {
					c.r.Redact(in)
				}
			}
		})
	}
}

// BenchmarkNewRedactor makes the redactor of a run whose config holds ten
// secrets, as every run start does.
func BenchmarkNewRedactor(b *testing.B) {
	secrets := slices.Concat(benchSecrets, []string{"ghp_github-token-in-an-env-table", "corp-secret-from-the-env-77",
		"sk-endpoint-entry-key-9876", "nats-cluster-token-123456", "feishu-app-secret-abcdef", "Basic b3RscDpzZWNyZXQtY3JlZHM="})
	for b.Loop() {
		NewRedactor(secrets...)
	}
}

var benchSecrets = []string{
	"sk-proj-4f9a8c7e6d5b4a39281706f5e4d3c2b1a0",
	"Xq7vR2mK9pL4nW8sT1yU6hJ3gF5dS0aZ2xC4vB7nM9k",
	"wh-secret-7c1e9a2b",
	"kJ8mN2pQ4rS6tU8vW0xY2zA4bC6dE8fG0hI2jK4lM6n",
}

// benchSource is a source file as read_file returns it.
var benchSource = strings.Repeat(`func (r *Run) distil(callID, out string) (content, artifact string) {
	limit := r.limits.ObservationLimit // the model sees this much
	if len(out) <= limit || utf8.RuneCountInString(out) <= limit {
		return out, ""
	}
	// Its head and tail around a note of what was cut.
}

`, 12)
