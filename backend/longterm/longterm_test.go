package longterm

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/store"
)

var day0 = time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)

// openTemp is the long-term memory of a real store in a temporary directory.
func openTemp(t testing.TB) *Memory {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return New(s)
}

func remember(t testing.TB, s *Memory, now time.Time, entries ...Entry) []Entry {
	t.Helper()
	got, err := s.Remember(entries, now)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRecall_RelevantAboveUnrelated(t *testing.T) {
	s := openTemp(t)
	remember(t, s, day0,
		Entry{Kind: KindOutcome, Text: "Quarterly sales report: revenue 1,204,000 in Q3, figures in reports/q3.csv", RunID: "r1"},
		Entry{Kind: KindPreference, Text: "The user wants answers as Markdown tables"},
		Entry{Kind: KindFact, Text: "The staging database runs on port 5433 with user deploy"},
		Entry{Kind: KindPath, Text: "Useful paths: notes/garden/tomatoes.md, notes/garden/watering.md"},
		Entry{Kind: KindOutcome, Text: "季度销售报告：第三季度收入 120 万元，数据在 reports/q3.csv", RunID: "r2"},
		Entry{Kind: KindFact, Text: "番茄每天早上浇水一次，夏天两次"},
		Entry{Kind: KindPreference, Text: "用户希望日期写成 YYYY-MM-DD 格式"},
		Entry{Kind: KindFact, Text: "数据库备份每周日凌晨三点运行"},
	)
	cases := []struct {
		query string
		want  string // the text the best hit must hold
	}{
		{"Summarise the sales report for Q3 revenue", "Quarterly sales report"},
		{"connect to the staging database", "staging database"},
		{"water the tomatoes in my garden notes", "tomatoes.md"},
		{"总结第三季度的销售报告", "季度销售报告"},
		{"番茄应该什么时候浇水", "番茄每天早上浇水"},
		{"检查数据库备份是否正常", "数据库备份"},
	}
	for _, c := range cases {
		all, err := s.Recall(c.query, 3)
		if err != nil {
			t.Fatal(err)
		}
		// The two preferences come first whatever the task; then the ranked.
		if len(all) < 2 || all[0].Kind != KindPreference || all[1].Kind != KindPreference {
			t.Fatalf("Recall(%q) does not open with the preferences: %v", c.query, texts(all))
		}
		hits := all[2:]
		if len(hits) == 0 || !strings.Contains(hits[0].Text, c.want) {
			t.Errorf("Recall(%q): best hit %v, want the entry holding %q", c.query, texts(hits), c.want)
			continue
		}
		for _, h := range hits[1:] {
			if h.Score > hits[0].Score {
				t.Errorf("Recall(%q) not ranked: %v", c.query, hits)
			}
		}
	}
	if hits, _ := s.Recall("completely unrelated astronomy question", 3); len(hits) != 2 {
		t.Errorf("a query that matches nothing recalled %v; want only the preferences", texts(hits))
	}
}

func texts(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%.2f %s", h.Score, h.Text)
	}
	return out
}

