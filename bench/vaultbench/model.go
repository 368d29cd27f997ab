package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
)

// serveModel answers every chat request on loopback with one final answer
// and no tool call, so that a `hermes run` against it is one iteration
// whose cost is Hermes's own. It prints its base URL on one line and
// serves until killed.
func serveModel() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// A handler's write fails only when the bench has gone.
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"object":"list","data":[{"id":"bench","object":"model","owned_by":"bench"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req) // a body not understood asks for no stream
		const usage = `{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}`
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, `{"id":"c1","object":"chat.completion","created":1,"model":"bench","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":`+usage+`}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"role":"assistant","content":"done"}}]}`+"\n\n")
		_, _ = fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":`+usage+`}`+"\n\n")
		_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
	})
	fmt.Printf("http://%s/v1\n", ln.Addr())
	return http.Serve(ln, mux)
}
