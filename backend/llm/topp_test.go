package llm_test

import (
	"testing"

	"hermes/backend/llm/llmtest"
)

// TestChat_TopPOnlyWhenSet: a request's top_p is on the wire when it is
// set, and absent (not 0, not null) when it is not.
func TestChat_TopPOnlyWhenSet(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "a"}, llmtest.Step{Content: "b"})
	c := newClient(srv.URL)
	rec := &recorder{}
	set := rec.request()
	p := float32(0.85)
	set.TopP = &p
	if _, err := chat(t, c, rec, set); err != nil {
		t.Fatal(err)
	}
	if _, err := chat(t, c, rec, rec.request()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if got := reqs[0].TopP; got == nil || float32(*got) != p {
		t.Fatalf("top_p sent = %v, want %v", got, p)
	}
	if got := reqs[1].TopP; got != nil {
		t.Fatalf("a request without top_p sent top_p = %v", *got)
	}
	if reqs[1].Temperature != nil {
		t.Fatalf("a request without a temperature sent temperature = %v", *reqs[1].Temperature)
	}
}
