package contextmgr

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// conversation is n turns, each an assistant call and its result of size
// chars; turn i's result holds the id "ID-i00".
func conversation(n, chars int) []llm.Message {
	var msgs []llm.Message
	for i := range n {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.txt"}`, i)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "read_file", Content: fmt.Sprintf("ID-%d00 ", i) + strings.Repeat("xyz ", chars/4)},
		)
	}
	return msgs
}

func total(b *Builder, turns []llm.Message, st *State) int {
	return b.Build(Input{System: "s", Anchor: "a", Summary: st.SummaryText(), Turns: turns[st.Folded:], Folded: st.Folded}).Tokens
}

func TestPlan(t *testing.T) {
	turns := conversation(12, 400) // about 110 tokens a turn
	cases := []struct {
		name      string
		opts      Options
		pinned    []int
		wantTurns int
	}{
		{"folds the turns beyond the recent window", Options{Window: 2100, CompressAt: 0.6, RecentTurns: 8}, nil, 4},
		{"folds to a sixth below the threshold when the recent window does not fit", Options{Window: 1900, CompressAt: 0.6, RecentTurns: 8}, nil, 7},
		{"one fold holds at most half the window", Options{Window: 1000, CompressAt: 0.6, RecentTurns: 8}, nil, 4},
		{"never folds the latest turn", Options{Window: 3000, CompressAt: 0.1, RecentTurns: 1}, nil, 11},
		{"a pinned message is folded but kept whole", Options{Window: 2100, CompressAt: 0.6, RecentTurns: 8}, []int{3}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{Pinned: c.pinned}
			f := st.Plan(turns, c.opts, total(NewBuilder(c.opts.Window), turns, st), nil)
			if f.Turns != c.wantTurns || f.From != 0 || f.To != 2*c.wantTurns {
				t.Fatalf("fold = turns %d, messages %d..%d; want %d turns", f.Turns, f.From, f.To, c.wantTurns)
			}
			if turns[f.To-1].Role != llm.RoleTool || (f.To < len(turns) && turns[f.To].Role != llm.RoleAssistant) {
				t.Fatalf("the fold parts a call from its result at %d", f.To)
			}
			if len(f.Messages)+len(f.Pinned) != f.To-f.From || len(f.Pinned) != len(c.pinned) {
				t.Fatalf("fold summarises %d and keeps %v of %d messages", len(f.Messages), f.Pinned, f.To-f.From)
			}
			for _, m := range f.Messages {
				if m.ToolCallID == "c1" && len(c.pinned) > 0 {
					t.Fatal("a pinned message was given to the summariser")
				}
			}
		})
	}
	// After a fold, planning starts where the summary ends.
	st := &State{Folded: 8, Summary: "earlier"}
	opts := Options{Window: 2000, CompressAt: 0.6, RecentTurns: 6}
	if f := st.Plan(turns, opts, 1000, nil); f.From != 8 || f.To != 12 || f.Turns != 2 {
		t.Fatalf("with 8 turns after the summary and 6 recent, fold = %d..%d (%d turns), want 8..12", f.From, f.To, f.Turns)
	}
}

func TestPreview_ListsWhatPlanFolds(t *testing.T) {
	turns := conversation(10, 380)
	opts := Options{Window: 2100, CompressAt: 0.6, RecentTurns: 8}
	st := &State{Pinned: []int{1}, Facts: []string{"the budget is 4,500"}}
	p := st.Preview(turns, opts, total(NewBuilder(2100), turns, st), nil)
	if p.Threshold != 1260 || p.Due || len(p.Turns) != 4 {
		t.Fatalf("preview = %+v", p)
	}
	if p.Turns[0].Index != 0 || p.Turns[0].Name != "read_file" || !p.Turns[1].Pinned || p.Turns[1].CallID != "c0" ||
		!strings.HasPrefix(p.Turns[1].Text, "ID-000") || len([]rune(p.Turns[1].Text)) > previewChars+1 {
		t.Errorf("preview turns = %+v", p.Turns[:2])
	}
	if len(p.Facts) != 1 || len(p.Pinned) != 1 {
		t.Errorf("pins missing from the preview: %+v", p)
	}
}

