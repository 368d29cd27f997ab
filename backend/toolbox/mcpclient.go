package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
)

// The client side of MCP over stdio, as Hermes uses it: the initialize
// handshake, tools/list and tools/call, as JSON-RPC 2.0 messages one a line.
// It is written here rather than taken from the MCP SDK, whose packages
// (JSON Schema inference, its JSON and URI template libraries, OAuth) cost
// every process of this binary 0.5 ms of CPU at start, whatever the
// command; a process talks to MCP servers only in the runs that have them.

// mcpProtocol is the protocol version Hermes asks for; a server may answer
// with any of mcpProtocols, which use the same three methods.
const mcpProtocol = "2025-11-25"

var mcpProtocols = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// errMCPClosed is why a call fails once the server's connection has ended.
var errMCPClosed = errors.New("the connection to the MCP server ended")

// mcpSession is the connection to one server. Its methods are safe for
// concurrent use.
type mcpSession struct {
	conn      io.Writer    // requests go to the server's stdin
	closeConn func() error // ends the server, once

	wmu sync.Mutex // one message at a time

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan rpcMessage
	done    chan struct{} // closed when the connection has ended
	err     error         // why it ended
}

// rpcMessage is any JSON-RPC 2.0 message: a request or notification
// (Method), or a response (Result or Error).
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error the server answered with.
type rpcError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code) }

// connectMCP starts the session on a server's stdout (out) and stdin
// (conn) and makes the initialize handshake.
func connectMCP(ctx context.Context, out io.Reader, conn io.WriteCloser) (*mcpSession, error) {
	s := &mcpSession{conn: conn, closeConn: sync.OnceValue(conn.Close), pending: map[int64]chan rpcMessage{}, done: make(chan struct{})}
	go s.read(out)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	err := s.call(ctx, "initialize", map[string]any{
		"protocolVersion": mcpProtocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "hermes", "version": "1"},
	}, &init)
	if err == nil && !slices.Contains(mcpProtocols, init.ProtocolVersion) {
		err = fmt.Errorf("the server speaks MCP version %q, which Hermes does not", init.ProtocolVersion)
	}
	if err == nil {
		err = s.send(rpcMessage{Method: "notifications/initialized"})
	}
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// read takes the server's messages until its output ends.
func (s *mcpSession) read(out io.Reader) {
	if c, ok := out.(io.Closer); ok {
		defer c.Close()
	}
	dec := json.NewDecoder(out)
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				err = errMCPClosed
			}
			// The server is reaped, its stderr read to the end, before
			// anyone waiting hears that it ended.
			_ = s.closeConn()
			s.end(err)
			return
		}
		var msgs []rpcMessage
		if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '[' {
			_ = json.Unmarshal(raw, &msgs) // a batch, from a server of an older version
		} else {
			var m rpcMessage
			if json.Unmarshal(raw, &m) == nil {
				msgs = append(msgs, m)
			}
		}
		for _, m := range msgs {
			s.take(m)
		}
	}
}

// take hands a response to its call and answers the server's requests:
// ping, and nothing else (Hermes offers the server no capabilities).
// Notifications (logs, progress, changed lists) are not read.
func (s *mcpSession) take(m rpcMessage) {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		reply := rpcMessage{ID: m.ID, Result: json.RawMessage(`{}`)}
		if m.Method != "ping" {
			reply = rpcMessage{ID: m.ID, Error: &rpcError{Code: -32601, Message: "method not found: " + m.Method}}
		}
		// Not from the reader: a server that writes before it reads its
		// stdin again would wait on the reply while the reply waits on it.
		go func() { _ = s.send(reply) }() // a server gone is the reader's to see
	case m.Method == "" && len(m.ID) > 0:
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			return
		}
		s.mu.Lock()
		ch := s.pending[id]
		delete(s.pending, id)
		s.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

func (s *mcpSession) end(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
	default:
		s.err = err
		close(s.done)
	}
}

// send writes one message, a line of JSON.
func (s *mcpSession) send(m rpcMessage) error {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err = s.conn.Write(append(b, '\n'))
	return err
}

// call sends request method and decodes its result into result. A call
// whose ctx ends first is cancelled at the server.
func (s *mcpSession) call(ctx context.Context, method string, params, result any) error {
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	ch := make(chan rpcMessage, 1)
	s.pending[id] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
	}
	if err := s.send(rpcMessage{ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: method, Params: params}); err != nil {
		forget()
		select {
		case <-s.done:
			return fmt.Errorf("%s: %w", method, s.err)
		default:
			return fmt.Errorf("send %s: %w", method, err)
		}
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("%s: the server's answer is not what MCP says: %w", method, err)
		}
		return nil
	case <-s.done:
		forget()
		return fmt.Errorf("%s: %w", method, s.err)
	case <-ctx.Done():
		forget()
		_ = s.send(rpcMessage{Method: "notifications/cancelled", Params: map[string]any{"requestId": id, "reason": ctx.Err().Error()}})
		return ctx.Err()
	}
}

// mcpTool is a tool as tools/list gives it.
type mcpTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// Tools lists the server's tools, every page of them.
func (s *mcpSession) Tools(ctx context.Context) ([]mcpTool, error) {
	var all []mcpTool
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []mcpTool `json:"tools"`
			NextCursor string    `json:"nextCursor"`
		}
		if err := s.call(ctx, "tools/list", params, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" || page.NextCursor == cursor {
			return all, nil
		}
		cursor = page.NextCursor
	}
}

// mcpResult is what tools/call gives.
type mcpResult struct {
	Content           []mcpContent    `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// mcpContent is one piece of a result: text, an image, audio, a link to a
// resource or a resource itself.
type mcpContent struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
	Name     string `json:"name,omitempty"`
	URI      string `json:"uri,omitempty"`
	Resource *struct {
		URI  string `json:"uri"`
		Text string `json:"text,omitempty"`
	} `json:"resource,omitempty"`
}

// CallTool calls tool with arguments.
func (s *mcpSession) CallTool(ctx context.Context, tool string, arguments map[string]any) (*mcpResult, error) {
	params := map[string]any{"name": tool}
	if arguments != nil {
		params["arguments"] = arguments
	}
	var res mcpResult
	if err := s.call(ctx, "tools/call", params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Wait returns when the connection has ended, with why.
func (s *mcpSession) Wait() error {
	<-s.done
	if errors.Is(s.err, errMCPClosed) {
		return nil
	}
	return s.err
}

// Close ends the server (the transport closes its stdin, then signals it)
// and the connection.
func (s *mcpSession) Close() error {
	err := s.closeConn()
	s.end(errMCPClosed)
	return err
}
