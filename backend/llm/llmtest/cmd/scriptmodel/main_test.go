package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// start serves a script as the program does and returns a model client on it
// and the server's base URL.
func start(t *testing.T, src string) (*llm.Client, string) {
	t.Helper()
	sc := &script{}
	if err := sc.load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler(sc, llmtest.NewFuncServer(t, sc.answer)))
	t.Cleanup(srv.Close)
	return llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-e2e-key", Model: "m", Stream: true, MaxRetries: -1}), srv.URL
}

func post(t *testing.T, url, body string) int {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func getJSON(t *testing.T, url string, into any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

func ask(t *testing.T, c *llm.Client) (llm.Response, error) {
	return c.Chat(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "go"}}})
}

func TestScriptModel_PacesHeldSteps(t *testing.T) {
	c, base := start(t, `[
		{"content": "One.", "hold": true},
		{"content": "Two.", "hold": true},
		{"content": "Three.", "hold": true}
	]`)
	if code := post(t, base+"/release?every=soon", ""); code != http.StatusBadRequest {
		t.Fatalf("a pace that is no duration: %d", code)
	}
	if code := post(t, base+"/release?every=2ms", ""); code != http.StatusNoContent {
		t.Fatalf("pace: %d", code)
	}
	// Each answer waits for its turn of the pace; none needs a release of its own.
	for _, want := range []string{"One.", "Two.", "Three."} {
		resp, err := ask(t, c)
		if err != nil || resp.Content != want {
			t.Fatalf("answer %+v, %v; want %q", resp, err, want)
		}
	}
	var state map[string]int
	getJSON(t, base+"/state", &state)
	if state["requests"] != 3 || state["waiting"] != 0 {
		t.Fatalf("state %v", state)
	}
	if code := post(t, base+"/release", ""); code != http.StatusConflict {
		t.Fatalf("a release after the pace let every hold go: %d", code)
	}
}

func TestScriptModel_AnswersInOrderAndHolds(t *testing.T) {
	c, base := start(t, `[
		{"content": "Looking.", "chunks": 3, "tool_calls": [{"id": "c1", "name": "list_files", "arguments": "{}"}]},
		{"content": "Held answer.", "hold": true}
	]`)
	resp, err := ask(t, c)
	if err != nil || resp.Content != "Looking." || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "list_files" {
		t.Fatalf("first answer %+v, %v", resp, err)
	}

	answered := make(chan llm.Response)
	go func() {
		resp, _ := ask(t, c)
		answered <- resp
	}()
	// Wait for the request to reach its hold, as an e2e test does.
	var state map[string]int
	for state["waiting"] != 1 {
		getJSON(t, base+"/state", &state)
	}
	if state["requests"] != 2 {
		t.Fatalf("state %v", state)
	}
	if code := post(t, base+"/release", ""); code != http.StatusNoContent {
		t.Fatalf("release: %d", code)
	}
	if resp := <-answered; resp.Content != "Held answer." {
		t.Fatalf("held answer %+v", resp)
	}
	if code := post(t, base+"/release", ""); code != http.StatusConflict {
		t.Fatalf("a release with no hold left: %d", code)
	}
	if _, err := ask(t, c); err == nil || !strings.Contains(err.Error(), "past the end") {
		t.Fatalf("a request past the script: %v", err)
	}

	var reqs []map[string]any
	getJSON(t, base+"/requests", &reqs)
	res, err := http.Get(base + "/requests")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if len(reqs) != 3 || strings.Contains(string(raw), "sk-e2e-key") || !strings.Contains(string(raw), `"content":"go"`) {
		t.Fatalf("requests: %s", raw)
	}
}

func TestScriptModel_NewScriptStartsOver(t *testing.T) {
	c, base := start(t, `[{"content": "old"}]`)
	if code := post(t, base+"/script", `[{"status": 503, "content": "overloaded"}, {"content": "new"}]`); code != http.StatusNoContent {
		t.Fatalf("POST /script: %d", code)
	}
	if _, err := ask(t, c); err == nil || !strings.Contains(err.Error(), "overloaded") {
		t.Fatalf("first answer of the new script: %v", err)
	}
	if resp, err := ask(t, c); err != nil || resp.Content != "new" {
		t.Fatalf("second answer %+v, %v", resp, err)
	}
	if code := post(t, base+"/script", `{"not": "a list"}`); code != http.StatusBadRequest {
		t.Fatalf("a bad script: %d", code)
	}
}