func TestBuilder_LayersAfterCompression(t *testing.T) {
	turns := conversation(4, 40)
	b := NewBuilder(10000)
	first := b.Build(Input{System: "s", Anchor: "Task: x", Turns: turns})
	if !first.Rebuilt || first.Header != 2 {
		t.Fatalf("first build: rebuilt %v header %d", first.Rebuilt, first.Header)
	}
	if next := b.Build(Input{System: "s", Anchor: "Task: x", Turns: turns}); next.Rebuilt {
		t.Fatal("an unchanged request was rebuilt")
	}
	st := State{Summary: "did things", Folded: 4, Memory: "- [fact] the port is 5433"}
	got := b.Build(Input{System: "s", Anchor: "Task: x", Summary: st.SummaryText(), Memory: st.Memory, Turns: turns[4:], Folded: 4})
	if !got.Rebuilt || got.Header != 4 || len(got.Messages) != 8 {
		t.Fatalf("after a fold: rebuilt %v header %d messages %d", got.Rebuilt, got.Header, len(got.Messages))
	}
	if !strings.Contains(got.Messages[2].Content, "did things") || got.Messages[3].Content != st.Memory || got.Messages[4].ToolCalls[0].ID != "c2" {
		t.Fatalf("layers out of order: %+v", got.Messages[:5])
	}
	if got.Layers.Summary == 0 || got.Layers.Memory == 0 || got.Tokens != got.Layers.Total() {
		t.Fatalf("summary or memory not counted: %+v", got.Layers)
	}
}

func summaryServer(t *testing.T, answer string) (*llmtest.Server, *llm.Client) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: answer})
	return srv, llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "summary-model", Stream: true,
		Backoff: func(int) time.Duration { return 0 }})
}

