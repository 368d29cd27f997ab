package agent_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// cl100k counts tokens as a real provider does; its ranks ship in the
// loader module.
var cl100k = sync.OnceValue(func() *tiktoken.Tiktoken {
	tiktoken.SetBpeLoader(loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	return enc
})

// bpeUsage reports the prompt tokens of requests as cl100k_base counts
// them, each message counted once however often it is sent.
type bpeUsage struct {
	mu    sync.Mutex
	known map[string]int
}

func (u *bpeUsage) count(text string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	if n, ok := u.known[text]; ok {
		return n
	}
	if u.known == nil {
		u.known = map[string]int{}
	}
	n := len(cl100k().Encode(text, nil, nil))
	u.known[text] = n
	return n
}

func (u *bpeUsage) prompt(req llmtest.Request) int {
	n := 0
	for _, m := range req.Messages {
		n += 4 + u.count(m.Content)
		for _, c := range m.ToolCalls {
			n += 4 + u.count(c.Name) + u.count(c.Arguments)
		}
	}
	for _, d := range req.Tools {
		n += 4 + u.count(d.Name) + u.count(d.Description) + u.count(string(d.Parameters))
	}
	return n
}

// dump is a file of random content, as a tool reads it from a real
// workspace: checksums, UUIDs, minified code and base64, about 7,500
// characters. Dump i lists the checksum of blob-i.
func dump(r *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dump %d\n", i)
	for j := range 8 {
		sum := sha256.Sum256(fmt.Appendf(nil, "blob-%d", i*8+j))
		fmt.Fprintf(&b, "checksum %s  blob-%d.bin\n", hex.EncodeToString(sum[:]), i*8+j)
	}
	for range 8 {
		u := make([]byte, 16)
		for k := range u {
			u[k] = byte(r.UintN(256))
		}
		fmt.Fprintf(&b, "session %x-%x-%x-%x-%x\n", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
	}
	fmt.Fprintf(&b, `!function(e,t){var n%d=e.map(function(r){return r.k%d^t});e.x%d=n%d.join("%x")}(window.a%d,%d);`+"\n", i, i, i, i, r.Uint32(), i, r.IntN(1e6))
	raw := make([]byte, 4500)
	for k := range raw {
		raw[k] = byte(r.UintN(256))
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\n")
	return b.String()
}

func blobSum(n int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "blob-%d", n))
	return hex.EncodeToString(sum[:])
}

// TestContext_RandomContentNeverOverflows reads 30 files of checksums,
// UUIDs, minified code and base64 with a 32,000-token window, the provider
// counting tokens with a real BPE tokeniser. Every request after
// compression stays within compress_at of the window, the values kept
// beside the summary stay within their budget, and the checksum the task
// names is kept while random values nothing named are not.
func TestContext_RandomContentNeverOverflows(t *testing.T) {
	const (
		files       = 30
		window      = 32000
		compressAt  = 0.6
		threshold   = int(compressAt * window)
		entityShare = window / 20
	)
	wanted := blobSum(17*8 + 3)
	task := fmt.Sprintf("Read dump00.txt to dump29.txt in order and say which file lists the checksum %s.", wanted)
	usage := &bpeUsage{}
	var mu sync.Mutex
	reads, summaries := 0, 0
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		mu.Lock()
		defer mu.Unlock()
		step := llmtest.Step{}
		switch {
		case len(req.Tools) == 0:
			summaries++
			step.Content = fmt.Sprintf("SUMMARY:\nSummary %d: read the dumps in order; each lists checksums, sessions, code and base64.\nPROGRESS:\nDone: the first dumps\nRemaining: the rest, then answer", summaries)
		case reads < files:
			step.ToolCalls = []llm.ToolCall{call(fmt.Sprintf("call_%d", reads), "read_file", map[string]any{"path": fmt.Sprintf("dump%02d.txt", reads)})}
			reads++
		default:
			step.Content = "dump17.txt lists the checksum."
		}
		step.Usage = llm.Usage{PromptTokens: usage.prompt(req), CompletionTokens: 20}
		step.Usage.TotalTokens = step.Usage.PromptTokens + step.Usage.CompletionTokens
		return step
	})
	h := newHarness(t, srv, toolbox.ReadArtifactTool())
	r := rand.New(rand.NewPCG(13, 30))
	for i := range files {
		h.write(fmt.Sprintf("dump%02d.txt", i), dump(r, i))
	}
	h.setup.Limits = agent.Limits{MaxIterations: 40, ContextWindow: window, CompressAt: compressAt}
	res, events := h.run(task)
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}

	for _, e := range ofType(events, event.ContextBuilt) {
		if c := decode[event.ContextBuiltData](t, e); c.Tokens > threshold {
			t.Errorf("iteration %d sent %d tokens, over %d (compress_at of the window)", e.Iteration, c.Tokens, threshold)
		}
	}
	for _, req := range loopRequests(srv) {
		if n := usage.prompt(req); n > window {
			t.Errorf("a request of %d tokens (cl100k_base) was sent to a window of %d", n, window)
		}
	}
	updates := ofType(events, event.SummaryUpdated)
	if len(updates) == 0 {
		t.Fatal("nothing was compressed")
	}
	for _, e := range updates {
		d := decode[event.SummaryUpdatedData](t, e)
		size := 0
		for _, v := range d.Entities {
			size += len(cl100k().Encode(v, nil, nil)) + 1
			if v != wanted && (len(v) >= 32 && strings.Trim(v, "0123456789abcdef") == "" || strings.Count(v, "-") == 4 && len(v) == 36) {
				t.Errorf("a random value nothing named was kept: %s", v)
			}
		}
		if size > entityShare*115/100 {
			t.Errorf("summary.updated at iteration %d keeps %d values of %d tokens, over the budget of %d", e.Iteration, len(d.Entities), size, entityShare)
		}
	}
	// Once dump17's result is folded, the checksum the task names rides
	// beside the summary in every later one.
	kept := false
	for _, e := range updates {
		d := decode[event.SummaryUpdatedData](t, e)
		has := slices.Contains(d.Entities, wanted)
		if kept && !has {
			t.Errorf("the checksum the task names was dropped at iteration %d", e.Iteration)
		}
		kept = kept || has
	}
	if !kept {
		t.Error("the checksum the task names was never kept beside the summary")
	}
}

