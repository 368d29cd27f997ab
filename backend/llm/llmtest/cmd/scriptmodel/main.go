// Command scriptmodel is a scripted OpenAI-compatible model for end-to-end
// tests run outside Go (the frontend's, in Node): it serves llmtest on
// 127.0.0.1 and prints its base URL (ending in /v1) on the first line of
// stdout; point hermes at it with OPENAI_BASE_URL or [model] base_url, and
// any API key.
//
//	go run ./backend/llm/llmtest/cmd/scriptmodel --script FILE [--listen 127.0.0.1:0]
//
// The script is a JSON list of steps, one answer per chat request, in order:
//
//	[
//	  {"content": "Looking first.", "chunks": 3,
//	   "tool_calls": [{"id": "c1", "name": "list_files", "arguments": "{\"path\":\".\"}"}]},
//	  {"content": "Done.", "hold": true},
//	  {"status": 503, "retry_after": "0", "content": "overloaded"}
//	]
//
// Fields: content (the text, or with status the error message), tool_calls
// (id, name, arguments as a JSON string), usage (prompt_tokens,
// completion_tokens, total_tokens; default: about four characters a token),
// chunks (stream the text and each call's arguments in this many pieces),
// status and retry_after (answer with this HTTP error), cut_after (drop the
// connection after this many stream chunks), reasoning (streamed as
// reasoning_content before the text), repeat (send every piece of text this
// many times over, as a model that will not stop), delay_ms (wait this long
// before the answer's first byte), chunk_delay_ms (wait this long before each
// stream chunk after the first), and hold: the answer waits
// until the test releases it, so a test can act while a run waits on the
// model. A request past the end of the script gets HTTP 500.
//
// Besides the model API under /v1, the server takes:
//
//	POST /release   release the next held step, in script order (409: none left);
//	                with ?every=40ms, release the held steps left one every 40 ms
//	POST /script    replace the script with the JSON list in the body, from its first
//	                step; answers the old script still holds are released
//	GET  /requests  the chat requests so far: [{"model","messages","tools","stream"}]
//	GET  /state     {"requests": N, "waiting": N}: the requests so far, and how many
//	                of them were given a held step not yet released
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
)

func main() {
	scriptPath := flag.String("script", "", "the JSON script of answers (see the package comment)")
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	flag.Parse()
	log.SetPrefix("scriptmodel: ")
	log.SetFlags(0)
	if *scriptPath == "" {
		log.Fatal("--script FILE is required")
	}
	raw, err := os.ReadFile(*scriptPath)
	if err != nil {
		log.Fatal(err)
	}
	sc := &script{}
	if err := sc.load(raw); err != nil {
		log.Fatalf("%s: %v", *scriptPath, err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	tb := &processTB{}
	defer tb.cleanup()
	model := llmtest.NewFuncServer(tb, sc.answer)
	srv := &http.Server{Handler: handler(sc, model)}
	go func() {
		if err := srv.Serve(ln); err != http.ErrServerClosed {
			log.Fatal(err)
		}
	}()
	fmt.Printf("http://%s/v1\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	tb.cleanup() // releases held answers, so Shutdown does not wait on them
	_ = srv.Shutdown(context.Background())
}

// handler serves the control endpoints and passes the model API through to
// llmtest, streaming included.
func handler(sc *script, model *llmtest.Server) http.Handler {
	target, err := url.Parse(model.URL)
	if err != nil {
		panic(err) // llmtest's own URL
	}
	target.Path = ""
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	// Each answer on a connection of its own to llmtest: once, in CI, this
	// hop's reused connection was closed under an answer (its body's read
	// failed with "use of closed network connection"), which reached hermes
	// cut short and used up its scripted step, so the run's retry found the
	// script at its end. The hop is the harness's own; hermes's connections
	// to it are reused as a provider's are.
	proxy.Transport = &http.Transport{DisableKeepAlives: true}
	mux := http.NewServeMux()
	mux.Handle("/v1/", proxy)
	mux.HandleFunc("POST /release", func(w http.ResponseWriter, r *http.Request) {
		if every := r.URL.Query().Get("every"); every != "" {
			d, err := time.ParseDuration(every)
			if err != nil || d <= 0 {
				http.Error(w, "every must be a duration above zero, such as 40ms", http.StatusBadRequest)
				return
			}
			go sc.pace(d)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if !sc.release() {
			http.Error(w, "no held step is left to release", http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /script", func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 8<<20))
		if err == nil {
			err = sc.load(raw)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /requests", func(w http.ResponseWriter, _ *http.Request) {
		type request struct {
			Model    string `json:"model"`
			Messages any    `json:"messages"`
			Tools    any    `json:"tools"`
			Stream   bool   `json:"stream"`
		}
		reqs := model.Requests()
		out := make([]request, len(reqs))
		for i, r := range reqs {
			// Headers are left out: they carry the API key.
			out[i] = request{Model: r.Model, Messages: r.Messages, Tools: r.Tools, Stream: r.Stream}
		}
		writeJSON(w, out)
	})
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]int{"requests": len(model.Requests()), "waiting": sc.waiting()})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// processTB is the part of testing.TB that llmtest uses, so that its
// scripted server can run in this program. llmtest calls no other method.
type processTB struct {
	testing.TB
	cleanups []func()
}

func (t *processTB) Helper()                           {}
func (t *processTB) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *processTB) Errorf(format string, args ...any) { log.Printf(format, args...) }

func (t *processTB) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = nil
}
