package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/server"
	"hermes/backend/toolbox"
)

const testKey = "sk-test-6f1d0c3a9b8e7d6c5b4a39281706f5e4"

// fetch sends a request with the token and returns the answer and its body.
func fetch(t *testing.T, method, url, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	if method != "GET" {
		req.Header.Set("Content-Type", "application/json") // what the server takes for a change
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// harness is `hermes serve` in a test: a real runner over a temp home whose
// hermes.toml points at a scripted model, behind the real handler.
type harness struct {
	t     *testing.T
	home  string
	ws    string
	model *llmtest.Server
	runs  *runner.Manager
	url   string
}

// newHarness serves a home whose model is srv; policy may be nil. extra is
// more of hermes.toml's [agent] section.
func newHarness(t *testing.T, srv *llmtest.Server, policy toolbox.Policy, extra string) *harness {
	t.Helper()
	h := &harness{t: t, home: t.TempDir(), ws: t.TempDir(), model: srv}
	// The scripted models answer turn by turn, so runs act and observe
	// without routing or planning calls.
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n%s", srv.URL, h.ws, extra)
	if err := os.WriteFile(filepath.Join(h.home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	h.serve(runner.Options{Policy: policy})
	return h
}

// serve runs a Manager of o over the harness's home, whose key is testKey,
// behind the real handler.
func (h *harness) serve(o runner.Options) {
	o.Home = h.home
	o.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return testKey
		}
		return ""
	}
	h.runs = runner.New(o)
	hs := httptest.NewServer(server.New(server.Options{Runs: h.runs, Token: testToken}))
	h.url = hs.URL
	h.t.Cleanup(func() {
		if err := h.runs.Shutdown(context.Background()); err != nil {
			h.t.Errorf("shutdown: %v", err)
		}
		hs.Close()
	})
}

// call sends a request and decodes a JSON answer into into (when not nil),
// failing the test unless the status is want.
func (h *harness) call(method, path, body string, want int, into any) []byte {
	h.t.Helper()
	res, b := fetch(h.t, method, h.url+path, body)
	if res.StatusCode != want {
		h.t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.StatusCode, want, b)
	}
	if into != nil {
		if err := json.Unmarshal(b, into); err != nil {
			h.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}

// start starts a run of task and returns its id.
func (h *harness) start(task string) string {
	h.t.Helper()
	var ref struct {
		RunID string `json:"run_id"`
	}
	h.call("POST", "/api/runs", fmt.Sprintf(`{"task":%q}`, task), http.StatusCreated, &ref)
	return ref.RunID
}

func (h *harness) control(id, body string) {
	h.t.Helper()
	h.call("POST", "/api/runs/"+id+"/control", body, http.StatusAccepted, nil)
}

// message is one Server-Sent Event.
type message struct {
	id, name, data string
}

// stream opens an SSE endpoint and delivers its messages until it closes.
func (h *harness) stream(path string, header http.Header) <-chan message {
	h.t.Helper()
	return h.streamCtx(h.t.Context(), path, header)
}

// streamCtx is stream until ctx is done, as a page that goes away.
func (h *harness) streamCtx(ctx context.Context, path string, header http.Header) <-chan message {
	h.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", h.url+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		h.t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	out := make(chan message, 1024)
	go func() {
		defer close(out)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		var m message
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if m.name != "" {
					out <- m
				}
				m = message{}
			case strings.HasPrefix(line, "id: "):
				m.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				m.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				m.data = line[6:]
			}
		}
	}()
	return out
}

// watch reads a run's stream until `end` and returns its events, checking
// that they come in seq order after `after` with no gap and no repeat.
func (h *harness) watch(id string, after int64, header http.Header) []event.Event {
	h.t.Helper()
	return h.follow(h.stream(fmt.Sprintf("/api/runs/%s/stream?after=%d", id, after), header), after, nil)
}

// follow reads events from a run stream until `end`, calling seen (when not
// nil) with each; it fails the test on a gap, a repeat or a stream that
// closes without `end`.
func (h *harness) follow(ms <-chan message, after int64, seen func(event.Event)) []event.Event {
	h.t.Helper()
	var events []event.Event
	next := after + 1
	for m := range ms {
		if m.name == "end" {
			return events
		}
		var e event.Event
		if err := json.Unmarshal([]byte(m.data), &e); err != nil {
			h.t.Fatalf("event %q: %v", m.data, err)
		}
		if e.Type.Droppable() && e.Seq > next {
			next = e.Seq // only streamed text may be skipped, and only by a slow viewer
		}
		if e.Seq != next || m.id != fmt.Sprint(e.Seq) {
			h.t.Fatalf("got seq %d (id %s), want %d", e.Seq, m.id, next)
		}
		next++
		events = append(events, e)
		if seen != nil {
			seen(e)
		}
	}
	h.t.Fatal("the stream closed without end")
	return nil
}

// askWrites is a policy that asks before every call that writes.
type askWrites struct{ always []string }

func (p *askWrites) Check(t toolbox.Tool, _ json.RawMessage, _ toolbox.Env) toolbox.Verdict {
	if t.Risk == toolbox.RiskWrite {
		return toolbox.Verdict{Action: toolbox.Ask, Reason: "writes need approval"}
	}
	return toolbox.Verdict{Action: toolbox.Allow}
}

func (p *askWrites) AllowAlways(t toolbox.Tool, pattern string) error {
	p.always = append(p.always, t.Name+" "+pattern)
	return nil
}

// types lists the events' types, for messages.
func types(events []event.Event) string {
	s := make([]string, len(events))
	for i, e := range events {
		s[i] = string(e.Type)
	}
	return strings.Join(s, " ")
}