func TestMemory_RememberForgetPin(t *testing.T) {
	s := openTemp(t)
	first := remember(t, s, day0, Entry{Kind: KindFact, Text: "The API lives at https://api.example.test/v2"})
	if len(first) != 1 || first[0].ID == 0 || !first[0].Created.Equal(day0) {
		t.Fatalf("written = %+v", first)
	}
	if again := remember(t, s, day0, Entry{Kind: KindFact, Text: "the api lives at   HTTPS://api.example.test/v2 "}); len(again) != 0 {
		t.Fatalf("the same memory was written twice: %+v", again)
	}
	second := remember(t, s, day0, Entry{Kind: KindFact, Text: "The API key rotates every 30 days"})
	if n, _ := s.Count(); n != 2 {
		t.Fatalf("count = %d, want 2", n)
	}
	list, err := s.Memories(0)
	if err != nil || len(list) != 2 || list[0].ID != second[0].ID {
		t.Fatalf("Memories = %+v, %v; want the newest first", list, err)
	}

	if err := s.Pin(second[0].ID, true, day0); err != nil {
		t.Fatal(err)
	}
	hits, _ := s.Recall("weather tomorrow", 5)
	if len(hits) != 1 || hits[0].ID != second[0].ID {
		t.Fatalf("a pinned memory is recalled for every task; got %v", texts(hits))
	}

	if err := s.Forget(first[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(first[0].ID); !errors.Is(err, ErrNoMemory) {
		t.Fatalf("read after forget: %v, want ErrNoMemory", err)
	}
	if hits, _ := s.Recall("where does the api live", 5); len(hits) != 1 || hits[0].ID != second[0].ID {
		t.Fatalf("a forgotten memory is still found: %v", texts(hits))
	}
	if err := s.Forget(first[0].ID); !errors.Is(err, ErrNoMemory) {
		t.Fatalf("forgetting twice: %v, want ErrNoMemory", err)
	}
	// Its text can be remembered again.
	if again := remember(t, s, day0, Entry{Kind: KindFact, Text: "The API lives at https://api.example.test/v2"}); len(again) != 1 {
		t.Fatalf("a forgotten memory could not be written again")
	}
}

func TestMemory_FadeKeepsRecalledAndPinned(t *testing.T) {
	s := openTemp(t)
	got := remember(t, s, day0,
		Entry{Kind: KindFact, Text: "never recalled fact about invoices"},
		Entry{Kind: KindFact, Text: "recalled fact about invoices and taxes"},
		Entry{Kind: KindFact, Text: "pinned fact about holidays"},
	)
	never, recalled, pinned := got[0], got[1], got[2]
	if err := s.Pin(pinned.ID, true, day0); err != nil {
		t.Fatal(err)
	}
	later := day0.Add(60 * 24 * time.Hour)
	if err := s.MarkRecalled([]Hit{{Entry: recalled, Why: Why{Reason: ReasonMatch}}}, "r2", later); err != nil {
		t.Fatal(err)
	}
	n, err := s.Fade(day0.Add(30 * 24 * time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("Fade = %d, %v; want 1", n, err)
	}
	if _, err := s.Get(never.ID); !errors.Is(err, ErrNoMemory) {
		t.Errorf("the never-recalled entry did not fade: %v", err)
	}
	e, err := s.Get(recalled.ID)
	if err != nil || e.Recalls != 1 || !e.Recalled.Equal(later) {
		t.Errorf("recalled entry = %+v, %v", e, err)
	}
	if _, err := s.Get(pinned.ID); err != nil {
		t.Errorf("the pinned entry faded: %v", err)
	}
	if hits, _ := s.Recall("invoices and taxes", 5); len(hits) != 2 {
		t.Errorf("after fading, recall of invoices and taxes = %v; want the recalled one and the pinned one", texts(hits))
	}
	// Much later everything unpinned has faded.
	if n, _ := s.Fade(later.Add(time.Hour)); n != 1 {
		t.Errorf("second fade removed %d, want 1", n)
	}
	if c, _ := s.Count(); c != 1 {
		t.Errorf("%d entries left, want the pinned one", c)
	}
}

func TestNotePreference_RecursAcrossRuns(t *testing.T) {
	s := openTemp(t)
	steps := []struct {
		text, run string
		want      bool
	}{
		{"Write dates as YYYY-MM-DD.", "run-1", false},
		{"write dates as yyyy-mm-dd", "run-1", false}, // the same run again is no recurrence
		{"Write dates as YYYY-MM-DD", "run-2", true},
		{"Write dates as YYYY-MM-DD", "run-3", false}, // promoted once; noting starts again
	}
	for i, st := range steps {
		got, err := s.NotePreference(st.text, st.run, day0)
		if err != nil || got != st.want {
			t.Fatalf("step %d: NotePreference(%q, %s) = %v, %v; want %v", i, st.text, st.run, got, err, st.want)
		}
	}
	// A remark made once fades like an unrecalled memory.
	if _, err := s.NotePreference("Use tabs", "run-1", day0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fade(day0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.NotePreference("Use tabs", "run-2", day0.Add(2*time.Hour)); got {
		t.Error("a remark that faded still counted as recurring")
	}
}

// BenchmarkOpenWithMemories opens a home whose memory holds 100,000 entries
// (the target is under 100 ms), and recalls from it.
func BenchmarkOpenWithMemories(b *testing.B) {
	path := filepath.Join(b.TempDir(), "hermes.db")
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	s := New(db)
	words := []string{"invoice", "garden", "report", "database", "deploy", "tomato", "budget", "meeting", "travel", "recipe",
		"销售", "报告", "数据库", "番茄", "预算", "会议"}
	const total, batch = 100_000, 5000
	for n := 0; n < total; n += batch {
		entries := make([]Entry, batch)
		for i := range entries {
			k := n + i
			entries[i] = Entry{Kind: KindFact, Text: fmt.Sprintf("Entry %d about %s and %s: value %d at path notes/%d.md",
				k, words[k%len(words)], words[(k/7)%len(words)], k*13, k)}
		}
		remember(b, s, day0, entries...)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	var open, recall time.Duration
	for b.Loop() {
		start := time.Now()
		db, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s := New(db)
		if n, _ := s.Count(); n != total {
			b.Fatalf("%d entries, want %d", n, total)
		}
		open += time.Since(start)
		start = time.Now()
		if hits, err := s.Recall("budget meeting report 预算会议", 8); err != nil || len(hits) != 8 {
			b.Fatalf("recall: %d hits, %v", len(hits), err)
		}
		recall += time.Since(start)
		db.Close()
	}
	b.ReportMetric(float64(open.Microseconds())/float64(b.N)/1000, "ms/open")
	b.ReportMetric(float64(recall.Microseconds())/float64(b.N)/1000, "ms/recall")
}

// A namespace recalls and notes only its own: the same text may be kept in
// two, a preference recurs only within one, and pinned entries and
// preferences of another namespace are not listed.
func TestSpace_KeepsNamespacesApart(t *testing.T) {
	s := openTemp(t)
	alice, bob := s.In("bot/wecom/alice/0"), s.In("bot/wecom/bob/0")
	fact := Entry{Kind: KindFact, Text: "The harbour code of Zorgland is ZX-4471"}
	for _, sp := range []Space{alice, bob} {
		got, err := sp.Remember([]Entry{fact, {Kind: KindPreference, Text: "Answer in French"}}, day0)
		if err != nil || len(got) != 2 {
			t.Fatalf("remember in a namespace: %v, %v", got, err)
		}
	}
	desktop := remember(t, s, day0, Entry{Kind: KindFact, Text: "Zorgland harbour visits need a permit"})
	if err := s.Pin(desktop[0].ID, true, day0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sp   Space
		want string
	}{{alice, "bot/wecom/alice/0"}, {bob, "bot/wecom/bob/0"}, {s.In(""), ""}} {
		hits, err := c.sp.Recall("harbour code of Zorgland", 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("namespace %q recalled nothing", c.want)
		}
		for _, h := range hits {
			if h.Namespace != c.want {
				t.Errorf("namespace %q recalled %q of namespace %q", c.want, h.Text, h.Namespace)
			}
		}
	}
	if again, _ := alice.Remember([]Entry{fact}, day0); len(again) != 0 {
		t.Errorf("the same text was kept twice in one namespace: %v", again)
	}

	for _, step := range []struct {
		sp        Space
		run       string
		recurring bool
	}{{alice, "r1", false}, {bob, "r2", false}, {alice, "r3", true}} {
		got, err := step.sp.NotePreference("Keep answers short", step.run, day0)
		if err != nil || got != step.recurring {
			t.Fatalf("%s in %q: recurring %v, %v; want %v", step.run, step.sp.namespace, got, err, step.recurring)
		}
	}
}

func TestSpace_ScrubbedWritesNoSecret(t *testing.T) {
	s := openTemp(t)
	scrub := func(text string) string { return strings.ReplaceAll(text, "sk-secret-key", "[REDACTED]") }
	sp := s.In("bot/wecom/alice/1").Scrubbed(scrub)
	now := time.Now()
	written, err := sp.Remember([]Entry{{Kind: KindFact, Text: "the key is sk-secret-key"}}, now)
	if err != nil || len(written) != 1 || written[0].Text != "the key is [REDACTED]" {
		t.Fatalf("Remember = %+v, %v", written, err)
	}
	for _, run := range []string{"r1", "r2"} {
		if _, err := sp.NotePreference("always use sk-secret-key", run, now); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := s.Memories(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Text, "sk-secret-key") {
			t.Fatalf("memory holds the secret: %+v", e)
		}
	}
}
