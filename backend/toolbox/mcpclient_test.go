package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeMCP is a server on pipes that answers with answer, and says what the
// client sent it.
type fakeMCP struct {
	toClient *io.PipeWriter
	enc      *json.Encoder
	mu       sync.Mutex
	got      []map[string]any
	closed   chan struct{}
}

// pipeWriteCloser is the client's side of the server's stdin.
type pipeWriteCloser struct {
	*io.PipeWriter
	onClose func()
}

func (p pipeWriteCloser) Close() error { p.onClose(); return p.PipeWriter.Close() }

func startFakeMCP(t *testing.T, answer func(f *fakeMCP, msg map[string]any)) (*fakeMCP, io.Reader, io.WriteCloser) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f := &fakeMCP{toClient: outW, enc: json.NewEncoder(outW), closed: make(chan struct{})}
	go func() {
		dec := json.NewDecoder(inR)
		for {
			var msg map[string]any
			if dec.Decode(&msg) != nil {
				outW.Close()
				return
			}
			f.mu.Lock()
			f.got = append(f.got, msg)
			f.mu.Unlock()
			answer(f, msg)
		}
	}()
	return f, outR, pipeWriteCloser{inW, func() { close(f.closed) }}
}

func (f *fakeMCP) reply(msg map[string]any, result any) {
	f.send(map[string]any{"jsonrpc": "2.0", "id": msg["id"], "result": result})
}

// send writes msg to the client; a client that has gone shows in what the
// test reads of it, not here.
func (f *fakeMCP) send(msg map[string]any) { _ = f.enc.Encode(msg) }

func (f *fakeMCP) sent(method string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, m := range f.got {
		if m["method"] == method {
			out = append(out, m)
		}
	}
	return out
}

// TestMCPSession: the handshake, every page of tools/list, the server's
// ping answered and its other requests refused, a JSON-RPC error told,
// and the end of the server's output ending the session.
func TestMCPSession(t *testing.T) {
	replies := map[any]map[string]any{} // the client's answers, by the id of the server's request
	answered := make(chan struct{})
	f, out, in := startFakeMCP(t, func(f *fakeMCP, msg map[string]any) {
		switch msg["method"] {
		case nil:
			replies[msg["id"]] = msg
			if len(replies) == 2 {
				close(answered)
			}
		case "initialize":
			// The server asks something of the client first, as servers do.
			f.send(map[string]any{"jsonrpc": "2.0", "id": "s1", "method": "ping"})
			f.send(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "roots/list"})
			f.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info"}})
			f.reply(msg, map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "fake"}})
		case "tools/list":
			params, _ := msg["params"].(map[string]any)
			if params["cursor"] == "p2" {
				f.reply(msg, map[string]any{"tools": []any{map[string]any{"name": "b", "inputSchema": map[string]any{"type": "object"}}}})
				return
			}
			f.reply(msg, map[string]any{"tools": []any{map[string]any{"name": "a", "description": "A."}}, "nextCursor": "p2"})
		case "tools/call":
			params := msg["params"].(map[string]any)
			if params["name"] == "broken" {
				f.send(map[string]any{"jsonrpc": "2.0", "id": msg["id"], "error": map[string]any{"code": -32602, "message": "unknown tool"}})
				return
			}
			f.reply(msg, map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi " + params["arguments"].(map[string]any)["who"].(string)}}})
		case "quit":
			f.toClient.Close()
		}
	})
	s, err := connectMCP(t.Context(), out, in)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := s.Tools(t.Context())
	if err != nil || len(tools) != 2 || tools[0].Name != "a" || tools[1].Name != "b" || string(tools[1].InputSchema) != `{"type":"object"}` {
		t.Fatalf("tools %+v, %v", tools, err)
	}
	// The server takes messages in order: what came before its answer is in.
	if got := f.sent("initialize"); len(got) != 1 || got[0]["params"].(map[string]any)["protocolVersion"] != mcpProtocol {
		t.Fatalf("initialize sent %v", got)
	}
	if len(f.sent("notifications/initialized")) != 1 {
		t.Fatal("no notifications/initialized")
	}
	res, err := s.CallTool(t.Context(), "greet", map[string]any{"who": "ada"})
	if err != nil || mcpText(res) != "hi ada" {
		t.Fatalf("call: %+v, %v", res, err)
	}
	if _, err := s.CallTool(t.Context(), "broken", nil); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("a JSON-RPC error gave %v", err)
	}
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's requests were not answered")
	}
	f.mu.Lock()
	ping, roots := replies["s1"], replies[float64(7)]
	f.mu.Unlock()
	if ping["result"] == nil || roots["error"] == nil {
		t.Fatalf("the server's ping was answered %v, its roots/list %v", ping, roots)
	}
	// The server's output ends: the session ends, and so do calls.
	go func() { _ = s.call(context.Background(), "quit", nil, nil) }() // it fails: the output ended
	if err := s.Wait(); err != nil {
		t.Fatalf("Wait = %v after the output ended", err)
	}
	<-f.closed // the server was ended
	if _, err := s.CallTool(t.Context(), "greet", map[string]any{"who": "x"}); !errors.Is(err, errMCPClosed) {
		t.Fatalf("a call after the end gave %v", err)
	}
}

// TestMCPSession_Refused: a server of a version Hermes does not speak is
// refused, and a call whose context ends is cancelled at the server.
func TestMCPSession_Refused(t *testing.T) {
	_, out, in := startFakeMCP(t, func(f *fakeMCP, msg map[string]any) {
		if msg["method"] == "initialize" {
			f.reply(msg, map[string]any{"protocolVersion": "1999-01-01"})
		}
	})
	if _, err := connectMCP(t.Context(), out, in); err == nil || !strings.Contains(err.Error(), "1999-01-01") {
		t.Fatalf("connect = %v", err)
	}

	cancelled := make(chan struct{})
	_, out, in = startFakeMCP(t, func(f *fakeMCP, msg map[string]any) {
		switch msg["method"] {
		case "initialize":
			f.reply(msg, map[string]any{"protocolVersion": mcpProtocol})
		case "notifications/cancelled":
			close(cancelled)
		}
	})
	s, err := connectMCP(t.Context(), out, in)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.CallTool(ctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call = %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the call was not cancelled at the server")
	}
}
