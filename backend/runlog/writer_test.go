package runlog

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
)

var t0 = time.Date(2026, 11, 30, 1, 35, 1, 0, time.UTC)

func TestWriter_RoundTrip(t *testing.T) {
	home := t.TempDir()
	id := NewRunID(t0)
	written := logRun(t, home, id, t0, func(em *event.Emitter) {
		emitStart(t, em, "summarise 报告.md, then <stop> & \"quote\"")
		emitIteration(t, em, 1, 300)
		// A line far longer than the reader's buffer.
		mustEmit(t, em, event.ToolFinished, 1, event.ToolFinishedData{CallID: "c2", Result: strings.Repeat("x\u2028y\n", 60000)})
		mustEmit(t, em, event.ContextBuilt, 2, event.ContextBuiltData{Full: true, Messages: []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c3", Name: "write_file", Arguments: `{"path":"b.md","content":"# 标题\n"}`}}},
		}})
		emitFinish(t, em, 2, event.StatusFinished, "done ✓")
	})
	path := LogPath(home, id, t0)
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, written) {
		t.Fatalf("read back %d events, not the %d written:\n got %+v\nwant %+v", len(got), len(written), got[0], written[0])
	}
	if want := filepath.Join(home, "logs", "2026-11-30", "run_"+id+".jsonl"); path != want {
		t.Errorf("log path %s, want %s", path, want)
	}
}

func TestWriter_OffsetIsFileSize(t *testing.T) {
	home := t.TempDir()
	w, err := Create(home, "r1", t0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	em := event.NewEmitter("r1", event.EmitterOptions{Sinks: []event.Sink{w}})
	for i := range 3 {
		emitIteration(t, em, i+1, 100)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(w.Path())
		if err != nil {
			t.Fatal(err)
		}
		if w.Offset() != st.Size() {
			t.Fatalf("iteration %d: Offset %d, file has %d bytes", i+1, w.Offset(), st.Size())
		}
	}
}

func TestCreate_RunExists(t *testing.T) {
	home := t.TempDir()
	w, err := Create(home, "r1", t0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := Create(home, "r1", t0); !errors.Is(err, ErrRunExists) {
		t.Fatalf("second Create: %v, want ErrRunExists", err)
	}
	if _, err := Create(home, "../r1", t0); !errors.Is(err, ErrBadRunID) {
		t.Fatalf("Create with a path as id: %v, want ErrBadRunID", err)
	}
}

func TestRead_TornLastLine(t *testing.T) {
	home := t.TempDir()
	written := logRun(t, home, "r1", t0, func(em *event.Emitter) {
		emitStart(t, em, "task")
		emitIteration(t, em, 1, 100)
	})
	path := LogPath(home, "r1", t0)
	appendBytes(t, path, `{"v":1,"run_id":"r1","seq":9,"time":"2026-11-30T01:35:01Z","iteration":2,"type":"tool.fin`)
	got, err := ReadFile(path)
	if err != nil {
		t.Fatalf("a torn last line must be ignored: %v", err)
	}
	if !reflect.DeepEqual(got, written) {
		t.Fatalf("got %d events, want the %d written before the tear", len(got), len(written))
	}
}

func TestRead_CorruptLine(t *testing.T) {
	const good = `{"v":1,"run_id":"r1","seq":1,"time":"2026-11-30T01:35:01Z","iteration":0,"type":"run.started","data":{}}`
	tests := []struct {
		name string
		log  string
		line string
	}{
		{"garbage in the middle", good + "\nnot json\n" + good + "\n", "line 2"},
		{"truncated line in the middle", good + "\n" + good + "\n" + good[:40] + "\n" + good + "\n", "line 3"},
		{"wrong shape", "[1,2]\n" + good + "\n", "line 1"},
		{"torn line that is not last", good[:30] + "\n" + good + "\n", "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Read(strings.NewReader(tt.log), func(event.Event) error { return nil })
			if !errors.Is(err, ErrCorruptLog) {
				t.Fatalf("err = %v, want ErrCorruptLog", err)
			}
			if !strings.Contains(err.Error(), tt.line) {
				t.Fatalf("error %q does not name %s", err, tt.line)
			}
		})
	}
}

func TestAppend_TruncatesAndContinues(t *testing.T) {
	home := t.TempDir()
	w, err := Create(home, "r1", t0)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	em := event.NewEmitter("r1", event.EmitterOptions{Sinks: []event.Sink{w, rec}})
	emitStart(t, em, "task")
	emitIteration(t, em, 1, 100)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	keep, lastSeq := w.Offset(), em.LastSeq()
	kept := append([]event.Event(nil), rec.events...)
	// Iteration 2 reaches the file but no checkpoint covers it; then the
	// process dies mid-line.
	emitIteration(t, em, 2, 100)
	w.Close()
	appendBytes(t, w.Path(), `{"v":1,"run_id":"r1","se`)

	w2, err := Append(w.Path(), keep)
	if err != nil {
		t.Fatal(err)
	}
	rec2 := &recorder{}
	em2 := event.NewEmitter("r1", event.EmitterOptions{LastSeq: lastSeq, Sinks: []event.Sink{w2, rec2}})
	mustEmit(t, em2, event.RunResumed, 1, event.RunResumedData{FromCheckpoint: true, Iteration: 1})
	emitIteration(t, em2, 2, 100)
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Concat(kept, rec2.events)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d events, want %d (kept %d + resumed %d)", len(got), len(want), len(kept), len(rec2.events))
	}
	for i, e := range got {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: seq must run on without gap or repeat", i, e.Seq)
		}
	}
}

func TestAppend_BadOffset(t *testing.T) {
	home := t.TempDir()
	logRun(t, home, "r1", t0, func(em *event.Emitter) { emitStart(t, em, "task") })
	path := LogPath(home, "r1", t0)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []int64{-1, 5, st.Size() + 1} {
		if _, err := Append(path, keep); !errors.Is(err, ErrBadOffset) {
			t.Errorf("Append at %d: %v, want ErrBadOffset", keep, err)
		}
	}
	if after, _ := os.Stat(path); after.Size() != st.Size() {
		t.Fatalf("a refused Append changed the log from %d to %d bytes", st.Size(), after.Size())
	}
}

func TestNewRunID(t *testing.T) {
	seen := map[string]bool{}
	prev := ""
	for i := range 1000 {
		id := NewRunID(t0.Add(time.Duration(i) * time.Second))
		if len(id) != len("20261130-013501-abcdef") || !strings.HasPrefix(id, "2026113") || !safeName(id) {
			t.Fatalf("bad id %q", id)
		}
		if seen[id] || id <= prev {
			t.Fatalf("id %q repeats or does not sort after %q", id, prev)
		}
		seen[id], prev = true, id
	}
	if id := NewRunID(t0.In(time.FixedZone("CST", 8*3600))); !strings.HasPrefix(id, "20261130-013501-") {
		t.Fatalf("id %q is not in UTC", id)
	}
}

func appendBytes(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