func TestSummarize_KeepsLostEntities(t *testing.T) {
	turns := []llm.Message{
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "fetch", Arguments: `{"url":"https://shop.test/orders"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "fetch", Content: "Order INV-2024-0042 shipped 2026-03-14 to /srv/out/labels.pdf, total $1,234.56"},
	}
	srv, client := summaryServer(t, "SUMMARY:\nFetched the orders; order INV-2024-0042 shipped.\nPROGRESS:\nDone: fetched orders\nRemaining: write the report")
	st := &State{Summary: "Started on 2026-03-01.", Entities: []string{"ACC-9981"}}
	f := Fold{From: 0, To: 2, Turns: 1, Messages: turns}
	sum, err := Summarize(t.Context(), client, "cheap-model", "Report on orders", st, Options{Window: 8000, CompressAt: 0.6}, f)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Text != "Fetched the orders; order INV-2024-0042 shipped." || sum.Progress != "Done: fetched orders\nRemaining: write the report" {
		t.Fatalf("summary parsed as %q / %q", sum.Text, sum.Progress)
	}
	want := []string{"2026-03-01", "ACC-9981", "https://shop.test/orders", "2026-03-14", "/srv/out/labels.pdf", "$1,234.56"}
	for _, e := range want {
		if !strings.Contains(strings.Join(sum.Entities, "\n"), e) {
			t.Errorf("entity %s lost: list %q", e, sum.Entities)
		}
	}
	if strings.Contains(strings.Join(sum.Entities, "\n"), "INV-2024-0042") {
		t.Error("an entity the summary kept was listed again")
	}
	for _, e := range sum.Added {
		if e == "ACC-9981" {
			t.Error("an entity already on the list was reported as added")
		}
	}
	req := srv.Requests()[0]
	if req.Model != "cheap-model" || len(req.Tools) != 0 || !strings.Contains(req.Messages[0].Content, "Copy exactly every number, date, ID, file path and URL") ||
		!strings.Contains(req.Messages[1].Content, "Report on orders") || !strings.Contains(req.Messages[1].Content, "INV-2024-0042 shipped 2026-03-14") {
		t.Errorf("summary request = %+v", req)
	}
	st.Apply(f, sum)
	if st.Folded != 2 || !strings.Contains(st.SummaryText(), "$1,234.56") {
		t.Errorf("after Apply: %+v", st)
	}
}

func TestSummarize_Failures(t *testing.T) {
	f := Fold{To: 1, Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}
	_, client := summaryServer(t, "   ")
	if _, err := Summarize(t.Context(), client, "", "task", &State{}, Options{}, f); !errors.Is(err, ErrEmptySummary) {
		t.Errorf("empty answer: %v, want ErrEmptySummary", err)
	}
	srv := llmtest.NewServer(t, llmtest.Step{Status: 400, Content: "context too long"})
	client = llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "m"})
	if _, err := Summarize(t.Context(), client, "", "task", &State{}, Options{}, f); err == nil || !strings.Contains(err.Error(), "summarise messages 0 to 0") {
		t.Errorf("refused request: %v", err)
	}
}

// A fold too large for the window is not sent to be summarised: the
// provider would refuse it after the whole of it went over the wire.
func TestSummarize_OverWindowIsNotSent(t *testing.T) {
	srv := llmtest.NewServer(t)
	client := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "m"})
	f := Fold{To: 1, Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
		{ID: "c1", Name: "write_file", Arguments: `{"content":"` + strings.Repeat("x", 100_000) + `"}`},
	}}}}
	_, err := Summarize(t.Context(), client, "", "task", &State{}, Options{Window: 8000, CompressAt: 0.6}, f)
	if !errors.Is(err, ErrOverWindow) || !strings.Contains(err.Error(), "8000") {
		t.Fatalf("err = %v, want ErrOverWindow naming the window", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the model got %d requests, want none", n)
	}
}

// BenchmarkBuild200Turns lays out a request of 200 turns anew, as after a
// compression: the turns were counted before. BenchmarkBuild200TurnsCold
// counts them too, as on resume. Appending one turn costs far less.
func BenchmarkBuild200Turns(b *testing.B) {
	turns := conversation(200, 8000) // results at the default observation limit
	st := State{Summary: strings.Repeat("summary ", 200), Facts: []string{"pinned"}, Memory: "- [fact] memory"}
	builder := NewBuilder(1 << 20)
	for b.Loop() {
		builder.Reset()
		builder.Build(Input{System: "system", Anchor: "Task: x\n" + st.PinnedText(turns), Summary: st.SummaryText(), Memory: st.Memory, Turns: turns})
	}
}

// A fold of random text keeps, beside the summary, the checksum the task
// names and values within the budget, never pieces of the base64.
func TestSummarize_RandomTextKeepsWhatTheTaskNames(t *testing.T) {
	corpus, err := os.ReadFile(filepath.Join("testdata", "tokens", "hex.txt"))
	if err != nil {
		t.Fatal(err)
	}
	b64, err := os.ReadFile(filepath.Join("testdata", "tokens", "base64.txt"))
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Fields(string(corpus))[20] // the checksum of file10.bin
	turns := []llm.Message{
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"sums.txt"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "read_file", Content: string(corpus) + string(b64)},
	}
	_, client := summaryServer(t, "SUMMARY:\nRead the checksums.\nPROGRESS:\nDone: read\nRemaining: answer")
	opt := Options{Window: 8000, CompressAt: 0.6}
	sum, err := Summarize(t.Context(), client, "", "Which file has the checksum "+named+"?", &State{}, opt, Fold{To: 2, Turns: 1, Messages: turns})
	if err != nil {
		t.Fatal(err)
	}
	// The task names the checksum, the model's arguments the path: both first.
	if len(sum.Entities) < 2 || !slices.Contains(sum.Entities[:2], named) || !slices.Contains(sum.Entities[:2], "sums.txt") {
		t.Errorf("entities = %q, want the named checksum and path first", sum.Entities)
	}
	size := 0
	for _, e := range sum.Entities {
		size += Estimate(e) + 1
		if e != named && Random(e) {
			t.Errorf("random value %q kept though nothing named it", e)
		}
		if strings.Contains(string(b64), e) && len(e) > 3 {
			t.Errorf("a piece of the base64 was kept: %q", e)
		}
	}
	if size > opt.EntityBudget() {
		t.Errorf("entities take %d tokens, over the budget %d", size, opt.EntityBudget())
	}
}

func BenchmarkBuild200TurnsCold(b *testing.B) {
	turns := conversation(200, 8000)
	for b.Loop() {
		NewBuilder(1 << 20).Build(Input{System: "system", Anchor: "Task: x", Turns: turns})
	}
}