// TestContext_LatestResultCutToFit reads one file far larger than the
// window, with no observation limit: the latest turn is never folded, so
// its result is cut in the request (not in the conversation) until the
// request is under the threshold, and the run goes on.
func TestContext_LatestResultCutToFit(t *testing.T) {
	const window, threshold = 8000, 4800
	usage := &bpeUsage{}
	var mu sync.Mutex
	calls := 0
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		mu.Lock()
		defer mu.Unlock()
		step := llmtest.Step{Content: "The file is base64 text."}
		if len(req.Tools) > 0 && calls == 0 {
			step = llmtest.Step{ToolCalls: []llm.ToolCall{call("call_0", "read_file", map[string]any{"path": "big.txt"})}}
		}
		if len(req.Tools) > 0 {
			calls++
		}
		step.Usage = llm.Usage{PromptTokens: usage.prompt(req), CompletionTokens: 10}
		return step
	})
	h := newHarness(t, srv)
	h.write("big.txt", dump(rand.New(rand.NewPCG(1, 2)), 0)+dump(rand.New(rand.NewPCG(3, 4)), 1))
	h.setup.Limits = agent.Limits{MaxIterations: 5, ContextWindow: window, CompressAt: 0.6, ObservationLimit: 1 << 20}
	res, events := h.run("Read big.txt and say what it holds.")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	for _, e := range ofType(events, event.ContextBuilt) {
		if c := decode[event.ContextBuiltData](t, e); c.Tokens > threshold {
			t.Errorf("iteration %d sent %d tokens, over %d", e.Iteration, c.Tokens, threshold)
		}
	}
	reqs := loopRequests(srv)
	last := reqs[len(reqs)-1]
	if n := usage.prompt(last); n > window {
		t.Errorf("the provider counted %d tokens in a window of %d", n, window)
	}
	if !strings.Contains(joined(last.Messages), "left out of this request so that it fits the context window") {
		t.Error("the result was not cut with a note for the model")
	}
	_, turns, err := h.setup.Store.LoadCheckpoint(res.RunID)
	if err != nil || len(turns) < 2 || len(turns[1]) < 12000 {
		t.Errorf("the conversation did not keep the result whole: %d turns, %v", len(turns), err)
	}
}

// TestContext_StopsWhenNothingFits: one turn of forty results is more than
// the window even with every result cut to its shortest, so the run stops
// with the reason and what to do, and the request is never sent.
func TestContext_StopsWhenNothingFits(t *testing.T) {
	var calls []llm.ToolCall
	for i := range 40 {
		calls = append(calls, call(fmt.Sprintf("call_%d", i), "read_file", map[string]any{"path": fmt.Sprintf("dump%02d.txt", i)}))
	}
	srv := llmtest.NewServer(t, llmtest.Step{ToolCalls: calls}, llmtest.Step{Content: "never asked"})
	h := newHarness(t, srv)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 40 {
		h.write(fmt.Sprintf("dump%02d.txt", i), dump(r, i))
	}
	h.setup.Limits = agent.Limits{MaxIterations: 5, ContextWindow: 3000, CompressAt: 0.6}
	res, _ := h.run("Read the forty dumps at once.")
	if res.Status != event.StatusFailed || !strings.Contains(res.Error, "context window of 3000") || !strings.Contains(res.Error, "context_window") {
		t.Fatalf("result = %+v", res)
	}
	if n := len(loopRequests(srv)); n != 1 {
		t.Errorf("the model got %d requests, want only the first", n)
	}
}
